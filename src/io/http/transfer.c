/*-------------------------------------------------------------------------
 *
 * transfer.c
 *		Running HTTP requests on libcurl's multi interface.
 *
 * One multi handle per backend keeps connections alive between requests
 * and statements.  libcurl's callbacks never raise an ERROR (a longjmp
 * through libcurl would leave it inconsistent): they record what went
 * wrong and stop the transfer, and the loop here decides once the
 * transfer is out of libcurl's hands.  On an ERROR every transfer is taken
 * out of the multi handle before the error goes on.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "io/common/io_common.h"
#include "io/http/http.h"
#include "io/http/response.h"

/* The most of an error body kept for its code and message. */
#define ERROR_BODY_MAX (64 * 1024)

typedef enum TransferState
{
	T_PENDING,					/* not started, or waiting to retry */
	T_ACTIVE,					/* in the multi handle */
	T_ENDED,					/* out of it, finished; settled by the next
								 * pump */
	T_DONE
} TransferState;

typedef struct Transfer
{
	PqHttpRequest *r;
	TransferState state;
	CURL	   *easy;
	struct curl_slist *hdrs;
	int64		not_before_ms;	/* a retry waits until then */

	/* this attempt, filled by libcurl's callbacks (malloc, never palloc) */
	PqResponseHeaders rh;
	long		status;
	int64		received;		/* body bytes seen */
	int64		kept;			/* of them, bytes stored */
	bool		whole_range;	/* a 200 to a range request held the range */
	bool		too_large;		/* more body than allowed */
	bool		blocked;		/* the address was refused */
	char		blocked_ip[64];
	char	   *buf;			/* body when r->dest is NULL */
	size_t		buf_len;
	size_t		buf_cap;
	char		errbuf[CURL_ERROR_SIZE];
	CURLcode	result;
	char	   *last_problem;	/* palloc'd: why the last attempt failed */

	/*
	 * A HEAD's error has no body to show the store's reason: the request goes
	 * again at once as a GET of one byte, whose error has.
	 */
	long		head_status;	/* the HEAD's status; 0: not asked again */
	bool		at_once;		/* the next attempt needs no backoff */
	uint8		reason_byte[1];
	struct PqHttpBatch *batch;	/* the batch it belongs to */
} Transfer;

static CURLM *multi = NULL;

/* Jitter source: xorshift64, seeded per backend so that workers differ. */
static uint64 jitter_state = 0;

static uint64
jitter_next(void)
{
	if (jitter_state == 0)
		jitter_state = ((uint64) getpid() << 32) ^ (uint64) time(NULL) ^ 0x9E3779B97F4A7C15;
	jitter_state ^= jitter_state << 13;
	jitter_state ^= jitter_state >> 7;
	jitter_state ^= jitter_state << 17;
	return jitter_state;
}

void
pq_http_config_defaults(PqHttpConfig *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->connect_timeout_ms = 10000;
	cfg->idle_timeout_ms = 30000;
	cfg->max_retries = 5;
	cfg->max_in_flight = 8;
	cfg->retry_base_ms = 100;
	cfg->retry_max_ms = 20000;
}

void
pq_http_request_init(PqHttpRequest *r, const char *method, const char *url,
					 const char *display, size_t max_body)
{
	memset(r, 0, sizeof(*r));
	r->method = method;
	r->verb = "read";
	r->url = url;
	r->display = display;
	r->range_start = -1;
	r->range_len = 0;
	r->max_body = max_body;
	r->content_length = -1;
	r->object_size = -1;
	initStringInfo(&r->body);
}

static int64
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64) tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static CURLM *
get_multi(void)
{
	if (multi == NULL)
	{
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK ||
			(multi = curl_multi_init()) == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("could not initialize libcurl")));
		/* idle connections kept for the next statement */
		curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 32L);
	}
	return multi;
}

static size_t
on_header(char *line, size_t size, size_t n, void *arg)
{
	Transfer   *t = arg;

	/* a new response (after "100 Continue"): forget the previous one's */
	if (n >= 5 && memcmp(line, "HTTP/", 5) == 0)
		pq_response_headers_init(&t->rh);
	else
		pq_response_header_line(&t->rh, line, n);
	return n;
}

