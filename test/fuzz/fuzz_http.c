/*
 * fuzz_http.c
 *		What a store answers, as the transport reads it
 *		(src/io/http/response.c): header lines up to the first empty
 *		line, then a body: an error's Code and Message, a ListObjectsV2
 *		or ListMultipartUploads page (src/io/aws/s3_list.c over
 *		xml_scan.c), a List Blobs page, and what credential
 *		sources give (src/io/aws/credential_answers.c: STS's XML, the JSON
 *		of container credentials and instance metadata over json_scan.c,
 *		an expiration time; src/io/common/ini.c: a shared credentials
 *		file).  Checks what the parsed values promise: a Content-Range's
 *		first byte before its last and before the object's size, a
 *		bounded Retry-After, printable ASCII of bounded length from the
 *		XML, credentials that can be sent, JSON members within their
 *		bounds, INI settings trimmed and named.
 */
#include "fuzz.h"

#include "io/aws/credential_answers.h"
#include "io/aws/s3_list.h"
#include "io/azure/blob_list.h"
#include "io/common/ini.h"
#include "io/common/json_scan.h"
#include "io/http/response.h"

static void
check_text(const char *s, size_t max)
{
	size_t		n;

	if (s == NULL)
		return;
	n = strlen(s);
	if (n > max)
		abort();
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			abort();
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* What a credential source's answer, or a file, may give. */
static void
credential_answers(const char *body, size_t len)
{
	PqAwsCredentials c;
	PqJsonObject o;
	PqIniFile	f;
	const char *why;
	int			line;
	int			i;
	int64		t;

	if (pq_aws_parse_sts_answer(body, len, &c, &why) &&
		(pq_aws_credentials_problem(&c) != NULL || c.session_token == NULL))
		abort();
	if (pq_aws_parse_json_answer(body, len, &c, &why) &&
		pq_aws_credentials_problem(&c) != NULL)
		abort();
	if (pq_json_parse_object(body, len, 64, &o, &why))
	{
		if (o.nmembers > PQ_JSON_MAX_MEMBERS)
			abort();
		for (i = 0; i < o.nmembers; i++)
			if (strlen(o.members[i].name) > 64 ||
				(o.members[i].value && strlen(o.members[i].value) > 64) ||
				(o.members[i].value != NULL) !=
				(o.members[i].kind == PQ_JSON_STRING || o.members[i].kind == PQ_JSON_NUMBER))
				abort();
	}
	if (pq_ini_parse(body, len, &f, &why, &line))
	{
		for (i = 0; i < f.nentries; i++)
		{
			const char *k = f.entries[i].key;
			const char *v = f.entries[i].value;
			size_t		kl = strlen(k);
			size_t		vl = strlen(v);

			if (kl == 0 || blank(k[0]) || blank(k[kl - 1]) ||
				(vl > 0 && (blank(v[0]) || blank(v[vl - 1]))) ||
				vl > PQ_INI_MAX_LINE || f.entries[i].line < 1 ||
				!f.entries[i].section[0])
				abort();
		}
	}
	if (len < 64)
	{
		char	   *s = pnstrdup(body, len);

		/* from 1970 less a day's offset to the end of year 9999 */
		if (pq_aws_parse_time(s, &t, &why) &&
			(t < -86400 || t >= INT64CONST(253402300800)))
			abort();
	}
}

static void
one(const uint8 *data, size_t size)
{
	const char *p = (const char *) data;
	const char *end = p + size;
	PqResponseHeaders h;

	pq_response_headers_init(&h);
	while (p < end)
	{
		const char *nl = memchr(p, '\n', end - p);
		size_t		len = nl ? (size_t) (nl + 1 - p) : (size_t) (end - p);
		char	   *line = (char *) ut_exact_copy(p, len);

		p += len;
		if (len <= 2 && (line[0] == '\n' || line[0] == '\r'))
			break;
		pq_response_header_line(&h, line, len);
	}
	if (h.range_last >= 0 && h.range_first > h.range_last)
		abort();
	if (h.object_size >= 0 && h.object_size <= h.range_last)
		abort();
	if (h.retry_after_s > 3600 || h.content_length < -1)
		abort();
	if (strlen(h.etag) >= sizeof(h.etag))
		abort();
	{
		char	   *body = (char *) ut_exact_copy(p, end - p);

		PqListPage	page;
		PqS3UploadPage uploads;
		const char *why;
		int			i;

		credential_answers(body, end - p);
		check_text(pq_xml_element_text(body, end - p, "Code", 128), 128);
		check_text(pq_xml_element_text(body, end - p, "Message", 512), 512);
		if (pq_blob_parse_list(body, end - p, &page, &why))
		{
			for (i = 0; i < page.nobjects; i++)
				if (page.objects[i].key[0] == '\0' || page.objects[i].size < 0)
					abort();
		}
		if (pq_s3_parse_uploads(body, end - p, &uploads, &why))
		{
			/* what abort_uploads() relies on */
			if (uploads.n > PQ_LIST_MAX_PAGE ||
				(uploads.truncated && (uploads.next_key_marker == NULL ||
									   !uploads.next_key_marker[0])))
				abort();
			for (i = 0; i < uploads.n; i++)
			{
				check_text(uploads.uploads[i].upload_id, 1024);
				if (!uploads.uploads[i].key[0] || !uploads.uploads[i].upload_id[0])
					abort();
				for (const char *k = uploads.uploads[i].key; *k; k++)
					if ((unsigned char) *k < 0x20 || *k == 0x7f)
						abort();
			}
		}
		if (pq_s3_parse_list(body, end - p, &page, &why))
		{
			/* what a listing promises its callers */
			if (page.truncated && (page.next_token == NULL || !page.next_token[0]))
				abort();
			for (i = 0; i < page.nobjects; i++)
			{
				size_t		n = strlen(page.objects[i].key);

				if (n == 0 || n > 1024 || page.objects[i].size < 0)
					abort();
				for (size_t k = 0; k < n; k++)
					if ((unsigned char) page.objects[i].key[k] < 0x20)
						abort();
			}
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
