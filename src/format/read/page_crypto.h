/*-------------------------------------------------------------------------
 *
 * page_crypto.h
 *		Decrypting the page headers and page bodies of an encrypted column
 *		chunk (Parquet modular encryption).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_PAGE_CRYPTO_H
#define PQ_PAGE_CRYPTO_H

#include "format/read/file_crypto.h"

/*
 * Decrypt the page header module at p (a dictionary page's when dict, else
 * the header of data page ordinal) into ph; the plaintext lives in cxt.
 * Returns the module's size in the chunk.
 */
extern size_t pq_decrypt_page_header(const PqChunkCipher *cipher, bool dict,
									 int ordinal, MemoryContext cxt,
									 const uint8 *p, size_t avail,
									 PqPageHeader *ph);

/*
 * The page body after decryption, in cxt: the body module fills the page's
 * compressed_page_size, and ph's compressed size is rewritten to the
 * plaintext's so that decompression sees the bytes it expects.
 */
extern const uint8 *pq_decrypt_page_body(const PqChunkCipher *cipher,
										 bool dict, int ordinal,
										 MemoryContext cxt, PqPageHeader *ph,
										 const uint8 *body);

#endif							/* PQ_PAGE_CRYPTO_H */
