/*-------------------------------------------------------------------------
 *
 * file_encrypt.h
 *		Writing Parquet Modular Encryption: which key encrypts which
 *		column, the file's AAD, every module type, the column metadata of
 *		encrypted columns and the footer in both modes.
 *
 * The file writer and the column writers call this at the points where
 * their modules leave them (file_writer.c fw_emit_module(), column_writer.c
 * emit_page()); nothing else in the writer knows about encryption.
 *
 * Keys are copied into the encryptor, which lives in the writer's memory
 * context; a reset callback on that context zeroes them (and the process's
 * cipher context) when the writer's context goes away, by commit or by
 * error.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_FILE_ENCRYPT_H
#define PQ_FILE_ENCRYPT_H

#include "format/crypto/crypto.h"
#include "format/metadata/metadata.h"

/*
 * NIST SP 800-38D allows at most 2^32 invocations of AES-GCM with one key;
 * the encryptor refuses the one that would reach the limit.
 */
#define PQ_KEY_INVOCATION_LIMIT (UINT64CONST(1) << 32)

/*
 * A column to encrypt, named by its dotted path: a leaf column, or a group
 * (a nested column), which stands for every leaf under it.
 */
typedef struct PqColumnEncryption
{
	const char *path;
	bool		footer_key;		/* encrypted with the footer key (key and
								 * key_metadata unused) */
	PqKey		key;
	PqBytes		key_metadata;	/* len 0: none */
} PqColumnEncryption;

typedef struct PqEncryptionOptions
{
	int			algorithm;		/* PQ_AES_GCM_V1 or PQ_AES_GCM_CTR_V1 */
	PqKey		footer_key;		/* encrypts the footer, or signs it */
	PqBytes		footer_key_metadata;	/* len 0: none */
	bool		plaintext_footer;	/* "PAR1" + signed footer; else "PARE" */
	PqBytes		aad_prefix;		/* len 0: none */
	bool		store_aad_prefix;	/* false: readers must supply it */

	/*
	 * The encrypted columns; the others are written in plaintext.  When there
	 * are none, every column is encrypted with the footer key.
	 */
	const PqColumnEncryption *columns;
	int			n_columns;
} PqEncryptionOptions;

/* A distinct key of the file and how often it has been used. */
typedef struct PqKeyUse
{
	PqKey		key;
	uint64		invocations;
} PqKeyUse;

typedef struct PqFileEncryptor
{
	int			algorithm;
	bool		plaintext_footer;
	PqEncryptionAlgorithm alg;	/* as stored in the file */
	uint8	   *file_aad;		/* aad_prefix + aad_file_unique */
	size_t		file_aad_len;
	uint8	   *aad;			/* scratch: file_aad_len + 7 bytes */
	PqKeyUse   *keys;			/* [0] is the footer key */
	int			n_keys;
	PqBytes		footer_key_metadata;

	/* per leaf column */
	int			ncols;
	int		   *col_key;		/* index into keys, -1: plaintext */
	int		   *col_kind;		/* PqColumnCryptoKind */
	PqBytes    *col_key_metadata;
} PqFileEncryptor;

/*
 * Set up encryption of a file with ncols leaf columns, paths[c] being the
 * dotted path of column c.  Validates the options (a column that is not in
 * the file, an algorithm or key size that does not exist: ERRORs) and draws
 * a fresh random aad_file_unique.  Allocates in the current memory context,
 * on which it registers the callback that zeroes the keys.
 */
extern PqFileEncryptor *pq_file_encryptor_create(const PqEncryptionOptions *opts,
												 int ncols,
												 const char *const *paths);

/* Is column c encrypted? */
static inline bool
pq_encryptor_column_encrypted(const PqFileEncryptor *fe, int column)
{
	return fe != NULL && fe->col_key[column] >= 0;
}

/* "PARE" (encrypted footer) or "PAR1". */
extern const char *pq_encryptor_magic(const PqFileEncryptor *fe);

/*
 * Append the module of type for in[0..len) of column (in row group
 * row_group; page: the data page ordinal for data pages and their headers)
 * to out: length, nonce, ciphertext and, but for CTR pages, the tag.
 */
extern void pq_encrypt_module(PqFileEncryptor *fe, PqModuleType type,
							  int row_group, int column, int page,
							  const uint8 *in, size_t len, PqBuffer *out);

/*
 * Fill the encryption fields of column chunk cc (column c of row_group),
 * whose meta_data is complete: crypto_metadata (path: the chunk's
 * path_in_schema) and, where the spec asks for it, encrypted_column_metadata,
 * leaving meta_data out (encrypted footer) or stripped of its statistics
 * (plaintext footer).  Nothing for a plaintext column.
 */
extern void pq_encryptor_column_chunk(PqFileEncryptor *fe, int row_group,
									  int column, PqColumnChunk *cc);

/*
 * Append the file's tail between the data and the footer length: the
 * FileCryptoMetaData and the encrypted FileMetaData (encrypted footer), or
 * the FileMetaData naming the algorithm followed by its signature (plaintext
 * footer).  md gains the plaintext footer's encryption fields.
 */
extern void pq_encryptor_footer(PqFileEncryptor *fe, PqFileMetaData *md,
								PqBuffer *out);

#endif							/* PQ_FILE_ENCRYPT_H */