static size_t
on_body(char *data, size_t size, size_t n, void *arg)
{
	Transfer   *t = arg;
	PqHttpRequest *r = t->r;
	int64		off = t->received;

	if (t->status == 0)
		curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->status);
	t->received += n;

	if (r->dest && (t->status == 206 || t->status == 200))
	{
		/* a 200 carries the whole object: keep the bytes of the range */
		int64		base = t->status == 200 ? r->range_start : 0;
		int64		from = Max(off, base);
		int64		to = Min(off + (int64) n, base + r->range_len);

		if (t->status == 206 && off + (int64) n > r->range_len)
		{
			t->too_large = true;
			return 0;
		}
		if (to > from)
		{
			memcpy(r->dest + (from - base), data + (from - off), to - from);
			t->kept += to - from;
		}
		if (t->status == 200 && t->kept == r->range_len)
		{
			t->whole_range = true;
			return 0;			/* the rest of the object is not needed */
		}
		return n;
	}

	/* listings, HEAD, error bodies: bounded, in malloc'd memory */
	if (t->buf_len + n > (t->status >= 300 ? ERROR_BODY_MAX : r->max_body))
	{
		if (t->status >= 300)
			return n;			/* the start of an error body is enough */
		t->too_large = true;
		return 0;
	}
	if (t->buf_len + n > t->buf_cap)
	{
		size_t		cap = Max(t->buf_cap * 2, t->buf_len + n + 1024);
		char	   *nb = realloc(t->buf, cap);

		if (nb == NULL)
			return 0;
		t->buf = nb;
		t->buf_cap = cap;
	}
	memcpy(t->buf + t->buf_len, data, n);
	t->buf_len += n;
	return n;
}

/*
 * Is the address link-local (169.254/16, fe80::/10, or 169.254/16 mapped
 * into IPv6)?  Cloud instance metadata lives there.
 */
static bool
link_local(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
	{
		const struct sockaddr_in *in = (const struct sockaddr_in *) sa;

		return (ntohl(in->sin_addr.s_addr) & 0xFFFF0000) == 0xA9FE0000;
	}
	if (sa->sa_family == AF_INET6)
	{
		const uint8 *b = ((const struct sockaddr_in6 *) sa)->sin6_addr.s6_addr;
		static const uint8 mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

		if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
			return true;
		return memcmp(b, mapped, 12) == 0 && b[12] == 169 && b[13] == 254;
	}
	return false;
}

/*
 * Every socket libcurl opens comes through here, with the address name
 * resolution gave: a link-local one is refused before any packet is sent,
 * unless allowed.
 */
static curl_socket_t
open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	Transfer   *t = arg;

	if (link_local(&a->addr))
	{
		t->blocked = true;
		if (a->family == AF_INET)
			inet_ntop(AF_INET, &((struct sockaddr_in *) &a->addr)->sin_addr,
					  t->blocked_ip, sizeof(t->blocked_ip));
		else
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *) &a->addr)->sin6_addr,
					  t->blocked_ip, sizeof(t->blocked_ip));
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype, a->protocol);
}

static void
reset_attempt(Transfer *t)
{
	pq_response_headers_init(&t->rh);
	t->status = 0;
	t->received = 0;
	t->kept = 0;
	t->whole_range = false;
	t->too_large = false;
	t->blocked = false;
	t->buf_len = 0;
	t->errbuf[0] = '\0';
	t->result = CURLE_OK;
}

/*
 * Set t's easy handle up for its request as prepared: headers, method,
 * body, range, limits.  Never an ERROR: false when libcurl has no memory
 * or a header holds a line break (which would add headers of its own).
 */
