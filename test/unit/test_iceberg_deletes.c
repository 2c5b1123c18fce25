/*
 * test_iceberg_deletes.c
 *		Iceberg delete files (src/table/iceberg/delete_files.c): position
 *		deletes and equality key sets, read from the Impala Iceberg test
 *		tables of ../shared/testdata/table-formats/iceberg/impala in place,
 *		and from files the format layer's writer makes here.
 *
 * The expected rows of the real files are what DuckDB (test/js's
 * @duckdb/node-api, read_parquet with file_row_number) printed for them;
 * each is given with its query, F standing for the file.  Those of the
 * written files are the values this file wrote, worked out by brute force.
 * The key encoding is checked value by value against byte strings written
 * out here from delete_files.h's description.
 */
#include "postgres.h"

#include <math.h>
#include <sys/stat.h>

#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "table/delta/deletion_vector.h"
#include "table/iceberg/delete_files.h"
#include "unit_test.h"

extern void suite_iceberg_deletes(void);

/* The fdw layer hands these positions on as Delta's: the same layout. */
StaticAssertDecl(sizeof(PqIcebergDeletedRows) == sizeof(PqDeletedRows) &&
				 offsetof(PqIcebergDeletedRows, pos) == offsetof(PqDeletedRows, pos) &&
				 PQ_ICEBERG_MAX_POSITIONS == PQ_DV_MAX_POSITIONS,
				 "PqIcebergDeletedRows is not PqDeletedRows");

#define ICE "/iceberg/impala/hadoop_catalog/ice/"
#define HDFS "hdfs://localhost:20500/test-warehouse/iceberg_test/hadoop_catalog/ice/"

/* ---- files ---- */

static const char *
formats_dir(void)
{
	const char *d = getenv("TABLE_FORMATS_DIR");
	struct stat st;

	if (d == NULL)
		d = "../shared/testdata/table-formats";
	if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode))
		return NULL;
	return d;
}

static void
mem_read(PqSource *src, int64 offset, size_t len, uint8 *buf)
{
	if (offset < 0 || offset > src->size || len > (uint64) (src->size - offset))
		pq_corrupt("read past the end");
	if (len > 0)
		memcpy(buf, (const uint8 *) src->opaque + offset, len);
}

/* data (exact size: ASan sees reads past it) opened as a Parquet file */
static PqFile *
open_mem(const uint8 *data, size_t len)
{
	PqSource   *src = palloc0(sizeof(PqSource));

	src->name = "test";
	src->size = (int64) len;
	src->read = mem_read;
	src->opaque = (void *) data;
	return pq_file_open(src);
}

