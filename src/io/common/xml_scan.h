/*-------------------------------------------------------------------------
 *
 * xml_scan.h
 *		A scanner for the flat XML documents object stores answer with
 *		(S3's ListBucketResult, Azure's EnumerationResults, error bodies):
 *		elements and their text, entities decoded, nothing else of XML.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_XML_SCAN_H
#define PQ_IO_XML_SCAN_H

#include "lib/stringinfo.h"

/* Deepest element the scanner follows. */
#define PQ_XML_MAX_DEPTH 16

typedef enum PqXmlToken
{
	PQ_XML_END,					/* the document is over */
	PQ_XML_OPEN,				/* <name ...> (name in tag) */
	PQ_XML_CLOSE,				/* </name> or the end of <name/> */
	PQ_XML_TEXT,				/* text between tags, decoded, in text */
	PQ_XML_BAD					/* malformed: why in error */
} PqXmlToken;

typedef struct PqXmlScanner
{
	const char *p;
	const char *end;
	int			depth;
	char		stack[PQ_XML_MAX_DEPTH][64];	/* open element names */
	bool		pending_close;	/* <name/> gives OPEN then CLOSE */
	char		tag[64];
	StringInfoData text;
	size_t		max_text;		/* longer text is malformed */
	const char *error;
} PqXmlScanner;

extern void pq_xml_scan_init(PqXmlScanner *s, const char *body, size_t len,
							 size_t max_text);

/*
 * The next token.  Declarations, comments and processing instructions are
 * passed over; text is decoded (the five entities, &#N; and &#xH; as UTF-8)
 * and may hold any character but NUL.  Open and close tags must match.
 */
extern PqXmlToken pq_xml_scan_next(PqXmlScanner *s);

/* The element names from the root to the current one, joined by "/". */
extern char *pq_xml_scan_path(const PqXmlScanner *s);

#endif							/* PQ_IO_XML_SCAN_H */
