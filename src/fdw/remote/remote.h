/*-------------------------------------------------------------------------
 *
 * remote.h
 *		Files behind URLs for the fdw: how a foreign server and a role's
 *		user mapping reach a store (remote_config.c), what objects a
 *		statement has seen (remote_objects.c), and sources reading them
 *		(remote_source.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_REMOTE_H
#define PQFDW_REMOTE_H

#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "io/aws/s3_list.h"
#include "io/store/store.h"
#include "lib/stringinfo.h"
#include "nodes/parsenodes.h"

/* Whose settings reach a URL: a foreign server, as a role. */
typedef struct PqfdwRemoteId
{
	Oid			serverid;		/* InvalidOid: none (the server process's own
								 * credentials, for the roles allowed them) */
	Oid			userid;			/* whose user mapping */
} PqfdwRemoteId;

/*
 * remote_options.c: the options of servers and user mappings that reach
 * stores.  pqfdw_remote_option() is whether name is one in catalog's
 * context; pqfdw_remote_check_option() validates def's value (an ERROR
 * naming the option, never a secret's value).
 */
extern bool pqfdw_remote_option(const char *name, Oid catalog);
extern void pqfdw_remote_option_names(Oid catalog, StringInfo buf);
extern void pqfdw_remote_check_option(DefElem *def, Oid catalog);
extern void pqfdw_remote_check_options(List *options, Oid catalog);

/* parquet_fdw.object_store_role: may use the server's credential chain */
extern char *pqfdw_object_store_role;

/*
 * remote_config.c: the store settings for id: the server's options with
 * the credentials of the role's user mapping (or PUBLIC's); with neither
 * key nor token, the server's credential chain when the server's
 * use_credential_chain is on, else anonymous requests.  ERROR when the
 * role has no user mapping or may not use the chain.  Cached per backend
 * until the server or a user mapping changes; the result lives as long.
 */
extern const PqStoreConfig *pqfdw_remote_config(const PqfdwRemoteId *id);

/*
 * remote_chain.c: the server process's own credentials into c (ERROR when
 * it has none): profile's from the shared files, else the whole chain;
 * returns when they expire (Unix seconds; 0: never).
 */
extern int64 pqfdw_remote_chain_credentials(PqStoreConfig *c,
											const char *profile);

/*
 * The S3 endpoint the server process's environment names
 * (AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL), path style; unchanged
 * without one.
 */
extern void pqfdw_remote_chain_endpoint(PqStoreConfig *c);

/* The server's listing_cache_ttl in milliseconds (0: every statement). */
extern int	pqfdw_remote_listing_ttl(const PqfdwRemoteId *id);

/*
 * remote_objects.c: size and ETag of url as this statement (or a listing
 * younger than listing_cache_ttl) saw it, else from a HEAD; an ERROR
 * (58P01) when there is no such object.  *etag NULL: the store sent none.
 */
extern void pqfdw_remote_stat(const PqfdwRemoteId *id, const char *url,
							  int64 *size, char **etag);

/*
 * Tails of many objects at once: for each url (as pqfdw_remote_stat found
 * it), its first four bytes and last 64 kB are fetched, all objects'
 * requests in flight together, and kept for the statement until a source
 * over the object takes them (pqfdw_remote_source_open): opening a dataset
 * of many objects then costs one round trip per batch, not per object.
 */
extern void pqfdw_remote_fetch_tails(const PqfdwRemoteId *id, const char **urls,
									 int n);

/*
 * The fetched tail of url at this size and ETag into head (4 bytes) and a
 * copy in the current memory context; false when there is none.
 */
extern bool pqfdw_remote_take_tail(const PqfdwRemoteId *id, const char *url,
								   int64 size, const char *etag, uint8 *head,
								   uint8 **tail, int64 *tail_start);

/* Bytes of an object's end read with its first four. */
#define PQFDW_TAIL_PREFETCH (64 * 1024)

/*
 * The whole object at url (at most max bytes, else an ERROR), NUL-ended;
 * NULL when missing_ok and there is none: key material beside objects.
 */
extern char *pqfdw_remote_read_object(const PqfdwRemoteId *id, const char *url,
									  int64 max, bool missing_ok);

/*
 * The objects below url (a prefix), all pages, remembered for
 * pqfdw_remote_stat.  With delimiter, the common prefixes instead of what
 * lies below them.  Keys are whole URLs of the same scheme and bucket;
 * out points into memory kept until the next call.
 */
extern void pqfdw_remote_list(const PqfdwRemoteId *id, const char *url,
							  const char *delimiter, PqListing *out);

/*
 * What this backend has seen of objects and listings is not to be used
 * again after a later statement: it has just written objects.
 */
extern void pqfdw_remote_objects_forget(void);

/*
 * remote_upload.c: an object written at url as id's role, through the
 * upload's sink (format/write/file_writer.h), in parts of part_size bytes
 * (at least the store's smallest), at most parts_in_flight being sent
 * while the next is filled.  Nothing is visible until
 * pqfdw_upload_finish(); pqfdw_upload_abort() (never an ERROR) drops what
 * was sent, as do an ERROR that deletes the current memory context and
 * the backend's exit.
 */
typedef struct PqfdwUpload PqfdwUpload;

extern PqfdwUpload *pqfdw_upload_begin(const PqfdwRemoteId *id,
									   const char *url, int64 part_size,
									   int parts_in_flight);
extern PqSink *pqfdw_upload_sink(PqfdwUpload *u);
extern void pqfdw_upload_finish(PqfdwUpload *u);
extern void pqfdw_upload_abort(PqfdwUpload *u);

/*
 * Instead of finishing: _close sends what is left as a part, in the
 * background, leaving the object invisible; _held is what its buffers
 * take until _settle frees them (when its parts are sent; with wait,
 * waiting for them), leaving only what completing it needs; it returns
 * whether it did.  _complete_many then makes many closed objects appear,
 * their completions in flight together (a tree of files appears within
 * moments, and an ERROR before leaves none).
 */
extern void pqfdw_upload_close(PqfdwUpload *u);
extern size_t pqfdw_upload_held(PqfdwUpload *u);
extern bool pqfdw_upload_settle(PqfdwUpload *u, bool wait);
extern void pqfdw_upload_complete_many(PqfdwUpload **us, int n);

/*
 * The multipart uploads in progress below url (a prefix; keys relative to
 * its bucket), and aborting one of them (url: its object).
 */
extern void pqfdw_remote_list_uploads(const PqfdwRemoteId *id, const char *url,
									  PqS3UploadPage *out);
extern void pqfdw_remote_abort_upload(const PqfdwRemoteId *id, const char *url,
									  const char *upload_id);

/* A whole object in one request (key material files). */
extern void pqfdw_remote_put(const PqfdwRemoteId *id, const char *url,
							 const void *data, size_t len);

/* Delete objects of one bucket, all in flight together. */
extern void pqfdw_remote_delete(const PqfdwRemoteId *id,
								const char *const *urls, int n);

/* The URL of key in u's bucket (u's scheme, bucket and account). */
extern char *pqfdw_remote_key_url(const PqUrl *u, const char *key);

/*
 * remote_source.c: a source over url as pqfdw_remote_stat found it.  Every
 * ranged read carries If-Match with etag, so an object replaced while it
 * is read is an ERROR, never a mix of two versions.
 */
extern PqSource *pqfdw_remote_source_open(const PqfdwRemoteId *id,
										  const char *url, int64 size,
										  const char *etag);

/* Free what the source keeps (prefetched bytes, the tail); reads go on. */
extern void pqfdw_remote_source_release(PqSource *src);

#endif							/* PQFDW_REMOTE_H */
