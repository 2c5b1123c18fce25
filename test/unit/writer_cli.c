/*
 * writer_cli.c
 *		Writes Parquet files with the format layer's writer for an
 *		independent check by other readers (test/js/check_writer.mjs):
 *
 *			test/unit/writer_cli DIR
 *
 *		Every file holds the same table: one column per physical/logical
 *		type pair, each value a closed-form function of the row number
 *		(check_writer.mjs computes the same), with NULLs, several row
 *		groups and pages, and Bloom filters on two columns.  Files differ
 *		in codec, page version, dictionary and the other options; the file
 *		name says which (see the files[] table).  Built with the unit-test
 *		shim standing in for palloc and ereport: `make writer_cli`.
 */
#include "postgres.h"

#include <math.h>

#include "format/write/file_writer.h"
#include "unit_test.h"

#define NROWS 12000
#define BATCH 1000
#define NCOLS 27				/* schema fields below; the LIST is 3 of them */

static const char *const words[12] = {
	"alpha", "h\xc3\xa9llo", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
	"emoji\xf0\x9f\x98\x80", "", "\xce\xa9mega", "na\xc3\xafve", "zebra",
	"Z\xc3\xbcrich", "\xc3\xa7" "a", "\xe6\x9d\xb1\xe4\xba\xac", "a b c"
};

/* "ab€日" for the long strings */
static const char *const lchars[4] = {"a", "b", "\xe2\x82\xac", "\xe6\x97\xa5"};

static PqLogicalType
lt(int id)
{
	PqLogicalType t;

	memset(&t, 0, sizeof(t));
	t.id = id;
	return t;
}

static PqLogicalType
lt_int(int bits, bool is_signed)
{
	PqLogicalType t = lt(PQ_LT_INTEGER);

	t.int_bit_width = bits;
	t.int_is_signed = is_signed;
	return t;
}

static PqLogicalType
lt_dec(int precision, int scale)
{
	PqLogicalType t = lt(PQ_LT_DECIMAL);

	t.decimal_precision = precision;
	t.decimal_scale = scale;
	return t;
}

static PqLogicalType
lt_time(int id, bool utc)
{
	PqLogicalType t = lt(id);

	t.is_adjusted_to_utc = utc;
	t.time_unit = PQ_UNIT_MICROS;
	return t;
}

static int	nfields;
static PqWriterField fields[NCOLS + 2];

static void
add(const char *name, int rep, int ptype, int tlen, PqLogicalType l)
{
	PqWriterField *f = &fields[nfields++];

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->repetition = rep;
	f->physical_type = ptype;
	f->type_length = tlen;
	f->logical = l;
	f->converted_type = -1;
}

static void
build_schema(void)
{
	nfields = 0;
	add("id", PQ_REQUIRED, PQ_INT64, 0, lt(PQ_LT_NONE));
	add("i8", PQ_OPTIONAL, PQ_INT32, 0, lt_int(8, true));
	add("i16", PQ_OPTIONAL, PQ_INT32, 0, lt_int(16, true));
	add("i32", PQ_OPTIONAL, PQ_INT32, 0, lt_int(32, true));
	fields[nfields - 1].bloom_filter = true;
	add("i64", PQ_OPTIONAL, PQ_INT64, 0, lt_int(64, true));
	add("u8", PQ_OPTIONAL, PQ_INT32, 0, lt_int(8, false));
	add("u16", PQ_REQUIRED, PQ_INT32, 0, lt_int(16, false));
	add("u32", PQ_OPTIONAL, PQ_INT32, 0, lt_int(32, false));
	add("u64", PQ_REQUIRED, PQ_INT64, 0, lt_int(64, false));
	add("dec9", PQ_OPTIONAL, PQ_INT32, 0, lt_dec(9, 2));
	add("dec18", PQ_REQUIRED, PQ_INT64, 0, lt_dec(18, 4));
	add("dec38", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY, 16, lt_dec(38, 6));
	add("flt", PQ_OPTIONAL, PQ_FLOAT, 0, lt(PQ_LT_NONE));
	add("dbl", PQ_REQUIRED, PQ_DOUBLE, 0, lt(PQ_LT_NONE));
	add("str", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, lt(PQ_LT_STRING));
	fields[nfields - 1].bloom_filter = true;
	fields[nfields - 1].bloom_fpp = 0.001;
	add("lstr", PQ_REQUIRED, PQ_BYTE_ARRAY, 0, lt(PQ_LT_STRING));
	add("bin", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, lt(PQ_LT_NONE));
	add("uuid", PQ_REQUIRED, PQ_FIXED_LEN_BYTE_ARRAY, 16, lt(PQ_LT_UUID));
	add("date", PQ_OPTIONAL, PQ_INT32, 0, lt(PQ_LT_DATE));
	add("time", PQ_REQUIRED, PQ_INT64, 0, lt_time(PQ_LT_TIME, false));
	add("ts", PQ_OPTIONAL, PQ_INT64, 0, lt_time(PQ_LT_TIMESTAMP, false));
	add("tstz", PQ_REQUIRED, PQ_INT64, 0, lt_time(PQ_LT_TIMESTAMP, true));
	add("f16", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY, 2, lt(PQ_LT_FLOAT16));
	add("flag", PQ_OPTIONAL, PQ_BOOLEAN, 0, lt(PQ_LT_NONE));
	/* 3-level list of optional int32 */
	add("lst", PQ_OPTIONAL, 0, 0, lt(PQ_LT_LIST));
	fields[nfields - 1].num_children = 1;
	add("list", PQ_REPEATED, 0, 0, lt(PQ_LT_NONE));
	fields[nfields - 1].num_children = 1;
	add("element", PQ_OPTIONAL, PQ_INT32, 0, lt(PQ_LT_NONE));
	add("ivl", PQ_OPTIONAL, PQ_FIXED_LEN_BYTE_ARRAY, 12, lt(PQ_LT_NONE));
	fields[nfields - 1].converted_type = PQ_CT_INTERVAL;
	add("json", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, lt(PQ_LT_JSON));
}

