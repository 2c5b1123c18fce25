/*
 * test_iceberg_manifest.c
 *		Iceberg manifest lists and manifests (src/table/iceberg/): records
 *		encoded by libavro's own writer (generic values, avro_value_write),
 *		framed here as container files with each codec, then read back;
 *		inheritance of sequence numbers and snapshot ids as the spec says;
 *		and refusals of truncated, corrupt and hostile files, with the
 *		schemas and lengths libavro must never be handed.
 */
#include "postgres.h"

#include <avro.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "format/common/pq_common.h"
#include "table/iceberg/avro_file.h"
#include "table/iceberg/manifest.h"
#include "unit_test.h"

#define SYNC "0123456789abcdef"

static const char list_schema[] =
"{\"type\":\"record\",\"name\":\"manifest_file\",\"fields\":["
"{\"name\":\"manifest_path\",\"type\":\"string\",\"field-id\":500},"
"{\"name\":\"manifest_length\",\"type\":\"long\"},"
"{\"name\":\"partition_spec_id\",\"type\":\"int\"},"
"{\"name\":\"content\",\"type\":\"int\"},"
"{\"name\":\"sequence_number\",\"type\":\"long\"},"
"{\"name\":\"min_sequence_number\",\"type\":\"long\"},"
"{\"name\":\"added_snapshot_id\",\"type\":\"long\"},"
"{\"name\":\"partitions\",\"type\":[\"null\",{\"type\":\"array\",\"items\":"
"{\"type\":\"record\",\"name\":\"r508\",\"fields\":["
"{\"name\":\"contains_null\",\"type\":\"boolean\"},"
"{\"name\":\"contains_nan\",\"type\":[\"null\",\"boolean\"]},"
"{\"name\":\"lower_bound\",\"type\":[\"null\",\"bytes\"]},"
"{\"name\":\"upper_bound\",\"type\":[\"null\",\"bytes\"]}]}}]},"
"{\"name\":\"first_row_id\",\"type\":[\"null\",\"long\"]}]}";

/* a v1 list: no content, no sequence numbers */
static const char list_v1_schema[] =
"{\"type\":\"record\",\"name\":\"manifest_file\",\"fields\":["
"{\"name\":\"manifest_path\",\"type\":\"string\"},"
"{\"name\":\"manifest_length\",\"type\":\"long\"},"
"{\"name\":\"partition_spec_id\",\"type\":\"int\"},"
"{\"name\":\"added_snapshot_id\",\"type\":[\"null\",\"long\"]}]}";

#define MAP_ARRAY(rec, v) "[\"null\",{\"type\":\"array\",\"logicalType\":\"map\"," \
	"\"items\":{\"type\":\"record\",\"name\":\"" rec "\",\"fields\":[" \
	"{\"name\":\"key\",\"type\":\"int\"},{\"name\":\"value\",\"type\":\"" v "\"}]}}]"

static const char entry_schema[] =
"{\"type\":\"record\",\"name\":\"manifest_entry\",\"fields\":["
"{\"name\":\"status\",\"type\":\"int\"},"
"{\"name\":\"snapshot_id\",\"type\":[\"null\",\"long\"]},"
"{\"name\":\"sequence_number\",\"type\":[\"null\",\"long\"]},"
"{\"name\":\"file_sequence_number\",\"type\":[\"null\",\"long\"]},"
"{\"name\":\"data_file\",\"type\":{\"type\":\"record\",\"name\":\"r2\",\"fields\":["
"{\"name\":\"content\",\"type\":\"int\"},"
"{\"name\":\"file_path\",\"type\":\"string\"},"
"{\"name\":\"file_format\",\"type\":\"string\"},"
"{\"name\":\"partition\",\"type\":{\"type\":\"record\",\"name\":\"r102\",\"fields\":["
"{\"name\":\"d\",\"type\":[\"null\",\"int\"],\"field-id\":1000},"
"{\"name\":\"s\",\"type\":[\"null\",\"string\"],\"field-id\":1001},"
"{\"name\":\"x\",\"type\":[\"null\",{\"type\":\"fixed\",\"name\":\"decimal_5_2\",\"size\":3}],\"field-id\":1002}]}},"
"{\"name\":\"record_count\",\"type\":\"long\"},"
"{\"name\":\"file_size_in_bytes\",\"type\":\"long\"},"
"{\"name\":\"null_value_counts\",\"type\":" MAP_ARRAY("k121_v122", "long") "},"
"{\"name\":\"lower_bounds\",\"type\":" MAP_ARRAY("k126_v127", "bytes") "},"
"{\"name\":\"equality_ids\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"int\"}]},"
"{\"name\":\"referenced_data_file\",\"type\":[\"null\",\"string\"]},"
"{\"name\":\"content_offset\",\"type\":[\"null\",\"long\"]},"
"{\"name\":\"content_size_in_bytes\",\"type\":[\"null\",\"long\"]}]}}]}";

