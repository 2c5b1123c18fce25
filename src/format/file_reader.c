/*-------------------------------------------------------------------------
 *
 * file_reader.c
 *		Parquet footer: magic, length, FileMetaData, schema, chunk ranges.
 *
 *-------------------------------------------------------------------------
 */
#include "file_reader.h"

#include "utils/memutils.h"

static bool
is_magic(const uint8 *p, const char *magic)
{
	return memcmp(p, magic, 4) == 0;
}

PqFile *
pq_file_open(PqSource *src)
{
	PqFile	   *file;
	uint8		head[4];
	uint8		tail[8];
	uint32		footer_len;
	int			rg;

	pq_errloc_set_file(src->name);
	if (src->size < PQ_MIN_FILE_SIZE)
		pq_corrupt("file is too small to be a Parquet file (" INT64_FORMAT " bytes)",
				   src->size);

	src->read(src, 0, 4, head);
	src->read(src, src->size - 8, 8, tail);
	if (is_magic(tail + 4, "PARE"))
		pq_unsupported("files with an encrypted footer are not supported yet");
	if (!is_magic(tail + 4, "PAR1"))
		pq_corrupt("file does not end with the Parquet magic bytes \"PAR1\"");
	if (!is_magic(head, "PAR1"))
		pq_corrupt("file does not start with the Parquet magic bytes \"PAR1\"");

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

	pq_read_file_metadata(file->footer, footer_len, &file->md);
	if (file->md.encryption_algorithm.kind != PQ_ENCRYPTION_NONE)
		pq_unsupported("encrypted Parquet files are not supported yet");
	if (file->md.num_rows < 0)
		pq_corrupt("negative row count " INT64_FORMAT, file->md.num_rows);

	file->schema = pq_schema_build(&file->md);

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
	return file;
}

const PqColumnMetaData *
pq_file_chunk_meta(const PqFile *file, int row_group, int column)
{
	const PqColumnChunk *cc = &file->md.row_groups[row_group].columns[column];
	const PqColumnDescr *col = &file->schema->columns[column];

	pq_errloc.row_group = row_group;
	pq_errloc.column = col->path;
	pq_errloc.page_offset = -1;
	if (cc->file_path != NULL)
		pq_unsupported("column chunk data stored in another file (\"%s\") is not supported",
					   cc->file_path);
	if (cc->crypto_metadata.kind != PQ_CRYPTO_NONE)
		pq_unsupported("encrypted column chunks are not supported yet");
	if (!cc->has_meta_data)
		pq_corrupt("column chunk has no metadata");
	if (cc->meta_data.type != col->physical_type)
		pq_corrupt("column chunk has physical type %s, but the schema says %s",
				   pq_physical_type_name(cc->meta_data.type),
				   pq_physical_type_name(col->physical_type));
	if (cc->meta_data.num_values < 0)
		pq_corrupt("column chunk has a negative value count");
	return &cc->meta_data;
}

void
pq_file_chunk_range(const PqFile *file, int row_group, int column,
					int64 *start, int64 *len)
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
	 * Some writers get total_compressed_size slightly wrong; the page
	 * headers are the truth, so read up to the end of the data area.
	 */
	if (l > file->data_end - s)
		l = file->data_end - s;
	*start = s;
	*len = l;
}
