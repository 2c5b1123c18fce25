/*-------------------------------------------------------------------------
 *
 * file_writer.c
 *		Parquet files from column batches: schema, row groups, page
 *		indexes, Bloom filters and footer.
 *
 * Page indexes and Bloom filters are serialized when their row group is
 * flushed and kept until the end, where they are written after the last
 * row group, in parquet-java's order: every ColumnIndex, every
 * OffsetIndex, every Bloom filter.  Their offsets are filled into the
 * footer's ColumnChunks then.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/codec/codec.h"
#include "format/common/pq_common.h"
#include "format/metadata/schema.h"
#include "format/metadata/type_rules.h"
#include "format/write/column_writer.h"
#include "format/write/file_writer.h"

#define PQ_MAGIC "PAR1"

/* A module serialized at row group flush, written at finish. */
typedef struct PqDeferred
{
	int			type;			/* PqModuleType: COLUMN_INDEX, OFFSET_INDEX,
								 * BLOOM_BITSET */
	int			row_group;
	int			column;
	size_t		off;			/* in PqFileWriter.deferred */
	size_t		len;
} PqDeferred;

struct PqFileWriter
{
	MemoryContext cxt;
	PqSink	   *sink;
	PqWriterOptions opts;
	PqSchemaElement *schema;	/* root first, for the footer */
	int			n_schema;
	int			ncols;
	PqColumnWriter **cols;
	char	 ***paths;			/* path_in_schema per column */
	int		   *path_len;
	int64	   *pending_rows;	/* rows given to each column since end_rows */
	int64		rg_rows;		/* rows in the current row group */
	int64		total_rows;
	PqRowGroup *row_groups;
	int			n_row_groups;
	int			cap_row_groups;
	PqBuffer	deferred;
	PqDeferred *defer;
	int			n_defer;
	int			cap_defer;
	PqFileEncryptor *encryptor; /* NULL: plaintext file */
	PqBuffer	sealed;			/* an encrypted module on its way out */
	bool		finished;
};

void
pq_writer_options_init(PqWriterOptions *opts)
{
	memset(opts, 0, sizeof(PqWriterOptions));
	opts->codec = PQ_CODEC_SNAPPY;
	opts->compression_level = -1;
	opts->row_group_rows = 122880;
	opts->row_group_bytes = INT64CONST(128) * 1024 * 1024;
	opts->data_page_bytes = 1024 * 1024;
	opts->data_page_rows = 20000;
	opts->page_version = 1;
	opts->dictionary = true;
	opts->dictionary_page_limit = 1024 * 1024;
	opts->statistics = true;
	opts->page_index = true;
	opts->stats_truncate_length = 64;
	opts->created_by = "parquet_fdw";
}

int
pq_converted_type_for(const PqLogicalType *lt)
{
	switch (lt->id)
	{
		case PQ_LT_STRING:
			return PQ_CT_UTF8;
		case PQ_LT_MAP:
			return PQ_CT_MAP;
		case PQ_LT_LIST:
			return PQ_CT_LIST;
		case PQ_LT_ENUM:
			return PQ_CT_ENUM;
		case PQ_LT_DECIMAL:
			return PQ_CT_DECIMAL;
		case PQ_LT_DATE:
			return PQ_CT_DATE;
		case PQ_LT_TIME:
			/* local times too: LogicalTypes.md asks for the legacy type */
			return lt->time_unit == PQ_UNIT_MILLIS ? PQ_CT_TIME_MILLIS :
				lt->time_unit == PQ_UNIT_MICROS ? PQ_CT_TIME_MICROS : -1;
		case PQ_LT_TIMESTAMP:
			return lt->time_unit == PQ_UNIT_MILLIS ? PQ_CT_TIMESTAMP_MILLIS :
				lt->time_unit == PQ_UNIT_MICROS ? PQ_CT_TIMESTAMP_MICROS : -1;
		case PQ_LT_INTEGER:
			switch (lt->int_bit_width)
			{
				case 8:
					return lt->int_is_signed ? PQ_CT_INT_8 : PQ_CT_UINT_8;
				case 16:
					return lt->int_is_signed ? PQ_CT_INT_16 : PQ_CT_UINT_16;
				case 32:
					return lt->int_is_signed ? PQ_CT_INT_32 : PQ_CT_UINT_32;
				case 64:
					return lt->int_is_signed ? PQ_CT_INT_64 : PQ_CT_UINT_64;
			}
			return -1;
		case PQ_LT_JSON:
			return PQ_CT_JSON;
		case PQ_LT_BSON:
			return PQ_CT_BSON;
		default:
			return -1;
	}
}

