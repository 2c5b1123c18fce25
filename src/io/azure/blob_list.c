/*-------------------------------------------------------------------------
 *
 * blob_list.c
 *		Parsing List Blobs answers:
 *		EnumerationResults/Blobs/Blob/{Name, Properties/{Content-Length,
 *		Etag}}, EnumerationResults/Blobs/BlobPrefix/Name and
 *		EnumerationResults/NextMarker.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/azure/blob_list.h"
#include "io/common/url.h"
#include "io/common/xml_scan.h"

#define MAX_TEXT (PQ_URL_MAX_KEY * 6)

bool
pq_blob_parse_list(const char *body, size_t len, PqListPage *out,
				   const char **why)
{
	PqXmlScanner s;
	PqXmlToken	t;
	bool		seen_root = false;
	char	   *name = NULL;
	char	   *etag = NULL;
	int64		size = -1;
	char	   *text = NULL;

	pq_list_page_init(out);
	pq_xml_scan_init(&s, body, len, MAX_TEXT);
	while ((t = pq_xml_scan_next(&s)) != PQ_XML_END)
	{
		if (t == PQ_XML_BAD)
		{
			*why = s.error;
			return false;
		}
		if (t == PQ_XML_OPEN)
		{
			if (s.depth == 1)
			{
				if (strcmp(s.tag, "EnumerationResults") != 0)
				{
					*why = "the root element is not EnumerationResults";
					return false;
				}
				seen_root = true;
			}
			else if (s.depth == 3 && (strcmp(s.tag, "Blob") == 0 ||
									  strcmp(s.tag, "BlobPrefix") == 0))
			{
				name = etag = NULL;
				size = -1;
			}
			text = NULL;

			continue;
		}
		if (t == PQ_XML_TEXT)
		{
			text = pstrdup(s.text.data);

			continue;
		}
		/* closing tags; s.depth is the parent's depth */
		if (s.depth == 3 && strcmp(s.tag, "Name") == 0)
			name = text ? text : "";

		else if (s.depth == 4 && strcmp(s.stack[3], "Properties") == 0)
		{
			if (strcmp(s.tag, "Content-Length") == 0 &&
				(text == NULL || !pq_list_parse_count(text, &size)))
			{
				*why = "a blob's Content-Length is not a count";
				return false;
			}
			if (strcmp(s.tag, "Etag") == 0 && text)
				etag = text[0] == '"' ? text : psprintf("\"%s\"", text);
		}
		else if (s.depth == 2 && strcmp(s.tag, "Blob") == 0)
		{
			if (name == NULL || size < 0)
			{
				*why = "a blob has no Name or no Content-Length";
				return false;
			}
			if (!pq_list_page_add_object(out, name, size, etag, why))
				return false;
		}
		else if (s.depth == 2 && strcmp(s.tag, "BlobPrefix") == 0)
		{
			if (!pq_list_page_add_prefix(out, name ? name : "", why))
				return false;
		}
		else if (s.depth == 1 && strcmp(s.tag, "NextMarker") == 0 && text &&
				 text[0])
		{
			out->truncated = true;
			out->next_token = text;
		}
		text = NULL;
	}
	if (!seen_root)
	{
		*why = "there is no EnumerationResults";
		return false;
	}
	return true;
}