/* s has id 1005 in the spec (the spec wins); x is not in it (schema's) */
static const char partition_spec[] =
"[{\"name\":\"d\",\"transform\":\"day\",\"source-id\":1,\"field-id\":1000},"
"{\"name\":\"s\",\"transform\":\"identity\",\"source-id\":2,\"field-id\":1005}]";

/* ------------------------------------------------- records with libavro */

typedef bool (*FillFn) (avro_value_t *rec, int i);

static bool
set_field(avro_value_t *rec, const char *name, avro_value_t *f)
{
	return avro_value_get_by_name(rec, name, f, NULL) == 0;
}

/* an int or long field (or a union's non-null branch of one) */
static bool
set_num(avro_value_t *rec, const char *name, int64 v)
{
	avro_value_t f,
				b;

	if (!set_field(rec, name, &f))
		return false;
	if (avro_value_get_type(&f) == AVRO_UNION)
	{
		if (avro_value_set_branch(&f, 1, &b) != 0)
			return false;
		f = b;
	}
	return avro_value_get_type(&f) == AVRO_INT32
		? avro_value_set_int(&f, (int32) v) == 0
		: avro_value_set_long(&f, v) == 0;
}

static bool
set_null(avro_value_t *rec, const char *name)
{
	avro_value_t f,
				b;

	return set_field(rec, name, &f) && avro_value_set_branch(&f, 0, &b) == 0 &&
		avro_value_set_null(&b) == 0;
}

/* a string field (or a union's string branch) */
static bool
set_str(avro_value_t *rec, const char *name, const char *s)
{
	avro_value_t f,
				b;

	if (!set_field(rec, name, &f))
		return false;
	if (avro_value_get_type(&f) == AVRO_UNION)
	{
		if (avro_value_set_branch(&f, 1, &b) != 0)
			return false;
		f = b;
	}
	return avro_value_set_string(&f, s) == 0;
}

/* a union field's second branch, for the caller to fill */
static bool
set_branch(avro_value_t *rec, const char *name, avro_value_t *out)
{
	avro_value_t f;

	return set_field(rec, name, &f) && avro_value_set_branch(&f, 1, out) == 0;
}

/* n records of schema filled by fill, encoded by avro_value_write */
static size_t
encode(const char *schema, FillFn fill, int n, uint8 *out, size_t cap)
{
	avro_schema_t s;
	avro_value_iface_t *c;
	avro_value_t v;
	avro_writer_t w;
	size_t		len = 0;
	bool		ok = true;
	int			i;

	if (avro_schema_from_json_length(schema, strlen(schema), &s) != 0)
		return 0;
	c = avro_generic_class_from_schema(s);
	avro_generic_value_new(c, &v);
	w = avro_writer_memory((const char *) out, cap);
	for (i = 0; i < n && ok; i++)
		ok = avro_value_reset(&v) == 0 && fill(&v, i) &&
			avro_value_write(w, &v) == 0;
	if (ok)
		len = avro_writer_tell(w);
	avro_writer_free(w);
	avro_value_decref(&v);
	avro_value_iface_decref(c);
	avro_schema_decref(s);
	return len;
}

