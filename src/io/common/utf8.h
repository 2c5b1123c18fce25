/*-------------------------------------------------------------------------
 *
 * utf8.h
 *		UTF-8 for the text the transport decodes (utf8.c): code points of
 *		JSON's \u escapes and XML's character references.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_IO_UTF8_H
#define PQ_IO_UTF8_H

#include "lib/stringinfo.h"

/* Append code point c (checked by the caller) to b as UTF-8. */
extern void pq_append_utf8(StringInfo b, uint32 c);

#endif							/* PQ_IO_UTF8_H */