static void
bad_schema(const char *field, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid Parquet schema field \"%s\": %s",
					field != NULL ? field : "", why)));
}

/* Reject annotations readers would refuse for the physical type. */
static void
check_leaf_type(const PqWriterField *f, int converted)
{
	int			pt = f->physical_type;
	PqLogicalType lt = f->logical;

	if (pt < PQ_BOOLEAN || pt > PQ_FIXED_LEN_BYTE_ARRAY)
		bad_schema(f->name, "unknown physical type");
	if (pt == PQ_FIXED_LEN_BYTE_ARRAY && f->type_length <= 0)
		bad_schema(f->name, "FIXED_LEN_BYTE_ARRAY needs a positive length");
	/* INTERVAL is a ConvertedType only: checked as the reader resolves it */
	if (converted == PQ_CT_INTERVAL && lt.id == PQ_LT_NONE)
		lt.id = PQ_LT_INTERVAL;
	if (!pq_logical_fits_physical(&lt, pt, f->type_length))
		bad_schema(f->name, "logical type does not fit the physical type");
	if (f->bloom_filter && pt == PQ_BOOLEAN)
		bad_schema(f->name, "BOOLEAN columns cannot have a Bloom filter");
	if (f->bloom_filter && f->bloom_fpp >= 1.0)
		bad_schema(f->name, "Bloom filter false positive rate must be below 1");
}

static void
add_column(PqFileWriter *w, const PqWriterField *f, int converted, int max_def,
		   int max_rep, char **path, int depth)
{
	const PqWriterOptions *o = &w->opts;
	PqColumnWriterConfig cfg;
	int			c = w->ncols++;

	memset(&cfg, 0, sizeof(cfg));
	cfg.physical_type = f->physical_type;
	cfg.type_length = f->type_length;
	cfg.logical = f->logical;
	cfg.converted_type = converted;
	cfg.max_def = max_def;
	cfg.max_rep = max_rep;
	cfg.codec = o->codec;
	cfg.compression_level = o->compression_level;
	cfg.page_version = o->page_version;
	cfg.dictionary = o->dictionary;
	cfg.dictionary_page_limit = o->dictionary_page_limit;
	cfg.data_page_bytes = o->data_page_bytes;
	cfg.data_page_rows = o->data_page_rows;
	cfg.statistics = o->statistics;
	cfg.page_statistics = o->statistics && !o->page_index;
	cfg.page_index = o->page_index;
	cfg.truncate_length = o->stats_truncate_length;
	cfg.bloom_filter = f->bloom_filter;
	cfg.bloom_fpp = f->bloom_fpp > 0 ? f->bloom_fpp : 0.01;
	cfg.bloom_ndv = f->bloom_ndv;
	cfg.column = c;
	w->cols[c] = pq_column_writer_create(&cfg);
	w->path_len[c] = depth + 1;
	w->paths[c] = palloc(sizeof(char *) * (depth + 1));
	memcpy(w->paths[c], path, sizeof(char *) * (depth + 1));
}

/*
 * Schema element i + 1 from field i and its subtree; returns the index of
 * the field after the subtree.
 */
