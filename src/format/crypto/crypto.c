/*-------------------------------------------------------------------------
 *
 * crypto.c
 *		AES-GCM / AES-CTR module encryption and decryption (OpenSSL EVP).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "format/crypto/crypto.h"

/* One cipher context per process, re-initialised for every module. */
static EVP_CIPHER_CTX *pq_evp_ctx = NULL;

static EVP_CIPHER_CTX *
evp_ctx(void)
{
	if (pq_evp_ctx == NULL)
	{
		pq_evp_ctx = EVP_CIPHER_CTX_new();
		if (pq_evp_ctx == NULL)
			elog(ERROR, "could not create an OpenSSL cipher context");
	}
	return pq_evp_ctx;
}

static const EVP_CIPHER *
evp_cipher(const PqKey *key, bool gcm)
{
	switch (key->len)
	{
		case 16:
			return gcm ? EVP_aes_128_gcm() : EVP_aes_128_ctr();
		case 24:
			return gcm ? EVP_aes_192_gcm() : EVP_aes_192_ctr();
		case 32:
			return gcm ? EVP_aes_256_gcm() : EVP_aes_256_ctr();
	}
	elog(ERROR, "AES key of %d bytes (must be 16, 24 or 32)", key->len);
	pg_unreachable();
}

/* The 16-byte CTR IV: nonce, then a 32-bit big-endian counter of 1. */
static void
ctr_iv(uint8 *iv, const uint8 *nonce)
{
	memcpy(iv, nonce, PQ_NONCE_LEN);
	iv[12] = 0;
	iv[13] = 0;
	iv[14] = 0;
	iv[15] = 1;
}

size_t
pq_crypto_aad(uint8 *out, const uint8 *file_aad, size_t file_aad_len,
			  PqModuleType type, int row_group, int column, int page)
{
	size_t		n = file_aad_len;

	memcpy(out, file_aad, file_aad_len);
	out[n++] = (uint8) type;
	if (type == PQ_MODULE_FOOTER)
		return n;
	if (row_group < 0 || row_group > PG_INT16_MAX ||
		column < 0 || column > PG_INT16_MAX)
		pq_unsupported("encrypted files with more than %d row groups or columns are not supported",
					   PG_INT16_MAX + 1);
	out[n++] = (uint8) (row_group & 0xff);
	out[n++] = (uint8) (row_group >> 8);
	out[n++] = (uint8) (column & 0xff);
	out[n++] = (uint8) (column >> 8);
	if (pq_module_has_page_ordinal(type))
	{
		if (page < 0 || page > PG_INT16_MAX)
			pq_unsupported("encrypted column chunks with more than %d pages are not supported",
						   PG_INT16_MAX + 1);
		out[n++] = (uint8) (page & 0xff);
		out[n++] = (uint8) (page >> 8);
	}
	return n;
}

size_t
pq_crypto_module_size(const uint8 *p, size_t avail, bool gcm, const char *what)
{
	uint32		len;

	if (avail < 4)
		pq_corrupt("%s ends inside its encrypted length", what);
	len = pq_load_le32(p);
	if ((size_t) len > avail - 4)
		pq_corrupt("encrypted %s of %u bytes extends past the %zu bytes available",
				   what, len, avail - 4);
	if (len < (gcm ? PQ_GCM_OVERHEAD - 4 : PQ_CTR_OVERHEAD - 4))
		pq_corrupt("encrypted %s of %u bytes is shorter than its nonce and tag",
				   what, len);
	return (size_t) len + 4;
}

size_t
pq_crypto_decrypt(const PqKey *key, bool gcm, const uint8 *aad,
				  size_t aad_len, const uint8 *p, size_t size, uint8 *out,
				  const char *what)
{
	EVP_CIPHER_CTX *ctx = evp_ctx();
	const uint8 *nonce = p + 4;
	const uint8 *ct = nonce + PQ_NONCE_LEN;
	size_t		ctlen = size - (gcm ? PQ_GCM_OVERHEAD : PQ_CTR_OVERHEAD);
	int			outl;
	uint8		iv[16];

	if (ctlen > (size_t) PG_INT32_MAX)
		pq_unsupported("encrypted %s of %zu bytes is too large", what, ctlen);
	if (gcm)
	{
		if (EVP_DecryptInit_ex(ctx, evp_cipher(key, true), NULL, NULL, NULL) != 1 ||
			EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, PQ_NONCE_LEN, NULL) != 1 ||
			EVP_DecryptInit_ex(ctx, NULL, NULL, key->bytes, nonce) != 1 ||
			(aad_len > 0 &&
			 EVP_DecryptUpdate(ctx, NULL, &outl, aad, (int) aad_len) != 1) ||
			EVP_DecryptUpdate(ctx, out, &outl, ct, (int) ctlen) != 1 ||
			EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, PQ_TAG_LEN,
								(void *) (ct + ctlen)) != 1)
			elog(ERROR, "OpenSSL AES-GCM decryption failed");
		if (EVP_DecryptFinal_ex(ctx, out + outl, &outl) != 1)
			pq_auth_failure("%s failed authentication", what);
	}
	else
	{
		ctr_iv(iv, nonce);
		if (EVP_DecryptInit_ex(ctx, evp_cipher(key, false), NULL, key->bytes, iv) != 1 ||
			EVP_DecryptUpdate(ctx, out, &outl, ct, (int) ctlen) != 1 ||
			EVP_DecryptFinal_ex(ctx, out + outl, &outl) != 1)
			elog(ERROR, "OpenSSL AES-CTR decryption failed");
	}
	return ctlen;
}