/* ------------------------------------------------- container framing */

static void
put_long(PqBuffer *b, int64 v)
{
	uint64		z = ((uint64) v << 1) ^ (uint64) (v >> 63);

	while (z > 0x7f)
	{
		pq_buffer_append_byte(b, (uint8) (z | 0x80));
		z >>= 7;
	}
	pq_buffer_append_byte(b, (uint8) z);
}

static void
put_bytes(PqBuffer *b, const void *p, size_t n)
{
	put_long(b, (int64) n);
	pq_buffer_append(b, p, n);
}

/* header: magic, metadata (codec, schema, then key/value pairs), sync */
static void
put_header(PqBuffer *b, const char *schema, const char *codec,
		   const char *const *meta)
{
	int			n = 0;

	pq_buffer_init(b, 1024);
	pq_buffer_append(b, "Obj\001", 4);
	while (meta && meta[n * 2])
		n++;
	put_long(b, n + (codec ? 2 : 1));
	if (codec)
	{
		put_bytes(b, "avro.codec", 10);
		put_bytes(b, codec, strlen(codec));
	}
	put_bytes(b, "avro.schema", 11);
	put_bytes(b, schema, strlen(schema));
	for (n = 0; meta && meta[n * 2]; n++)
	{
		put_bytes(b, meta[n * 2], strlen(meta[n * 2]));
		put_bytes(b, meta[n * 2 + 1], strlen(meta[n * 2 + 1]));
	}
	put_long(b, 0);
	pq_buffer_append(b, SYNC, 16);
}

/* a block of count records (len bytes) compressed with codec */
static void
put_block(PqBuffer *b, const char *codec, int64 count, const uint8 *recs,
		  size_t len)
{
	uint8	   *z = palloc(len * 2 + 64);
	size_t		zlen = len * 2 + 64;

	if (codec == NULL || strcmp(codec, "null") == 0)
	{
		memcpy(z, recs, len);
		zlen = len;
	}
	else if (strcmp(codec, "deflate") == 0)
	{
		z_stream	zs;

		memset(&zs, 0, sizeof(zs));
		deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
		zs.next_in = (Bytef *) recs;
		zs.avail_in = len;
		zs.next_out = z;
		zs.avail_out = zlen;
		deflate(&zs, Z_FINISH);
		zlen = zs.total_out;
		deflateEnd(&zs);
	}
	else if (strcmp(codec, "snappy") == 0)
	{
		uint32		crc = crc32(0, recs, len);

		snappy_compress((const char *) recs, len, (char *) z, &zlen);
		z[zlen++] = crc >> 24;
		z[zlen++] = crc >> 16;
		z[zlen++] = crc >> 8;
		z[zlen++] = crc;
	}
	else
		zlen = ZSTD_compress(z, zlen, recs, len, 3);
	put_long(b, count);
	put_bytes(b, z, zlen);
	pq_buffer_append(b, SYNC, 16);
}

/* a whole file of one block */
static uint8 *
build(const char *schema, const char *codec, const char *const *meta,
	  FillFn fill, int n, size_t *len)
{
	uint8		recs[8192];
	size_t		rlen = encode(schema, fill, n, recs, sizeof(recs));
	PqBuffer	b;

	put_header(&b, schema, codec, meta);
	if (n > 0)
		put_block(&b, codec, n, recs, rlen);
	*len = b.len;
	return rlen > 0 || n == 0 ? ut_exact_copy(b.data, b.len) : NULL;
}

/* ------------------------------------------------------------ fills */

