/*-------------------------------------------------------------------------
 *
 * file_crypto.h
 *		Reading Parquet Modular Encryption: the file's algorithm and AAD,
 *		keys (through a caller-supplied lookup), and the decryption of every
 *		module type of a column chunk.
 *
 * Keys are never kept beyond the PqFile they were fetched for (they are
 * zeroed when its memory context is reset or deleted), and never appear in
 * messages: errors name key metadata and columns only.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_FILE_CRYPTO_H
#define PQ_FILE_CRYPTO_H

#include "format/crypto/crypto.h"
#include "format/metadata/metadata.h"

/*
 * Find the key for key_metadata (may be empty) of the footer (column NULL)
 * or of a column (dotted path) of Parquet file file (key tools may keep key
 * material beside it).  When required, the lookup raises an ERROR if it
 * has no key; otherwise it returns false.
 */
typedef bool (*PqKeyLookup) (void *arg, const char *file,
							 const PqBytes *key_metadata, const char *column,
							 bool required, PqKey *out);

typedef struct PqDecryptionConfig
{
	PqKeyLookup get_key;
	void	   *arg;
	const uint8 *aad_prefix;	/* supplied by the user; NULL when not */
	size_t		aad_prefix_len;
} PqDecryptionConfig;

typedef struct PqChunkCipher
{
	PqKey		key;
	bool		gcm_pages;		/* AES_GCM_V1: pages GCM; else CTR */
	const uint8 *file_aad;
	size_t		file_aad_len;
	int			row_group;		/* ordinals for the AAD */
	int			column;
} PqChunkCipher;

typedef struct PqFileCrypto
{
	int			algorithm;		/* PqEncryptionKind */
	bool		footer_encrypted;	/* PARE file */
	uint8	   *file_aad;		/* aad_prefix + aad_file_unique */
	size_t		file_aad_len;
	bool		has_footer_key;
	PqKey		footer_key;
	const PqDecryptionConfig *config;
	const char *file_name;		/* for the key lookup */
	/* per (row group, column): decrypted ColumnMetaData and cipher */
	PqColumnMetaData **chunk_meta;
	PqChunkCipher **chunk_cipher;
	size_t		n_chunks;
} PqFileCrypto;

struct PqFile;

/*
 * Set up decryption for algorithm (from FileCryptoMetaData or the
 * plaintext footer), checking the AAD prefix rules.
 */
extern PqFileCrypto *pq_file_crypto_create(const PqEncryptionAlgorithm *alg,
										   bool footer_encrypted,
										   const PqDecryptionConfig *config,
										   const char *file_name);

/*
 * Decrypt an encrypted footer module (PARE files) with the footer key of
 * key_metadata; returns the FileMetaData bytes (palloc'd) and their length.
 */
extern uint8 *pq_file_crypto_footer(PqFileCrypto *fc,
									const PqBytes *key_metadata,
									const uint8 *module, size_t avail,
									size_t *len);

/*
 * Verify the signature (nonce + tag) after a plaintext footer of len bytes
 * when the footer key can be found; returns false when it cannot (then the
 * footer is unauthenticated and only plaintext columns are trusted).
 */
extern bool pq_file_crypto_verify_footer(PqFileCrypto *fc,
										 const PqBytes *key_metadata,
										 const uint8 *footer, size_t len,
										 const uint8 *signature);

/* Set up the per-chunk tables once the footer is parsed. */
extern void pq_file_crypto_init_chunks(struct PqFile *file);

/*
 * The cipher of an encrypted column chunk, NULL for a plaintext one.  The
 * key is looked up on first use; a missing key is an ERROR naming the
 * column.
 */
extern const PqChunkCipher *pq_file_chunk_cipher(const struct PqFile *file,
												 int row_group, int column);

/*
 * Decrypt the module at p (at most avail bytes) of type (page: the data
 * page ordinal, else ignored) into a palloc'd buffer; *consumed is the
 * module's size in the file.  Returns the plaintext, *len its length.
 */
extern uint8 *pq_chunk_decrypt(const PqChunkCipher *c, PqModuleType type,
							   int page, const uint8 *p, size_t avail,
							   size_t *consumed, size_t *len);

/* Size of a module at p whose length prefix is checked against avail. */
extern size_t pq_chunk_module_size(const PqChunkCipher *c, PqModuleType type,
								   const uint8 *p, size_t avail);

/* Human name of a module type, for messages. */
extern const char *pq_module_name(PqModuleType type);

#endif							/* PQ_FILE_CRYPTO_H */
