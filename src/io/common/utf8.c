/*-------------------------------------------------------------------------
 *
 * utf8.c
 *		Code points as UTF-8, for the JSON and XML scanners.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/common/utf8.h"

void
pq_append_utf8(StringInfo b, uint32 c)
{
	if (c < 0x80)
		appendStringInfoChar(b, (char) c);
	else if (c < 0x800)
	{
		appendStringInfoChar(b, (char) (0xC0 | (c >> 6)));
		appendStringInfoChar(b, (char) (0x80 | (c & 0x3F)));
	}
	else if (c < 0x10000)
	{
		appendStringInfoChar(b, (char) (0xE0 | (c >> 12)));
		appendStringInfoChar(b, (char) (0x80 | ((c >> 6) & 0x3F)));
		appendStringInfoChar(b, (char) (0x80 | (c & 0x3F)));
	}
	else
	{
		appendStringInfoChar(b, (char) (0xF0 | (c >> 18)));
		appendStringInfoChar(b, (char) (0x80 | ((c >> 12) & 0x3F)));
		appendStringInfoChar(b, (char) (0x80 | ((c >> 6) & 0x3F)));
		appendStringInfoChar(b, (char) (0x80 | (c & 0x3F)));
	}
}