static void
put_be64(uint8 *p, uint64 v)
{
	int			k;

	for (k = 0; k < 8; k++)
		p[k] = (uint8) (v >> (56 - 8 * k));
}

/* IEEE half of a float that is exactly representable (or special). */
static uint16
to_half(float f)
{
	uint32		bits;
	uint16		sign;
	int			exp;
	uint32		mant;

	memcpy(&bits, &f, 4);
	sign = (uint16) ((bits >> 16) & 0x8000);
	if (isnan(f))
		return 0x7E00;
	if (isinf(f))
		return sign | 0x7C00;
	if (f == 0)
		return sign;
	exp = (int) ((bits >> 23) & 0xFF) - 127 + 15;
	mant = bits & 0x7FFFFF;
	if (exp <= 0)				/* subnormal half */
		return sign | (uint16) ((mant | 0x800000) >> (14 - exp));
	return sign | (uint16) (exp << 10) | (uint16) (mant >> 13);
}

/*
 * Value of leaf column c (a schema field index, not the list) in row i:
 * false for NULL, else its PLAIN bytes (no length prefix) in buf.
 */
static bool
value(int c, int64 i, uint8 *buf, int *len)
{
	int32		v32;
	int64		v64;
	float		f;
	double		d;
	int			k;

#define RET32(x) \
	do { \
		v32 = (int32) (x); \
		memcpy(buf, &v32, 4); \
		*len = 4; \
		return true; \
	} while (0)
#define RET64(x) \
	do { \
		v64 = (int64) (x); \
		memcpy(buf, &v64, 8); \
		*len = 8; \
		return true; \
	} while (0)
	switch (c)
	{
		case 0:
			RET64(i);
		case 1:
			if (i % 17 == 3)
				return false;
			RET32((i * 7) % 256 - 128);
		case 2:
			if (i % 19 == 4)
				return false;
			RET32((i * 31) % 65536 - 32768);
		case 3:
			if (i % 7 == 0)
				return false;
			RET32((uint32) ((uint64) i * 2654435761U));
		case 4:
			if (i % 23 == 5)
				return false;
			RET64((i - 6000) * 1000000007);
		case 5:
			if (i % 13 == 0)
				return false;
			RET32(i % 256);
		case 6:
			RET32((i * 37) % 65536);
		case 7:
			if (i % 29 == 1)
				return false;
			RET32((uint32) ((uint64) i * 2654435761U));
		case 8:
			RET64((uint64) i * UINT64CONST(0x9E3779B97F4A7C15));
		case 9:
			if (i % 31 == 7)
				return false;
			RET32((i * 987654321) % 1999999999 - 999999999);
		case 10:
			RET64((i - 6000) * INT64CONST(123456789012));
		case 11:
			{
				__int128	v = (__int128) (i - 6000) * INT64CONST(10000000000) *
				INT64CONST(10000000000) + i * 7;

				if (i % 37 == 2)
					return false;
				put_be64(buf, (uint64) (v >> 64));
				put_be64(buf + 8, (uint64) v);
				*len = 16;
				return true;
			}
		case 12:
			if (i % 9 == 4)
				return false;
			switch (i % 101)
			{
				case 0:
					f = NAN;
					break;
				case 1:
					f = INFINITY;
					break;
				case 2:
					f = -INFINITY;
					break;
				case 3:
					f = -0.0f;
					break;
				default:
					f = (float) (i - 6000) / 8.0f;
			}
			memcpy(buf, &f, 4);
			*len = 4;
			return true;
		case 13:
			switch (i % 89)
			{
				case 0:
					d = NAN;
					break;
				case 1:
					d = INFINITY;
					break;
				case 2:
					d = -INFINITY;
					break;
				case 3:
					d = -0.0;
					break;
				case 4:
					d = 0.0;
					break;
				default:
					d = (double) (i - 6000) * 0.1;
			}
			memcpy(buf, &d, 8);
			*len = 8;
			return true;
		case 14:
			if (i % 10 == 9)
				return false;
			if (i % 1000 == 1)
				*len = 0;
			else
				*len = sprintf((char *) buf, "%s-%d", words[i % 12], (int) (i % 500));
			return true;
		case 15:
			*len = 0;
			for (k = 0; k < 40 + (i * 37) % 200; k++)
			{
				const char *ch = lchars[(i + k) % 4];

				memcpy(buf + *len, ch, strlen(ch));
				*len += strlen(ch);
			}
			return true;
		case 16:
			if (i % 6 == 5)
				return false;
			*len = (int) (i % 5);
			for (k = 0; k < *len; k++)
				buf[k] = (uint8) ((i * (k + 1) * 37) & 255);
			return true;
		case 17:
			put_be64(buf, (uint64) i * UINT64CONST(0x9E3779B97F4A7C15));
			put_be64(buf + 8, (uint64) i * UINT64CONST(0xC2B2AE3D27D4EB4F));
			*len = 16;
			return true;
		case 18:
			if (i % 41 == 0)
				return false;
			RET32((i * 3) % 40000 - 20000);
		case 19:
			RET64((i * 1234567891) % INT64CONST(86400000000));
		case 20:
			if (i % 43 == 1)
				return false;
			RET64((i - 6000) * INT64CONST(86400000123));
		case 21:
			RET64((i - 6000) * INT64CONST(86400000123) + 1);
		case 22:
			{
				uint16		h;

				if (i % 47 == 0)
					return false;
				switch (i % 211)
				{
					case 1:
						h = 0x7E00;
						break;
					case 2:
						h = 0x7C00;
						break;
					case 3:
						h = 0x8000;
						break;
					default:
						h = to_half((float) ((i % 2000) - 1000) / 4.0f);
				}
				buf[0] = (uint8) h;
				buf[1] = (uint8) (h >> 8);
				*len = 2;
				return true;
			}
		case 23:
			if (i % 3 == 2)
				return false;
			buf[0] = i % 4 == 0;
			*len = 1;
			return true;
		case 27:
			if (i % 53 == 0)
				return false;
			pq_store_le32(buf, (uint32) (i % 12));
			pq_store_le32(buf + 4, (uint32) (i % 30));
			pq_store_le32(buf + 8, (uint32) ((i * 1000) % 86400000));
			*len = 12;
			return true;
		case 28:
			if (i % 59 == 0)
				return false;
			*len = sprintf((char *) buf, "{\"i\":%d,\"s\":\"x%d\"}", (int) i,
						   (int) (i % 7));
			return true;
	}
#undef RET32
#undef RET64
	fprintf(stderr, "writer_cli: no column %d\n", c);
	abort();
}

