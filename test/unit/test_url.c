/*
 * test_url.c
 *		URL parsing (src/io/common/url.c): the parts of every scheme, and
 *		the URLs refused, each with SQLSTATE 22023.
 *
 * Expected parts are written out from the URL forms of the stores' own
 * documentation (S3 and GCS bucket naming rules, Azure container and
 * account naming rules, RFC 3986 for HTTP).
 */
#include "postgres.h"

#include "io/common/url.h"
#include "unit_test.h"

static bool
same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

typedef struct UrlCase
{
	const char *text;
	PqUrlScheme scheme;
	const char *bucket;
	const char *account;
	const char *host;
	int			port;
	const char *key;
	const char *query;
	const char *display;
}			UrlCase;

static const UrlCase good[] = {
	{"s3://my-bucket/data/x.parquet", PQ_URL_S3, "my-bucket", NULL, NULL, 0,
	"data/x.parquet", NULL, "s3://my-bucket/data/x.parquet"},
	{"S3://my.bucket.1", PQ_URL_S3, "my.bucket.1", NULL, NULL, 0, "", NULL,
	"S3://my.bucket.1"},
	{"s3://abc/", PQ_URL_S3, "abc", NULL, NULL, 0, "", NULL, "s3://abc/"},
	{"s3://abc/year=2024/**/*.parquet", PQ_URL_S3, "abc", NULL, NULL, 0,
	"year=2024/**/*.parquet", NULL, "s3://abc/year=2024/**/*.parquet"},
	{"gs://my_bucket/a b/ü.parquet", PQ_URL_GS, "my_bucket", NULL, NULL, 0,
	"a b/ü.parquet", NULL, "gs://my_bucket/a b/ü.parquet"},
	{"az://container-1/dir/f.parquet", PQ_URL_AZ, "container-1", NULL, NULL, 0,
	"dir/f.parquet", NULL, "az://container-1/dir/f.parquet"},
	{"abfss://data@acct01.dfs.core.windows.net/t/f.parquet", PQ_URL_ABFSS,
		"data", "acct01", NULL, 0, "t/f.parquet", NULL,
	"abfss://data@acct01.dfs.core.windows.net/t/f.parquet"},
	{"https://example.com/f.parquet", PQ_URL_HTTPS, NULL, NULL, "example.com", 0,
	"f.parquet", NULL, "https://example.com/f.parquet"},
	{"http://127.0.0.1:9000/b/k.parquet?X-Amz-Signature=abc#frag", PQ_URL_HTTP,
		NULL, NULL, "127.0.0.1", 9000, "b/k.parquet", "X-Amz-Signature=abc",
	"http://127.0.0.1:9000/b/k.parquet?..."},
	{"http://[::1]:8080/x", PQ_URL_HTTP, NULL, NULL, "[::1]", 8080, "x", NULL,
	"http://[::1]:8080/x"},
	{"https://h?q=1", PQ_URL_HTTPS, NULL, NULL, "h", 0, "", "q=1",
	"https://h/?..."},
};

static void
test_good(void)
{
	int			i;

	for (i = 0; i < lengthof(good); i++)
	{
		const		UrlCase *c = &good[i];
		PqUrl	   *u;

		CHECK(pq_url_is_remote(c->text));
		u = pq_url_parse(c->text);
		CHECK_EQ_INT(u->scheme, c->scheme);
		CHECK(same(u->bucket, c->bucket));
		CHECK(same(u->account, c->account));
		CHECK(same(u->host, c->host));
		CHECK_EQ_INT(u->port, c->port);
		CHECK(same(u->key, c->key));
		CHECK(same(u->query, c->query));
		CHECK(same(u->display, c->display));
	}
	CHECK(!pq_url_is_remote("/tmp/x.parquet"));
	CHECK(!pq_url_is_remote("s3:/bucket/x"));
	CHECK(!pq_url_is_remote("file:///tmp/x.parquet"));
	CHECK(!pq_url_is_remote("ftp://h/x"));
}

static const char *const bad[] = {
	"s3://ab/x",				/* bucket too short */
	"s3://Upper/x",				/* upper case */
	"s3://-abc/x",				/* starts with "-" */
	"s3://abc-/x",				/* ends with "-" */
	"s3://a_b_c/x",				/* "_" is GCS's only */
	"s3:///x",					/* no bucket */
	"s3://abc/x\ny",			/* control character in the key */
	"az://con.tainer/x",		/* "." not in containers */
	"abfss://data@acct.blob.core.windows.net/x",	/* not the dfs host */
	"abfss://data.dfs.core.windows.net/x",	/* no container@ */
	"abfss://data@AC.dfs.core.windows.net/x",	/* account case, length */
	"http://user:secret@host/x",	/* user info */
	"http:///x",				/* no host */
	"http://host:0/x",			/* port 0 */
	"http://host:65536/x",		/* port too large */
	"http://host:9x/x",			/* port not a number */
	"http://host:/x",			/* empty port */
	"http://ho st/x",			/* space in the host */
	"http://host/a b",			/* space in the path */
	"http://[::1/x",			/* IPv6 not closed */
	"http://[::1]x/y",			/* junk after IPv6 */
	"https://h/\x7f",			/* DEL in the path */
};

static void
test_bad(void)
{
	int			i;
	char	   *long_key;

	for (i = 0; i < lengthof(bad); i++)
		CHECK_ERROR(pq_url_parse(bad[i]), ERRCODE_INVALID_PARAMETER_VALUE);

	/* the secret of a refused URL is not in the message's detail */
	CHECK_ERROR(pq_url_parse("http://user:hunter2@host/x"),
				ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK(strstr(shim_last_message, "use a user mapping") != NULL);

	long_key = palloc(PQ_URL_MAX_KEY + 16);
	strcpy(long_key, "s3://abc/");
	memset(long_key + 9, 'k', PQ_URL_MAX_KEY + 1);
	long_key[9 + PQ_URL_MAX_KEY + 1] = '\0';
	CHECK_ERROR(pq_url_parse(long_key), ERRCODE_INVALID_PARAMETER_VALUE);
	long_key[9 + PQ_URL_MAX_KEY] = '\0';
	CHECK(strlen(pq_url_parse(long_key)->key) == PQ_URL_MAX_KEY);
}

static void
test_glob(void)
{
	int			at = -1;

	CHECK(!pq_url_key_has_glob("a/b/c.parquet", &at));
	CHECK(pq_url_key_has_glob("a/b/*.parquet", &at));
	CHECK_EQ_INT(at, 4);
	CHECK(pq_url_key_has_glob("a/?/c", &at));
	CHECK_EQ_INT(at, 2);
	CHECK(pq_url_key_has_glob("[ab]/c", &at));
	CHECK_EQ_INT(at, 0);
}

void
suite_url(void)
{
	ut_run("url: the parts of each scheme", test_good);
	ut_run("url: refused URLs", test_bad);
	ut_run("url: glob characters in keys", test_glob);
}
