/*-------------------------------------------------------------------------
 *
 * url.h
 *		Object-store and HTTP locations: parsing and checking the URLs that
 *		may stand wherever a local path is accepted.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_URL_H
#define PQ_IO_URL_H

typedef enum PqUrlScheme
{
	PQ_URL_S3,					/* s3://bucket/key */
	PQ_URL_GS,					/* gs://bucket/key (GCS's S3 XML API) */
	PQ_URL_AZ,					/* az://container/path */
	PQ_URL_ABFSS,				/* abfss://container@account.dfs.core.windows.net/path */
	PQ_URL_HTTP,				/* http://host[:port]/path[?query] */
	PQ_URL_HTTPS
} PqUrlScheme;

typedef struct PqUrl
{
	PqUrlScheme scheme;
	char	   *bucket;			/* bucket or container; NULL for HTTP */
	char	   *account;		/* abfss: the storage account; else NULL */
	char	   *host;			/* HTTP: host, "[v6]" for IPv6; else NULL */
	int			port;			/* HTTP: the port given, or 0 */
	char	   *key;			/* object key or path, without the leading "/"
								 * ("" for a whole bucket) */
	char	   *query;			/* HTTP: after "?" (may hold tokens), or NULL */
	char	   *display;		/* for messages: the URL without its query */
} PqUrl;

/* Longest key (S3's limit; Azure's is larger). */
#define PQ_URL_MAX_KEY 1024

/* Does s start with a scheme this module reads (not a local path)? */
extern bool pq_url_is_remote(const char *s);

/*
 * Parse s, which pq_url_is_remote() accepted; an ERROR (22023) says what is
 * wrong with it.  User info ("user:password@") is refused, so that no
 * secret can reach a message through a URL.
 */
extern PqUrl *pq_url_parse(const char *s);

/* The scheme as written in URLs ("s3", "https"). */
extern const char *pq_url_scheme_name(PqUrlScheme scheme);

/*
 * Does key hold a glob character ("*", "?", "[")?  The position of the
 * first one is stored in *at when not NULL.
 */
extern bool pq_url_key_has_glob(const char *key, int *at);

/* A query parameter, not percent-encoded. */
typedef struct PqQueryParam
{
	const char *name;
	const char *value;
} PqQueryParam;

/*
 * s percent-encoded as RFC 3986 (and SigV4) want it: every byte but A-Z a-z
 * 0-9 - . _ ~ (and "/" when keep_slash, for keys in paths) as %XX.
 */
extern char *pq_url_encode(const char *s, bool keep_slash);

/*
 * A query string: parameters encoded, sorted by name, then value, joined
 * by "&" ("" when n is 0).  SigV4 signs exactly this, so it is what every
 * request sends.
 */
extern char *pq_url_query_string(const PqQueryParam *params, int n);

#endif							/* PQ_IO_URL_H */