static bool
configure(Transfer *t, const PqHttpConfig *cfg)
{
	PqHttpRequest *r = t->r;
	int			i;

	if (t->easy == NULL && (t->easy = curl_easy_init()) == NULL)
		return false;
	curl_easy_reset(t->easy);
	curl_slist_free_all(t->hdrs);
	t->hdrs = NULL;
	for (i = 0; i < r->nheaders; i++)
	{
		if (strpbrk(r->headers[i], "\r\n") != NULL)
			return false;
		t->hdrs = curl_slist_append(t->hdrs, r->headers[i]);
	}
	if (r->if_match)
	{
		char	   *h = psprintf("If-Match: %s", r->if_match);

		t->hdrs = curl_slist_append(t->hdrs, h);
		pfree(h);
	}
	/* no default Accept header, no compression: the bytes as stored */
	t->hdrs = curl_slist_append(t->hdrs, "Accept:");
	curl_easy_setopt(t->easy, CURLOPT_URL, r->url);
	curl_easy_setopt(t->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(t->easy, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(t->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(t->easy, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(t->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(t->easy, CURLOPT_HEADERDATA, t);
	curl_easy_setopt(t->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(t->easy, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(t->easy, CURLOPT_CONNECTTIMEOUT_MS, (long) cfg->connect_timeout_ms);

	/*
	 * HTTP/2 where a server offers it over TLS, requests of a scan then
	 * multiplexed on one connection rather than waiting for new ones.
	 */
	curl_easy_setopt(t->easy, CURLOPT_HTTP_VERSION, (long) CURL_HTTP_VERSION_2TLS);
	curl_easy_setopt(t->easy, CURLOPT_PIPEWAIT, 1L);
	/* no byte for idle_timeout_ms: less than 1 byte/s over that time */
	curl_easy_setopt(t->easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(t->easy, CURLOPT_LOW_SPEED_TIME,
					 (long) Max(1, cfg->idle_timeout_ms / 1000));
	curl_easy_setopt(t->easy, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(t->easy, CURLOPT_SSL_VERIFYHOST, 2L);
	if (cfg->ca_file)
		curl_easy_setopt(t->easy, CURLOPT_CAINFO, cfg->ca_file);
	if (!cfg->allow_link_local)
	{
		curl_easy_setopt(t->easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
		curl_easy_setopt(t->easy, CURLOPT_OPENSOCKETDATA, t);
	}
	if (strcmp(r->method, "HEAD") == 0)
		curl_easy_setopt(t->easy, CURLOPT_NOBODY, 1L);
	else if (strcmp(r->method, "GET") != 0)
	{
		/*
		 * libcurl sends the bytes where they are, under the method named;
		 * without waiting for "100 Continue", which not every store sends
		 */
		t->hdrs = curl_slist_append(t->hdrs, "Expect:");
		curl_easy_setopt(t->easy, CURLOPT_CUSTOMREQUEST, r->method);
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDSIZE_LARGE,
						 (curl_off_t) r->send_len);
		curl_easy_setopt(t->easy, CURLOPT_POSTFIELDS,
						 r->send_body ? r->send_body : "");
	}
	curl_easy_setopt(t->easy, CURLOPT_HTTPHEADER, t->hdrs);
	if (r->range_start >= 0)
	{
		char		range[64];

		Assert(r->range_len > 0);
		snprintf(range, sizeof(range), INT64_FORMAT "-" INT64_FORMAT,
				 r->range_start, r->range_start + r->range_len - 1);
		curl_easy_setopt(t->easy, CURLOPT_RANGE, range);
	}
	curl_easy_setopt(t->easy, CURLOPT_PRIVATE, t);
	return true;
}

static void
start(Transfer *t, const PqHttpConfig *cfg)
{
	PqHttpRequest *r = t->r;

	reset_attempt(t);
	if (cfg->prepare)
		cfg->prepare(cfg->prepare_arg, r);
	if (!configure(t, cfg))
	{
		if (t->easy == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("could not initialize libcurl")));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a request header for \"%s\" holds a line break",
						r->display)));
	}
	if (curl_multi_add_handle(get_multi(), t->easy) != CURLM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("could not start a request to \"%s\"", r->display)));
	r->attempts++;
	t->state = T_ACTIVE;
}

static void
stop(Transfer *t)
{
	if (t->state == T_ACTIVE)
		curl_multi_remove_handle(multi, t->easy);
	t->state = T_DONE;
}

static void
release(Transfer *t)
{
	stop(t);
	if (t->easy)
		curl_easy_cleanup(t->easy);
	t->easy = NULL;
	curl_slist_free_all(t->hdrs);
	t->hdrs = NULL;
	free(t->buf);
	t->buf = NULL;
}

static bool
status_listed(long status, const long *ok)
{
	for (; ok && *ok; ok++)
		if (*ok == status)
			return true;
	return false;
}

static bool
retryable_status(long status)
{
	return status == 408 || status == 429 || status == 500 ||
		status == 502 || status == 503 || status == 504;
}

static bool
retryable_curl(CURLcode c)
{
	switch (c)
	{
		case CURLE_OPERATION_TIMEDOUT:
		case CURLE_COULDNT_CONNECT:
		case CURLE_COULDNT_RESOLVE_HOST:
		case CURLE_RECV_ERROR:
		case CURLE_SEND_ERROR:
		case CURLE_PARTIAL_FILE:
		case CURLE_GOT_NOTHING:
		case CURLE_HTTP2:
		case CURLE_HTTP2_STREAM:
			return true;
		default:
			return false;
	}
}

/*
 * Did the last attempt reach no server, for a request that may say so
 * instead of failing?  A timeout before any response counts: a service
 * that is not there may drop packets rather than refuse them.
 */
static bool
unreachable(const Transfer *t)
{
	return t->r->unreachable_ok && t->status == 0 &&
		(t->result == CURLE_COULDNT_CONNECT ||
		 t->result == CURLE_COULDNT_RESOLVE_HOST ||
		 t->result == CURLE_OPERATION_TIMEDOUT);
}

/* The SQLSTATE of a final HTTP status. */
static int
status_sqlstate(long status)
{
	switch (status)
	{
		case 401:
		case 403:
			return ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION;
		case 404:
			return ERRCODE_UNDEFINED_FILE;
		case 412:
			return ERRCODE_FDW_INCONSISTENT_DESCRIPTOR_INFORMATION;
		default:
			return ERRCODE_IO_ERROR;
	}
}

static void fail_status(Transfer *t) pg_attribute_noreturn();

static void
fail_status(Transfer *t)
{
	PqHttpRequest *r = t->r;
	char	   *code = pq_xml_element_text(t->buf ? t->buf : "", t->buf_len,
										   "Code", 128);
	char	   *message = pq_xml_element_text(t->buf ? t->buf : "", t->buf_len,
											  "Message", 512);

	if (t->status == 412)
		ereport(ERROR,
				(errcode(status_sqlstate(t->status)),
				 errmsg("object \"%s\" changed while it was being read", r->display),
				 errdetail("Its ETag is no longer %s.", r->if_match ? r->if_match : "the one read first"),
				 errhint("Run the statement again.")));
	ereport(ERROR,
			(errcode(status_sqlstate(t->status)),
			 errmsg("could not %s \"%s\": HTTP status %ld", r->verb, r->display,
					t->status),
			 code && message ?
			 errdetail("The store answered %s: %s", code, message) :
			 code ? errdetail("The store answered %s.", code) : 0));
}

/*
 * Decide on a transfer libcurl has finished: done, retry (*retry set), or
 * an ERROR.
 */
static void
finish(Transfer *t, const long *statuses_ok, bool *retry)
{
	PqHttpRequest *r = t->r;
	bool		ranged = r->dest != NULL;

	*retry = false;
	curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->status);
	if (t->blocked)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("could not %s \"%s\": its host resolved to link-local address %s",
						r->verb, r->display, t->blocked_ip),
				 errhint("Link-local addresses (such as instance metadata) are refused unless the server's option allow_link_local is true.")));
	if (t->too_large)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("could not read \"%s\": the response is larger than the %zu bytes allowed",
						r->display, ranged ? (size_t) r->range_len : r->max_body)));
	if (t->result != CURLE_OK && !(t->whole_range && t->result == CURLE_WRITE_ERROR))
	{
		t->last_problem = psprintf("%s%s%s", curl_easy_strerror(t->result),
								   t->errbuf[0] ? ": " : "", t->errbuf);
		if (retryable_curl(t->result))
		{
			*retry = true;
			return;
		}
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("could not %s \"%s\": %s", r->verb, r->display,
						t->last_problem)));
	}
	if (retryable_status(t->status))
	{
		t->last_problem = psprintf("HTTP status %ld", t->status);
		*retry = true;
		return;
	}
	if (t->status < 200 || t->status >= 300)
	{
		if (!status_listed(t->status, statuses_ok))
		{
			if (strcmp(r->method, "HEAD") == 0 && t->status >= 400)
			{
				t->head_status = t->status;
				r->method = "GET";
				r->range_start = 0;
				r->range_len = 1;
				r->dest = t->reason_byte;
				t->at_once = true;
				*retry = true;
				return;
			}
			fail_status(t);
		}
	}
	else if (t->head_status != 0)
	{
		/* the GET went through where the HEAD did not: the HEAD's status */
		t->status = t->head_status;
		fail_status(t);
	}
	else if (ranged && !t->whole_range)
	{
		/* a 206 must hold exactly the range asked for */
		if (t->status != 206 && t->status != 200)
			fail_status(t);
		if (t->kept != r->range_len ||
			(t->status == 206 && (t->rh.range_first != r->range_start ||
								  t->rh.range_last != r->range_start + r->range_len - 1)))
		{
			t->last_problem = psprintf("got " INT64_FORMAT " of " INT64_FORMAT " bytes at offset " INT64_FORMAT " (Content-Range " INT64_FORMAT "-" INT64_FORMAT ")",
									   t->kept, r->range_len, r->range_start,
									   t->rh.range_first, t->rh.range_last);
			*retry = true;
			return;
		}
	}
	r->status = t->status;
	r->etag = t->rh.etag[0] ? pstrdup(t->rh.etag) : NULL;
	r->content_length = t->rh.content_length;
	r->object_size = t->rh.object_size;
	resetStringInfo(&r->body);
	if (!ranged && t->buf_len > 0)
		appendBinaryStringInfo(&r->body, t->buf, t->buf_len);
}