/* Rows [start, start + n) of the leaf for schema field c, or of the list. */
static void
write_leaf(PqFileWriter *w, int col, int c, int64 start, int n)
{
	static int16 def[BATCH * 4];
	static int16 rep[BATCH * 4];
	static uint8 fixed[BATCH * 4 * 16];
	static PqByteArray ba[BATCH];
	static uint8 strs[BATCH * 1024];
	const PqWriterField *f = &fields[c];
	bool		is_ba = f->physical_type == PQ_BYTE_ARRAY;
	bool		required = f->repetition == PQ_REQUIRED;
	size_t		spos = 0;
	int			nlev = 0;
	int			nv = 0;
	int			r;

	if (c == 24)
	{
		/* lst: NULL, or i % 4 elements i*10+j, NULL when (i+j) % 5 == 0 */
		for (r = 0; r < n; r++)
		{
			int64		i = start + r;
			int			j;

			if (i % 8 == 7 || i % 4 == 0)
			{
				def[nlev] = i % 8 == 7 ? 0 : 1;
				rep[nlev++] = 0;
				continue;
			}
			for (j = 0; j < i % 4; j++)
			{
				rep[nlev] = j == 0 ? 0 : 1;
				if ((i + j) % 5 == 0)
					def[nlev++] = 2;
				else
				{
					int32		v = (int32) (i * 10 + j);

					def[nlev++] = 3;
					memcpy(fixed + (size_t) nv++ * 4, &v, 4);
				}
			}
		}
		pq_file_writer_write_column(w, col, nlev, def, rep, nv, fixed, NULL);
		return;
	}
	for (r = 0; r < n; r++)
	{
		uint8		buf[1024];
		int			len;
		bool		present = value(c, start + r, buf, &len);

		def[r] = present;
		if (!present)
			continue;
		if (is_ba)
		{
			memcpy(strs + spos, buf, len);
			ba[nv].ptr = strs + spos;
			ba[nv].len = len;
			spos += len;
		}
		else
			memcpy(fixed + (size_t) nv * len, buf, len);
		nv++;
	}
	pq_file_writer_write_column(w, col, n, required ? NULL : def, NULL, nv,
								is_ba ? NULL : fixed, is_ba ? ba : NULL);
}