/* The bytes of a file of the corpus (name under table-formats), or NULL. */
static uint8 *
corpus_bytes(const char *name, size_t *len)
{
	const char *dir = formats_dir();
	char		path[2048];
	FILE	   *f;
	long		size;
	uint8	   *data;

	*len = 0;
	if (dir == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s%s", dir, name);
	f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = palloc(size > 0 ? size : 1);
	if (size <= 0 || fread(data, 1, size, f) != (size_t) size)
		size = 0;
	fclose(f);
	*len = size;
	return size > 0 ? data : NULL;
}

static PqFile *
corpus_file(const char *name)
{
	size_t		len;
	uint8	   *data = corpus_bytes(name, &len);

	if (data == NULL)
	{
		fprintf(stderr, "  missing %s\n", name);
		return NULL;
	}
	return open_mem(data, len);
}

static bool
same_rows(const PqIcebergDeletedRows *d, const uint64 *exp, uint64 n)
{
	uint64		i;

	if (d == NULL)
		return n == 0;
	if (d->count != n)
		return false;
	for (i = 0; i < n; i++)
		if (d->pos[i] != exp[i])
			return false;
	return true;
}

/* A file of one delete file path and its positions. */
static bool
one_path(const char *name, const char *path, const uint64 *exp, int n)
{
	PqFile	   *f = corpus_file(name);
	PqIcebergPositionDeletes d;
	const char *why = NULL;

	if (f == NULL || !pq_iceberg_read_position_deletes(f, &d, &why))
		return false;
	return d.npaths == 1 && strcmp(d.paths[0], path) == 0 &&
		same_rows(&d.rows[0], exp, n) &&
		pq_iceberg_position_deletes_for(&d, path) == &d.rows[0];
}

/* ---- position deletes of the corpus ---- */

/* SELECT file_path, pos FROM F */
static void
test_pos_real(void)
{
	static const uint64 p1[] = {1};
	static const uint64 p012[] = {0, 1, 2};
	static const uint64 p024[] = {0, 2, 4};
	static const uint64 p14[] = {1, 4};
	static const uint64 p12456[] = {1, 2, 4, 5, 6};
	static const uint64 p0[] = {0};
	static const uint64 p3[] = {3};

	if (formats_dir() == NULL)
		return;
	/* optional columns, field ids: arrow's writer */
	CHECK(one_path(ICE "iceberg_v2_delete_positional/data/00191-4-6e780302-527b-4911-8c6e-88d416adac57-00001.parquet",
				   HDFS "iceberg_v2_delete_positional/data/00000-0-fb178c51-b12a-4c5f-a66e-a8e9375daeba-00001.parquet",
				   p1, 1));
	/* required columns and the deleted row (a struct, not read): Hive */
	CHECK(one_path(ICE "iceberg_v2_positional_not_all_data_files_have_delete_files/data/00000-0-delete-boroknagyz_20220819155000_b0411d64-66e3-49fd-a2f0-dab69282a896-job_16597105613621_0027-00001.parquet",
				   HDFS "iceberg_v2_positional_not_all_data_files_have_delete_files/data/00000-0-data-boroknagyz_20220819154733_162cd69d-80e2-425b-9638-9008d0937573-job_16597105613620_0026-00001.parquet",
				   p012, 3));
	CHECK(one_path(ICE "iceberg_v2_positional_delete_all_rows/data/00000-0-delete-boroknagyz_20220819150939_8f0789df-fcdb-4ba8-875c-4aeac53f30b9-job_16597105613621_0025-00001.parquet",
				   HDFS "iceberg_v2_positional_delete_all_rows/data/00000-0-data-boroknagyz_20220819150927_e95cefe8-5549-42f6-98a6-b1bbea9a4224-job_16597105613620_0025-00001.parquet",
				   p012, 3));
	CHECK(one_path(ICE "iceberg_v2_partitioned_position_deletes/data/action=click/00000-0-delete-boroknagyz_20220819183231_cfc565f5-52b9-4669-9f69-d29c50a84a5e-job_16597105613621_0032-00002.parquet",
				   HDFS "iceberg_v2_partitioned_position_deletes/data/action=click/874b32d9a15da206-f60e01cb00000003_1034098606_data.0.parq",
				   p024, 3));
	CHECK(one_path(ICE "iceberg_v2_partitioned_position_deletes/data/action=download/00000-0-delete-boroknagyz_20220819183231_cfc565f5-52b9-4669-9f69-d29c50a84a5e-job_16597105613621_0032-00003.parquet",
				   HDFS "iceberg_v2_partitioned_position_deletes/data/action=download/874b32d9a15da206-f60e01cb00000003_1489587766_data.0.parq",
				   p14, 2));
	CHECK(one_path(ICE "iceberg_v2_partitioned_position_deletes/data/action=view/00000-0-delete-boroknagyz_20220819183231_cfc565f5-52b9-4669-9f69-d29c50a84a5e-job_16597105613621_0032-00001.parquet",
				   HDFS "iceberg_v2_partitioned_position_deletes/data/action=view/874b32d9a15da206-f60e01cb00000004_1711435901_data.0.parq",
				   p12456, 5));
	/* Impala's writer */
	CHECK(one_path(ICE "iceberg_spark_compaction_with_dangling_delete/data/delete-3549308fee10b145-141d9f6900000000_1919298510_data.0.parq",
				   HDFS "iceberg_spark_compaction_with_dangling_delete/data/2b4453538b945045-7ba1864b00000000_1900113267_data.0.parq",
				   p3, 1));
	CHECK(one_path(ICE "iceberg_v2_delete_both_eq_and_pos/data/delete-074a9e19e61b766e-652a169e00000001_800513971_data.0.parq",
				   HDFS "iceberg_v2_delete_both_eq_and_pos/data/00000-0-38a471ff-46f4-4350-85cc-2e7ba946b34c-00001.parquet",
				   p0, 1));
}

/*
 * 2114 positions of one path, dictionary-encoded, Impala's writer:
 * SELECT count(*), sum(pos), min(pos), max(pos), sum(pos * rn),
 *		  list(pos ORDER BY pos)[1:6], list(pos ORDER BY pos)[-5:]
 * FROM (SELECT pos, row_number() OVER (ORDER BY pos) rn FROM F)
 */
static void
test_pos_real_lineitem(void)
{
	static const uint64 first[] = {4, 11, 22, 29, 42, 53};
	static const uint64 last[] = {19965, 19972, 19983, 19990, 19996};
	PqFile	   *f;
	PqIcebergPositionDeletes d;
	const PqIcebergDeletedRows *r;
	const char *why = NULL;
	uint64		sum = 0;
	uint64		weighted = 0;
	uint64		i;

	if (formats_dir() == NULL)
		return;
	f = corpus_file(ICE "iceberg_lineitem_multiblock/data/delete-74487c6141f8028e-98cbf79b00000000_453028296_data.0.parq");
	CHECK(f != NULL);
	CHECK(pq_iceberg_read_position_deletes(f, &d, &why));
	CHECK_EQ_INT(d.npaths, 1);
	r = pq_iceberg_position_deletes_for(&d, HDFS "iceberg_lineitem_multiblock/data/00000-0-data-gfurnstahl_20230705104815_d51294d1-5658-497c-94f2-54269eb011be-job_16881608248131_0342-1-00001.parquet");
	CHECK(r != NULL);
	CHECK_EQ_INT(r->count, 2114);
	for (i = 0; i < r->count; i++)
	{
		sum += r->pos[i];
		weighted += r->pos[i] * (i + 1);
	}
	CHECK_EQ_INT(sum, 21256372);
	CHECK_EQ_INT(weighted, INT64CONST(29975508054));
	CHECK(memcmp(r->pos, first, sizeof(first)) == 0);
	CHECK(memcmp(r->pos + r->count - 5, last, sizeof(last)) == 0);
}

/*
 * Null paths: rows without a path name no row and are skipped, as Impala
 * skips them.  DuckDB, SELECT file_path IS NULL, pos FROM F:
 *	 delete_null_first           (t,0) (f,1)
 *	 delete_null_first_and_last  (t,0) (f,1) (t,7)
 *	 delete_null_last            (f,0) (t,1)
 *	 delete_null_single          (t,0)
 *	 delete_three_nulls          (t,0) (t,1) (t,2)
 */
static void
test_pos_real_nulls(void)
{
	static const char *const files[] = {
		"delete_null_first.parq", "delete_null_first_and_last.parq",
		"delete_null_last.parq", "delete_null_single.parq",
		"delete_three_nulls.parq"
	};
	static const int64 kept[] = {1, 1, 0, -1, -1};
	int			i;

	if (formats_dir() == NULL)
		return;
	for (i = 0; i < (int) lengthof(files); i++)
	{
		char		name[512];
		PqFile	   *f;
		PqIcebergPositionDeletes d;
		const char *why = NULL;

		snprintf(name, sizeof(name), ICE "iceberg_v2_null_delete_record/data/%s",
				 files[i]);
		f = corpus_file(name);
		CHECK(f != NULL);
		CHECK(pq_iceberg_read_position_deletes(f, &d, &why));
		if (kept[i] < 0)
		{
			CHECK_EQ_INT(d.npaths, 0);
			continue;
		}
		CHECK_EQ_INT(d.npaths, 1);
		CHECK_EQ_INT(d.rows[0].count, 1);
		CHECK_EQ_INT(d.rows[0].pos[0], kept[i]);
	}
}

/* ---- files written here ---- */

static void
mem_write(PqSink *sink, const uint8 *data, size_t len)
{
	pq_buffer_append((PqBuffer *) sink->opaque, data, len);
}

static PqWriterField
field(const char *name, int rep, int ptype, int tlen, int lt, int precision,
	  int scale)
{
	PqWriterField f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.repetition = rep;
	f.physical_type = ptype;
	f.type_length = tlen;
	f.logical.id = lt;
	f.logical.decimal_precision = precision;
	f.logical.decimal_scale = scale;
	f.converted_type = -1;
	return f;
}

/* One column of a file to write: n rows, values of the non-null ones. */
struct col
{
	const int16 *def;			/* NULL: required or no nulls */
	const void *fixed;
	const PqByteArray *ba;
	int			width;			/* fixed: bytes per value */
};

static struct col
col(const int16 *def, const void *fixed, const PqByteArray *ba, int width)
{
	struct col	c = {def, fixed, ba, width};

	return c;
}

static PqByteArray
bytes(const void *p, uint32 len)
{
	PqByteArray b = {p, len};

	return b;
}

/*
 * A file of nrows rows of the columns cols (one per field, all top-level
 * leaves), written in batches of batch rows, row groups of rg_rows rows.
 */
static PqFile *
write_file(const PqWriterField *fields, int nfields, const struct col *cols,
		   int nrows, int batch, int rg_rows, bool dictionary)
{
	PqBuffer	buf;
	PqSink		sink = {mem_write, &buf, 0};
	PqWriterOptions o;
	PqFileWriter *w;
	int		   *vi = palloc0(sizeof(int) * nfields);
	int			done;
	int			c;

	pq_buffer_init(&buf, 4096);
	pq_writer_options_init(&o);
	o.row_group_rows = rg_rows;
	o.data_page_rows = 97;
	o.dictionary = dictionary;
	w = pq_file_writer_create(&sink, fields, nfields, &o);
	for (done = 0; done < nrows; done += batch)
	{
		int			n = Min(batch, nrows - done);

		for (c = 0; c < nfields; c++)
		{
			const int16 *def = cols[c].def ? cols[c].def + done : NULL;
			int			nv = 0;
			int			i;

			for (i = 0; i < n; i++)
				nv += def == NULL || def[i] == 1;
			pq_file_writer_write_column(w, c, n, def, NULL, nv,
										cols[c].fixed ? (const uint8 *) cols[c].fixed + (Size) vi[c] * cols[c].width : NULL,
										cols[c].ba ? cols[c].ba + vi[c] : NULL);
			vi[c] += nv;
		}
		pq_file_writer_end_rows(w, n);
	}
	pq_file_writer_finish(w);
	return open_mem(ut_exact_copy(buf.data, buf.len), buf.len);
}

static PqByteArray
str_ba(const char *s)
{
	PqByteArray b = {(const uint8 *) s, (uint32) strlen(s)};

	return b;
}

/*
 * Many paths, unsorted, positions repeated, across row groups, pages and
 * segments, with and without dictionaries: grouped as brute force has it.
 * No field ids (the writer writes none): the columns are found by name.
 */
static void
test_pos_built(void)
{
	enum
	{
		N = 20000, NPATHS = 37
	};
	static const char *names[NPATHS];
	PqWriterField f[3];
	struct col	cols[3];
	PqByteArray *paths = palloc(sizeof(PqByteArray) * N);
	int64	   *pos = palloc(sizeof(int64) * N);
	int16	   *def = palloc(sizeof(int16) * N);
	int32	   *extra = palloc(sizeof(int32) * N);
	bool	  **seen = palloc(sizeof(bool *) * NPATHS);
	int			dict;
	int			i;

	ut_rng_seed(7);
	for (i = 0; i < NPATHS; i++)
	{
		names[i] = psprintf("s3://bucket/t/data/%c%d.parquet",
							'a' + (int) (ut_rng_next() % 26), i);
		seen[i] = palloc0(3000);
	}
	for (i = 0; i < N; i++)
	{
		/* runs of one path, as writers sort them, and strays */
		int			p = (i / 700 + (ut_rng_next() % 9 == 0 ? (int) (ut_rng_next() % 5) : 0)) % NPATHS;

		paths[i] = str_ba(names[p]);
		pos[i] = (int64) (ut_rng_next() % 3000);
		seen[p][pos[i]] = true;
		def[i] = 1;
		extra[i] = i;
	}
	f[0] = field("x", PQ_REQUIRED, PQ_INT32, 0, PQ_LT_NONE, 0, 0);
	f[1] = field("pos", PQ_OPTIONAL, PQ_INT64, 0, PQ_LT_NONE, 0, 0);
	f[2] = field("file_path", PQ_REQUIRED, PQ_BYTE_ARRAY, 0, PQ_LT_STRING, 0, 0);
	cols[0] = col(NULL, extra, NULL, 4);
	cols[1] = col(def, pos, NULL, 8);
	cols[2] = col(NULL, NULL, paths, 0);
	for (dict = 0; dict < 2; dict++)
	{
		PqFile	   *file = write_file(f, 3, cols, N, 1500, 6000, dict == 1);
		PqIcebergPositionDeletes d;
		const char *why = NULL;
		int			found = 0;
		int			used = 0;

		CHECK(pq_iceberg_read_position_deletes(file, &d, &why));
		CHECK(file->md.n_row_groups > 2);
		for (i = 0; i < d.npaths; i++)
			CHECK(i == 0 || strcmp(d.paths[i - 1], d.paths[i]) < 0);
		for (i = 0; i < NPATHS; i++)
		{
			const PqIcebergDeletedRows *r = pq_iceberg_position_deletes_for(&d, names[i]);
			uint64		k = 0;
			int			p;

			for (p = 0; p < 3000 && !seen[i][p]; p++)
				;
			used += p < 3000;
			CHECK((r != NULL) == (p < 3000));
			if (r == NULL)
				continue;
			found++;
			for (p = 0; p < 3000; p++)
				if (seen[i][p])
				{
					CHECK(k < r->count && r->pos[k] == (uint64) p);
					k++;
				}
			CHECK_EQ_INT(k, r->count);
		}
		CHECK_EQ_INT(found, used);
		CHECK_EQ_INT(d.npaths, used);
		CHECK(used > 30);
		CHECK(pq_iceberg_position_deletes_for(&d, "s3://bucket/t/data/none") == NULL);
		CHECK(pq_iceberg_position_deletes_for(&d, "") == NULL);
		CHECK(pq_iceberg_position_deletes_for(NULL, names[0]) == NULL);
	}
}

/* What a position delete file of two rows may not be. */
static void
test_pos_refused(void)
{
	PqWriterField f[3];
	struct col	cols[3];
	PqByteArray paths[2] = {str_ba("a"), str_ba("b")};
	PqByteArray nul_path[2] = {{(const uint8 *) "a\0b", 3}, {(const uint8 *) "a", 1}};
	int64		pos[2] = {0, 1};
	int64		neg[2] = {5, -1};
	int32		pos32[2] = {0, 1};
	int16		def[2] = {1, 0};
	PqIcebergPositionDeletes d;
	const char *why;

	f[0] = field("file_path", PQ_REQUIRED, PQ_BYTE_ARRAY, 0, PQ_LT_STRING, 0, 0);
	f[1] = field("pos", PQ_REQUIRED, PQ_INT64, 0, PQ_LT_NONE, 0, 0);
	cols[0] = col(NULL, NULL, paths, 0);
	cols[1] = col(NULL, pos, NULL, 8);
	CHECK(pq_iceberg_read_position_deletes(write_file(f, 2, cols, 2, 2, 100, true), &d, &why));
	CHECK_EQ_INT(d.npaths, 2);

	/* a negative position */
	cols[1].fixed = neg;
	CHECK(!pq_iceberg_read_position_deletes(write_file(f, 2, cols, 2, 2, 100, true), &d, &why));
	CHECK(strstr(why, "negative") != NULL && d.npaths == 0);
	/* a null position: the row names no row, and is skipped */
	f[1].repetition = PQ_OPTIONAL;
	cols[1] = col(def, pos, NULL, 8);
	CHECK(pq_iceberg_read_position_deletes(write_file(f, 2, cols, 2, 2, 100, true), &d, &why));
	CHECK_EQ_INT(d.npaths, 1);
	CHECK(strcmp(d.paths[0], "a") == 0 && d.rows[0].count == 1 &&
		  d.rows[0].pos[0] == 0);
	/* a NUL character in a path */
	f[1].repetition = PQ_REQUIRED;
	cols[1] = col(NULL, pos, NULL, 8);
	cols[0].ba = nul_path;
	CHECK(!pq_iceberg_read_position_deletes(write_file(f, 2, cols, 2, 2, 100, false), &d, &why));
	CHECK(strstr(why, "NUL") != NULL && d.npaths == 0 && d.rows == NULL);
	cols[0].ba = paths;
	/* pos of another type */
	f[1] = field("pos", PQ_REQUIRED, PQ_INT32, 0, PQ_LT_NONE, 0, 0);
	cols[1] = col(NULL, pos32, NULL, 4);
	CHECK(!pq_iceberg_read_position_deletes(write_file(f, 2, cols, 2, 2, 100, true), &d, &why));
	CHECK(strcmp(why, "its column pos is not a long") == 0);
	/* no pos; pos twice */
	f[1] = field("position", PQ_REQUIRED, PQ_INT64, 0, PQ_LT_NONE, 0, 0);
	cols[1] = col(NULL, pos, NULL, 8);
	CHECK(!pq_iceberg_read_position_deletes(write_file(f, 2, cols, 2, 2, 100, true), &d, &why));
	CHECK(strcmp(why, "it has no column pos") == 0);
	f[1].name = "pos";
	f[2] = f[1];
	cols[2] = cols[1];
	CHECK(!pq_iceberg_read_position_deletes(write_file(f, 3, cols, 2, 2, 100, true), &d, &why));
	CHECK(strcmp(why, "its column pos is there twice") == 0);
	/* an empty file is no deletes */
	CHECK(pq_iceberg_read_position_deletes(write_file(f, 2, cols, 0, 2, 100, true), &d, &why));
	CHECK(d.npaths == 0 && pq_iceberg_position_deletes_for(&d, "a") == NULL);
}

/* ---- union ---- */

static PqIcebergDeletedRows
rows_of(const uint64 *p, uint64 n)
{
	PqIcebergDeletedRows r = {n, (uint64 *) p};

	return r;
}

static void
test_union(void)
{
	static const uint64 a[] = {1, 4, 5, 9};
	static const uint64 b[] = {0, 4, 9, 10};
	static const uint64 ab[] = {0, 1, 4, 5, 9, 10};
	PqIcebergDeletedRows ra = rows_of(a, 4);
	PqIcebergDeletedRows rb = rows_of(b, 4);
	PqIcebergDeletedRows empty = rows_of(NULL, 0);
	PqIcebergDeletedRows *u;
	int			round;

	u = pq_iceberg_deleted_rows_union(NULL, NULL);
	CHECK(u->count == 0 && u->pos == NULL);
	u = pq_iceberg_deleted_rows_union(&empty, NULL);
	CHECK(u->count == 0 && u->pos == NULL);
	CHECK(same_rows(pq_iceberg_deleted_rows_union(&ra, NULL), a, 4));
	CHECK(same_rows(pq_iceberg_deleted_rows_union(&empty, &ra), a, 4));
	CHECK(same_rows(pq_iceberg_deleted_rows_union(&ra, &rb), ab, 6));
	CHECK(same_rows(pq_iceberg_deleted_rows_union(&rb, &ra), ab, 6));
	u = pq_iceberg_deleted_rows_union(&ra, &ra);
	CHECK(same_rows(u, a, 4) && u->pos != a);

	/* against a bitmap */
	ut_rng_seed(11);
	for (round = 0; round < 200; round++)
	{
		bool		in[512];
		uint64		x[512];
		uint64		y[512];
		uint64		exp[512];
		uint64		nx = 0;
		uint64		ny = 0;
		uint64		ne = 0;
		PqIcebergDeletedRows rx;
		PqIcebergDeletedRows ry;
		int			i;
		int			dx = 1 + (int) (ut_rng_next() % 8);
		int			dy = 1 + (int) (ut_rng_next() % 8);

		memset(in, 0, sizeof(in));
		for (i = 0; i < 512; i++)
		{
			if (ut_rng_next() % dx == 0)
				x[nx++] = i, in[i] = true;
			if (ut_rng_next() % dy == 0)
				y[ny++] = i, in[i] = true;
		}
		for (i = 0; i < 512; i++)
			if (in[i])
				exp[ne++] = i;
		rx = rows_of(x, nx);
		ry = rows_of(y, ny);
		CHECK(same_rows(pq_iceberg_deleted_rows_union(&rx, &ry), exp, ne));
	}
}

/* ---- the key encoding ---- */

static PqSchemaNode *
leaf_node(int ptype, int tlen, int lt)
{
	PqSchemaNode *n = palloc0(sizeof(PqSchemaNode));

	n->is_leaf = true;
	n->depth = 1;
	n->repetition = PQ_OPTIONAL;
	n->physical_type = ptype;
	n->type_length = tlen;
	n->logical.id = lt;
	n->logical.int_is_signed = true;
	n->converted_type = -1;
	return n;
}

/* The key of one value of a column of node, as hex. */
static char *
key_hex(const PqSchemaNode *node, const void *fixed, const PqByteArray *ba)
{
	PqIcebergKeyType t;
	PqBuffer	key;
	const char *why = NULL;
	char	   *hex;
	size_t		i;

	if (!pq_iceberg_key_type(node, &t, &why))
		return pstrdup("type refused");
	pq_buffer_init(&key, 16);
	if (!pq_iceberg_key_append(&key, &t, fixed, ba, &why))
		return pstrdup("value refused");
	hex = palloc(key.len * 2 + 1);
	for (i = 0; i < key.len; i++)
		snprintf(hex + 2 * i, 3, "%02x", key.data[i]);
	hex[key.len * 2] = '\0';
	return hex;
}

#define KEY_IS(node, fixed, ba, hex) CHECK(strcmp(key_hex(node, fixed, ba), hex) == 0)

static void
test_key_encoding(void)
{
	PqSchemaNode *i32 = leaf_node(PQ_INT32, 0, PQ_LT_NONE);
	PqSchemaNode *i64 = leaf_node(PQ_INT64, 0, PQ_LT_NONE);
	PqSchemaNode *date = leaf_node(PQ_INT32, 0, PQ_LT_DATE);
	PqSchemaNode *u32 = leaf_node(PQ_INT32, 0, PQ_LT_INTEGER);
	PqSchemaNode *f32 = leaf_node(PQ_FLOAT, 0, PQ_LT_NONE);
	PqSchemaNode *f64 = leaf_node(PQ_DOUBLE, 0, PQ_LT_NONE);
	PqSchemaNode *d32 = leaf_node(PQ_INT32, 0, PQ_LT_DECIMAL);
	PqSchemaNode *d64 = leaf_node(PQ_INT64, 0, PQ_LT_DECIMAL);
	PqSchemaNode *dfix = leaf_node(PQ_FIXED_LEN_BYTE_ARRAY, 5, PQ_LT_DECIMAL);
	PqSchemaNode *dfix20 = leaf_node(PQ_FIXED_LEN_BYTE_ARRAY, 20, PQ_LT_NONE);
	PqSchemaNode *dba = leaf_node(PQ_BYTE_ARRAY, 0, PQ_LT_NONE);
	PqSchemaNode *str = leaf_node(PQ_BYTE_ARRAY, 0, PQ_LT_STRING);
	PqSchemaNode *uuid = leaf_node(PQ_FIXED_LEN_BYTE_ARRAY, 3, PQ_LT_UUID);
	PqSchemaNode *b = leaf_node(PQ_BOOLEAN, 0, PQ_LT_NONE);
	PqSchemaNode *i96 = leaf_node(PQ_INT96, 12, PQ_LT_NONE);
	int32		x32 = -2;
	int64		x64 = -2;
	float		fl = 1.5f;
	double		db = 1.5;
	float		fnan = -NAN;
	double		dnan = NAN;
	uint64		dnan_bits = UINT64CONST(0xfff0000000000001);	/* a signalling NaN */
	double		dnan2;
	double		zero = 0.0;
	double		negzero = -0.0;
	uint8		be5[5] = {0xff, 0xff, 0xff, 0xff, 0xfe};
	uint8		be20[20];
	uint8		bool1 = 1;
	uint8		int96[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	PqByteArray ba;
	PqIcebergKeyType t;
	const char *why = NULL;
	int32		big32 = -1;

	memcpy(&dnan2, &dnan_bits, sizeof(double));
	d32->converted_type = PQ_CT_DECIMAL;
	dfix20->converted_type = PQ_CT_DECIMAL; /* a ConvertedType alone */
	dba->logical.id = PQ_LT_DECIMAL;
	u32->logical.int_is_signed = false;

	/* INT32, INT64 and dates: one 8-byte little-endian integer */
	KEY_IS(i32, &x32, NULL, "02feffffffffffffff");
	KEY_IS(i64, &x64, NULL, "02feffffffffffffff");
	KEY_IS(date, &x32, NULL, "02feffffffffffffff");
	KEY_IS(u32, &big32, NULL, "02ffffffff00000000");
	/* FLOAT and DOUBLE: the double; NaNs one NaN; -0.0 is not 0.0 */
	KEY_IS(f32, &fl, NULL, "03000000000000f83f");
	KEY_IS(f64, &db, NULL, "03000000000000f83f");
	KEY_IS(f32, &fnan, NULL, "03000000000000f87f");
	KEY_IS(f64, &dnan, NULL, "03000000000000f87f");
	KEY_IS(f64, &dnan2, NULL, "03000000000000f87f");
	KEY_IS(f64, &zero, NULL, "030000000000000000");
	KEY_IS(f64, &negzero, NULL, "030000000000000080");
	/* DECIMALs: 16 bytes, big-endian, sign-extended, whatever the storage */
	KEY_IS(d32, &x32, NULL, "04fffffffffffffffffffffffffffffffe");
	KEY_IS(d64, &x64, NULL, "04fffffffffffffffffffffffffffffffe");
	KEY_IS(dfix, be5, NULL, "04fffffffffffffffffffffffffffffffe");
	ba = bytes(be5 + 3, 2);
	KEY_IS(dba, NULL, &ba, "04fffffffffffffffffffffffffffffffe");
	ba = bytes(be5, 0);
	KEY_IS(dba, NULL, &ba, "0400000000000000000000000000000000");
	x64 = 300;
	KEY_IS(d64, &x64, NULL, "040000000000000000000000000000012c");
	ba = bytes((const uint8 *) "\x01\x2c", 2);
	KEY_IS(dba, NULL, &ba, "040000000000000000000000000000012c");
	/* wider than 16 bytes: the extra bytes may only carry the sign */
	memset(be20, 0xff, sizeof(be20));
	be20[19] = 0xfe;
	KEY_IS(dfix20, be20, NULL, "04fffffffffffffffffffffffffffffffe");
	be20[4] = 0x7f;				/* the 16th byte from the end: sign 0 */
	KEY_IS(dfix20, be20, NULL, "value refused");
	be20[4] = 0xff;
	be20[0] = 0x7f;
	KEY_IS(dfix20, be20, NULL, "value refused");
	/* bytes: length and bytes, BYTE_ARRAY as FIXED_LEN_BYTE_ARRAY */
	ba = str_ba("abc");
	KEY_IS(str, NULL, &ba, "0503000000616263");
	KEY_IS(uuid, "abc", NULL, "0503000000616263");
	ba = str_ba("");
	KEY_IS(str, NULL, &ba, "0500000000");
	/* the rest; null whatever the type */
	KEY_IS(b, &bool1, NULL, "0101");
	KEY_IS(i96, int96, NULL, "060102030405060708090a0b0c");
	KEY_IS(i32, NULL, NULL, "00");
	KEY_IS(str, NULL, NULL, "00");

	/* nested columns are refused */
	i32->depth = 2;
	CHECK(!pq_iceberg_key_type(i32, &t, &why) && strstr(why, "top-level") != NULL);
	i32->depth = 1;
	i32->max_rep = 1;
	CHECK(!pq_iceberg_key_type(i32, &t, &why));
	i32->max_rep = 0;
	i32->is_leaf = false;
	CHECK(!pq_iceberg_key_type(i32, &t, &why));
}

/* ---- key sets over the corpus ---- */

static bool
match(const PqIcebergKeySet *set, const char *name, const int *cols,
	  const uint64 *exp, int n)
{
	PqFile	   *f = corpus_file(name);
	PqIcebergDeletedRows out;
	const char *why = NULL;

	return f != NULL && pq_iceberg_keyset_match_file(set, f, cols, &out, &why) &&
		same_rows(&out, exp, n);
}

static PqIcebergKeySet *
keyset_of(const char *name, const int *cols, int ncols)
{
	PqIcebergKeySet *set = pq_iceberg_keyset_create(ncols);
	PqFile	   *f = corpus_file(name);
	const char *why = NULL;

	if (f == NULL || !pq_iceberg_keyset_add_file(set, f, cols, &why))
		return NULL;
	return set;
}

#define NULLS ICE "iceberg_v2_delete_equality_nulls/data/"
#define MULTI ICE "iceberg_v2_delete_equality_multi_eq_ids/data/00000-"
#define LINEITEM ICE "iceberg_lineitem_multiblock/data/00000-0-data-gfurnstahl_20230705104815_d51294d1-5658-497c-94f2-54269eb011be-job_16881608248131_0342-1-00001.parquet"
#define EQ_ID1 ICE "iceberg_v2_delete_equality/data/00000-0-231ec696-613a-4270-a1f1-1f69947622d4-00002.parquet"

/*
 * SELECT list(file_row_number ORDER BY file_row_number)
 * FROM read_parquet(F, file_row_number = true) x
 * WHERE EXISTS (SELECT 1 FROM read_parquet(D) e
 *				 WHERE e.i IS NOT DISTINCT FROM x.i [AND e.s ...])
 * (for the INT64 id of EQ_ID1: CAST(x.i AS BIGINT) IN (SELECT id FROM D))
 */
static void
test_keyset_real(void)
{
	static const int c0[] = {0};
	static const int c01[] = {0, 1};
	static const int c1[] = {1};
	static const int c0absent[] = {0, -1};
	static const uint64 p12[] = {1, 2};
	static const uint64 p1[] = {1};
	static const uint64 p0[] = {0};
	static const uint64 p02[] = {0, 2};
	static const uint64 p01[] = {0, 1};
	PqIcebergKeySet *set;

	if (formats_dir() == NULL)
		return;
	/* i: NULL, 3 (INT32): NULL equals NULL */
	set = keyset_of(NULLS "delete-494fbbd4b792bdd2-aabb8e2000000000_1239775374_data.0.parq", c0, 1);
	CHECK(set != NULL);
	CHECK_EQ_INT(pq_iceberg_keyset_size(set), 2);
	CHECK(match(set, NULLS "a94b351bfa56dbd8-ddb31c6400000000_1397530881_data.0.parq", c0, p12, 2));
	CHECK(match(set, NULLS "e6484a6fb0a2b4e6-d242a84000000000_1980761347_data.0.parq", c0, p1, 1));
	/* the same over (i, s), s absent from the delete file: s is null */
	set = keyset_of(NULLS "delete-494fbbd4b792bdd2-aabb8e2000000000_1239775374_data.0.parq", c0absent, 2);
	CHECK(set != NULL);
	CHECK(match(set, NULLS "a94b351bfa56dbd8-ddb31c6400000000_1397530881_data.0.parq", c01, NULL, 0));
	CHECK(match(set, NULLS "a94b351bfa56dbd8-ddb31c6400000000_1397530881_data.0.parq", c0absent, p12, 2));

	/* id 1 as a long, matched against an int column */
	set = keyset_of(EQ_ID1, c0, 1);
	CHECK(set != NULL);
	CHECK(match(set, NULLS "a94b351bfa56dbd8-ddb31c6400000000_1397530881_data.0.parq", c0, p0, 1));
	CHECK(match(set, NULLS "e6484a6fb0a2b4e6-d242a84000000000_1980761347_data.0.parq", c0, NULL, 0));

	/* (i, s) = (3333, str3_updated), (4, str4) */
	set = keyset_of(MULTI "25-8814a344-4216-4d37-9e9b-091de336e3fa-00002.parquet", c01, 2);
	CHECK(set != NULL);
	CHECK_EQ_INT(pq_iceberg_keyset_size(set), 2);
	CHECK(match(set, MULTI "24-94d478ff-204b-4eb4-9a71-9876a31daf64-00001.parquet", c01, p02, 2));
	CHECK(match(set, MULTI "22-09b63f85-c950-4d32-a9fd-0abd5229d768-00001.parquet", c01, NULL, 0));
	CHECK(match(set, MULTI "25-8814a344-4216-4d37-9e9b-091de336e3fa-00001.parquet", c01, NULL, 0));
	/* s = str3_updated, str2 (a file of s alone) */
	set = keyset_of(MULTI "24-94d478ff-204b-4eb4-9a71-9876a31daf64-00002.parquet", c0, 1);
	CHECK(set != NULL);
	CHECK(match(set, MULTI "22-09b63f85-c950-4d32-a9fd-0abd5229d768-00001.parquet", c1, p1, 1));
	CHECK(match(set, MULTI "23-1365d982-ca94-4e1d-9b86-2f973c000cf0-00001.parquet", c1, p0, 1));
	CHECK(match(set, MULTI "24-94d478ff-204b-4eb4-9a71-9876a31daf64-00001.parquet", c1, p01, 2));
	CHECK(match(set, MULTI "25-8814a344-4216-4d37-9e9b-091de336e3fa-00001.parquet", c1, NULL, 0));
}

/* The positions of out: count, sum, sum of position * rank (1-based). */
static void
fingerprint(const PqIcebergDeletedRows *r, uint64 *sum, uint64 *weighted)
{
	uint64		i;

	*sum = *weighted = 0;
	for (i = 0; i < r->count; i++)
	{
		*sum += r->pos[i];
		*weighted += r->pos[i] * (i + 1);
	}
}

/*
 * 20,000 rows in 200 row groups.  Rows matched:
 * SELECT count(*), sum(file_row_number), sum(file_row_number * rn)
 * FROM (SELECT file_row_number, row_number() OVER (ORDER BY file_row_number) rn
 *		 FROM read_parquet(F, file_row_number = true) x WHERE <key matches>);
 * distinct keys: SELECT count(*) FROM (SELECT DISTINCT <columns> FROM F)
 */
static void
test_keyset_lineitem(void)
{
	static const int linenumber[] = {3};
	static const int c0[] = {0};
	static const struct
	{
		int			n;
		int			cols[16];
		int64		distinct;
	}			sets[] = {
		{1, {0}, 4987},			/* l_orderkey */
		{2, {8, 9}, 4},			/* l_returnflag, l_linestatus */
		{2, {4, 14}, 350},		/* l_quantity (DECIMAL), l_shipmode */
		{3, {6, 7, 3}, 693},	/* l_discount, l_tax, l_linenumber */
		{1, {15}, 19792},		/* l_comment */
		{2, {1, 2}, 19730},		/* l_partkey, l_suppkey */
		{16, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 20000},
	};
	static const uint64 first6[] = {0, 1, 2, 3, 4, 5};
	PqIcebergKeySet *set;
	PqFile	   *f;
	PqIcebergDeletedRows out;
	const char *why = NULL;
	uint64		sum;
	uint64		weighted;
	int			i;

	if (formats_dir() == NULL)
		return;
	f = corpus_file(LINEITEM);
	CHECK(f != NULL && f->md.n_row_groups == 200);

	/* l_linenumber IS NOT DISTINCT FROM NULL or 3 */
	set = keyset_of(NULLS "delete-494fbbd4b792bdd2-aabb8e2000000000_1239775374_data.0.parq", c0, 1);
	CHECK(set != NULL);
	CHECK(pq_iceberg_keyset_match_file(set, f, linenumber, &out, &why));
	CHECK_EQ_INT(out.count, 3570);
	fingerprint(&out, &sum, &weighted);
	CHECK_EQ_INT(sum, 35711634);
	CHECK_EQ_INT(weighted, INT64CONST(85015846445));
	CHECK(out.pos[0] == 2 && out.pos[1] == 9 && out.pos[5] == 33 &&
		  out.pos[3569] == 19994);

	/* id 1 (INT64): l_orderkey (INT64) = 1; l_linenumber (INT32) = 1 */
	set = keyset_of(EQ_ID1, c0, 1);
	CHECK(set != NULL);
	CHECK(pq_iceberg_keyset_match_file(set, f, c0, &out, &why));
	CHECK(same_rows(&out, first6, 6));
	CHECK(pq_iceberg_keyset_match_file(set, f, linenumber, &out, &why));
	CHECK_EQ_INT(out.count, 4987);
	fingerprint(&out, &sum, &weighted);
	CHECK_EQ_INT(sum, 49730671);
	CHECK_EQ_INT(weighted, INT64CONST(165341411460));

	/* distinct keys, and every row of the file found again */
	for (i = 0; i < (int) lengthof(sets); i++)
	{
		set = pq_iceberg_keyset_create(sets[i].n);
		CHECK(pq_iceberg_keyset_add_file(set, f, sets[i].cols, &why));
		CHECK_EQ_INT(pq_iceberg_keyset_size(set), sets[i].distinct);
		CHECK(pq_iceberg_keyset_match_file(set, f, sets[i].cols, &out, &why));
		CHECK_EQ_INT(out.count, 20000);
		CHECK_EQ_INT(out.pos[19999], 19999);
		/* adding the file again adds nothing */
		CHECK(pq_iceberg_keyset_add_file(set, f, sets[i].cols, &why));
		CHECK_EQ_INT(pq_iceberg_keyset_size(set), sets[i].distinct);
	}
}

/* ---- key sets over written files: promoted types ---- */

/*
 * A delete file with the wide types (INT64, DOUBLE, DECIMAL(38,2) in a
 * FIXED_LEN_BYTE_ARRAY(16), string) and a data file with the narrow ones
 * (INT32, FLOAT, DECIMAL(9,2) in an INT32, string), both with nulls, NaNs
 * and several row groups: a data row is deleted when each of its values
 * equals the delete row's (null equal to null, NaN to NaN).
 */
static void
test_keyset_promoted(void)
{
	enum
	{
		ND = 300, NR = 5000
	};
	PqWriterField fd[4];
	PqWriterField fr[4];
	struct col	cd[4];
	struct col	cr[4];
	int16	   *ddef[4];
	int16	   *rdef[4];
	int64	   *dk = palloc(sizeof(int64) * ND);
	double	   *df = palloc(sizeof(double) * ND);
	uint8	   *ddec = palloc(16 * ND);
	PqByteArray *ds = palloc(sizeof(PqByteArray) * ND);
	int32	   *rk = palloc(sizeof(int32) * NR);
	float	   *rf = palloc(sizeof(float) * NR);
	int32	   *rdec = palloc(sizeof(int32) * NR);
	PqByteArray *rs = palloc(sizeof(PqByteArray) * NR);
	static const char *const strs[] = {"", "x", "xy", "yx"};
	uint8	   *dcode = palloc(4 * ND); /* each row's values as codes */
	uint8	   *rcode = palloc(4 * NR);
	int			nv[4] = {0};
	PqIcebergKeySet *set;
	PqIcebergDeletedRows out;
	const char *why = NULL;
	static const int cols[] = {0, 1, 2, 3};
	uint64		k = 0;
	int			i;
	int			c;

	for (c = 0; c < 4; c++)
	{
		ddef[c] = palloc(sizeof(int16) * ND);
		rdef[c] = palloc(sizeof(int16) * NR);
	}
	ut_rng_seed(99);
	/* per column a code 1..4 for a value, 0 for null; both files use them */
	for (i = 0; i < ND; i++)
		for (c = 0; c < 4; c++)
		{
			int			v = (int) (ut_rng_next() % 5);
			int			at = nv[c];
			int64		unscaled = v == 4 ? -1 : v * 1000003;
			int			b;

			dcode[i * 4 + c] = (uint8) v;
			ddef[c][i] = v > 0;
			if (v == 0)
				continue;
			nv[c]++;
			if (c == 0)
				dk[at] = v - 3;
			else if (c == 1)
				df[at] = v == 4 ? NAN : (v == 3 ? -0.5 : v * 0.25);
			else if (c == 2)
				for (b = 0; b < 16; b++)
					ddec[at * 16 + 15 - b] = b < 8 ?
						(uint8) ((uint64) unscaled >> (8 * b)) :
						(unscaled < 0 ? 0xff : 0);
			else
				ds[at] = str_ba(strs[v - 1]);
		}
	memset(nv, 0, sizeof(nv));
	for (i = 0; i < NR; i++)
		for (c = 0; c < 4; c++)
		{
			int			v = (int) (ut_rng_next() % 5);
			int			at = nv[c];

			rcode[i * 4 + c] = (uint8) v;
			rdef[c][i] = v > 0;
			if (v == 0)
				continue;
			nv[c]++;
			if (c == 0)
				rk[at] = v - 3;
			else if (c == 1)
				rf[at] = v == 4 ? -NAN : (v == 3 ? -0.5f : v * 0.25f);
			else if (c == 2)
				rdec[at] = v == 4 ? -1 : v * 1000003;
			else
				rs[at] = str_ba(strs[v - 1]);
		}
	fd[0] = field("k", PQ_OPTIONAL, PQ_INT64, 0, PQ_LT_NONE, 0, 0);
	fd[1] = field("f", PQ_OPTIONAL, PQ_DOUBLE, 0, PQ_LT_NONE, 0, 0);
	fd[2] = field("d", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY, 16, PQ_LT_DECIMAL, 38, 2);
	fd[3] = field("s", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, PQ_LT_STRING, 0, 0);
	fr[0] = field("k", PQ_OPTIONAL, PQ_INT32, 0, PQ_LT_NONE, 0, 0);
	fr[1] = field("f", PQ_OPTIONAL, PQ_FLOAT, 0, PQ_LT_NONE, 0, 0);
	fr[2] = field("d", PQ_OPTIONAL, PQ_INT32, 0, PQ_LT_DECIMAL, 9, 2);
	fr[3] = field("s", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, PQ_LT_STRING, 0, 0);
	cd[0] = col(ddef[0], dk, NULL, 8);
	cd[1] = col(ddef[1], df, NULL, 8);
	cd[2] = col(ddef[2], ddec, NULL, 16);
	cd[3] = col(ddef[3], NULL, ds, 0);
	cr[0] = col(rdef[0], rk, NULL, 4);
	cr[1] = col(rdef[1], rf, NULL, 4);
	cr[2] = col(rdef[2], rdec, NULL, 4);
	cr[3] = col(rdef[3], NULL, rs, 0);

	set = pq_iceberg_keyset_create(4);
	CHECK(pq_iceberg_keyset_add_file(set, write_file(fd, 4, cd, ND, 100, 128, true),
									 cols, &why));
	CHECK(pq_iceberg_keyset_match_file(set, write_file(fr, 4, cr, NR, 700, 1000, false),
									   cols, &out, &why));
	for (i = 0; i < NR; i++)
	{
		bool		hit = false;
		int			j;

		for (j = 0; j < ND && !hit; j++)
			hit = memcmp(rcode + i * 4, dcode + j * 4, 4) == 0;
		if (!hit)
			continue;
		CHECK(k < out.count && out.pos[k] == (uint64) i);
		k++;
	}
	CHECK_EQ_INT(k, out.count);
	CHECK(k > 10);
	/* the distinct codes of the delete file */
	{
		int			distinct = 0;

		for (i = 0; i < ND; i++)
		{
			int			j;

			for (j = 0; j < i; j++)
				if (memcmp(dcode + i * 4, dcode + j * 4, 4) == 0)
					break;
			distinct += j == i;
		}
		CHECK_EQ_INT(pq_iceberg_keyset_size(set), distinct);
	}
}

/* What a key set refuses. */
static void
test_keyset_refused(void)
{
	static const int bad[] = {99};
	static const int neg[] = {-2};
	static const int c0[] = {0};
	static const int c1[] = {1};
	PqIcebergKeySet *set = pq_iceberg_keyset_create(1);
	PqIcebergDeletedRows out;
	PqFile	   *f;
	const char *why = NULL;

	CHECK_ERROR(pq_iceberg_keyset_create(0), ERRCODE_INTERNAL_ERROR);
	CHECK_ERROR(pq_iceberg_keyset_create(PQ_ICEBERG_MAX_KEY_COLUMNS + 1),
				ERRCODE_PROGRAM_LIMIT_EXCEEDED);
	if (formats_dir() == NULL)
		return;
	f = corpus_file(MULTI "25-8814a344-4216-4d37-9e9b-091de336e3fa-00002.parquet");
	CHECK(f != NULL);
	CHECK(!pq_iceberg_keyset_add_file(set, f, bad, &why));
	CHECK(strcmp(why, "a key column is not a column of the file") == 0);
	CHECK(!pq_iceberg_keyset_add_file(set, f, neg, &why));
	CHECK(!pq_iceberg_keyset_match_file(set, f, bad, &out, &why));
	CHECK(out.count == 0 && out.pos == NULL);
	/* an empty set matches nothing, reading nothing */
	CHECK(pq_iceberg_keyset_match_file(set, f, c0, &out, &why));
	CHECK(out.count == 0);
	/* i (INT) then s (BYTES) as the same key column */
	CHECK(pq_iceberg_keyset_add_file(set, f, c0, &why));
	CHECK(!pq_iceberg_keyset_add_file(set, f, c1, &why));
	CHECK(strstr(why, "type differs") != NULL);
	CHECK(!pq_iceberg_keyset_match_file(set, f, c1, &out, &why));
	CHECK(strstr(why, "type differs") != NULL && out.count == 0);

	/* the deleted row of a position delete file: a struct's leaves */
	f = corpus_file(ICE "iceberg_v2_positional_delete_all_rows/data/00000-0-delete-boroknagyz_20220819150939_8f0789df-fcdb-4ba8-875c-4aeac53f30b9-job_16597105613621_0025-00001.parquet");
	CHECK(f != NULL && f->schema->n_columns == 4);
	set = pq_iceberg_keyset_create(1);
	{
		static const int row_i[] = {2};

		CHECK(!pq_iceberg_keyset_add_file(set, f, row_i, &why));
		CHECK(strstr(why, "top-level") != NULL);
	}
}

/* ---- files that are not whole ---- */

/* Allowed ends of a damaged file (fuzz/fuzz_run.c's list). */
static bool
expected_error(int sqlstate)
{
	return sqlstate == ERRCODE_DATA_CORRUPTED ||
		sqlstate == ERRCODE_FEATURE_NOT_SUPPORTED ||
		sqlstate == ERRCODE_PROGRAM_LIMIT_EXCEEDED ||
		sqlstate == ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
}

/* Read data as a position delete file and as a key set: 1 read, 0 refused, -1 ERROR */
static int
try_read(const uint8 *data, size_t len, int *sqlstate)
{
	volatile int result = 0;

	*sqlstate = 0;
	PG_TRY();
	{
		PqFile	   *f = open_mem(data, len);
		PqIcebergPositionDeletes d;
		PqIcebergKeySet *set = pq_iceberg_keyset_create(2);
		int			cols[2] = {0, f->schema->n_columns > 1 ? 1 : -1};
		PqIcebergDeletedRows out;
		const char *why = NULL;

		uint64		rows = 0;
		int			rg;

		for (rg = 0; rg < f->md.n_row_groups; rg++)
			rows += (uint64) f->md.row_groups[rg].num_rows;
		if (pq_iceberg_read_position_deletes(f, &d, &why))
			result = 1;
		/* every row's key is in the set */
		if (pq_iceberg_keyset_add_file(set, f, cols, &why) &&
			pq_iceberg_keyset_match_file(set, f, cols, &out, &why) &&
			out.count != rows)
			result = -2;
	}
	PG_CATCH();
	{
		result = -1;
		*sqlstate = shim_last_sqlstate;
	}
	PG_END_TRY();
	return result;
}

static void
test_corrupt(void)
{
	size_t		len;
	uint8	   *data;
	int			sqlstate;
	size_t		cut;
	int			round;

	if (formats_dir() == NULL)
		return;
	data = corpus_bytes(ICE "iceberg_lineitem_multiblock/data/delete-74487c6141f8028e-98cbf79b00000000_453028296_data.0.parq", &len);
	CHECK(data != NULL);
	CHECK_EQ_INT(try_read(ut_exact_copy(data, len), len, &sqlstate), 1);

	/* cut short anywhere: the footer is lost */
	for (cut = 0; cut < len; cut += 97)
	{
		CHECK_EQ_INT(try_read(ut_exact_copy(data, cut), cut, &sqlstate), -1);
		CHECK_EQ_INT(sqlstate, ERRCODE_DATA_CORRUPTED);
	}
	/* the column chunks zeroed: the pages cannot be read */
	{
		uint8	   *z = ut_exact_copy(data, len);

		memset(z + 4, 0, 600);
		CHECK_EQ_INT(try_read(z, len, &sqlstate), -1);
		CHECK_EQ_INT(sqlstate, ERRCODE_DATA_CORRUPTED);
	}
	/* bytes changed at random: read, refused or an ERROR of a bad file */
	ut_rng_seed(5);
	for (round = 0; round < 400; round++)
	{
		uint8	   *z = ut_exact_copy(data, len);
		int			n = 1 + (int) (ut_rng_next() % 4);
		int			r;

		while (n-- > 0)
			z[ut_rng_next() % len] ^= (uint8) (1 + ut_rng_next() % 255);
		r = try_read(z, len, &sqlstate);
		CHECK(r != -2);
		CHECK(r != -1 || expected_error(sqlstate));
	}
}

void
suite_iceberg_deletes(void)
{
	ut_run("iceberg_pos_real", test_pos_real);
	ut_run("iceberg_pos_real_lineitem", test_pos_real_lineitem);
	ut_run("iceberg_pos_real_nulls", test_pos_real_nulls);
	ut_run("iceberg_pos_built", test_pos_built);
	ut_run("iceberg_pos_refused", test_pos_refused);
	ut_run("iceberg_rows_union", test_union);
	ut_run("iceberg_key_encoding", test_key_encoding);
	ut_run("iceberg_keyset_real", test_keyset_real);
	ut_run("iceberg_keyset_lineitem", test_keyset_lineitem);
	ut_run("iceberg_keyset_promoted", test_keyset_promoted);
	ut_run("iceberg_keyset_refused", test_keyset_refused);
	ut_run("iceberg_corrupt", test_corrupt);
}
