/*-------------------------------------------------------------------------
 *
 * file_reader.c
 *		Parquet footer: magic, length, FileMetaData, schema, chunk ranges.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/read/file_reader.h"
#include "utils/memutils.h"

static bool
is_magic(const uint8 *p, const char *magic)
{
	return memcmp(p, magic, 4) == 0;
}

/*
 * PARE file: FileCryptoMetaData, then the encrypted footer module, fill the
 * footer_len bytes.  Replaces file->footer with the decrypted FileMetaData.
 */
static void
open_encrypted_footer(PqFile *file)
{
	PqFileCryptoMetaData fcmd;
	size_t		used;
	uint8	   *plain;
	size_t		plain_len;

	used = pq_read_file_crypto_metadata(file->footer, file->footer_len, &fcmd);
	file->crypto = pq_file_crypto_create(&fcmd.encryption_algorithm, true,
										 file->src->decrypt, file->src->name);
	plain = pq_file_crypto_footer(file->crypto, &fcmd.key_metadata,
								  file->footer + used,
								  file->footer_len - used, &plain_len);
	pq_read_file_metadata(plain, plain_len, &file->md);
	if (file->md.encryption_algorithm.kind != PQ_ENCRYPTION_NONE)
		pq_corrupt("encrypted footer also names an encryption algorithm");
}

/*
 * PAR1 file whose FileMetaData names an encryption algorithm: the footer is
 * followed by its 28-byte signature.
 */
static void
open_plaintext_footer(PqFile *file, size_t md_len)
{
	if (md_len + PQ_FOOTER_SIGNATURE_LEN != file->footer_len)
		pq_corrupt("plaintext footer of %zu bytes is not followed by exactly %d bytes of signature (footer length %u)",
				   md_len, PQ_FOOTER_SIGNATURE_LEN, file->footer_len);
	file->crypto = pq_file_crypto_create(&file->md.encryption_algorithm, false,
										 file->src->decrypt, file->src->name);
	pq_file_crypto_verify_footer(file->crypto,
								 &file->md.footer_signing_key_metadata,
								 file->footer, md_len,
								 file->footer + md_len);
}

/*
 * Was the file written by parquet-mr before 1.2.9?  created_by reads
 * "parquet-mr version 1.2.5-cdh4.5.0 (build ...)" for those writers.
 */
static bool
uncounted_dictionary_headers(const char *created_by)
{
	static const char prefix[] = "parquet-mr version ";
	int			v[3];
	int			i;
	const char *p;

	if (created_by == NULL ||
		strncmp(created_by, prefix, sizeof(prefix) - 1) != 0)
		return false;
	p = created_by + sizeof(prefix) - 1;
	for (i = 0; i < 3; i++)
	{
		if (*p < '0' || *p > '9')
			return false;
		v[i] = 0;
		while (*p >= '0' && *p <= '9' && v[i] < 1000)
			v[i] = v[i] * 10 + (*p++ - '0');
		if (i < 2 && *p++ != '.')
			return false;
	}
	return v[0] < 1 || (v[0] == 1 && (v[1] < 2 || (v[1] == 2 && v[2] < 9)));
}

static PqFile *
open_file(PqSource *src)
{
	PqFile	   *file;
	uint8		head[4];
	uint8		tail[8];
	uint32		footer_len;
	bool		pare;
	int			rg;

	if (src->size < PQ_MIN_FILE_SIZE)
		pq_corrupt("file is too small to be a Parquet file (" INT64_FORMAT " bytes)",
				   src->size);

	src->read(src, 0, 4, head);
	src->read(src, src->size - 8, 8, tail);
	pare = is_magic(tail + 4, "PARE");
	if (!pare && !is_magic(tail + 4, "PAR1"))
		pq_corrupt("file does not end with the Parquet magic bytes \"PAR1\" or \"PARE\"");
	if (!is_magic(head, pare ? "PARE" : "PAR1"))
		pq_corrupt("file does not start with the Parquet magic bytes \"%s\"",
				   pare ? "PARE" : "PAR1");

	footer_len = pq_load_le32(tail);
	if (footer_len == 0 || (int64) footer_len > src->size - PQ_MIN_FILE_SIZE)
		pq_corrupt("footer length %u does not fit in a file of " INT64_FORMAT " bytes",
				   footer_len, src->size);

	file = palloc0(sizeof(PqFile));
	file->cxt = CurrentMemoryContext;
	file->src = src;
	file->footer_len = footer_len;
	file->data_end = src->size - 8 - footer_len;
	file->footer = palloc_extended(footer_len, MCXT_ALLOC_HUGE);
	src->read(src, file->data_end, footer_len, file->footer);

	if (pare)
		open_encrypted_footer(file);
	else
	{
		size_t		md_len = pq_read_file_metadata(file->footer, footer_len,
												   &file->md);

		if (file->md.encryption_algorithm.kind != PQ_ENCRYPTION_NONE)
			open_plaintext_footer(file, md_len);
	}
	if (file->md.num_rows < 0)
		pq_corrupt("negative row count " INT64_FORMAT, file->md.num_rows);

	file->schema = pq_schema_build(&file->md);
	file->dict_header_uncounted =
		uncounted_dictionary_headers(file->md.created_by);

	for (rg = 0; rg < file->md.n_row_groups; rg++)
	{
		const PqRowGroup *g = &file->md.row_groups[rg];

		if (g->n_columns != file->schema->n_columns)
			pq_corrupt("row group %d has %d column chunks, but the schema has %d columns",
					   rg, g->n_columns, file->schema->n_columns);
		if (g->num_rows < 0)
			pq_corrupt("row group %d has a negative row count " INT64_FORMAT,
					   rg, g->num_rows);
	}
	if (file->crypto)
		pq_file_crypto_init_chunks(file);
	return file;
}

