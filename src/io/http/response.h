/*-------------------------------------------------------------------------
 *
 * response.h
 *		Reading what a store answers: the response headers we use and the
 *		code and message of an XML error body (S3, GCS, Azure).  Pure
 *		functions over bytes from the network, bounded and fuzzed.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_RESPONSE_H
#define PQ_IO_RESPONSE_H

/* The response headers a transfer keeps. */
typedef struct PqResponseHeaders
{
	char		etag[256];		/* "" when none */
	int64		content_length; /* -1 when none */
	int64		range_first;	/* Content-Range: bytes first-last/size */
	int64		range_last;		/* -1 when none */
	int64		object_size;	/* -1 when none or "*" */
	int			retry_after_s;	/* -1 when none (or an HTTP date) */
} PqResponseHeaders;

extern void pq_response_headers_init(PqResponseHeaders *h);

/*
 * Take one header line ("Name: value\r\n", as libcurl hands them over, len
 * bytes, not terminated) into h; lines of other names, status lines and
 * malformed values are passed over.
 */
extern void pq_response_header_line(PqResponseHeaders *h, const char *line,
									size_t len);

/*
 * The text of the first <tag>...</tag> element of an XML body (len bytes),
 * with the five predefined entities and numeric references decoded and
 * anything but printable ASCII replaced by "?", at most max bytes; NULL
 * when there is none.  The stores' error bodies are flat, so this is all
 * of XML they need.
 */
extern char *pq_xml_element_text(const char *body, size_t len,
								 const char *tag, size_t max);

#endif							/* PQ_IO_RESPONSE_H */
