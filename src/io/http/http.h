/*-------------------------------------------------------------------------
 *
 * http.h
 *		HTTP requests for object stores, on libcurl's multi interface:
 *		several in flight at once, connections kept alive per backend,
 *		bounded bodies, retries with backoff, interruptible waits.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_HTTP_H
#define PQ_IO_HTTP_H

#include "lib/stringinfo.h"

typedef struct PqHttpRequest PqHttpRequest;

/* A header of a request to sign, as it is sent. */
typedef struct PqHttpHeader
{
	const char *name;
	const char *value;
} PqHttpHeader;

/* How requests are made; the defaults are pq_http_config_defaults()'s. */
typedef struct PqHttpConfig
{
	int			connect_timeout_ms; /* to connect (TCP and TLS) */
	int			idle_timeout_ms;	/* no byte received for this long */
	int			max_retries;	/* attempts after the first */
	int			max_in_flight;	/* requests at once */
	int			retry_base_ms;	/* first backoff; doubles, with jitter */
	int			retry_max_ms;	/* longest backoff (and Retry-After) */
	const char *ca_file;		/* NULL: the system's CAs */
	bool		allow_link_local;	/* 169.254/16, fe80::/10 (instance
									 * metadata) */

	/*
	 * Called before each attempt to set the request's headers (a signature
	 * has the time in it); NULL: the request's headers as they are.
	 */
	void		(*prepare) (void *arg, PqHttpRequest *r);
	void	   *prepare_arg;
} PqHttpConfig;

struct PqHttpRequest
{
	/* what to do */
	const char *method;			/* "GET", "HEAD", "PUT", "POST"... */
	const char *verb;			/* in messages, "could not <verb>": "read" */
	const char *url;			/* sent */
	const char *display;		/* in messages: no query, no secret */

	/*
	 * Sent as the body (not GET or HEAD), from memory that must outlive the
	 * request, again on each retry; with libcurl's Content-Type
	 * application/x-www-form-urlencoded unless headers name another.
	 */
	const char *send_body;
	size_t		send_len;
	int64		range_start;	/* -1: the whole object */
	int64		range_len;
	const char *if_match;		/* ETag the object must still have, or NULL */
	uint8	   *dest;			/* GET of a range: its bytes go here */
	size_t		max_body;		/* otherwise: the most bytes kept */
	char	  **headers;		/* "Name: value" lines (prepare sets them) */
	int			nheaders;
	void	   *prepare_data;	/* what prepare needs of this request */
	bool		unreachable_ok; /* no connection after the retries: status 0,
								 * not an ERROR (probing a service) */

	/* what came back */
	long		status;			/* 0: unreachable (unreachable_ok) */
	StringInfoData body;		/* when dest is NULL (and error bodies) */
	char	   *etag;
	int64		content_length; /* -1: none */
	int64		object_size;	/* from Content-Range ".../size", or -1 */
	int			attempts;
};

extern void pq_http_config_defaults(PqHttpConfig *cfg);

/*
 * Append a header value as request signatures canonicalise it (SigV4,
 * Shared Key): leading and trailing blanks dropped, inner runs made one.
 */
extern void pq_http_append_folded(StringInfo b, const char *v);

/* A request with the defaults: no range, no condition, body up to max_body. */
extern void pq_http_request_init(PqHttpRequest *r, const char *method,
								 const char *url, const char *display,
								 size_t max_body);

/*
 * Perform the n requests, at most cfg->max_in_flight at once, retrying
 * what can be retried.  Returns when all have a final answer; an answer a
 * caller can act on (2xx, 404 when it asked for it...) is left in status,
 * anything else is an ERROR naming the URL, the status and the store's
 * error code and message.  statuses_ok lists the non-2xx statuses the
 * caller handles itself (0-terminated, or NULL).
 */
extern void pq_http_run(PqHttpRequest **reqs, int n, const PqHttpConfig *cfg,
						const long *statuses_ok);

/*
 * The same requests started and left to go on in the background: every
 * later pq_http_run(), poll or wait moves them on (ERRORs as above, raised
 * by whichever call finds them).  Requests and their buffers must live as
 * long as the batch, which belongs to the current memory context (its
 * reset or deletion cancels what is still in flight).  poll: never waits,
 * true when every request has its answer; wait: until then, and frees the
 * batch's transfers; wait_one: until request i has its answer (the others
 * go on); cancel: stops them.
 */
typedef struct PqHttpBatch PqHttpBatch;

extern PqHttpBatch *pq_http_batch_start(PqHttpRequest **reqs, int n,
										const PqHttpConfig *cfg,
										const long *statuses_ok);
extern bool pq_http_batch_poll(PqHttpBatch *b);
extern void pq_http_batch_wait(PqHttpBatch *b);
extern void pq_http_batch_wait_one(PqHttpBatch *b, int i);
extern void pq_http_batch_cancel(PqHttpBatch *b);

/*
 * One attempt of r, now, bounded by timeout_ms, never an ERROR: for
 * cleaning up while an error is handled or the backend exits.  Returns the
 * HTTP status, 0 when there was no answer; the body is not kept.
 */
extern long pq_http_send_quietly(PqHttpRequest *r, const PqHttpConfig *cfg,
								 long timeout_ms);

/*
 * The one request of background batch b, if it is being sent: its answer
 * awaited for at most timeout_ms, never an ERROR (the body kept); then b
 * is freed.  Returns the HTTP status, 0 when there was none (an attempt
 * failed or waits for its retry, or time ran out): for learning, while an
 * error is handled, what a request already sent did.
 */
extern long pq_http_batch_finish_quietly(PqHttpBatch *b, long timeout_ms);

/* pq_http_batch_start() into *background, or pq_http_run() when NULL. */
extern void pq_http_run_or_start(PqHttpRequest **reqs, int n,
								 const PqHttpConfig *cfg,
								 const long *statuses_ok,
								 PqHttpBatch **background);

#endif							/* PQ_IO_HTTP_H */
