/*-------------------------------------------------------------------------
 *
 * copy_options.c
 *		Validate the WITH (...) options of COPY ... TO ... (FORMAT parquet)
 *		into writer options.
 *
 * COPY's grammar takes any "name value" pair, so every option is checked
 * here: an unknown one (including text-format options such as header or
 * delimiter) is a syntax error listing the valid ones; a bad value is an
 * invalid-parameter error naming the option and its valid values.
 *
 * Lists (bloom_filter, key_value_metadata) are written either as one
 * comma-separated string, 'a,b', or as a parenthesised list, ('a', 'b');
 * a key_value_metadata entry is key=value, split at its first '=' (the
 * list form lets values hold commas).  bloom_filter_fpp and
 * bloom_filter_ndv take one number for every Bloom filter column, or a
 * list of column=number entries.
 *
 * Dataset options (partition_by, file_size_bytes, row_groups_per_file) make
 * the target a directory tree (target_tree.c, partition.c); partition_by is a
 * list as above, so DuckDB's spelling partition_by (a, b) works too, and
 * file_size_bytes takes DuckDB's sizes: a number of bytes, or one with a
 * unit: KB, MB, GB, TB (powers of 1000; K, M, G, T alike) or KiB, MiB,
 * GiB, TiB (powers of 1024), in any case, spaces allowed before the unit.
 *
 * Encryption options name keys by id (footer_key, column_keys), never by
 * value: statement text reaches the server log (log_statement, and the
 * statement of any failing command at the default log_min_error_statement),
 * pg_stat_activity and pg_stat_statements.  Key material is registered once
 * in the key store (parquet_fdw.create_key(), docs/ENCRYPTION.md).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/defrem.h"
#include "fdw/common/table_options.h"
#include "fdw/copy/copy_to.h"
#include "fdw/keys/keys.h"
#include "format/codec/codec.h"
#include "utils/builtins.h"
#include "utils/varlena.h"

#define VALID_OPTIONS "format, compression, compression_level, " \
	"row_group_size, row_group_size_bytes, data_page_size, data_page_rows, page_version, " \
	"dictionary, statistics, page_index, bloom_filter, bloom_filter_fpp, " \
	"key_value_metadata, numeric_scale, bloom_filter_ndv, " \
	"dictionary_page_size, statistics_truncate_length, interval_truncate, " \
	"numeric_as, jsonb_as, footer_key, column_keys, encryption_algorithm, " \
	"plaintext_footer, aad_prefix, store_aad_prefix, kms_footer_key, " \
	"kms_column_keys, double_wrapping, key_material, kms_instance_url, " \
	"partition_by, write_partition_columns, overwrite, overwrite_or_ignore, " \
	"file_size_bytes, row_groups_per_file, max_open_files, " \
	"success_marker, server, part_size, parts_in_flight"

typedef struct CodecName
{
	const char *name;
	int			codec;
} CodecName;

static const CodecName codec_names[] = {
	{"uncompressed", PQ_CODEC_UNCOMPRESSED},
	{"snappy", PQ_CODEC_SNAPPY},
	{"gzip", PQ_CODEC_GZIP},
	{"brotli", PQ_CODEC_BROTLI},
	{"zstd", PQ_CODEC_ZSTD},
	{"lz4_raw", PQ_CODEC_LZ4_RAW}
};

static void
bad_value(DefElem *def, const char *value, const char *valid)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for COPY option \"%s\": \"%s\"",
					def->defname, value),
			 errhint("Valid values are %s.", valid)));
}

static int64
get_int64(DefElem *def, int64 min, int64 max)
{
	char	   *s = defGetString(def);
	int64		v;

	if (!pqfdw_parse_int64(s, min, max, &v))
		bad_value(def, s, psprintf("integers from " INT64_FORMAT " to " INT64_FORMAT,
								   min, max));
	return v;
}

/* The elements of a list option: ('a', 'b') or 'a,b'. */
static List *
get_list(DefElem *def)
{
	List	   *out = NIL;
	ListCell   *lc;

	if (def->arg != NULL && IsA(def->arg, List))
	{
		foreach(lc, (List *) def->arg)
		{
			Node	   *elem = lfirst(lc);

			if (!IsA(elem, String))
				bad_value(def, nodeToString(elem), "strings");
			out = lappend(out, pstrdup(strVal(elem)));
		}
		return out;
	}
	/* identifiers as in SQL: unquoted ones are folded to lower case */
	if (!SplitIdentifierString(pstrdup(defGetString(def)), ',', &out))
		bad_value(def, defGetString(def), "comma-separated column names");
	return out;
}