static int
add_field(PqFileWriter *w, const PqWriterField *fields, int nfields, int i,
		  int depth, int def, int rep, char **path)
{
	const PqWriterField *f = &fields[i];
	PqSchemaElement *se = &w->schema[i + 1];
	int			converted;
	int			next;
	int			k;

	if (f->name == NULL || f->name[0] == '\0')
		bad_schema(f->name, "empty name");
	if (f->repetition < PQ_REQUIRED || f->repetition > PQ_REPEATED)
		bad_schema(f->name, "unknown repetition");
	if (f->num_children < 0)
		bad_schema(f->name, "negative number of children");
	def += f->repetition != PQ_REQUIRED;
	rep += f->repetition == PQ_REPEATED;
	converted = f->converted_type >= 0 ? f->converted_type :
		pq_converted_type_for(&f->logical);

	se->name = pstrdup(f->name);
	se->has_repetition_type = true;
	se->repetition_type = f->repetition;
	se->logical_type = f->logical;
	if (f->logical.geo_crs != NULL)
		se->logical_type.geo_crs = pstrdup(f->logical.geo_crs);
	if (converted >= 0)
	{
		se->has_converted_type = true;
		se->converted_type = converted;
	}
	path[depth] = se->name;

	if (f->num_children > 0)
	{
		se->has_num_children = true;
		se->num_children = f->num_children;
		next = i + 1;
		for (k = 0; k < f->num_children; k++)
		{
			if (next >= nfields)
				bad_schema(f->name, "the field list ends inside the group");
			next = add_field(w, fields, nfields, next, depth + 1, def, rep,
							 path);
		}
		return next;
	}

	check_leaf_type(f, converted);
	se->has_type = true;
	se->type = f->physical_type;
	if (f->physical_type == PQ_FIXED_LEN_BYTE_ARRAY)
	{
		se->has_type_length = true;
		se->type_length = f->type_length;
	}
	if (f->logical.id == PQ_LT_DECIMAL)
	{
		se->has_scale = se->has_precision = true;
		se->scale = f->logical.decimal_scale;
		se->precision = f->logical.decimal_precision;
	}
	add_column(w, f, converted, def, rep, path, depth);
	return i + 1;
}

static void
check_options(const PqWriterOptions *o)
{
	const char *bad = NULL;
	int			lo,
				hi;

	if (!pq_codec_supported(o->codec))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Parquet compression codec %s is not supported for writing",
						pq_codec_name(o->codec))));
	if (o->compression_level >= 0 &&
		pq_codec_level_range(o->codec, &lo, &hi) &&
		(o->compression_level < lo || o->compression_level > hi))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("compression level %d is out of range for %s (%d..%d)",
						o->compression_level, pq_codec_name(o->codec), lo, hi)));
	if (o->row_group_rows <= 0)
		bad = "row group rows";
	else if (o->row_group_bytes <= 0)
		bad = "row group bytes";
	else if (o->data_page_bytes <= 0 || o->data_page_bytes > PG_INT32_MAX / 2)
		bad = "data page size";
	else if (o->data_page_rows <= 0 || o->data_page_rows > PG_INT32_MAX)
		bad = "data page rows";
	else if (o->page_version != 1 && o->page_version != 2)
		bad = "page version";
	else if (o->dictionary_page_limit <= 0 ||
			 o->dictionary_page_limit > PG_INT32_MAX / 2)
		bad = "dictionary page size limit";
	if (bad != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid Parquet writer option: %s", bad)));
}

/* The encryptor for the schema's columns, handed to their writers. */
static void
start_encryption(PqFileWriter *w, const PqEncryptionOptions *eo)
{
	const char **paths = palloc(sizeof(char *) * w->ncols);
	int			c;
	int			i;

	for (c = 0; c < w->ncols; c++)
	{
		size_t		len = 0;
		char	   *p;

		for (i = 0; i < w->path_len[c]; i++)
			len += strlen(w->paths[c][i]) + 1;
		paths[c] = p = palloc(len);
		for (i = 0; i < w->path_len[c]; i++)
		{
			if (i > 0)
				*p++ = '.';
			strcpy(p, w->paths[c][i]);
			p += strlen(p);
		}
	}
	w->encryptor = pq_file_encryptor_create(eo, w->ncols, paths);
	for (c = 0; c < w->ncols; c++)
		if (pq_encryptor_column_encrypted(w->encryptor, c))
			w->cols[c]->cfg.encryptor = w->encryptor;
	pq_buffer_init(&w->sealed, 1024);
}

