/*
 * fuzz_http.c
 *		What a store answers, as the transport reads it
 *		(src/io/http/response.c): header lines up to the first empty
 *		line, then an XML body: an error's Code and Message, and a
 *		ListObjectsV2 page (src/io/aws/s3_list.c over xml_scan.c).
 *		Checks what the parsed values promise: a Content-Range's first
 *		byte before its last and before the object's size, a bounded
 *		Retry-After, printable ASCII of bounded length from the XML.
 */
#include "fuzz.h"

#include "io/aws/s3_list.h"
#include "io/azure/blob_list.h"
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
		const char *why;
		int			i;

		check_text(pq_xml_element_text(body, end - p, "Code", 128), 128);
		check_text(pq_xml_element_text(body, end - p, "Message", 512), 512);
		if (pq_blob_parse_list(body, end - p, &page, &why))
		{
			for (i = 0; i < page.nobjects; i++)
				if (page.objects[i].key[0] == '\0' || page.objects[i].size < 0)
					abort();
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
