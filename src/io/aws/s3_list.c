/*-------------------------------------------------------------------------
 *
 * s3_list.c
 *		Parsing ListObjectsV2 answers (S3, GCS's XML API, MinIO, R2) into
 *		listing pages, which check every key and bound the page.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "io/aws/s3_list.h"
#include "io/common/url.h"
#include "io/common/xml_scan.h"

/* Longest element text: an XML-escaped key of PQ_URL_MAX_KEY bytes. */
#define MAX_TEXT (PQ_URL_MAX_KEY * 6)

bool
pq_s3_parse_list(const char *body, size_t len, PqListPage *out,
				 const char **why)
{
	PqXmlScanner s;
	PqXmlToken	t;
	bool		in_contents = false;
	bool		seen_root = false;
	char	   *key = NULL;
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
				if (text == NULL || !pq_list_parse_count(text, &size))
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
			if (!pq_list_page_add_object(out, key, size, etag, why))
				return false;
		}
		else if (s.depth == 2 && strcmp(s.tag, "Prefix") == 0 &&
				 strcmp(s.stack[1], "CommonPrefixes") == 0)
		{
			if (!pq_list_page_add_prefix(out, text ? text : "", why))
				return false;
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

void
pq_s3_upload_page_init(PqS3UploadPage *p)
{
	memset(p, 0, sizeof(*p));
}

bool
pq_s3_upload_page_add(PqS3UploadPage *p, char *key, char *upload_id,
					  char *initiated, const char **why)
{
	const char *c;

	if (key == NULL || key[0] == '\0' || strlen(key) > PQ_URL_MAX_KEY)
	{
		*why = "an upload's Key is empty or too long";
		return false;
	}
	for (c = key; *c; c++)
		if ((unsigned char) *c < 0x20 || *c == 0x7f)
		{
			*why = "an upload's Key holds a control character";
			return false;
		}
	if (upload_id == NULL || upload_id[0] == '\0' || strlen(upload_id) > 1024)
	{
		*why = "an upload's UploadId is empty or too long";
		return false;
	}
	for (c = upload_id; *c; c++)
		if ((unsigned char) *c <= 0x20 || (unsigned char) *c >= 0x7f)
		{
			*why = "an upload's UploadId holds a character that is not printable ASCII";
			return false;
		}
	if (p->n >= PQ_S3_MAX_UPLOADS)
	{
		*why = "there are more multipart uploads than a listing may hold";
		return false;
	}
	if (p->n == p->cap)
	{
		p->cap = Max(16, p->cap * 2);
		p->uploads = p->uploads ?
			repalloc(p->uploads, sizeof(PqS3Upload) * p->cap) :
			palloc(sizeof(PqS3Upload) * p->cap);
	}
	p->uploads[p->n].key = key;
	p->uploads[p->n].upload_id = upload_id;
	p->uploads[p->n].initiated = initiated;
	p->n++;
	return true;
}

bool
pq_s3_parse_uploads(const char *body, size_t len, PqS3UploadPage *out,
					const char **why)
{
	PqXmlScanner s;
	PqXmlToken	t;
	bool		in_upload = false;
	bool		seen_root = false;
	char	   *key = NULL;
	char	   *id = NULL;
	char	   *initiated = NULL;
	char	   *text = NULL;

	pq_s3_upload_page_init(out);
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
				if (strcmp(s.tag, "ListMultipartUploadsResult") != 0)
				{
					*why = "the root element is not ListMultipartUploadsResult";
					return false;
				}
				seen_root = true;
			}
			else if (s.depth == 2 && strcmp(s.tag, "Upload") == 0)
			{
				in_upload = true;
				key = id = initiated = NULL;
			}
			text = NULL;

			continue;
		}
		if (t == PQ_XML_TEXT)
		{
			text = pstrdup(s.text.data);

			continue;
		}
		if (in_upload && s.depth == 2)
		{
			if (strcmp(s.tag, "Key") == 0)
				key = text ? text : "";

			else if (strcmp(s.tag, "UploadId") == 0)
				id = text;

			else if (strcmp(s.tag, "Initiated") == 0)
				initiated = text;
		}
		else if (in_upload && s.depth == 1 && strcmp(s.tag, "Upload") == 0)
		{
			in_upload = false;
			if (out->n >= PQ_LIST_MAX_PAGE)
			{
				*why = "the page holds more uploads than a page may";
				return false;
			}
			if (!pq_s3_upload_page_add(out, key, id, initiated, why))
				return false;
		}
		else if (s.depth == 1 && strcmp(s.tag, "IsTruncated") == 0)
			out->truncated = text &&strcmp(text, "true") == 0;

		else if (s.depth == 1 && strcmp(s.tag, "NextKeyMarker") == 0)
			out->next_key_marker = text;

		else if (s.depth == 1 && strcmp(s.tag, "NextUploadIdMarker") == 0)
			out->next_upload_id_marker = text;
		text = NULL;
	}
	if (!seen_root)
	{
		*why = "there is no ListMultipartUploadsResult";
		return false;
	}
	if (out->truncated &&
		(out->next_key_marker == NULL || out->next_key_marker[0] == '\0'))
	{
		*why = "a truncated page has no NextKeyMarker";
		return false;
	}
	return true;
}
