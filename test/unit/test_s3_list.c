/*
 * test_s3_list.c
 *		ListObjectsV2 answers (src/io/aws/s3_list.c over
 *		src/io/common/xml_scan.c): the example of S3's API reference, a
 *		truncated page, common prefixes, entities, and malformed answers;
 *		ListMultipartUploads pages.
 */
#include "postgres.h"

#include "io/aws/s3_list.h"
#include "io/azure/blob_list.h"
#include "io/common/xml_scan.h"
#include "unit_test.h"

/* S3 API Reference, ListObjectsV2, "Example 1" (response, abridged). */
static const char example[] =
"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
"<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n"
"  <Name>bucket</Name>\n"
"  <Prefix/>\n"
"  <KeyCount>205</KeyCount>\n"
"  <MaxKeys>1000</MaxKeys>\n"
"  <IsTruncated>false</IsTruncated>\n"
"  <Contents>\n"
"    <Key>my-image.jpg</Key>\n"
"    <LastModified>2009-10-12T17:50:30.000Z</LastModified>\n"
"    <ETag>&quot;fba9dede5f27731c9771645a39863328&quot;</ETag>\n"
"    <Size>434234</Size>\n"
"    <StorageClass>STANDARD</StorageClass>\n"
"  </Contents>\n"
"  <Contents>\n"
"    <Key>a b/&#xfc; &amp; &#x27;q&#39;.parquet</Key>\n"
"    <Size>0</Size>\n"
"  </Contents>\n"
"</ListBucketResult>";

static void
test_example(void)
{
	PqListPage	p;
	const char *why = NULL;

	CHECK(pq_s3_parse_list(example, strlen(example), &p, &why));
	CHECK_EQ_INT(p.nobjects, 2);
	CHECK(strcmp(p.objects[0].key, "my-image.jpg") == 0);
	CHECK_EQ_INT(p.objects[0].size, 434234);
	CHECK(strcmp(p.objects[0].etag, "\"fba9dede5f27731c9771645a39863328\"") == 0);
	CHECK(strcmp(p.objects[1].key, "a b/\xc3\xbc & 'q'.parquet") == 0);
	CHECK_EQ_INT(p.objects[1].size, 0);
	CHECK(p.objects[1].etag == NULL);
	CHECK(!p.truncated);
	CHECK_EQ_INT(p.nprefixes, 0);
}