static bool
fill_list(avro_value_t *r, int i)
{
	avro_value_t arr,
				fs,
				b;

	if (!set_str(r, "manifest_path", i == 0 ? "s3://b/t/m0.avro" : "s3://b/t/m1.avro") ||
		!set_num(r, "manifest_length", 7000 + i) ||
		!set_num(r, "partition_spec_id", i) ||
		!set_num(r, "content", i) ||
		!set_num(r, "sequence_number", 5 + i) ||
		!set_num(r, "min_sequence_number", 4) ||
		!set_num(r, "added_snapshot_id", INT64CONST(8000000000000000000) + i))
		return false;
	if (i == 1)
		return set_null(r, "partitions") && set_null(r, "first_row_id");
	if (!set_num(r, "first_row_id", 42) || !set_branch(r, "partitions", &arr) ||
		avro_value_append(&arr, &fs, NULL) != 0)
		return false;
	if (!set_field(&fs, "contains_null", &b) || avro_value_set_boolean(&b, 1) != 0 ||
		!set_branch(&fs, "contains_nan", &b) || avro_value_set_boolean(&b, 0) != 0 ||
		!set_branch(&fs, "lower_bound", &b) ||
		avro_value_set_bytes(&b, (void *) "\x01\x02", 2) != 0)
		return false;
	return set_null(&fs, "upper_bound");
}

static bool
fill_list_v1(avro_value_t *r, int i)
{
	return set_str(r, "manifest_path", "m.avro") && set_num(r, "manifest_length", 10) &&
		set_num(r, "partition_spec_id", 0) && set_num(r, "added_snapshot_id", 77);
}

static bool
add_kv(avro_value_t *arr, int32 key, int64 v, const char *bytes)
{
	avro_value_t kv,
				f;

	return avro_value_append(arr, &kv, NULL) == 0 && set_field(&kv, "key", &f) &&
		avro_value_set_int(&f, key) == 0 && set_field(&kv, "value", &f) &&
		(bytes ? avro_value_set_bytes(&f, (void *) bytes, strlen(bytes))
		 : avro_value_set_long(&f, v)) == 0;
}

/*
 * Entry 0: ADDED, numbers null (inherited); 1: EXISTING with its numbers;
 * 2: EXISTING without (not inherited); 3: DELETED, snapshot id null.
 */
static bool
fill_entry(avro_value_t *r, int i)
{
	avro_value_t df,
				part,
				arr,
				f;

	if (!set_num(r, "status", i == 0 ? 1 : i == 3 ? 2 : 0) ||
		!(i == 0 || i == 3 ? set_null(r, "snapshot_id") : set_num(r, "snapshot_id", 11)) ||
		!(i == 1 ? set_num(r, "sequence_number", 3) : set_null(r, "sequence_number")) ||
		!(i == 1 ? set_num(r, "file_sequence_number", 4) : set_null(r, "file_sequence_number")) ||
		!set_field(r, "data_file", &df) ||
		!set_num(&df, "content", 0) ||
		!set_str(&df, "file_path", i == 0 ? "s3://b/t/data/a.parquet" : "b.parquet") ||
		!set_str(&df, "file_format", "PARQUET") ||
		!set_num(&df, "record_count", 100 + i) ||
		!set_num(&df, "file_size_in_bytes", 4096) ||
		!set_null(&df, "referenced_data_file") ||
		!set_null(&df, "content_offset") || !set_null(&df, "content_size_in_bytes"))
		return false;
	if (!set_field(&df, "partition", &part) || !set_num(&part, "d", 19000 + i) ||
		!(i == 0 ? set_str(&part, "s", "east") : set_null(&part, "s")) ||
		!set_branch(&part, "x", &f) || avro_value_set_fixed(&f, "\x00\x30\x39", 3) != 0)
		return false;
	/* key 2 written twice: its last value counts */
	if (!set_branch(&df, "null_value_counts", &arr) || !add_kv(&arr, 2, 7, NULL) ||
		!add_kv(&arr, 1, 0, NULL) || !add_kv(&arr, 2, 9, NULL))
		return false;
	if (i == 0)
	{
		if (!set_branch(&df, "lower_bounds", &arr) || !add_kv(&arr, 1, 0, "ab") ||
			!set_branch(&df, "equality_ids", &arr) ||
			avro_value_append(&arr, &f, NULL) != 0 || avro_value_set_int(&f, 3) != 0)
			return false;
	}
	else if (!set_null(&df, "lower_bounds") || !set_null(&df, "equality_ids"))
		return false;
	return true;
}

