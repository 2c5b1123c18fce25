/*-------------------------------------------------------------------------
 *
 * shared_key.c
 *		Shared Key authorization for the Blob service (the string to sign of
 *		version 2015-02-21 and later: an empty Content-Length for bodyless
 *		requests), HMAC-SHA256 with OpenSSL.  The decoded key is wiped.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "io/azure/shared_key.h"
#include "lib/stringinfo.h"

typedef struct NameValue
{
	char	   *name;
	const char *value;
	int			order;
} NameValue;

static int
nv_cmp(const void *a, const void *b)
{
	const NameValue *x = a;
	const NameValue *y = b;
	int			c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	c = strcmp(x->value, y->value);
	return c != 0 ? c : x->order - y->order;
}

static char *
lower(const char *s)
{
	char	   *l = pstrdup(s);
	char	   *c;

	for (c = l; *c; c++)
		*c = pg_ascii_tolower((unsigned char) *c);
	return l;
}

char *
pq_shared_key_string_to_sign(const PqSharedKeyRequest *r, const char *account)
{
	StringInfoData b;
	NameValue  *h = palloc(sizeof(NameValue) * Max(r->nms_headers, 1));
	NameValue  *q = palloc(sizeof(NameValue) * Max(r->nparams, 1));
	int			i;

	initStringInfo(&b);
	/* encoding, language, length, MD5, type, date, if-modified-since */
	appendStringInfo(&b, "%s\n\n\n%s\n\n%s\n\n\n", r->method,
					 r->content_length ? r->content_length : "",
					 r->content_type ? r->content_type : "");
	appendStringInfo(&b, "%s\n\n\n%s\n", r->if_match ? r->if_match : "",
					 r->range ? r->range : "");

	for (i = 0; i < r->nms_headers; i++)
	{
		h[i].name = lower(r->ms_headers[i].name);
		h[i].value = r->ms_headers[i].value;
		h[i].order = i;
	}
	qsort(h, r->nms_headers, sizeof(NameValue), nv_cmp);
	for (i = 0; i < r->nms_headers; i++)
	{
		appendStringInfo(&b, "%s:", h[i].name);
		pq_http_append_folded(&b, h[i].value);
		appendStringInfoChar(&b, '\n');
	}

	/* /account/path, then each parameter: name:v1,v2 by name */
	appendStringInfo(&b, "/%s%s", account, r->path);
	for (i = 0; i < r->nparams; i++)
	{
		q[i].name = lower(r->params[i].name);
		q[i].value = r->params[i].value ? r->params[i].value : "";
		q[i].order = i;
	}
	qsort(q, r->nparams, sizeof(NameValue), nv_cmp);
	for (i = 0; i < r->nparams; i++)
	{
		if (i > 0 && strcmp(q[i].name, q[i - 1].name) == 0)
			appendStringInfo(&b, ",%s", q[i].value);
		else
			appendStringInfo(&b, "\n%s:%s", q[i].name, q[i].value);
	}
	return b.data;
}

bool
pq_shared_key_sign(const PqSharedKeyRequest *r, const char *account,
				   const char *key_base64, char **authorization)
{
	size_t		len = strlen(key_base64);
	uint8	   *key;
	int			keylen;
	uint8		mac[SHA256_DIGEST_LENGTH];
	unsigned int maclen = sizeof(mac);
	char		sig[2 * SHA256_DIGEST_LENGTH];
	char	   *sts;
	int			pad = 0;

	if (len == 0 || len % 4 != 0 || len > 1024)
		return false;
	while (pad < 2 && key_base64[len - 1 - pad] == '=')
		pad++;
	key = palloc(len);
	keylen = EVP_DecodeBlock(key, (const uint8 *) key_base64, (int) len);
	if (keylen < 0 || keylen < pad)
	{
		explicit_bzero(key, len);
		return false;
	}
	keylen -= pad;
	sts = pq_shared_key_string_to_sign(r, account);
	if (HMAC(EVP_sha256(), key, keylen, (const uint8 *) sts, strlen(sts),
			 mac, &maclen) == NULL)
	{
		explicit_bzero(key, len);
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute an HMAC-SHA256 for a request signature")));
	}
	explicit_bzero(key, len);
	pfree(key);
	EVP_EncodeBlock((uint8 *) sig, mac, (int) maclen);
	*authorization = psprintf("SharedKey %s:%s", account, sig);
	return true;
}