PqFileWriter *
pq_file_writer_create(PqSink *sink, const PqWriterField *fields, int nfields,
					  const PqWriterOptions *opts)
{
	PqFileWriter *w = palloc0(sizeof(PqFileWriter));
	char	  **path;
	int			next = 0;
	int			top = 0;
	int			i;

	check_options(opts);
	if (nfields <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a Parquet file needs at least one column")));
	w->cxt = CurrentMemoryContext;
	w->sink = sink;
	w->opts = *opts;
	w->opts.created_by = pstrdup(opts->created_by != NULL ?
								 opts->created_by : "parquet_fdw");
	if (opts->n_key_value > 0)
	{
		PqKeyValue *kv = palloc(sizeof(PqKeyValue) * opts->n_key_value);

		for (i = 0; i < opts->n_key_value; i++)
		{
			kv[i].key = pstrdup(opts->key_value[i].key);
			kv[i].value = opts->key_value[i].value != NULL ?
				pstrdup(opts->key_value[i].value) : NULL;
		}
		w->opts.key_value = kv;
	}

	w->n_schema = nfields + 1;
	w->schema = palloc0(sizeof(PqSchemaElement) * w->n_schema);
	w->cols = palloc(sizeof(PqColumnWriter *) * nfields);
	w->paths = palloc(sizeof(char **) * nfields);
	w->path_len = palloc(sizeof(int) * nfields);
	path = palloc(sizeof(char *) * nfields);
	while (next < nfields)
	{
		next = add_field(w, fields, nfields, next, 0, 0, 0, path);
		top++;
	}
	pfree(path);
	if (w->ncols == 0)
		bad_schema(fields[0].name, "the schema has no leaf column");
	w->schema[0].name = pstrdup("schema");
	w->schema[0].has_num_children = true;
	w->schema[0].num_children = top;
	w->pending_rows = palloc0(sizeof(int64) * w->ncols);

	if (opts->encryption != NULL)
		start_encryption(w, opts->encryption);
	w->opts.encryption = NULL;	/* the caller's; the encryptor has copies */

	w->cap_row_groups = 8;
	w->row_groups = palloc(sizeof(PqRowGroup) * w->cap_row_groups);
	w->cap_defer = 16;
	w->defer = palloc(sizeof(PqDeferred) * w->cap_defer);
	pq_buffer_init(&w->deferred, 1024);

	sink->offset = 0;
	sink->write(sink, (const uint8 *) (w->encryptor ?
									   pq_encryptor_magic(w->encryptor) :
									   PQ_MAGIC), 4);
	sink->offset += 4;
	return w;
}

int
pq_file_writer_num_columns(const PqFileWriter *w)
{
	return w->ncols;
}

static void
check_column(const PqFileWriter *w, int column)
{
	if (column < 0 || column >= w->ncols)
		elog(ERROR, "Parquet writer has no column %d", column);
	if (w->finished)
		elog(ERROR, "Parquet writer is already finished");
}

void
pq_file_writer_column_levels(const PqFileWriter *w, int column, int *max_def,
							 int *max_rep)
{
	check_column(w, column);
	*max_def = w->cols[column]->cfg.max_def;
	*max_rep = w->cols[column]->cfg.max_rep;
}

/* Sequential output: everything reaches the sink through here. */
static void
fw_write(PqFileWriter *w, const uint8 *data, size_t len)
{
	if (len == 0)
		return;
	w->sink->write(w->sink, data, len);
	w->sink->offset += (int64) len;
}

/*
 * The one place the file writer's modules of a column chunk (page indexes,
 * Bloom filters) are written: encrypted when the column is.
 */
static void
fw_emit_module(PqFileWriter *w, PqModuleType type, int row_group, int column,
			   const uint8 *data, size_t len)
{
	Assert(type != PQ_MODULE_DATA_PAGE && type != PQ_MODULE_DICT_PAGE);
	if (!pq_encryptor_column_encrypted(w->encryptor, column))
	{
		fw_write(w, data, len);
		return;
	}
	pq_buffer_reset(&w->sealed);
	pq_encrypt_module(w->encryptor, type, row_group, column, 0, data, len,
					  &w->sealed);
	fw_write(w, w->sealed.data, w->sealed.len);
}

void
pq_file_writer_write_column(PqFileWriter *w, int column, int nlevels,
							const int16 *def, const int16 *rep, int nvalues,
							const void *fixed, const PqByteArray *ba)
{
	MemoryContext old;

	check_column(w, column);
	old = MemoryContextSwitchTo(w->cxt);
	w->pending_rows[column] += pq_column_writer_write(w->cols[column], nlevels,
													  def, rep, nvalues,
													  fixed, ba);
	MemoryContextSwitchTo(old);
}

static void
defer_module(PqFileWriter *w, int type, int column, size_t start)
{
	PqDeferred *d;

	if (w->n_defer == w->cap_defer)
	{
		w->cap_defer *= 2;
		w->defer = repalloc_huge(w->defer, sizeof(PqDeferred) * (size_t) w->cap_defer);
	}
	d = &w->defer[w->n_defer++];
	d->type = type;
	d->row_group = w->n_row_groups;
	d->column = column;
	d->off = start;
	d->len = w->deferred.len - start;
}

static void
flush_row_group(PqFileWriter *w)
{
	PqRowGroup *rg;
	int			c;

	if (w->rg_rows == 0)
		return;
	if (w->n_row_groups == w->cap_row_groups)
	{
		w->cap_row_groups *= 2;
		w->row_groups = repalloc_huge(w->row_groups,
									  sizeof(PqRowGroup) * (size_t) w->cap_row_groups);
	}
	rg = &w->row_groups[w->n_row_groups];
	memset(rg, 0, sizeof(PqRowGroup));
	rg->columns = palloc0(sizeof(PqColumnChunk) * w->ncols);
	rg->n_columns = w->ncols;
	rg->num_rows = w->rg_rows;
	rg->has_file_offset = true;
	rg->file_offset = w->sink->offset;
	rg->has_total_compressed_size = true;
	if (w->n_row_groups <= PG_INT16_MAX)
	{
		rg->has_ordinal = true;
		rg->ordinal = (int16) w->n_row_groups;
	}

	for (c = 0; c < w->ncols; c++)
	{
		PqColumnWriter *cw = w->cols[c];
		PqColumnChunk *cc = &rg->columns[c];
		int64		chunk_offset;
		size_t		start;

		pq_column_writer_finish_chunk(cw);
		chunk_offset = w->sink->offset;
		fw_write(w, cw->dict_page.data, cw->dict_page.len);
		fw_write(w, cw->pages.data, cw->pages.len);

		cc->has_meta_data = true;
		pq_column_writer_metadata(cw, chunk_offset, &cc->meta_data);
		cc->meta_data.path_in_schema = w->paths[c];
		cc->meta_data.n_path_in_schema = w->path_len[c];
		rg->total_byte_size += cc->meta_data.total_uncompressed_size;
		rg->total_compressed_size += cc->meta_data.total_compressed_size;

		if (w->opts.page_index)
		{
			start = w->deferred.len;
			if (pq_column_writer_column_index(cw, &w->deferred))
				defer_module(w, PQ_MODULE_COLUMN_INDEX, c, start);
			start = w->deferred.len;
			pq_column_writer_offset_index(cw, chunk_offset, &w->deferred);
			defer_module(w, PQ_MODULE_OFFSET_INDEX, c, start);
		}
		start = w->deferred.len;
		if (pq_column_writer_bloom_filter(cw, &w->deferred))
			defer_module(w, PQ_MODULE_BLOOM_BITSET, c, start);
		pq_column_writer_reset_chunk(cw);
	}
	w->n_row_groups++;
	w->rg_rows = 0;
}

void
pq_file_writer_end_rows(PqFileWriter *w, int nrows)
{
	MemoryContext old;
	int64		bytes = 0;
	int			c;

	if (w->finished)
		elog(ERROR, "Parquet writer is already finished");
	for (c = 0; c < w->ncols; c++)
	{
		if (w->pending_rows[c] != nrows)
			elog(ERROR, "Parquet column %d received " INT64_FORMAT " rows, not %d",
				 c, w->pending_rows[c], nrows);
		w->pending_rows[c] = 0;
		bytes += pq_column_writer_buffered_bytes(w->cols[c]);
	}
	w->rg_rows += nrows;
	w->total_rows += nrows;
	if (w->rg_rows >= w->opts.row_group_rows || bytes >= w->opts.row_group_bytes)
	{
		old = MemoryContextSwitchTo(w->cxt);
		flush_row_group(w);
		MemoryContextSwitchTo(old);
	}
}

int64
pq_file_writer_row_group_room(const PqFileWriter *w)
{
	return Max(w->opts.row_group_rows - w->rg_rows, 0);
}

int
pq_file_writer_num_row_groups(const PqFileWriter *w)
{
	return w->n_row_groups;
}

void
pq_file_writer_flush_row_group(PqFileWriter *w)
{
	MemoryContext old;
	int			c;

	if (w->finished)
		elog(ERROR, "Parquet writer is already finished");
	for (c = 0; c < w->ncols; c++)
		if (w->pending_rows[c] != 0)
			elog(ERROR, "Parquet column %d has rows not ended by pq_file_writer_end_rows",
				 c);
	old = MemoryContextSwitchTo(w->cxt);
	flush_row_group(w);
	MemoryContextSwitchTo(old);
}

/* Write the deferred modules of one type and point their chunks at them. */
static void
write_deferred(PqFileWriter *w, int type)
{
	PqBuffer	hdr;
	int			i;

	pq_buffer_init(&hdr, 32);
	for (i = 0; i < w->n_defer; i++)
	{
		const PqDeferred *d = &w->defer[i];
		PqColumnChunk *cc = &w->row_groups[d->row_group].columns[d->column];
		int64		offset = w->sink->offset;

		if (d->type != type)
			continue;
		if (type == PQ_MODULE_BLOOM_BITSET)
		{
			PqBloomFilterHeader bh;

			bh.num_bytes = (int32) d->len;
			bh.algorithm = 1;	/* BLOCK */
			bh.hash = 1;		/* XXHASH */
			bh.compression = 1; /* UNCOMPRESSED */
			pq_buffer_reset(&hdr);
			pq_write_bloom_filter_header(&hdr, &bh);
			fw_emit_module(w, PQ_MODULE_BLOOM_HEADER, d->row_group, d->column,
						   hdr.data, hdr.len);
		}
		fw_emit_module(w, type, d->row_group, d->column,
					   w->deferred.data + d->off, d->len);
		switch (type)
		{
			case PQ_MODULE_COLUMN_INDEX:
				cc->has_column_index_offset = cc->has_column_index_length = true;
				cc->column_index_offset = offset;
				cc->column_index_length = (int32) (w->sink->offset - offset);
				break;
			case PQ_MODULE_OFFSET_INDEX:
				cc->has_offset_index_offset = cc->has_offset_index_length = true;
				cc->offset_index_offset = offset;
				cc->offset_index_length = (int32) (w->sink->offset - offset);
				break;
			default:
				cc->meta_data.has_bloom_filter_offset = true;
				cc->meta_data.bloom_filter_offset = offset;
				cc->meta_data.has_bloom_filter_length = true;
				cc->meta_data.bloom_filter_length =
					(int32) (w->sink->offset - offset);
				break;
		}
	}
	pfree(hdr.data);
}

void
pq_file_writer_finish(PqFileWriter *w)
{
	MemoryContext old;
	PqFileMetaData md;
	PqBuffer	footer;
	uint8		len[4];
	int			c;

	pq_file_writer_flush_row_group(w);
	old = MemoryContextSwitchTo(w->cxt);
	write_deferred(w, PQ_MODULE_COLUMN_INDEX);
	write_deferred(w, PQ_MODULE_OFFSET_INDEX);
	write_deferred(w, PQ_MODULE_BLOOM_BITSET);

	memset(&md, 0, sizeof(md));
	md.version = w->opts.page_version == 2 ? 2 : 1;
	md.schema = w->schema;
	md.n_schema = w->n_schema;
	md.num_rows = w->total_rows;
	md.row_groups = w->row_groups;
	md.n_row_groups = w->n_row_groups;
	if (w->opts.n_key_value > 0)
	{
		md.key_value_metadata = (PqKeyValue *) w->opts.key_value;
		md.n_key_value_metadata = w->opts.n_key_value;
	}
	md.created_by = (char *) w->opts.created_by;
	md.column_orders = palloc(sizeof(int) * w->ncols);
	md.n_column_orders = w->ncols;
	for (c = 0; c < w->ncols; c++)
		md.column_orders[c] = PQ_ORDER_TYPE_DEFINED;

	pq_buffer_init(&footer, 4096);
	if (w->encryptor != NULL)
	{
		int			rg;

		for (rg = 0; rg < w->n_row_groups; rg++)
			for (c = 0; c < w->ncols; c++)
				pq_encryptor_column_chunk(w->encryptor, rg, c,
										  &w->row_groups[rg].columns[c]);
		pq_encryptor_footer(w->encryptor, &md, &footer);
	}
	else
		pq_write_file_metadata(&footer, &md);
	if (footer.len > PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet footer of %zu bytes is too large", footer.len)));
	fw_write(w, footer.data, footer.len);
	pq_store_le32(len, (uint32) footer.len);
	fw_write(w, len, 4);
	fw_write(w, (const uint8 *) (w->encryptor ?
								 pq_encryptor_magic(w->encryptor) : PQ_MAGIC),
			 4);
	w->finished = true;
	MemoryContextSwitchTo(old);
}