static const char *const manifest_meta[] = {
	"partition-spec", partition_spec, "format-version", "2", "content", "data", NULL
};

/* ------------------------------------------------------------ tests */

static void
test_list(void)
{
	size_t		len;
	uint8	   *data = build(list_schema, "deflate", NULL, fill_list, 2, &len);
	PqIcebergManifestFile *m;
	int			n;
	const char *why = NULL;

	CHECK(data != NULL);
	CHECK(pq_iceberg_read_manifest_list(data, len, 2, &m, &n, &why));
	CHECK_EQ_INT(n, 2);
	CHECK(strcmp(m[0].manifest_path, "s3://b/t/m0.avro") == 0);
	CHECK_EQ_INT(m[0].manifest_length, 7000);
	CHECK_EQ_INT(m[1].partition_spec_id, 1);
	CHECK_EQ_INT(m[0].content, 0);
	CHECK_EQ_INT(m[1].content, 1);
	CHECK_EQ_INT(m[1].sequence_number, 6);
	CHECK_EQ_INT(m[1].min_sequence_number, 4);
	CHECK(m[1].added_snapshot_id == INT64CONST(8000000000000000001));
	CHECK(m[0].has_first_row_id && m[0].first_row_id == 42);
	CHECK(!m[1].has_first_row_id);
	CHECK_EQ_INT(m[0].npartitions, 1);
	CHECK(m[0].partitions[0].contains_null);
	CHECK(m[0].partitions[0].has_contains_nan && !m[0].partitions[0].contains_nan);
	CHECK(m[0].partitions[0].lower_len == 2 && m[0].partitions[0].lower_bound[1] == 2);
	CHECK(m[0].partitions[0].upper_bound == NULL);
	CHECK_EQ_INT(m[1].npartitions, 0);

	/* v1: content and sequence numbers absent, 0; required from v2 on */
	data = build(list_v1_schema, NULL, NULL, fill_list_v1, 1, &len);
	CHECK(pq_iceberg_read_manifest_list(data, len, 0, &m, &n, &why));
	CHECK(n == 1 && m[0].content == 0 && m[0].sequence_number == 0 &&
		  m[0].min_sequence_number == 0 && m[0].added_snapshot_id == 77);
	CHECK(!pq_iceberg_read_manifest_list(data, len, 2, &m, &n, &why));
	CHECK(strstr(why, "content is missing") != NULL);
}

