/*-------------------------------------------------------------------------
 *
 * s3_list.c
 *		Parsing ListObjectsV2 answers (S3, GCS's XML API, MinIO, R2).  The
 *		keys become paths and messages, so each is checked as a URL's key
 *		is; sizes are parsed with overflow checks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/aws/s3_list.h"
#include "io/common/url.h"
#include "io/common/xml_scan.h"

/* Longest element text: an XML-escaped key of PQ_URL_MAX_KEY bytes. */
#define MAX_TEXT (PQ_URL_MAX_KEY * 6)

static bool
valid_key(const char *k)
{
	const unsigned char *p;

	if (*k == '\0' || strlen(k) > PQ_URL_MAX_KEY)
		return false;
	for (p = (const unsigned char *) k; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

static bool
parse_size(const char *s, int64 *out)
{
	int64		v = 0;
	int			digits = 0;

	for (; *s; s++)
	{
		if (*s < '0' || *s > '9' || ++digits > 18)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return digits > 0;
}

bool
pq_s3_parse_list(const char *body, size_t len, PqS3ListPage *out,
				 const char **why)
{
	PqXmlScanner s;
	PqXmlToken	t;
	int			cap = 16;
	int			pcap = 4;
	bool		in_contents = false;
	bool		seen_root = false;
	char	   *key = NULL;
	char	   *etag = NULL;
	int64		size = -1;
	char	   *text = NULL;

	memset(out, 0, sizeof(*out));
	out->objects = palloc(sizeof(PqObjectInfo) * cap);
	out->prefixes = palloc(sizeof(char *) * pcap);
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
				if (strcmp(s.tag, "ListBucketResult") != 0)
				{
					*why = "the root element is not ListBucketResult";
					return false;
				}
				seen_root = true;
			}
			else if (s.depth == 2 && strcmp(s.tag, "Contents") == 0)
			{
				in_contents = true;
				key = etag = NULL;
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
		/* a closing tag: its element's text, if any, was the last token */
		if (in_contents && s.depth == 2)
		{
			if (strcmp(s.tag, "Key") == 0)
				key = text ? text : "";

			else if (strcmp(s.tag, "Size") == 0)
			{
				if (text == NULL || !parse_size(text, &size))
				{
					*why = "an object's Size is not a count";
					return false;
				}
			}
			else if (strcmp(s.tag, "ETag") == 0)
				etag = text;
		}
		else if (in_contents && s.depth == 1 && strcmp(s.tag, "Contents") == 0)
		{
			in_contents = false;
			if (key == NULL || size < 0)
			{
				*why = "an object has no Key or no Size";
				return false;
			}
			if (!valid_key(key))
			{
				*why = "an object's key is empty, longer than 1024 bytes or holds a control character";
				return false;
			}
			if (out->nobjects >= PQ_S3_LIST_MAX_PAGE)
			{
				*why = "the page lists more objects than a page holds";
				return false;
			}
			if (out->nobjects == cap)
			{
				cap *= 2;
				out->objects = repalloc(out->objects, sizeof(PqObjectInfo) * cap);
			}
			out->objects[out->nobjects].key = key;
			out->objects[out->nobjects].size = size;
			out->objects[out->nobjects].etag = etag;
			out->nobjects++;
		}
		else if (s.depth == 2 && strcmp(s.tag, "Prefix") == 0 &&
				 strcmp(s.stack[1], "CommonPrefixes") == 0)
		{
			if (text == NULL || !valid_key(text))
			{
				*why = "a common prefix is empty, too long or holds a control character";
				return false;
			}
			if (out->nprefixes >= PQ_S3_LIST_MAX_PAGE)
			{
				*why = "the page lists more prefixes than a page holds";
				return false;
			}
			if (out->nprefixes == pcap)
			{
				pcap *= 2;
				out->prefixes = repalloc(out->prefixes, sizeof(char *) * pcap);
			}
			out->prefixes[out->nprefixes++] = text;
		}
		else if (s.depth == 1 && strcmp(s.tag, "IsTruncated") == 0)
			out->truncated = text &&strcmp(text, "true") == 0;

		else if (s.depth == 1 && strcmp(s.tag, "NextContinuationToken") == 0)
			out->next_token = text;
		text = NULL;
	}
	if (!seen_root)
	{
		*why = "there is no ListBucketResult";
		return false;
	}
	if (out->truncated && (out->next_token == NULL || out->next_token[0] == '\0'))
	{
		*why = "a truncated page has no NextContinuationToken";
		return false;
	}
	return true;
}