/* key_value_metadata items: split at ',' only in the one-string form. */
static List *
get_key_values(DefElem *def)
{
	List	   *out = NIL;
	char	   *s;
	char	   *tok;
	char	   *save;

	if (def->arg != NULL && IsA(def->arg, List))
	{
		ListCell   *lc;

		foreach(lc, (List *) def->arg)
		{
			if (!IsA(lfirst(lc), String))
				bad_value(def, nodeToString(lfirst(lc)), "key=value strings");
			out = lappend(out, pstrdup(strVal(lfirst(lc))));
		}
		return out;
	}
	s = pstrdup(defGetString(def));
	for (tok = strtok_r(s, ",", &save); tok != NULL;
		 tok = strtok_r(NULL, ",", &save))
		out = lappend(out, tok);
	return out;
}

/* file_size_bytes: '10MB', '1.5 GiB', '1000'. */
static int64
get_size(DefElem *def)
{
	static const struct
	{
		const char *unit;
		double		factor;
	}			units[] = {
		{"", 1}, {"b", 1}, {"k", 1e3}, {"kb", 1e3}, {"m", 1e6}, {"mb", 1e6},
		{"g", 1e9}, {"gb", 1e9}, {"t", 1e12}, {"tb", 1e12},
		{"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0},
		{"tib", 1099511627776.0}
	};
	char	   *s = defGetString(def);
	char	   *end;
	double		v;
	int			i;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !(v >= 1.0))
		bad_value(def, s, "sizes such as 1000, '10MB' or '1GiB' (at least one byte)");
	while (*end == ' ')
		end++;
	for (i = 0; i < lengthof(units); i++)
	{
		if (pg_strcasecmp(end, units[i].unit) == 0)
		{
			v *= units[i].factor;
			if (v >= (double) PG_INT64_MAX)
				bad_value(def, s, "sizes below 2^63 bytes");
			return (int64) v;
		}
	}
	bad_value(def, s, "sizes such as 1000, '10MB' or '1GiB' (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
	return 0;					/* not reached */
}

static double
parse_fpp(DefElem *def, const char *s)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v > 0.0 && v < 1.0))
		bad_value(def, s, "numbers between 0 and 1 (exclusive)");
	return v;
}

static int64
parse_ndv(DefElem *def, const char *s)
{
	int64		v;

	if (!pqfdw_parse_int64(s, 1, PG_INT64_MAX, &v))
		bad_value(def, s, "positive integers");
	return v;
}

/*
 * bloom_filter_fpp / bloom_filter_ndv: one number for every column (into
 * *all), or column=number entries for columns of bloom_filter.
 */
static void
apply_bloom_setting(DefElem *def, List *columns, bool is_fpp, double *all_fpp,
					int64 *all_ndv)
{
	ListCell   *lc;

	if (!(def->arg != NULL && IsA(def->arg, List)) &&
		strchr(defGetString(def), '=') == NULL)
	{
		if (is_fpp)
			*all_fpp = parse_fpp(def, defGetString(def));
		else
			*all_ndv = parse_ndv(def, defGetString(def));
		return;
	}
	foreach(lc, get_key_values(def))
	{
		char	   *item = lfirst(lc);
		char	   *eq = strchr(item, '=');
		List	   *names = NIL;
		ListCell   *lc2;

		if (eq == NULL)
			bad_value(def, item, "a number, or column=number items");
		*eq = '\0';
		if (!SplitIdentifierString(item, ',', &names) || list_length(names) != 1)
			bad_value(def, item, "column=number items");
		foreach(lc2, columns)
		{
			PqCopyBloomColumn *bc = lfirst(lc2);

			if (strcmp(bc->name, linitial(names)) != 0)
				continue;
			if (is_fpp)
				bc->fpp = parse_fpp(def, eq + 1);
			else
				bc->ndv = parse_ndv(def, eq + 1);
			break;
		}
		if (lc2 == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("column \"%s\" of COPY option \"%s\" is not in bloom_filter",
							(char *) linitial(names), def->defname)));
	}
}

bool
pqfdw_copy_is_parquet(List *options)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);

		if (strcmp(def->defname, "format") == 0 && def->arg != NULL &&
			IsA(def->arg, String) &&
			pg_strcasecmp(strVal(def->arg), "parquet") == 0)
			return true;
	}
	return false;
}