static void
test_manifest(void)
{
	static const char *const codecs[] = {"null", "deflate", "snappy", "zstandard"};
	PqIcebergManifestFile list;
	int			c;

	memset(&list, 0, sizeof(list));
	list.sequence_number = 8;
	list.added_snapshot_id = 99;
	for (c = 0; c < lengthof(codecs); c++)
	{
		size_t		len;
		uint8	   *data = build(entry_schema, codecs[c], manifest_meta,
								 fill_entry, 4, &len);
		PqIcebergEntry *e;
		const PqIcebergDataFile *d;
		int			n;
		const char *why = NULL;

		CHECK(data != NULL);
		CHECK(pq_iceberg_read_manifest(data, len, &list, &e, &n, &why));
		CHECK_EQ_INT(n, 4);
		/* ADDED, null numbers: the list's */
		CHECK(e[0].status == 1 && e[0].has_snapshot_id && e[0].snapshot_id == 99);
		CHECK(e[0].has_sequence_number && e[0].sequence_number == 8);
		CHECK(e[0].has_file_sequence_number && e[0].file_sequence_number == 8);
		/* EXISTING keeps its own; without them, nothing is inherited */
		CHECK(e[1].snapshot_id == 11 && e[1].sequence_number == 3 &&
			  e[1].file_sequence_number == 4);
		CHECK(!e[2].has_sequence_number && !e[2].has_file_sequence_number);
		CHECK(e[3].status == 2 && e[3].snapshot_id == 99);
		d = &e[0].file;
		CHECK(strcmp(d->file_path, "s3://b/t/data/a.parquet") == 0);
		CHECK(strcmp(d->file_format, "PARQUET") == 0);
		CHECK(d->record_count == 100 && d->file_size_in_bytes == 4096);
		CHECK_EQ_INT(d->npartition, 3);
		CHECK(d->partition[0].field_id == 1000 && d->partition[0].value.type == PQ_ICEBERG_INT &&
			  d->partition[0].value.i == 19000);
		CHECK(d->partition[1].field_id == 1005 && d->partition[1].value.type == PQ_ICEBERG_STRING &&
			  strcmp((const char *) d->partition[1].value.bytes, "east") == 0);
		CHECK(d->partition[2].field_id == 1002 && d->partition[2].value.type == PQ_ICEBERG_FIXED &&
			  d->partition[2].value.len == 3 && d->partition[2].value.bytes[2] == 0x39);
		CHECK(e[1].file.partition[1].value.type == PQ_ICEBERG_NULL);
		CHECK_EQ_INT(d->nnull_value_counts, 2);
		CHECK(d->null_value_counts[0].field_id == 1 && d->null_value_counts[0].count == 0);
		CHECK(d->null_value_counts[1].field_id == 2 && d->null_value_counts[1].count == 9);
		CHECK(d->nlower_bounds == 1 && d->lower_bounds[0].len == 2 &&
			  memcmp(d->lower_bounds[0].bytes, "ab", 2) == 0);
		CHECK(d->nequality_ids == 1 && d->equality_ids[0] == 3);
		CHECK(d->referenced_data_file == NULL && !d->has_content_offset);
		CHECK(e[1].file.nlower_bounds == 0 && e[1].file.nequality_ids == 0);

		/* without the list, nothing inherited; a delete manifest refuses it */
		CHECK(pq_iceberg_read_manifest(data, len, NULL, &e, &n, &why));
		CHECK(!e[0].has_sequence_number && !e[0].has_snapshot_id);
		list.content = PQ_ICEBERG_MANIFEST_DELETES;
		CHECK(!pq_iceberg_read_manifest(data, len, &list, &e, &n, &why));
		CHECK(strstr(why, "a data file in a delete manifest") != NULL);
		list.content = PQ_ICEBERG_MANIFEST_DATA;
	}
}

/* Every prefix of a file is refused, but the one ending with the header. */
static void
test_truncated(void)
{
	size_t		len,
				cut;
	uint8	   *data = build(entry_schema, "deflate", manifest_meta, fill_entry, 4, &len);
	PqBuffer	hdr;

	put_header(&hdr, entry_schema, "deflate", manifest_meta);
	for (cut = 0; cut < len; cut++)
	{
		uint8	   *p = ut_exact_copy(data, cut);
		PqIcebergEntry *e;
		int			n;
		const char *why = NULL;
		bool		ok = pq_iceberg_read_manifest(p, cut, NULL, &e, &n, &why);

		if (cut == hdr.len)
			CHECK(ok && n == 0);
		else
			CHECK(!ok && why != NULL);
		pfree(p);
	}
}

/* A file with one block of raw record bytes, for hostile records. */
static void
expect_refused(const char *schema, const char *codec, int64 count,
			   const void *recs, size_t rlen, const char *want)
{
	PqBuffer	b;
	PqIcebergEntry *e;
	int			n;
	const char *why = NULL;
	uint8	   *p;

	put_header(&b, schema, codec, NULL);
	put_block(&b, codec, count, recs, rlen);
	p = ut_exact_copy(b.data, b.len);
	if (pq_iceberg_read_manifest(p, b.len, NULL, &e, &n, &why))
	{
		ut_fail(__FILE__, __LINE__, want);
		return;
	}
	if (strstr(why, want) == NULL)
	{
		fprintf(stderr, "  refused as \"%s\", expected \"%s\"\n", why, want);
		ut_fail(__FILE__, __LINE__, want);
	}
}