/* Exponential backoff with jitter, at least Retry-After, at most the cap. */
static int64
backoff_ms(const Transfer *t, const PqHttpConfig *cfg)
{
	int64		d = cfg->retry_base_ms;
	int			i;

	for (i = 1; i < t->r->attempts && d < cfg->retry_max_ms; i++)
		d *= 2;
	d = Min(d, (int64) cfg->retry_max_ms);
	d = d / 2 + (int64) (jitter_next() % (uint64) (d / 2 + 1));
	if (t->rh.retry_after_s >= 0)
		d = Max(d, (int64) t->rh.retry_after_s * 1000);
	return Min(d, (int64) cfg->retry_max_ms);
}

static void
check_interrupts(void)
{
	if (pq_io_check_interrupts)
		pq_io_check_interrupts();
}

/*
 * Requests in flight together: run to their end by pq_http_run(), or
 * started by pq_http_batch_start() and moved on by every later pump, so
 * that a scan's next reads arrive while it decodes.  Every batch with
 * transfers in the multi handle is on the active list, so a pump for one
 * finishes the transfers of any (an ERROR of one is the statement's).
 */
struct PqHttpBatch
{
	Transfer   *ts;
	int			n;
	int			done;
	PqHttpConfig cfg;
	const long *statuses_ok;
	MemoryContext cxt;			/* what finishing a transfer allocates */
	MemoryContextCallback on_reset; /* async batches: released with cxt */
	bool		background;		/* started by pq_http_batch_start() */
	bool		linked;
	PqHttpBatch *next;
};