static void
test_pages_and_prefixes(void)
{
	static const char page[] =
	"<ListBucketResult><Prefix>y/</Prefix><IsTruncated>true</IsTruncated>"
	"<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
	"<CommonPrefixes><Prefix>y/m=1/</Prefix></CommonPrefixes>"
	"<CommonPrefixes><Prefix>y/m=2/</Prefix></CommonPrefixes>"
	"</ListBucketResult>";
	PqListPage	p;
	const char *why = NULL;

	CHECK(pq_s3_parse_list(page, strlen(page), &p, &why));
	CHECK(p.truncated);
	CHECK(strcmp(p.next_token, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=") == 0);
	CHECK_EQ_INT(p.nprefixes, 2);
	CHECK(strcmp(p.prefixes[1], "y/m=2/") == 0);
	CHECK_EQ_INT(p.nobjects, 0);
}

static const char *const malformed[] = {
	"<Error><Code>x</Code></Error>",	/* not a listing */
	"<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",	/* no size */
	"<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>",
	"<ListBucketResult><Contents><Key>k</Key><Size>99999999999999999999</Size></Contents></ListBucketResult>",
	"<ListBucketResult><Contents><Key></Key><Size>1</Size></Contents></ListBucketResult>",
	"<ListBucketResult><Contents><Key>a&#10;b</Key><Size>1</Size></Contents></ListBucketResult>",
	"<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
	"<ListBucketResult><Contents><Key>k</Key><Size>1</Size></Content></ListBucketResult>",
	"<ListBucketResult><Contents><Key>k&bogus;</Key><Size>1</Size></Contents></ListBucketResult>",
	"<!DOCTYPE x [<!ENTITY a \"b\">]><ListBucketResult/>",
	"<ListBucketResult><Contents><Key>k</Key><Size>1</Size></Contents>",
	"text<ListBucketResult/>",
	"",
};

static void
test_malformed(void)
{
	int			i;

	for (i = 0; i < lengthof(malformed); i++)
	{
		PqListPage	p;
		const char *why = NULL;

		if (pq_s3_parse_list(malformed[i], strlen(malformed[i]), &p, &why) ||
			why == NULL)
		{
			char		m[64];

			snprintf(m, sizeof(m), "malformed listing %d accepted", i);
			ut_fail(__FILE__, __LINE__, m);
			return;
		}
	}
}

static void
test_scanner_bounds(void)
{
	PqXmlScanner s;
	StringInfoData deep;
	int			i;
	PqXmlToken	t;

	/* nesting deeper than PQ_XML_MAX_DEPTH stops with an error */
	initStringInfo(&deep);
	for (i = 0; i < PQ_XML_MAX_DEPTH + 1; i++)
		appendStringInfoString(&deep, "<a>");
	pq_xml_scan_init(&s, deep.data, deep.len, 100);
	while ((t = pq_xml_scan_next(&s)) == PQ_XML_OPEN)
		;
	CHECK(t == PQ_XML_BAD);
	/* a text longer than allowed */
	pq_xml_scan_init(&s, "<a>0123456789</a>", 17, 5);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_OPEN);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_BAD);
	/* a character reference past Unicode, and a surrogate */
	pq_xml_scan_init(&s, "<a>&#x110000;</a>", 17, 50);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_OPEN);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_BAD);
	pq_xml_scan_init(&s, "<a>&#xD800;</a>", 15, 50);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_OPEN);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_BAD);
	/* a byte order mark, a comment, an attribute holding ">" */
	{
		static const char doc[] = "\xEF\xBB\xBF<!-- c --><a x=\"1>2\">t</a>";

		pq_xml_scan_init(&s, doc, strlen(doc), 50);
	}
	CHECK(pq_xml_scan_next(&s) == PQ_XML_OPEN);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_TEXT);
	CHECK(strcmp(s.text.data, "t") == 0);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_CLOSE);
	CHECK(pq_xml_scan_next(&s) == PQ_XML_END);
}

/* List Blobs, in the shape of the REST reference's response body. */
static void
test_blob_list(void)
{
	static const char body[] =
	"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>"
	"<EnumerationResults ServiceEndpoint=\"https://a.blob.core.windows.net/\" ContainerName=\"c\">"
	"<Prefix>y/</Prefix><Blobs>"
	"<Blob><Name>y/a &amp; b.parquet</Name><Properties>"
	"<Creation-Time>Mon, 01 Jan 2024 00:00:00 GMT</Creation-Time>"
	"<Content-Length>4096</Content-Length><Etag>0x8DC5E5F5B1B7A2F</Etag>"
	"</Properties></Blob>"
	"<BlobPrefix><Name>y/m=1/</Name></BlobPrefix>"
	"</Blobs><NextMarker>2!96!MDAwMDE5</NextMarker></EnumerationResults>";
	static const char no_length[] =
	"<EnumerationResults><Blobs><Blob><Name>k</Name><Properties/></Blob></Blobs></EnumerationResults>";
	PqListPage	p;
	const char *why = NULL;

	CHECK(pq_blob_parse_list(body, strlen(body), &p, &why));
	CHECK_EQ_INT(p.nobjects, 1);
	CHECK(strcmp(p.objects[0].key, "y/a & b.parquet") == 0);
	CHECK_EQ_INT(p.objects[0].size, 4096);
	CHECK(strcmp(p.objects[0].etag, "\"0x8DC5E5F5B1B7A2F\"") == 0);
	CHECK_EQ_INT(p.nprefixes, 1);
	CHECK(strcmp(p.prefixes[0], "y/m=1/") == 0);
	CHECK(p.truncated && strcmp(p.next_token, "2!96!MDAwMDE5") == 0);
	CHECK(!pq_blob_parse_list(no_length, strlen(no_length), &p, &why));
	CHECK(!pq_blob_parse_list(example, strlen(example), &p, &why));
}