static void
test_refusals(void)
{
	size_t		len;
	uint8	   *data = build(entry_schema, NULL, manifest_meta, fill_entry, 1, &len);
	PqIcebergEntry *e;
	PqIcebergManifestFile *m;
	int			n;
	const char *why = NULL;
	PqBuffer	b;

	/* wrong magic */
	data[3] = 2;
	CHECK(!pq_iceberg_read_manifest(data, len, NULL, &e, &n, &why));
	CHECK(strstr(why, "magic") != NULL);
	data[3] = 1;
	/* a block not ending with the sync marker */
	data[len - 1] ^= 1;
	CHECK(!pq_iceberg_read_manifest(data, len, NULL, &e, &n, &why));
	CHECK(strstr(why, "sync marker") != NULL);
	data[len - 1] ^= 1;
	/* a manifest is no manifest list, and the other way round */
	CHECK(!pq_iceberg_read_manifest_list(data, len, 2, &m, &n, &why));
	CHECK(strstr(why, "manifest_path is missing") != NULL);
	data = build(list_schema, NULL, NULL, fill_list, 2, &len);
	CHECK(!pq_iceberg_read_manifest(data, len, NULL, &e, &n, &why));
	CHECK(strstr(why, "status is missing") != NULL);

	/* more records than the bound, or than the block's bytes hold */
	expect_refused(entry_schema, NULL, PQ_ICEBERG_MAX_ENTRIES + 1, "\x02", 1,
				   "more than 1000000 records");
	expect_refused(entry_schema, NULL, 100, "\x02\x00\x00\x00", 4,
				   "too short for its records");
	expect_refused(entry_schema, NULL, -1, "", 0, "truncated or malformed");
	/* bytes after the records */
	expect_refused("\"int\"", NULL, 0, "\x02\x02", 2, "bytes after its records");

	/* wrong types, missing fields */
	expect_refused("{\"type\":\"record\",\"name\":\"e\",\"fields\":[{\"name\":\"status\",\"type\":\"string\"}]}",
				   NULL, 1, "\x02x", 2, "status has a type this reader does not take");
	expect_refused("{\"type\":\"record\",\"name\":\"e\",\"fields\":[{\"name\":\"status\",\"type\":\"int\"}]}",
				   NULL, 1, "\x02", 1, "data_file is missing");
	expect_refused("{\"type\":\"record\",\"name\":\"e\",\"fields\":[{\"name\":\"status\",\"type\":\"int\"}]}",
				   NULL, 1, "\x08", 1, "status is 4, not 0 to 2");

	/* lengths libavro would allocate before reading: refused first */
	expect_refused("\"string\"", NULL, 1, "\x01", 1, "negative length");
	expect_refused("\"bytes\"", NULL, 1, "\x80\x80\x80\x80\x80\x80\x02", 7,
				   "runs past its block");
	expect_refused("{\"type\":\"array\",\"items\":\"int\"}", NULL, 1,
				   "\xfe\xff\xff\xff\x0f\x00", 6, "runs past its block");
	expect_refused("[\"null\",\"int\"]", NULL, 1, "\x04", 1, "union branch");
	expect_refused("\"long\"", NULL, 1, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 10,
				   "longer than 10 bytes");
	expect_refused("\"boolean\"", NULL, 1, "\x02", 1, "neither 0 nor 1");

	/* schemas libavro must not be given, or not make values of */
	expect_refused("{\"type\":\"record\",\"name\":\"a\",\"fields\":[{\"name\":\"x\","
				   "\"type\":{\"type\":\"fixed\",\"name\":\"a\",\"size\":1}}]}",
				   NULL, 1, "x", 1, "two types of one name");
	expect_refused("{\"type\":\"record\",\"name\":\"n\",\"fields\":[{\"name\":\"next\","
				   "\"type\":[\"null\",\"n\"]}]}", NULL, 1, "\x00", 1, "recursive");
	expect_refused("{\"type\":\"array\",\"items\":\"null\"}", NULL, 1, "\x02\x00", 2,
				   "items that take no bytes");
	expect_refused("{\"type\":\"fixed\",\"name\":\"f\",\"size\":1099511627776}", NULL, 1,
				   "x", 1, "fixed type");
	expect_refused("[\"null\",[\"int\"]]", NULL, 1, "\x00", 1, "union directly inside");
	expect_refused("{\"type\":\"nope\"}", NULL, 1, "\x00", 1, "not a schema libavro reads");
	expect_refused("{\"type\":", NULL, 1, "\x00", 1, "not JSON");

	/* codecs: unknown, corrupt */
	expect_refused("\"int\"", "bzip2", 1, "\x02", 1, "bzip2 is not supported");
	put_header(&b, "\"int\"", "deflate", NULL);
	put_long(&b, 1);
	put_bytes(&b, "\xff\xff\xff", 3);
	pq_buffer_append(&b, SYNC, 16);
	CHECK(!pq_iceberg_read_manifest(ut_exact_copy(b.data, b.len), b.len, NULL, &e, &n, &why));
	CHECK(strstr(why, "deflate block") != NULL);

	/* a metadata key given twice */
	{
		static const char *const twice[] = {"k", "1", "k", "2", NULL};

		put_header(&b, "\"int\"", NULL, twice);
		CHECK(!pq_iceberg_read_manifest(ut_exact_copy(b.data, b.len), b.len, NULL, &e, &n, &why));
		CHECK(strstr(why, "key twice") != NULL);
	}
}