size_t
pq_crypto_encrypt(const PqKey *key, bool gcm, const uint8 *aad,
				  size_t aad_len, const uint8 *in, size_t len, uint8 *out)
{
	EVP_CIPHER_CTX *ctx = evp_ctx();
	uint8	   *nonce = out + 4;
	uint8	   *ct = nonce + PQ_NONCE_LEN;
	size_t		size = len + (gcm ? PQ_GCM_OVERHEAD : PQ_CTR_OVERHEAD);
	int			outl;
	uint8		iv[16];

	if (size - 4 > (size_t) PG_INT32_MAX)
		elog(ERROR, "module of %zu bytes is too large to encrypt", len);
	pq_store_le32(out, (uint32) (size - 4));
	pq_crypto_random(nonce, PQ_NONCE_LEN);
	if (gcm)
	{
		if (EVP_EncryptInit_ex(ctx, evp_cipher(key, true), NULL, NULL, NULL) != 1 ||
			EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, PQ_NONCE_LEN, NULL) != 1 ||
			EVP_EncryptInit_ex(ctx, NULL, NULL, key->bytes, nonce) != 1 ||
			(aad_len > 0 &&
			 EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int) aad_len) != 1) ||
			EVP_EncryptUpdate(ctx, ct, &outl, in, (int) len) != 1 ||
			EVP_EncryptFinal_ex(ctx, ct + outl, &outl) != 1 ||
			EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, PQ_TAG_LEN,
								ct + len) != 1)
			elog(ERROR, "OpenSSL AES-GCM encryption failed");
	}
	else
	{
		ctr_iv(iv, nonce);
		if (EVP_EncryptInit_ex(ctx, evp_cipher(key, false), NULL, key->bytes, iv) != 1 ||
			EVP_EncryptUpdate(ctx, ct, &outl, in, (int) len) != 1 ||
			EVP_EncryptFinal_ex(ctx, ct + outl, &outl) != 1)
			elog(ERROR, "OpenSSL AES-CTR encryption failed");
	}
	return size;
}

void
pq_crypto_gcm_tag(const PqKey *key, const uint8 *nonce, const uint8 *aad,
				  size_t aad_len, const uint8 *in, size_t len, uint8 *tag)
{
	EVP_CIPHER_CTX *ctx = evp_ctx();
	uint8		block[4096];
	int			outl;
	size_t		done = 0;

	/* only the tag is wanted: encrypt through a small scratch buffer */
	if (EVP_EncryptInit_ex(ctx, evp_cipher(key, true), NULL, NULL, NULL) != 1 ||
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, PQ_NONCE_LEN, NULL) != 1 ||
		EVP_EncryptInit_ex(ctx, NULL, NULL, key->bytes, nonce) != 1 ||
		(aad_len > 0 &&
		 EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int) aad_len) != 1))
		elog(ERROR, "OpenSSL AES-GCM encryption failed");
	while (done < len)
	{
		int			n = (int) Min(len - done, sizeof(block));

		if (EVP_EncryptUpdate(ctx, block, &outl, in + done, n) != 1)
			elog(ERROR, "OpenSSL AES-GCM encryption failed");
		done += n;
	}
	if (EVP_EncryptFinal_ex(ctx, block, &outl) != 1 ||
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, PQ_TAG_LEN, tag) != 1)
		elog(ERROR, "OpenSSL AES-GCM encryption failed");
}

void
pq_crypto_random(uint8 *out, size_t len)
{
	if (RAND_bytes(out, (int) len) != 1)
		elog(ERROR, "could not generate random bytes with OpenSSL");
}

void
pq_crypto_forget(void)
{
	/* EVP_CIPHER_CTX_reset() cleanses the cipher data it frees */
	if (pq_evp_ctx != NULL)
		EVP_CIPHER_CTX_reset(pq_evp_ctx);
}