/*
 * ListMultipartUploads, in the shape of the S3 API reference's example:
 * Initiator and Owner hold IDs of their own, which are not the upload's.
 */
static void
test_uploads(void)
{
	static const char page[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	"<ListMultipartUploadsResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
	"<Bucket>bucket</Bucket><KeyMarker></KeyMarker><UploadIdMarker></UploadIdMarker>"
	"<NextKeyMarker>my-movie.m2ts</NextKeyMarker>"
	"<NextUploadIdMarker>YW55IGlkZWEgd2h5IGVsdmluZydzIHVwbG9hZCBmYWlsZWQ</NextUploadIdMarker>"
	"<MaxUploads>2</MaxUploads><IsTruncated>true</IsTruncated>"
	"<Upload><Key>my-divisor</Key>"
	"<UploadId>XMgbGlrZSBlbHZpbmcncyBub3QgaGF2aW5nIG11Y2ggbHVjaw</UploadId>"
	"<Initiator><ID>arn:aws:iam::111122223333:user/user1</ID><DisplayName>user1</DisplayName></Initiator>"
	"<Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f</ID><DisplayName>Owner</DisplayName></Owner>"
	"<StorageClass>STANDARD</StorageClass><Initiated>2010-11-10T20:48:33.000Z</Initiated></Upload>"
	"<Upload><Key>a &amp; b/my-movie.m2ts</Key>"
	"<UploadId>VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId>"
	"<Initiated>2010-11-10T20:49:33.000Z</Initiated></Upload>"
	"</ListMultipartUploadsResult>";
	static const char *const malformed[] = {
		"<ListBucketResult></ListBucketResult>",
		"<ListMultipartUploadsResult><Upload><Key>k</Key></Upload></ListMultipartUploadsResult>",
		"<ListMultipartUploadsResult><Upload><UploadId>u</UploadId></Upload></ListMultipartUploadsResult>",
		"<ListMultipartUploadsResult><Upload><Key>a&#x1;b</Key><UploadId>u</UploadId></Upload></ListMultipartUploadsResult>",
		"<ListMultipartUploadsResult><IsTruncated>true</IsTruncated></ListMultipartUploadsResult>",
		"<ListMultipartUploadsResult><Upload><Key>k</Key>",
	};
	PqS3UploadPage p;
	const char *why = NULL;
	int			i;

	CHECK(pq_s3_parse_uploads(page, strlen(page), &p, &why));
	CHECK_EQ_INT(p.n, 2);
	CHECK(strcmp(p.uploads[0].key, "my-divisor") == 0);
	CHECK(strcmp(p.uploads[0].upload_id, "XMgbGlrZSBlbHZpbmcncyBub3QgaGF2aW5nIG11Y2ggbHVjaw") == 0);
	CHECK(strcmp(p.uploads[0].initiated, "2010-11-10T20:48:33.000Z") == 0);
	CHECK(strcmp(p.uploads[1].key, "a & b/my-movie.m2ts") == 0);
	CHECK(strcmp(p.uploads[1].initiated, "2010-11-10T20:49:33.000Z") == 0);
	CHECK(p.truncated);
	CHECK(strcmp(p.next_key_marker, "my-movie.m2ts") == 0);
	CHECK(strcmp(p.next_upload_id_marker, "YW55IGlkZWEgd2h5IGVsdmluZydzIHVwbG9hZCBmYWlsZWQ") == 0);
	for (i = 0; i < lengthof(malformed); i++)
	{
		why = NULL;
		if (pq_s3_parse_uploads(malformed[i], strlen(malformed[i]), &p, &why) ||
			why == NULL)
			ut_fail(__FILE__, __LINE__, malformed[i]);
	}
}

void
suite_s3_list(void)
{
	ut_run("s3 list: multipart uploads, the API reference's shape; malformed pages",
		   test_uploads);
	ut_run("blob list: names, lengths, ETags, prefixes, marker", test_blob_list);
	ut_run("s3 list: the API reference's example", test_example);
	ut_run("s3 list: a truncated page of common prefixes", test_pages_and_prefixes);
	ut_run("s3 list: malformed answers", test_malformed);
	ut_run("xml scan: bounds", test_scanner_bounds);
}
