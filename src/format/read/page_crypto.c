/*-------------------------------------------------------------------------
 *
 * page_crypto.c
 *		Decrypting the page headers and page bodies of an encrypted column
 *		chunk.  The column reader hands in the chunk's cipher and the page's
 *		ordinal, which the modules' AADs bind.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/page_crypto.h"

size_t
pq_decrypt_page_header(const PqChunkCipher *cipher, bool dict, int ordinal,
					   MemoryContext cxt, const uint8 *p, size_t avail,
					   PqPageHeader *ph)
{
	size_t		consumed;
	size_t		len;
	uint8	   *plain;
	MemoryContext old = MemoryContextSwitchTo(cxt);

	plain = pq_chunk_decrypt(cipher,
							 dict ? PQ_MODULE_DICT_PAGE_HEADER : PQ_MODULE_DATA_PAGE_HEADER,
							 ordinal, p, avail, &consumed, &len);
	MemoryContextSwitchTo(old);
	/* writers may pad the plaintext (Arrow C++ does): ignore what follows */
	(void) pq_read_page_header(plain, len, ph);
	if (dict != (ph->type == PQ_PAGE_DICTIONARY))
		pq_corrupt("encrypted %s page where a %s page was expected",
				   pq_page_type_name(ph->type), dict ? "dictionary" : "data");
	return consumed;
}

const uint8 *
pq_decrypt_page_body(const PqChunkCipher *cipher, bool dict, int ordinal,
					 MemoryContext cxt, PqPageHeader *ph, const uint8 *body)
{
	size_t		consumed;
	size_t		len;
	uint8	   *plain;
	MemoryContext old = MemoryContextSwitchTo(cxt);

	plain = pq_chunk_decrypt(cipher,
							 dict ? PQ_MODULE_DICT_PAGE : PQ_MODULE_DATA_PAGE,
							 ordinal, body, ph->compressed_page_size,
							 &consumed, &len);
	MemoryContextSwitchTo(old);
	if (consumed != (size_t) ph->compressed_page_size)
		pq_corrupt("encrypted page of %zu bytes does not fill its %d bytes",
				   consumed, ph->compressed_page_size);
	ph->compressed_page_size = (int32) len;
	return plain;
}