static PqHttpBatch *active = NULL;

/*
 * Requests wanted now go first; background batches start theirs in the
 * order they came (a scan's current window before the one it reads ahead).
 */
static void
link_batch(PqHttpBatch *b)
{
	PqHttpBatch **p = &active;

	if (b->background)
		while (*p)
			p = &(*p)->next;
	b->next = *p;
	*p = b;
	b->linked = true;
}

/* Take b off the active list and free its transfers; no ERROR. */
static void
release_batch(PqHttpBatch *b)
{
	PqHttpBatch **p;
	int			i;

	if (!b->linked)
		return;
	for (p = &active; *p; p = &(*p)->next)
		if (*p == b)
		{
			*p = b->next;
			break;
		}
	b->linked = false;
	for (i = 0; i < b->n; i++)
		release(&b->ts[i]);
}

static void
release_batch_cb(void *arg)
{
	release_batch((PqHttpBatch *) arg);
}

/*
 * Start what may start of b: pending transfers due, up to max_in_flight.
 * A background batch counts every background request in flight, so that
 * read-ahead keeps to max_in_flight connections however many windows it
 * has started; requests wanted now count only their own.
 */
static int64
start_due(PqHttpBatch *b, int64 now, int64 wake, int *background_n)
{
	int			own = 0;
	int		   *active_n = b->background ? background_n : &own;
	int			i;

	if (!b->background)
		for (i = 0; i < b->n; i++)
			own += b->ts[i].state == T_ACTIVE;
	for (i = 0; i < b->n && *active_n < b->cfg.max_in_flight; i++)
		if (b->ts[i].state == T_PENDING)
		{
			if (b->ts[i].not_before_ms <= now)
			{
				MemoryContext old = MemoryContextSwitchTo(b->cxt);

				start(&b->ts[i], &b->cfg);
				MemoryContextSwitchTo(old);
				(*active_n)++;
			}
			else
				wake = Min(wake, b->ts[i].not_before_ms);
		}
	return wake;
}