PqFile *
pq_file_open(PqSource *src)
{
	PqErrorLocation loc;
	PqFile	   *file;

	pq_errloc_push(&loc, src->name);
	file = open_file(src);
	pq_errloc_pop(&loc);
	return file;
}

PqFile *
pq_file_view(const PqFile *parsed, PqSource *src)
{
	PqFile	   *file = palloc(sizeof(PqFile));

	Assert(parsed->crypto == NULL);
	*file = *parsed;
	file->src = src;
	file->cxt = CurrentMemoryContext;
	file->page_index_cache = NULL;
	file->dictionary_cache = NULL;
	file->geo_cache = NULL;
	return file;
}

/*
 * Decrypt and parse a chunk's separately encrypted ColumnMetaData (kept
 * with the file).
 */
static const PqColumnMetaData *
decrypted_chunk_meta(const PqFile *file, int row_group, int column)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	size_t		slot = (size_t) row_group * file->schema->n_columns + column;
	const PqChunkCipher *c;
	PqColumnMetaData *cm;
	MemoryContext old;
	uint8	   *plain;
	size_t		consumed;
	size_t		len;

	if (file->crypto->chunk_meta[slot])
		return file->crypto->chunk_meta[slot];
	c = pq_file_chunk_cipher(file, row_group, column);
	old = MemoryContextSwitchTo(file->cxt);
	plain = pq_chunk_decrypt(c, PQ_MODULE_COLUMN_META, 0,
							 cc->encrypted_column_metadata.ptr,
							 cc->encrypted_column_metadata.len, &consumed, &len);
	if (consumed != cc->encrypted_column_metadata.len)
		pq_corrupt("encrypted column metadata has %zu bytes after its module",
				   cc->encrypted_column_metadata.len - consumed);
	cm = palloc0(sizeof(PqColumnMetaData));
	pq_read_column_metadata(plain, len, cm);
	MemoryContextSwitchTo(old);
	file->crypto->chunk_meta[slot] = cm;
	return cm;
}

const PqColumnMetaData *
pq_file_chunk_meta(const PqFile *file, int row_group, int column)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	const PqColumnDescr *col = &file->schema->columns[column];
	const PqColumnMetaData *cm;
	PqErrorLocation loc;

	pq_errloc_push(&loc, file->src->name);
	loc.row_group = row_group;
	loc.column = col->path;
	if (cc->file_path != NULL)
		pq_unsupported("column chunk data stored in another file (\"%s\") is not supported",
					   cc->file_path);
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE &&
		cc->encrypted_column_metadata.len > 0)
		cm = decrypted_chunk_meta(file, row_group, column);
	else if (cc->has_meta_data)
		cm = &cc->meta_data;
	else
		pq_corrupt("column chunk has no metadata");
	if (cm->type != col->physical_type)
		pq_corrupt("column chunk has physical type %s, but the schema says %s",
				   pq_physical_type_name(cm->type),
				   pq_physical_type_name(col->physical_type));
	if (cm->num_values < 0)
		pq_corrupt("column chunk has a negative value count");
	pq_errloc_pop(&loc);
	return cm;
}

void
pq_file_chunk_range(const PqFile *file, int row_group, int column,
					int64 *start, int64 *len, int64 *slack)
{
	const PqColumnMetaData *cm = pq_file_chunk_meta(file, row_group, column);
	int64		s = cm->data_page_offset;
	int64		l = cm->total_compressed_size;

	if (cm->has_dictionary_page_offset && cm->dictionary_page_offset > 0 &&
		cm->dictionary_page_offset < s)
		s = cm->dictionary_page_offset;
	if (s < 4 || s >= file->data_end)
		pq_corrupt("column chunk starts at byte " INT64_FORMAT ", outside the data area [4, " INT64_FORMAT ")",
				   s, file->data_end);
	if (l < 0)
		pq_corrupt("column chunk has negative size " INT64_FORMAT, l);

	/*
	 * Some writers get total_compressed_size slightly wrong; the page headers
	 * are the truth, so read up to the end of the data area.
	 */
	if (l > file->data_end - s)
		l = file->data_end - s;
	*slack = 0;
	if (file->dict_header_uncounted)
		*slack = Min(PQ_MAX_DICT_HEADER_SIZE, file->data_end - s - l);
	*start = s;
	*len = l + *slack;
}
