/*-------------------------------------------------------------------------
 *
 * crypto.h
 *		AES-GCM and AES-CTR for Parquet Modular Encryption modules, through
 *		OpenSSL EVP (AES-NI where the CPU has it).
 *
 * A module as stored: [4-byte LE length][12-byte nonce][ciphertext]
 * [16-byte tag] for GCM, [4-byte LE length][12-byte nonce][ciphertext] for
 * CTR, where length counts everything after itself.  The CTR IV is the
 * nonce followed by the 32-bit big-endian counter 1.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_CRYPTO_H
#define PQ_CRYPTO_H

#include "format/common/pq_common.h"

#define PQ_NONCE_LEN 12
#define PQ_TAG_LEN 16
#define PQ_GCM_OVERHEAD (4 + PQ_NONCE_LEN + PQ_TAG_LEN)
#define PQ_CTR_OVERHEAD (4 + PQ_NONCE_LEN)
#define PQ_MAX_KEY_LEN 32
#define PQ_FOOTER_SIGNATURE_LEN (PQ_NONCE_LEN + PQ_TAG_LEN)

/* AAD module types (Encryption spec 4.4.2) */
typedef enum PqModuleType
{
	PQ_MODULE_FOOTER = 0,
	PQ_MODULE_COLUMN_META = 1,
	PQ_MODULE_DATA_PAGE = 2,
	PQ_MODULE_DICT_PAGE = 3,
	PQ_MODULE_DATA_PAGE_HEADER = 4,
	PQ_MODULE_DICT_PAGE_HEADER = 5,
	PQ_MODULE_COLUMN_INDEX = 6,
	PQ_MODULE_OFFSET_INDEX = 7,
	PQ_MODULE_BLOOM_HEADER = 8,
	PQ_MODULE_BLOOM_BITSET = 9
} PqModuleType;

typedef struct PqKey
{
	uint8		bytes[PQ_MAX_KEY_LEN];
	int			len;			/* 16, 24 or 32 */
} PqKey;

/*
 * The AAD of a module: file_aad (aad_prefix + aad_file_unique), the module
 * type and, except for the footer, row group and column ordinals, and the
 * page ordinal for data pages and their headers.  Ordinals must fit in 16
 * bits (an error otherwise).  Returns the AAD's length; out must hold
 * file_aad_len + 7 bytes.
 */
extern size_t pq_crypto_aad(uint8 *out, const uint8 *file_aad,
							size_t file_aad_len, PqModuleType type,
							int row_group, int column, int page);

/* Module types whose AAD carries a page ordinal. */
static inline bool
pq_module_has_page_ordinal(PqModuleType type)
{
	return type == PQ_MODULE_DATA_PAGE || type == PQ_MODULE_DATA_PAGE_HEADER;
}

/*
 * Length of the module starting at p (its 4-byte length prefix plus what
 * follows), checked against avail and against the minimum for its cipher.
 * what names the module in errors.
 */
extern size_t pq_crypto_module_size(const uint8 *p, size_t avail, bool gcm,
									const char *what);

/*
 * Decrypt the module at p (size from pq_crypto_module_size) into out, which
 * must hold size - overhead bytes; returns the plaintext length.  A GCM tag
 * that does not verify raises pq_auth_failure() naming what.
 */
extern size_t pq_crypto_decrypt(const PqKey *key, bool gcm, const uint8 *aad,
								size_t aad_len, const uint8 *p, size_t size,
								uint8 *out, const char *what);

/*
 * Encrypt len bytes of plaintext into out as a module (length prefix,
 * fresh random nonce, ciphertext, tag for GCM); out must hold len +
 * overhead bytes.  Returns the module size.
 */
extern size_t pq_crypto_encrypt(const PqKey *key, bool gcm, const uint8 *aad,
								size_t aad_len, const uint8 *in, size_t len,
								uint8 *out);

/*
 * GCM-encrypt in with the given nonce and return only the tag (footer
 * signatures of plaintext-footer files).
 */
extern void pq_crypto_gcm_tag(const PqKey *key, const uint8 *nonce,
							  const uint8 *aad, size_t aad_len,
							  const uint8 *in, size_t len, uint8 *tag);

/* Cryptographically strong random bytes (fresh nonces, aad_file_unique). */
extern void pq_crypto_random(uint8 *out, size_t len);

/*
 * Wipe the process's cipher context, which keeps the expanded schedule of
 * the last key used (the next call sets it up again).
 */
extern void pq_crypto_forget(void);

#endif							/* PQ_CRYPTO_H */