/* A transfer libcurl has finished: done, retried later, or an ERROR. */
static void
settle(Transfer *t, PqHttpBatch *b)
{
	MemoryContext old = MemoryContextSwitchTo(b->cxt);
	bool		retry;

	t->state = T_PENDING;
	finish(t, b->statuses_ok, &retry);
	if (!retry)
	{
		t->state = T_DONE;
		b->done++;
	}
	else if (t->at_once)
	{
		t->at_once = false;
		t->not_before_ms = 0;
	}
	else if (t->r->attempts > b->cfg.max_retries && unreachable(t))
	{
		t->r->status = 0;
		t->state = T_DONE;
		b->done++;
	}
	else if (t->r->attempts > b->cfg.max_retries)
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg_plural("could not %s \"%s\" after %d attempt: %s",
							   "could not %s \"%s\" after %d attempts: %s",
							   t->r->attempts,
							   t->r->verb, t->r->display, t->r->attempts,
							   t->last_problem)));
	else
		t->not_before_ms = now_ms() + backoff_ms(t, &b->cfg);
	MemoryContextSwitchTo(old);
}

/* Take what libcurl has finished out of the multi handle; no ERROR. */
static void
collect_ended(void)
{
	CURLMsg    *msg;
	int			left;

	while ((msg = curl_multi_info_read(multi, &left)) != NULL)
	{
		Transfer   *t;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **) &t);
		t->result = msg->data.result;
		curl_multi_remove_handle(multi, t->easy);
		t->state = T_ENDED;
	}
}

/* Settle every transfer collected: done, retried later, or an ERROR. */
static void
settle_ended(void)
{
	PqHttpBatch *b;
	int			i;

	for (b = active; b; b = b->next)
		for (i = 0; i < b->n; i++)
			if (b->ts[i].state == T_ENDED)
				settle(&b->ts[i], b);
}

/*
 * Move every active batch on: start what is due, let libcurl work, settle
 * what finished.  With wait_for, then sleep (interruptibly) until there is
 * more to do, unless wait_for (its request one, when one >= 0) is done.
 */
static void
pump(PqHttpBatch *wait_for, int one)
{
	int64		now = now_ms();
	int64		wake = now + PQ_IO_POLL_MS;
	PqHttpBatch *b;
	int			running;
	int			background_n = 0;
	int			i;

	settle_ended();
	for (b = active; b; b = b->next)
		for (i = 0; i < b->n && b->background; i++)
			background_n += b->ts[i].state == T_ACTIVE;
	for (b = active; b; b = b->next)
		wake = start_due(b, now, wake, &background_n);
	if (curl_multi_perform(multi, &running) != CURLM_OK)
		ereport(ERROR,
				(errcode(ERRCODE_IO_ERROR),
				 errmsg("libcurl's request loop failed")));
	collect_ended();
	settle_ended();
	check_interrupts();
	if (wait_for && (one >= 0 ? wait_for->ts[one].state != T_DONE :
					 wait_for->done < wait_for->n))
	{
		int64		wait = Max(wake - now_ms(), 0);

		curl_multi_poll(multi, NULL, 0, (int) Min(wait, PQ_IO_POLL_MS), NULL);
	}
}

static PqHttpBatch *
new_batch(PqHttpRequest **reqs, int n, const PqHttpConfig *cfg,
		  const long *statuses_ok)
{
	PqHttpBatch *b = palloc0(sizeof(PqHttpBatch));
	int			i;

	get_multi();
	b->ts = palloc0(sizeof(Transfer) * Max(n, 1));
	b->n = n;
	b->cfg = *cfg;
	b->statuses_ok = statuses_ok;
	b->cxt = CurrentMemoryContext;
	for (i = 0; i < n; i++)
	{
		b->ts[i].r = reqs[i];
		b->ts[i].state = T_PENDING;
		b->ts[i].batch = b;
	}
	return b;
}