static void
file_write(PqSink *sink, const uint8 *data, size_t len)
{
	if (fwrite(data, 1, len, (FILE *) sink->opaque) != len)
	{
		perror("writer_cli: write");
		exit(1);
	}
}

typedef struct FileSpec
{
	const char *name;
	int			codec;
	int			level;
	int			version;
	bool		dictionary;
	bool		statistics;
	bool		page_index;
	int			nrows;
}			FileSpec;

static void
write_file(const char *dir, const FileSpec * spec)
{
	char		path[4096];
	PqSink		sink;
	PqWriterOptions o;
	PqKeyValue	kv[2] = {{"writer", "parquet_fdw writer_cli"}, {"empty", NULL}};
	PqFileWriter *w;
	FILE	   *fp;
	int64		row = 0;

	snprintf(path, sizeof(path), "%s/%s.parquet", dir, spec->name);
	fp = fopen(path, "wb");
	if (fp == NULL)
	{
		perror(path);
		exit(1);
	}
	sink.write = file_write;
	sink.opaque = fp;
	pq_writer_options_init(&o);
	o.codec = spec->codec;
	o.compression_level = spec->level;
	o.page_version = spec->version;
	o.dictionary = spec->dictionary;
	o.statistics = spec->statistics;
	o.page_index = spec->page_index;
	o.row_group_rows = 5000;
	o.data_page_bytes = 16384;
	o.created_by = "parquet_fdw version test (writer_cli)";
	o.key_value = kv;
	o.n_key_value = 2;
	w = pq_file_writer_create(&sink, fields, nfields, &o);
	while (row < spec->nrows)
	{
		int			n = (int) Min(Min(BATCH, spec->nrows - row),
								  pq_file_writer_row_group_room(w));
		int			col = 0;
		int			c;

		for (c = 0; c < nfields; c++)
		{
			/* the list's leaf column is written at its top field */
			if (c == 25 || c == 26)
				continue;
			write_leaf(w, col++, c, row, n);
		}
		pq_file_writer_end_rows(w, n);
		row += n;
	}
	pq_file_writer_finish(w);
	if (fclose(fp) != 0)
	{
		perror(path);
		exit(1);
	}
	shim_free_all();
	printf("%s\n", path);
}

int
main(int argc, char **argv)
{
	static const struct
	{
		const char *name;
		int			codec;
	}			codecs[] = {
		{"uncompressed", PQ_CODEC_UNCOMPRESSED}, {"snappy", PQ_CODEC_SNAPPY},
		{"gzip", PQ_CODEC_GZIP}, {"zstd", PQ_CODEC_ZSTD},
		{"lz4_raw", PQ_CODEC_LZ4_RAW}, {"brotli", PQ_CODEC_BROTLI}
	};
	static const FileSpec specials[] = {
		{"opt_zstd_level19", PQ_CODEC_ZSTD, 19, 2, true, true, true, NROWS},
		{"opt_gzip_level1", PQ_CODEC_GZIP, 1, 1, true, true, true, NROWS},
		{"opt_no_page_index", PQ_CODEC_SNAPPY, -1, 1, true, true, false, NROWS},
		{"opt_no_statistics", PQ_CODEC_SNAPPY, -1, 2, true, false, false, NROWS},
		{"opt_empty", PQ_CODEC_SNAPPY, -1, 1, true, true, true, 0},
	};
	char		names[lengthof(codecs) * 4][64];
	int			n = 0;
	int			c;
	int			k;

	if (argc != 2)
	{
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	build_schema();
	for (c = 0; c < (int) lengthof(codecs); c++)
		for (k = 0; k < 4; k++)
		{
			FileSpec	s;

			snprintf(names[n], sizeof(names[n]), "m_%s_v%d_%s", codecs[c].name,
					 1 + k % 2, k < 2 ? "dict" : "plain");
			s.name = names[n++];
			s.codec = codecs[c].codec;
			s.level = -1;
			s.version = 1 + k % 2;
			s.dictionary = k < 2;
			s.statistics = true;
			s.page_index = true;
			s.nrows = NROWS;
			write_file(argv[1], &s);
		}
	for (k = 0; k < (int) lengthof(specials); k++)
		write_file(argv[1], &specials[k]);
	return 0;
}