void
pqfdw_copy_option_once(List **seen, const char *name)
{
	ListCell   *lc;

	foreach(lc, *seen)
		if (strcmp((char *) lfirst(lc), name) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("conflicting or redundant options"),
				 errdetail("Option \"%s\" is given more than once.", name)));
	*seen = lappend(*seen, (char *) name);
}

void
pqfdw_copy_parse_options(List *options, PqCopyOptions *opts)
{
	List	   *seen = NIL;
	DefElem    *level_def = NULL;
	DefElem    *fpp_def = NULL;
	DefElem    *ndv_def = NULL;
	DefElem    *encryption_def = NULL;	/* an option that needs footer_key */
	DefElem    *store_def = NULL;
	DefElem    *kms_def = NULL; /* an option that needs kms_footer_key */
	PqCopyEncryption *ce = &opts->encryption;
	ListCell   *lc;

	memset(opts, 0, sizeof(*opts));
	pq_writer_options_init(&opts->writer);
	opts->writer.created_by = "parquet_fdw version " PQFDW_VERSION;
	opts->types.numeric_scale = PQFDW_DEFAULT_NUMERIC_SCALE;
	ce->algorithm = PQ_AES_GCM_V1;
	ce->store_aad_prefix = true;
	ce->double_wrapping = true;
	opts->dataset.max_open_files = 100;
	opts->remote.part_size = PQFDW_DEFAULT_PART_SIZE;
	opts->remote.parts_in_flight = PQFDW_DEFAULT_PARTS_IN_FLIGHT;

	foreach(lc, options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);
		const char *name = def->defname;
		ListCell   *lc2;

		pqfdw_copy_option_once(&seen, name);

		if (strcmp(name, "format") == 0)
			continue;			/* pqfdw_copy_is_parquet() checked it */
		else if (strcmp(name, "compression") == 0)
		{
			char	   *s = defGetString(def);
			int			i;

			for (i = 0; i < lengthof(codec_names); i++)
				if (pg_strcasecmp(s, codec_names[i].name) == 0)
					break;
			if (i == lengthof(codec_names))
				bad_value(def, s, "uncompressed, snappy, gzip, brotli, zstd and lz4_raw");
			opts->writer.codec = codec_names[i].codec;
		}
		else if (strcmp(name, "compression_level") == 0)
			level_def = def;
		else if (strcmp(name, "row_group_size") == 0)
			opts->writer.row_group_rows = get_int64(def, 1, PG_INT32_MAX);
		else if (strcmp(name, "row_group_size_bytes") == 0)
			opts->writer.row_group_bytes = get_int64(def, 1, PG_INT64_MAX);
		else if (strcmp(name, "data_page_size") == 0)
			opts->writer.data_page_bytes = get_int64(def, 1, PG_INT32_MAX / 2);
		else if (strcmp(name, "data_page_rows") == 0)
			opts->writer.data_page_rows = get_int64(def, 1, PG_INT32_MAX);
		else if (strcmp(name, "page_version") == 0)
			opts->writer.page_version = (int) get_int64(def, 1, 2);
		else if (strcmp(name, "dictionary") == 0)
			opts->writer.dictionary = defGetBoolean(def);
		else if (strcmp(name, "statistics") == 0)
			opts->writer.statistics = defGetBoolean(def);
		else if (strcmp(name, "page_index") == 0)
			opts->writer.page_index = defGetBoolean(def);
		else if (strcmp(name, "bloom_filter") == 0)
		{
			foreach(lc2, get_list(def))
			{
				PqCopyBloomColumn *bc = palloc0(sizeof(PqCopyBloomColumn));

				bc->name = lfirst(lc2);
				opts->bloom_columns = lappend(opts->bloom_columns, bc);
			}
		}
		else if (strcmp(name, "bloom_filter_fpp") == 0)
			fpp_def = def;
		else if (strcmp(name, "bloom_filter_ndv") == 0)
			ndv_def = def;
		else if (strcmp(name, "dictionary_page_size") == 0)
			opts->writer.dictionary_page_limit = get_int64(def, 1, PG_INT32_MAX / 2);
		else if (strcmp(name, "statistics_truncate_length") == 0)
			opts->writer.stats_truncate_length = (int) get_int64(def, 0, PG_INT32_MAX);
		else if (strcmp(name, "interval_truncate") == 0)
			opts->types.interval_truncate = defGetBoolean(def);
		else if (strcmp(name, "numeric_as") == 0)
		{
			char	   *s = defGetString(def);

			if (pg_strcasecmp(s, "string") != 0 && pg_strcasecmp(s, "decimal") != 0)
				bad_value(def, s, "decimal and string");
			opts->types.numeric_as_string = pg_strcasecmp(s, "string") == 0;
		}
		else if (strcmp(name, "jsonb_as") == 0)
		{
			char	   *s = defGetString(def);

			if (pg_strcasecmp(s, "json") != 0 && pg_strcasecmp(s, "variant") != 0)
				bad_value(def, s, "json and variant");
			opts->types.jsonb_as_variant = pg_strcasecmp(s, "variant") == 0;
		}
		else if (strcmp(name, "key_value_metadata") == 0)
		{
			List	   *items = get_key_values(def);
			PqKeyValue *kv = palloc0(sizeof(PqKeyValue) * Max(list_length(items), 1));
			int			n = 0;

			foreach(lc2, items)
			{
				char	   *item = lfirst(lc2);
				char	   *eq = strchr(item, '=');

				if (eq == NULL || eq == item)
					bad_value(def, item, "key=value items, separated by commas or given as a list");
				*eq = '\0';
				kv[n].key = item;
				kv[n].value = eq + 1;
				n++;
			}
			opts->writer.key_value = kv;
			opts->writer.n_key_value = n;
		}
		else if (strcmp(name, "numeric_scale") == 0)
			opts->types.numeric_scale = (int) get_int64(def, 0, 38);
		else if (strcmp(name, "footer_key") == 0)
		{
			ce->footer_key = defGetString(def);
			pqfdw_check_key_id(ce->footer_key, "footer_key");
		}
		else if (strcmp(name, "column_keys") == 0)
		{
			ce->column_keys = pqfdw_parse_column_keys(defGetString(def));
			encryption_def = def;
		}
		else if (strcmp(name, "encryption_algorithm") == 0)
		{
			char	   *s = defGetString(def);

			if (pg_strcasecmp(s, "AES_GCM_V1") == 0)
				ce->algorithm = PQ_AES_GCM_V1;
			else if (pg_strcasecmp(s, "AES_GCM_CTR_V1") == 0)
				ce->algorithm = PQ_AES_GCM_CTR_V1;
			else
				bad_value(def, s, "AES_GCM_V1 and AES_GCM_CTR_V1");
			encryption_def = def;
		}
		else if (strcmp(name, "plaintext_footer") == 0)
		{
			ce->plaintext_footer = defGetBoolean(def);
			encryption_def = def;
		}
		else if (strcmp(name, "aad_prefix") == 0)
		{
			ce->aad_prefix = defGetString(def);
			if (ce->aad_prefix[0] == '\0')
				bad_value(def, ce->aad_prefix, "non-empty strings");
			encryption_def = def;
		}
		else if (strcmp(name, "store_aad_prefix") == 0)
		{
			ce->store_aad_prefix = defGetBoolean(def);
			store_def = def;
		}
		else if (strcmp(name, "kms_footer_key") == 0)
		{
			ce->kms_footer_key = defGetString(def);
			if (ce->kms_footer_key[0] == '\0')
				bad_value(def, ce->kms_footer_key, "master key ids");
		}
		else if (strcmp(name, "kms_column_keys") == 0)
		{
			ce->kms_column_keys = pqfdw_parse_master_column_keys(defGetString(def));
			kms_def = def;
		}
		else if (strcmp(name, "double_wrapping") == 0)
		{
			ce->double_wrapping = defGetBoolean(def);
			kms_def = def;
		}
		else if (strcmp(name, "key_material") == 0)
		{
			char	   *v = defGetString(def);

			if (strcmp(v, "internal") != 0 && strcmp(v, "external") != 0)
				bad_value(def, v, "internal and external");
			ce->external_material = strcmp(v, "external") == 0;
			kms_def = def;
		}
		else if (strcmp(name, "kms_instance_url") == 0)
		{
			ce->kms_url = defGetString(def);
			/* %u of kms_command, here and for every reader of the file */
			if (ce->kms_url[0] == '\0' || !pqfdw_kms_value_safe(ce->kms_url))
				bad_value(def, ce->kms_url,
						  "non-empty strings of letters, digits and the characters " PQFDW_KMS_SAFE_PUNCTUATION);
			kms_def = def;
		}
		else if (strcmp(name, "partition_by") == 0)
		{
			opts->dataset.partition_by = get_list(def);
			opts->dataset.enabled = true;
		}
		else if (strcmp(name, "write_partition_columns") == 0)
			opts->dataset.write_partition_columns = defGetBoolean(def);
		else if (strcmp(name, "overwrite") == 0)
			opts->dataset.overwrite = defGetBoolean(def);
		else if (strcmp(name, "overwrite_or_ignore") == 0)
			opts->dataset.overwrite_or_ignore = defGetBoolean(def);
		else if (strcmp(name, "file_size_bytes") == 0)
		{
			opts->dataset.file_size_bytes = get_size(def);
			opts->dataset.enabled = true;
		}
		else if (strcmp(name, "row_groups_per_file") == 0)
		{
			opts->dataset.row_groups_per_file = get_int64(def, 1, PG_INT32_MAX);
			opts->dataset.enabled = true;
		}
		else if (strcmp(name, "max_open_files") == 0)
			opts->dataset.max_open_files = (int) get_int64(def, 1, 100000);
		else if (strcmp(name, "success_marker") == 0)
			opts->dataset.success_marker = defGetBoolean(def);
		else if (strcmp(name, "server") == 0)
			opts->remote.server = defGetString(def);
		else if (strcmp(name, "part_size") == 0)
		{
			opts->remote.part_size = get_size(def);
			if (opts->remote.part_size < PQFDW_MIN_PART_SIZE ||
				opts->remote.part_size > PQFDW_MAX_PART_SIZE)
				bad_value(def, defGetString(def),
						  "sizes from '5MiB' to '4GiB' (S3's smallest part, and the most one request sends here)");
			opts->remote.given = true;
		}
		else if (strcmp(name, "parts_in_flight") == 0)
		{
			opts->remote.parts_in_flight = (int) get_int64(def, 1, 64);
			opts->remote.given = true;
		}
		else
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("COPY option \"%s\" not recognized with FORMAT parquet",
							name),
					 errhint("Valid options are %s.", VALID_OPTIONS)));
	}

	if (fpp_def != NULL)
		apply_bloom_setting(fpp_def, opts->bloom_columns, true,
							&opts->bloom_fpp, &opts->bloom_ndv);
	if (ndv_def != NULL)
		apply_bloom_setting(ndv_def, opts->bloom_columns, false,
							&opts->bloom_fpp, &opts->bloom_ndv);
	if (store_def != NULL && ce->aad_prefix == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY option \"store_aad_prefix\" needs option \"aad_prefix\"")));
	if (encryption_def != NULL && ce->footer_key == NULL &&
		(ce->kms_footer_key == NULL || ce->column_keys != NIL))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY option \"%s\" needs option \"footer_key\"",
						encryption_def->defname),
				 errhint("An encrypted Parquet file always has a footer key, which encrypts or signs the footer; name a key id registered with parquet_fdw.create_key(), or a master key with kms_footer_key and kms_column_keys.")));
	if (ce->footer_key != NULL && ce->kms_footer_key != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY options \"footer_key\" and \"kms_footer_key\" cannot be used together"),
				 errhint("footer_key names the data key itself; kms_footer_key names a master key that wraps fresh data keys.")));
	if (kms_def != NULL && ce->kms_footer_key == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY option \"%s\" needs option \"kms_footer_key\"",
						kms_def->defname)));

	if (opts->dataset.overwrite && opts->dataset.overwrite_or_ignore)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY options \"overwrite\" and \"overwrite_or_ignore\" cannot be used together")));
	if (!opts->dataset.enabled)
	{
		const char *needs = opts->dataset.write_partition_columns ?
		"write_partition_columns" : opts->dataset.overwrite ? "overwrite" :
		opts->dataset.overwrite_or_ignore ? "overwrite_or_ignore" :
		opts->dataset.success_marker ? "success_marker" : NULL;

		if (needs == NULL)
		{
			foreach(lc, seen)
				if (strcmp((char *) lfirst(lc), "max_open_files") == 0)
				needs = "max_open_files";
		}
		if (needs != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("COPY option \"%s\" needs option \"partition_by\", \"file_size_bytes\" or \"row_groups_per_file\"",
							needs),
					 errhint("These options write a directory of files.")));
	}
	if (opts->dataset.enabled && ce->kms_footer_key != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY option \"kms_footer_key\" cannot be used with a directory of files"),
				 errhint("Use footer_key and column_keys, which apply to every file.")));

	if (level_def != NULL)
	{
		int			lo;
		int			hi;

		if (!pq_codec_level_range(opts->writer.codec, &lo, &hi))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("COPY option \"compression_level\" is not valid with compression %s",
							pq_codec_name(opts->writer.codec)),
					 errhint("Only gzip, brotli and zstd have levels.")));
		opts->writer.compression_level = (int) get_int64(level_def, lo, hi);
	}
}