void
pq_http_run(PqHttpRequest **reqs, int n, const PqHttpConfig *cfg,
			const long *statuses_ok)
{
	PqHttpBatch *b = new_batch(reqs, n, cfg, statuses_ok);

	link_batch(b);
	PG_TRY();
	{
		while (b->done < b->n)
			pump(b, -1);
	}
	PG_FINALLY();
	{
		release_batch(b);
	}
	PG_END_TRY();
	pfree(b->ts);
	pfree(b);
}

PqHttpBatch *
pq_http_batch_start(PqHttpRequest **reqs, int n, const PqHttpConfig *cfg,
					const long *statuses_ok)
{
	PqHttpBatch *b = new_batch(reqs, n, cfg, statuses_ok);

	b->on_reset.func = release_batch_cb;
	b->on_reset.arg = b;
	MemoryContextRegisterResetCallback(b->cxt, &b->on_reset);
	b->background = true;
	link_batch(b);
	pump(NULL, -1);
	return b;
}

void
pq_http_run_or_start(PqHttpRequest **reqs, int n, const PqHttpConfig *cfg,
					 const long *statuses_ok, PqHttpBatch **background)
{
	if (background)
		*background = pq_http_batch_start(reqs, n, cfg, statuses_ok);
	else
		pq_http_run(reqs, n, cfg, statuses_ok);
}

bool
pq_http_batch_poll(PqHttpBatch *b)
{
	if (b->linked && b->done < b->n)
		pump(NULL, -1);
	return b->done == b->n;
}

void
pq_http_batch_wait(PqHttpBatch *b)
{
	while (b->linked && b->done < b->n)
		pump(b, -1);
	release_batch(b);
}

void
pq_http_batch_wait_one(PqHttpBatch *b, int i)
{
	Assert(i >= 0 && i < b->n);
	while (b->linked && b->ts[i].state != T_DONE)
		pump(b, i);
}

void
pq_http_batch_cancel(PqHttpBatch *b)
{
	release_batch(b);
}

long
pq_http_batch_finish_quietly(PqHttpBatch *b, long timeout_ms)
{
	Transfer   *t = &b->ts[0];
	int64		deadline = now_ms() + timeout_ms;
	long		status = 0;

	Assert(b->n == 1);
	while (b->linked && t->state == T_ACTIVE && now_ms() < deadline)
	{
		int			running;

		if (curl_multi_perform(multi, &running) != CURLM_OK)
			break;
		/* others finishing now are settled by the next pump, if any */
		collect_ended();
		if (t->state == T_ACTIVE)
			curl_multi_poll(multi, NULL, 0, PQ_IO_POLL_MS, NULL);
	}
	if (b->linked && t->state == T_DONE)
		status = t->r->status;	/* settled by a pump already */
	else if (b->linked && t->state == T_ENDED && t->result == CURLE_OK &&
			 !t->blocked && !t->too_large)
	{
		curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
		resetStringInfo(&t->r->body);
		if (t->buf_len > 0)
			appendBinaryStringInfo(&t->r->body, t->buf, t->buf_len);
	}
	release_batch(b);
	return status;
}

long
pq_http_send_quietly(PqHttpRequest *r, const PqHttpConfig *cfg,
					 long timeout_ms)
{
	Transfer	t;
	long		status = 0;

	memset(&t, 0, sizeof(t));
	t.r = r;
	reset_attempt(&t);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return 0;
	if (cfg->prepare)
		cfg->prepare(cfg->prepare_arg, r);
	if (configure(&t, cfg))
	{
		curl_easy_setopt(t.easy, CURLOPT_TIMEOUT_MS, timeout_ms);
		r->attempts++;
		if (curl_easy_perform(t.easy) == CURLE_OK && !t.blocked)
			curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
	}
	if (t.easy)
		curl_easy_cleanup(t.easy);
	curl_slist_free_all(t.hdrs);
	free(t.buf);
	r->status = status;
	return status;
}