/* A deflate bomb: refused at the cap, not decompressed whole. */
static void
test_bomb(void)
{
	size_t		big = PQ_AVRO_MAX_BLOCK + 1;
	uint8	   *zeros = palloc0(big);
	PqBuffer	b;
	PqIcebergEntry *e;
	int			n;
	const char *why = NULL;

	put_header(&b, "\"int\"", "deflate", NULL);
	put_block(&b, "deflate", 1, zeros, big);
	pfree(zeros);
	CHECK(!pq_iceberg_read_manifest(ut_exact_copy(b.data, b.len), b.len, NULL, &e, &n, &why));
	CHECK(strstr(why, "decompresses to more than") != NULL);
}

static bool
raise_error(void *arg, int64 index, const avro_value_t *record,
			const char **why)
{
	elog(ERROR, "from the record callback");
	return true;
}

/* An ERROR in the callback: libavro's values freed (LeakSanitizer checks). */
static void
test_error_frees(void)
{
	size_t		len;
	uint8	   *data = build(entry_schema, "deflate", manifest_meta, fill_entry, 2, &len);
	PqAvroFile	f;
	int64		n;
	const char *why = NULL;

	CHECK(pq_avro_open(data, len, &f, &why));
	CHECK(strcmp(pq_avro_meta_string(&f, "content"), "data") == 0);
	CHECK_ERROR(pq_avro_read(&f, 10, raise_error, NULL, &n, &why),
				ERRCODE_INTERNAL_ERROR);
}

void
suite_iceberg_manifest(void)
{
	ut_run("iceberg_manifest: manifest lists, v1 defaults", test_list);
	ut_run("iceberg_manifest: manifests with each codec, inheritance", test_manifest);
	ut_run("iceberg_manifest: every truncation refused", test_truncated);
	ut_run("iceberg_manifest: hostile files refused before libavro", test_refusals);
	ut_run("iceberg_manifest: a deflate bomb stops at the cap", test_bomb);
	ut_run("iceberg_manifest: an ERROR frees libavro's values", test_error_frees);
}
