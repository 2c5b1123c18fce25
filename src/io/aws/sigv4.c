/*-------------------------------------------------------------------------
 *
 * sigv4.c
 *		AWS Signature Version 4 for S3 requests.  Our own signer rather
 *		than libcurl's CURLOPT_AWS_SIGV4: Debian 12's libcurl (7.88) does
 *		not sort or encode query parameters as SigV4 requires, which
 *		ListObjectsV2 with a prefix and a continuation token needs.  S3
 *		signs paths as sent (no normalisation, no double encoding).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "io/aws/sigv4.h"
#include "lib/stringinfo.h"

static const char hexdigits[] = "0123456789abcdef";

static void
to_hex(const uint8 *b, size_t n, char *out)
{
	size_t		i;

	for (i = 0; i < n; i++)
	{
		out[2 * i] = hexdigits[b[i] >> 4];
		out[2 * i + 1] = hexdigits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

void
pq_sha256_hex(const void *data, size_t len, char *out)
{
	uint8		md[SHA256_DIGEST_LENGTH];

	SHA256(data, len, md);
	to_hex(md, sizeof(md), out);
}

typedef struct LowerHeader
{
	char	   *name;
	int			order;			/* position in the request: values of one name
								 * join in that order */
	const char *value;
} LowerHeader;

static int
header_cmp(const void *a, const void *b)
{
	const LowerHeader *x = a;
	const LowerHeader *y = b;
	int			c = strcmp(x->name, y->name);

	return c != 0 ? c : x->order - y->order;
}

/* "name:value\n" lines, then the signed header names joined by ";" */
static void
canonical_headers(const PqHttpHeader *headers, int n, StringInfo lines,
				  StringInfo names)
{
	LowerHeader *h = palloc(sizeof(LowerHeader) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
	{
		h[i].name = pstrdup(headers[i].name);
		for (char *c = h[i].name; *c; c++)
			*c = pg_ascii_tolower((unsigned char) *c);
		h[i].order = i;
		h[i].value = headers[i].value;
	}
	qsort(h, n, sizeof(LowerHeader), header_cmp);
	for (i = 0; i < n; i++)
	{
		bool		same = i > 0 && strcmp(h[i].name, h[i - 1].name) == 0;

		if (same)
			appendStringInfoChar(lines, ',');
		else
		{
			if (i > 0)
			{
				appendStringInfoChar(lines, '\n');
				appendStringInfoChar(names, ';');
			}
			appendStringInfo(lines, "%s:", h[i].name);
			appendStringInfoString(names, h[i].name);
		}
		pq_http_append_folded(lines, h[i].value);
	}
	if (n > 0)
		appendStringInfoChar(lines, '\n');
}

static void
hmac(const uint8 *key, size_t keylen, const char *data, uint8 *out)
{
	unsigned int len = SHA256_DIGEST_LENGTH;

	if (HMAC(EVP_sha256(), key, (int) keylen, (const uint8 *) data,
			 strlen(data), out, &len) == NULL || len != SHA256_DIGEST_LENGTH)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute an HMAC-SHA256 for a request signature")));
}

void
pq_sigv4_sign(const PqSigV4Request *r, const char *region,
			  const char *service, const char *amz_date, const char *key_id,
			  const char *secret, PqSigV4Signed *out)
{
	StringInfoData creq;
	StringInfoData lines;
	StringInfoData names;
	char		date[9];
	char		creq_hash[2 * SHA256_DIGEST_LENGTH + 1];
	char		sig_hex[2 * SHA256_DIGEST_LENGTH + 1];
	char	   *scope;
	char	   *k_secret;
	uint8		k[SHA256_DIGEST_LENGTH];
	uint8		k2[SHA256_DIGEST_LENGTH];
	uint8		sig[SHA256_DIGEST_LENGTH];

	Assert(strlen(amz_date) == 16);
	memcpy(date, amz_date, 8);
	date[8] = '\0';

	out->query = pq_url_query_string(r->params, r->nparams);
	initStringInfo(&lines);
	initStringInfo(&names);
	canonical_headers(r->headers, r->nheaders, &lines, &names);
	initStringInfo(&creq);
	appendStringInfo(&creq, "%s\n%s\n%s\n%s\n%s\n%s",
					 r->method, r->path, out->query, lines.data, names.data,
					 r->payload_hash);
	out->canonical_request = creq.data;

	scope = psprintf("%s/%s/%s/aws4_request", date, region, service);
	pq_sha256_hex(creq.data, creq.len, creq_hash);
	out->string_to_sign = psprintf("AWS4-HMAC-SHA256\n%s\n%s\n%s",
								   amz_date, scope, creq_hash);

	/* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" secret, date), region), ...)) */
	k_secret = psprintf("AWS4%s", secret);
	hmac((const uint8 *) k_secret, strlen(k_secret), date, k);
	explicit_bzero(k_secret, strlen(k_secret));
	pfree(k_secret);
	hmac(k, sizeof(k), region, k2);
	hmac(k2, sizeof(k2), service, k);
	hmac(k, sizeof(k), "aws4_request", k2);
	hmac(k2, sizeof(k2), out->string_to_sign, sig);
	explicit_bzero(k, sizeof(k));
	explicit_bzero(k2, sizeof(k2));
	to_hex(sig, sizeof(sig), sig_hex);

	out->authorization =
		psprintf("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s",
				 key_id, scope, names.data, sig_hex);
}
