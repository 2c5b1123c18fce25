/*
 * test_response.c
 *		Response headers and XML error bodies (src/io/http/response.c),
 *		with values written out from RFC 9110's header syntax and S3's
 *		documented error body.
 */
#include "postgres.h"

#include "io/http/response.h"
#include "unit_test.h"

static void
feed(PqResponseHeaders * h, const char *line)
{
	pq_response_header_line(h, line, strlen(line));
}

static void
test_headers(void)
{
	PqResponseHeaders h;

	pq_response_headers_init(&h);
	feed(&h, "HTTP/1.1 206 Partial Content\r\n");
	feed(&h, "etag:  \"abc-1\" \r\n");
	feed(&h, "Content-Length: 8\r\n");
	feed(&h, "Content-Range: bytes 1016-1023/1024\r\n");
	feed(&h, "Retry-After: 7\r\n");
	CHECK(strcmp(h.etag, "\"abc-1\"") == 0);
	CHECK_EQ_INT(h.content_length, 8);
	CHECK_EQ_INT(h.range_first, 1016);
	CHECK_EQ_INT(h.range_last, 1023);
	CHECK_EQ_INT(h.object_size, 1024);
	CHECK_EQ_INT(h.retry_after_s, 7);

	/* malformed or unusable values count as absent */
	pq_response_headers_init(&h);
	feed(&h, "Content-Range: bytes 10-5/100\r\n");
	CHECK_EQ_INT(h.range_first, -1);
	feed(&h, "Content-Range: bytes 0-9/5\r\n");
	CHECK_EQ_INT(h.range_last, 9);
	CHECK_EQ_INT(h.object_size, -1);
	feed(&h, "Content-Range: bytes 0-9/*\r\n");
	CHECK_EQ_INT(h.object_size, -1);
	feed(&h, "Content-Length: 12x\r\n");
	CHECK_EQ_INT(h.content_length, -1);
	feed(&h, "Content-Length: 1234567890123456789\r\n");
	CHECK_EQ_INT(h.content_length, -1);
	feed(&h, "Retry-After: Wed, 21 Oct 2026 07:28:00 GMT\r\n");
	CHECK_EQ_INT(h.retry_after_s, -1);
	feed(&h, "Retry-After: 99999\r\n");
	CHECK_EQ_INT(h.retry_after_s, 3600);
	feed(&h, "X-ETag: \"no\"\r\n");
	CHECK(h.etag[0] == '\0');
}

static void
test_xml(void)
{
	static const char body[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<Error><Code>NoSuchKey</Code><Message>The key &lt;a&amp;b&gt; &#39;x&#39; \xc3\xbc</Message>"
	"<Key>a&amp;b</Key></Error>";
	char	   *code = pq_xml_element_text(body, strlen(body), "Code", 128);
	char	   *msg = pq_xml_element_text(body, strlen(body), "Message", 512);

	CHECK(strcmp(code, "NoSuchKey") == 0);
	CHECK(strcmp(msg, "The key <a&b> 'x' ??") == 0);
	CHECK(strcmp(pq_xml_element_text(body, strlen(body), "Message", 7), "The key") == 0);
	CHECK(pq_xml_element_text(body, strlen(body), "RequestId", 64) == NULL);
	/* an element cut off by the body's end is absent */
	CHECK(pq_xml_element_text(body, 60, "Code", 128) == NULL);
}

void
suite_response(void)
{
	ut_run("response: headers", test_headers);
	ut_run("response: XML error bodies", test_xml);
}
