/*
 * test_writer.c
 *		The Parquet writer: statistics ordering rules on hand-picked values,
 *		bound truncation, boundary order, page cutting and dictionary
 *		fallback, and whole files read back with the format layer's
 *		decoders and zlib's CRC-32 (a mini reader written for the test).
 */
#include "postgres.h"

#include <math.h>
#include <xxhash.h>
#include <zlib.h>

#include "format/metadata/bloom.h"
#include "format/metadata/schema.h"
#include "format/codec/codec.h"
#include "format/encoding/encoding.h"
#include "format/write/file_writer.h"
#include "format/write/stats_builder.h"
#include "unit_test.h"

/* ---- helpers ---- */

static PqLogicalType
lt_none(void)
{
	PqLogicalType lt;

	memset(&lt, 0, sizeof(lt));
	return lt;
}

static PqLogicalType
lt_int(int bits, bool is_signed)
{
	PqLogicalType lt = lt_none();

	lt.id = PQ_LT_INTEGER;
	lt.int_bit_width = bits;
	lt.int_is_signed = is_signed;
	return lt;
}

static PqLogicalType
lt_id(int id)
{
	PqLogicalType lt = lt_none();

	lt.id = id;
	return lt;
}

static PqLogicalType
lt_decimal(int precision, int scale)
{
	PqLogicalType lt = lt_none();

	lt.id = PQ_LT_DECIMAL;
	lt.decimal_precision = precision;
	lt.decimal_scale = scale;
	return lt;
}

/* Bounds of acc as written, into static storage for comparisons. */
static PqBuffer bounds_buf;
static PqStatsBounds bounds;

static bool
get_bounds(const PqStatsAcc *acc, int truncate)
{
	pq_buffer_init(&bounds_buf, 64);
	return pq_stats_bounds(acc, truncate, &bounds_buf, &bounds);
}

static bool
min_is(const void *v, int len)
{
	return bounds.min_len == len &&
		memcmp(bounds_buf.data + bounds.min_off, v, len) == 0;
}

static bool
max_is(const void *v, int len)
{
	return bounds.max_len == len &&
		memcmp(bounds_buf.data + bounds.max_off, v, len) == 0;
}

static PqByteArray
ba_str(const char *s)
{
	PqByteArray b;

	b.ptr = (const uint8 *) s;
	b.len = strlen(s);
	return b;
}

/* ---- sort orders and statistics ---- */

static void
test_sort_orders(void)
{
	PqLogicalType none = lt_none();
	PqLogicalType u8 = lt_int(8, false);
	PqLogicalType u64 = lt_int(64, false);
	PqLogicalType s16 = lt_int(16, true);
	PqLogicalType dec = lt_decimal(20, 2);
	PqLogicalType f16 = lt_id(PQ_LT_FLOAT16);
	PqLogicalType str = lt_id(PQ_LT_STRING);
	PqLogicalType geo = lt_id(PQ_LT_GEOMETRY);

	CHECK_EQ_INT(pq_sort_order(PQ_BOOLEAN, &none, -1), PQ_SORT_BOOL);
	CHECK_EQ_INT(pq_sort_order(PQ_INT32, &none, -1), PQ_SORT_INT32);
	CHECK_EQ_INT(pq_sort_order(PQ_INT32, &u8, -1), PQ_SORT_UINT32);
	CHECK_EQ_INT(pq_sort_order(PQ_INT32, &s16, -1), PQ_SORT_INT32);
	CHECK_EQ_INT(pq_sort_order(PQ_INT64, &u64, -1), PQ_SORT_UINT64);
	CHECK_EQ_INT(pq_sort_order(PQ_INT32, &none, PQ_CT_UINT_16), PQ_SORT_UINT32);
	CHECK_EQ_INT(pq_sort_order(PQ_INT64, &dec, -1), PQ_SORT_INT64);
	CHECK_EQ_INT(pq_sort_order(PQ_FIXED_LEN_BYTE_ARRAY, &dec, -1), PQ_SORT_DECIMAL);
	CHECK_EQ_INT(pq_sort_order(PQ_BYTE_ARRAY, &dec, -1), PQ_SORT_DECIMAL);
	CHECK_EQ_INT(pq_sort_order(PQ_FIXED_LEN_BYTE_ARRAY, &f16, -1), PQ_SORT_FLOAT16);
	CHECK_EQ_INT(pq_sort_order(PQ_BYTE_ARRAY, &str, -1), PQ_SORT_BYTES);
	CHECK_EQ_INT(pq_sort_order(PQ_FIXED_LEN_BYTE_ARRAY, &none, -1), PQ_SORT_BYTES);
	CHECK_EQ_INT(pq_sort_order(PQ_BYTE_ARRAY, &geo, -1), PQ_SORT_NONE);
	CHECK_EQ_INT(pq_sort_order(PQ_FIXED_LEN_BYTE_ARRAY, &none, PQ_CT_INTERVAL),
				 PQ_SORT_NONE);
	CHECK_EQ_INT(pq_sort_order(PQ_INT96, &none, -1), PQ_SORT_NONE);
	CHECK_EQ_INT(pq_sort_order(PQ_FLOAT, &none, -1), PQ_SORT_FLOAT);
}

/* Signed and unsigned integers order -1 at opposite ends. */
static void
test_stats_integers(void)
{
	PqLogicalType none = lt_none();
	PqLogicalType u32 = lt_int(32, false);
	PqLogicalType u64 = lt_int(64, false);
	int32		v32[] = {5, -1, 0, 7};
	int64		v64[] = {INT64CONST(-9000000000), 3, PG_INT64_MAX};
	int32		e;
	int64		e64;
	PqStatsAcc	s;

	pq_stats_init(&s, PQ_INT32, 0, &none, -1);
	pq_stats_update(&s, v32, NULL, 4);
	CHECK(get_bounds(&s, 64));
	e = -1;
	CHECK(min_is(&e, 4));
	e = 7;
	CHECK(max_is(&e, 4));
	CHECK(bounds.min_exact && bounds.max_exact);

	pq_stats_init(&s, PQ_INT32, 0, &u32, -1);
	pq_stats_update(&s, v32, NULL, 4);
	CHECK(get_bounds(&s, 64));
	e = 0;
	CHECK(min_is(&e, 4));
	e = -1;						/* 0xFFFFFFFF */
	CHECK(max_is(&e, 4));

	pq_stats_init(&s, PQ_INT64, 0, &u64, -1);
	pq_stats_update(&s, v64, NULL, 3);
	CHECK(get_bounds(&s, 64));
	e64 = 3;
	CHECK(min_is(&e64, 8));
	e64 = INT64CONST(-9000000000);
	CHECK(max_is(&e64, 8));

	/* batches and merging give the same as one batch */
	pq_stats_init(&s, PQ_INT64, 0, &none, -1);
	{
		PqStatsAcc	p;

		pq_stats_init(&p, PQ_INT64, 0, &none, -1);
		pq_stats_update(&p, v64 + 1, NULL, 2);
		pq_stats_merge(&s, &p);
		pq_stats_reset(&p);
		pq_stats_update(&p, v64, NULL, 1);
		p.null_count = 4;
		pq_stats_merge(&s, &p);
	}
	CHECK(get_bounds(&s, 64));
	e64 = INT64CONST(-9000000000);
	CHECK(min_is(&e64, 8));
	e64 = PG_INT64_MAX;
	CHECK(max_is(&e64, 8));
	CHECK_EQ_INT(s.null_count, 4);
}

/* NaN ignored and counted, -0.0 as min and +0.0 as max. */
static void
test_stats_floats(void)
{
	PqLogicalType none = lt_none();
	PqLogicalType f16 = lt_id(PQ_LT_FLOAT16);
	float		f1[] = {NAN, 3.5f, -INFINITY, -0.0f, INFINITY};
	float		f2[] = {0.0f, 1.0f, -0.0f};
	double		d1[] = {-1.0, -0.0, -2.5};
	double		d2[] = {NAN, NAN};
	float		e;
	double		ed;
	uint8		negzero4[] = {0, 0, 0, 0x80};
	uint8		poszero8[8] = {0};

	/* half floats: 1.0 = 0x3C00, -2.0 = 0xC000, NaN = 0x7E00, +0 */
	uint8		h1[] = {0x00, 0x3C, 0x00, 0xC0, 0x00, 0x7E, 0x00, 0x00};
	uint8		h_negzero[] = {0x00, 0x80};
	uint8		h_one[] = {0x00, 0x3C};
	PqStatsAcc	s;

	pq_stats_init(&s, PQ_FLOAT, 0, &none, -1);
	pq_stats_update(&s, f1, NULL, 5);
	CHECK(get_bounds(&s, 64));
	e = -INFINITY;
	CHECK(min_is(&e, 4));
	e = INFINITY;
	CHECK(max_is(&e, 4));
	CHECK_EQ_INT(s.nan_count, 1);

	pq_stats_init(&s, PQ_FLOAT, 0, &none, -1);
	pq_stats_update(&s, f2, NULL, 3);
	CHECK(get_bounds(&s, 64));
	CHECK(min_is(negzero4, 4));
	e = 1.0f;
	CHECK(max_is(&e, 4));

	pq_stats_init(&s, PQ_DOUBLE, 0, &none, -1);
	pq_stats_update(&s, d1, NULL, 3);
	CHECK(get_bounds(&s, 64));
	ed = -2.5;
	CHECK(min_is(&ed, 8));
	CHECK(max_is(poszero8, 8));

	/* only NaNs: no bounds, but counted */
	pq_stats_init(&s, PQ_DOUBLE, 0, &none, -1);
	pq_stats_update(&s, d2, NULL, 2);
	CHECK(!get_bounds(&s, 64));
	CHECK_EQ_INT(s.nan_count, 2);

	pq_stats_init(&s, PQ_FIXED_LEN_BYTE_ARRAY, 2, &f16, -1);
	pq_stats_update(&s, h1, NULL, 4);
	CHECK(get_bounds(&s, 64));
	e = -2.0f;
	CHECK(bounds.min_len == 2 &&
		  pq_half_to_float(bounds_buf.data[bounds.min_off] |
						   (bounds_buf.data[bounds.min_off + 1] << 8)) == e);
	CHECK(max_is(h_one, 2));
	CHECK_EQ_INT(s.nan_count, 1);
	pq_stats_reset(&s);
	pq_stats_update(&s, h1 + 6, NULL, 1);
	CHECK(get_bounds(&s, 64));
	CHECK(min_is(h_negzero, 2));

	/* exact half conversions: subnormal, infinity */
	CHECK(pq_half_to_float(0x0001) == ldexpf(1.0f, -24));
	CHECK(isinf(pq_half_to_float(0xFC00)) && pq_half_to_float(0xFC00) < 0);
	CHECK(pq_half_to_float(0x7BFF) == 65504.0f);
}

/* Byte arrays: unsigned lexicographic; decimals: two's complement. */
static void
test_stats_bytes_and_decimals(void)
{
	PqLogicalType none = lt_none();
	PqLogicalType dec = lt_decimal(30, 0);
	PqByteArray s1[4];
	PqByteArray d[5];
	uint8		b128[] = {0x00, 0x80},
				bm128[] = {0x80},
				bm1[] = {0xFF},
				b1[] = {0x01},
				bm129[] = {0xFF, 0x7F};
	uint8		flba[] = {0xFF, 0xFF, 0x00, 0x01, 0x80, 0x00, 0x7F, 0xFF};
	uint8		lo[] = {0x80, 0x00},
				hi[] = {0x7F, 0xFF};
	bool		t = true,
				f = false;
	uint8		bools[] = {1, 1, 0};
	PqStatsAcc	s;

	s1[0] = ba_str("a");
	s1[1] = ba_str("\xff");
	s1[2] = ba_str("ab");
	s1[3].ptr = NULL;			/* empty values may come without a pointer */
	s1[3].len = 0;
	pq_stats_init(&s, PQ_BYTE_ARRAY, 0, &none, -1);
	pq_stats_update(&s, NULL, s1, 4);
	CHECK(get_bounds(&s, 64));
	CHECK(bounds.min_len == 0);
	CHECK(max_is("\xff", 1));

	d[0].ptr = b128;
	d[0].len = 2;
	d[1].ptr = bm128;
	d[1].len = 1;
	d[2].ptr = bm1;
	d[2].len = 1;
	d[3].ptr = b1;
	d[3].len = 1;
	d[4].ptr = bm129;
	d[4].len = 2;
	pq_stats_init(&s, PQ_BYTE_ARRAY, 0, &dec, -1);
	pq_stats_update(&s, NULL, d, 5);
	CHECK(get_bounds(&s, 4));	/* decimals are never truncated */
	CHECK(min_is(bm129, 2));	/* -129 */
	CHECK(max_is(b128, 2));		/* 128 */
	CHECK(pq_stats_compare(PQ_SORT_DECIMAL, bm1, 1, bm129, 2) > 0);
	CHECK(pq_stats_compare(PQ_SORT_DECIMAL, b1, 1, b128, 2) < 0);

	pq_stats_init(&s, PQ_FIXED_LEN_BYTE_ARRAY, 2, &dec, -1);
	pq_stats_update(&s, flba, NULL, 4);
	CHECK(get_bounds(&s, 64));
	CHECK(min_is(lo, 2));		/* -32768, where memcmp would say 0x0001 */
	CHECK(max_is(hi, 2));

	pq_stats_init(&s, PQ_BOOLEAN, 0, &none, -1);
	pq_stats_update(&s, bools, NULL, 2);
	CHECK(get_bounds(&s, 64));
	CHECK(min_is(&t, 1) && max_is(&t, 1));
	pq_stats_update(&s, bools + 2, NULL, 1);
	CHECK(get_bounds(&s, 64));
	CHECK(min_is(&f, 1) && max_is(&t, 1));
}

/* ---- truncation ---- */

static bool
trunc_max_is(const char *v, int limit, bool utf8, const char *expect)
{
	PqBuffer	out;
	bool		ok;

	pq_buffer_init(&out, 16);
	ok = pq_truncate_max((const uint8 *) v, strlen(v), limit, utf8, &out);
	if (expect == NULL)
		return !ok && out.len == 0;
	return ok && out.len == strlen(expect) &&
		memcmp(out.data, expect, out.len) == 0;
}

static void
test_truncation(void)
{
	PqLogicalType str = lt_id(PQ_LT_STRING);
	PqLogicalType none = lt_none();
	PqLogicalType uuid = lt_id(PQ_LT_UUID);
	char		longv[101];
	PqByteArray one;
	uint8		flba[20];
	PqStatsAcc	s;
	int			round;

	/* bytes */
	CHECK_EQ_INT(pq_truncate_min((const uint8 *) "abcdef", 6, 3, false), 3);
	CHECK(trunc_max_is("abcdef", 3, false, "abd"));
	CHECK(trunc_max_is("ab\xff\xff", 3, false, "ac"));
	CHECK(trunc_max_is("\xff\xff\xff", 2, false, NULL));

	/* UTF-8: cut at characters, increment a character */
	CHECK_EQ_INT(pq_truncate_min((const uint8 *) "h\xc3\xa9llo", 6, 2, true), 1);
	CHECK(trunc_max_is("h\xc3\xa9llo", 2, true, "i"));
	CHECK(trunc_max_is("h\xc3\xa9llo", 3, true, "h\xc3\xaa"));
	CHECK(trunc_max_is("\x7f\x7fzz", 2, true, "\x7f\xc2\x80"));
	/* U+D7FF + 1 skips the surrogates */
	CHECK(trunc_max_is("\xed\x9f\xbfzz", 3, true, "\xee\x80\x80"));
	/* U+10FFFF cannot grow: the character before it does */
	CHECK(trunc_max_is("a\xf4\x8f\xbf\xbf\xf4\x8f\xbf\xbfxyz", 9, true, "b"));
	CHECK(trunc_max_is("\xf4\x8f\xbf\xbfxyz", 4, true, NULL));
	/* a first character longer than the limit is kept whole */
	CHECK(trunc_max_is("\xc3\xa9xyz", 1, true, "\xc3\xaa"));

	/* property: prefix <= v < max, for random bytes and UTF-8 strings */
	for (round = 0; round < 2000; round++)
	{
		static const char *const chars[] = {
			"a", "z", "\x7f", "\xc3\xbf", "\xed\x9f\xbf", "\xef\xbf\xbf",
			"\xf4\x8f\xbf\xbf"
		};
		uint8		v[40];
		int			len = 0;
		int			target = 2 + (int) (ut_rng_next() % 20);
		bool		utf8 = (round & 1) != 0;
		int			limit;
		int			n;
		PqBuffer	out;

		while (len < target)
		{
			if (utf8)
			{
				const char *c = chars[ut_rng_next() % lengthof(chars)];

				memcpy(v + len, c, strlen(c));
				len += strlen(c);
			}
			else
				v[len++] = (uint8) (ut_rng_next() % 4 == 0 ? 0xFF : ut_rng_next());
		}
		limit = 1 + (int) (ut_rng_next() % (len - 1));
		n = pq_truncate_min(v, len, limit, utf8);
		CHECK(n <= limit);
		CHECK(!utf8 || (v[n] & 0xC0) != 0x80);
		pq_buffer_init(&out, 16);
		if (pq_truncate_max(v, len, limit, utf8, &out))
			CHECK(pq_stats_compare(PQ_SORT_BYTES, out.data, (int) out.len,
								   v, len) > 0);
		else
			CHECK(out.len == 0);
	}

	/* through the accumulator: STRING truncates, FLBA never */
	memset(longv, 'x', 100);
	longv[100] = '\0';
	one = ba_str(longv);
	pq_stats_init(&s, PQ_BYTE_ARRAY, 0, &str, -1);
	pq_stats_update(&s, NULL, &one, 1);
	CHECK(get_bounds(&s, 64));
	CHECK(bounds.min_len == 64 && !bounds.min_exact);
	CHECK(bounds.max_len == 64 && !bounds.max_exact &&
		  bounds_buf.data[bounds.max_off + 63] == 'y');
	CHECK(get_bounds(&s, 0));
	CHECK(bounds.min_len == 100 && bounds.min_exact && bounds.max_exact);

	pq_stats_init(&s, PQ_BYTE_ARRAY, 0, &none, -1);
	one = ba_str("short");
	pq_stats_update(&s, NULL, &one, 1);
	CHECK(get_bounds(&s, 64));
	CHECK(bounds.min_exact && bounds.max_exact && max_is("short", 5));

	memset(flba, 0xAB, sizeof(flba));
	pq_stats_init(&s, PQ_FIXED_LEN_BYTE_ARRAY, 20, &uuid, -1);
	pq_stats_update(&s, flba, NULL, 1);
	CHECK(get_bounds(&s, 4));
	CHECK(bounds.min_len == 20 && bounds.max_len == 20 && bounds.max_exact);
}

static void
test_boundary_order(void)
{
	int32		v[] = {1, 5, 5, 9, 3};
	PqBytes		mn[5],
				mx[5];
	bool		nulls[5] = {false, false, false, false, false};
	int			i;

	for (i = 0; i < 5; i++)
	{
		mn[i].ptr = (const uint8 *) &v[i];
		mn[i].len = 4;
		mx[i] = mn[i];
	}
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn, mx, nulls, 4),
				 PQ_BOUNDARY_ASCENDING);
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn, mx, nulls, 5),
				 PQ_BOUNDARY_UNORDERED);
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn + 3, mx + 3, nulls, 2),
				 PQ_BOUNDARY_DESCENDING);
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn + 1, mx + 1, nulls, 2),
				 PQ_BOUNDARY_ASCENDING);
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn, mx, nulls, 1),
				 PQ_BOUNDARY_ASCENDING);
	/* a null page between is skipped */
	nulls[4] = true;
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn, mx, nulls, 5),
				 PQ_BOUNDARY_ASCENDING);
	/* min ascending but max not: unordered */
	mx[1] = mn[3];
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_INT32, mn, mx, nulls, 3),
				 PQ_BOUNDARY_UNORDERED);
	/* unsigned order turns -1 into the largest */
	v[0] = -1;
	CHECK_EQ_INT(pq_boundary_order(PQ_SORT_UINT32, mn + 0, mn + 0, nulls, 2),
				 PQ_BOUNDARY_DESCENDING);
}


/* ---- whole files ---- */

static void
mem_write(PqSink *sink, const uint8 *data, size_t len)
{
	pq_buffer_append((PqBuffer *) sink->opaque, data, len);
}

static PqBuffer file_buf;
static PqSink mem_sink = {mem_write, &file_buf, 0};

static PqFileWriter *
open_writer(const PqWriterField *fields, int nfields, const PqWriterOptions *o)
{
	pq_buffer_init(&file_buf, 4096);
	return pq_file_writer_create(&mem_sink, fields, nfields, o);
}

static PqWriterField
leaf(const char *name, int rep, int ptype, int tlen, PqLogicalType lt)
{
	PqWriterField f;

	memset(&f, 0, sizeof(f));
	f.name = name;
	f.repetition = rep;
	f.physical_type = ptype;
	f.type_length = tlen;
	f.logical = lt;
	f.converted_type = -1;
	return f;
}

/* The footer of the file in file_buf (magic and length checked). */
static PqFileMetaData footer;

static void
read_footer(void)
{
	const uint8 *p = file_buf.data;
	size_t		n = file_buf.len;
	uint32		flen;

	CHECK(n >= 12 && memcmp(p, "PAR1", 4) == 0 && memcmp(p + n - 4, "PAR1", 4) == 0);
	flen = pq_load_le32(p + n - 8);
	CHECK(flen <= n - 12);
	CHECK_EQ_INT(pq_read_file_metadata(p + n - 8 - flen, flen, &footer), flen);
}

/* One column chunk decoded by the test's own page walk. */
typedef struct ReadChunk
{
	int			nlevels;
	int16	   *def;
	int16	   *rep;
	int			nvalues;
	uint8	   *fixed;			/* nvalues * width */
	PqByteArray *ba;
	int			npages;			/* data pages */
	int64	   *page_offset;
	int		   *page_size;
	int		   *page_first_level;
	int		   *page_first_value;
	int			encodings[PQ_ENC_ALP + 1];	/* data pages per encoding */
	int			dict_size;		/* -1: no dictionary page */
} ReadChunk;

static void
read_chunk(const PqColumnMetaData *md, int type_length, int max_def,
		   int max_rep, ReadChunk *rc)
{
	const uint8 *file = file_buf.data;
	int			ptype = md->type;
	int			width = ptype == PQ_BYTE_ARRAY ? 0 : pq_fixed_width(ptype, type_length);
	int64		pos = md->has_dictionary_page_offset ?
		md->dictionary_page_offset : md->data_page_offset;
	int64		end = pos + md->total_compressed_size;
	int			cap = (int) md->num_values + 1;
	uint8	   *dict_fixed = NULL;
	PqByteArray *dict_ba = NULL;
	PqValueDecoder d;

	memset(rc, 0, sizeof(ReadChunk));
	rc->dict_size = -1;
	rc->def = palloc(sizeof(int16) * cap);
	rc->rep = palloc(sizeof(int16) * cap);
	rc->fixed = palloc((size_t) cap * Max(width, 1));
	rc->ba = palloc(sizeof(PqByteArray) * cap);
	rc->page_offset = palloc(sizeof(int64) * cap);
	rc->page_size = palloc(sizeof(int) * cap);
	rc->page_first_level = palloc(sizeof(int) * (cap + 1));
	rc->page_first_value = palloc(sizeof(int) * (cap + 1));
	CHECK(end <= (int64) file_buf.len);
	while (pos < end)
	{
		PqPageHeader ph;
		size_t		hlen = pq_read_page_header(file + pos, end - pos, &ph);
		const uint8 *body = file + pos + hlen;
		size_t		csize = ph.compressed_page_size;
		size_t		usize = ph.uncompressed_page_size;
		uint8	   *page;

		CHECK(pos + (int64) (hlen + csize) <= end);
		CHECK(ph.has_crc && (uint32) ph.crc == (uint32) crc32(0L, body, csize));
		if (ph.type == PQ_PAGE_DICTIONARY)
		{
			int			n = ph.dictionary_page_header.num_values;

			CHECK(rc->npages == 0 && rc->dict_size < 0);
			page = palloc(usize + 1);
			pq_decompress(md->codec, body, csize, page, usize);
			pq_valdec_init(&d, ph.dictionary_page_header.encoding, ptype,
						   type_length, page, usize, n);
			if (width > 0)
			{
				dict_fixed = palloc((size_t) n * width + 1);
				pq_valdec_read_fixed(&d, n, dict_fixed);
			}
			else
			{
				dict_ba = palloc(sizeof(PqByteArray) * (n + 1));
				pq_valdec_read_byte_array(&d, n, dict_ba);
			}
			rc->dict_size = n;
		}
		else
		{
			int			nlev;
			int			enc;
			int			nv = 0;
			const uint8 *vals;
			size_t		vlen;
			int16	   *def = rc->def + rc->nlevels;
			int16	   *rep = rc->rep + rc->nlevels;
			int			i;

			CHECK(ph.type == PQ_PAGE_DATA || ph.type == PQ_PAGE_DATA_V2);
			if (ph.type == PQ_PAGE_DATA)
			{
				const uint8 *p;
				size_t		left = usize;

				nlev = ph.data_page_header.num_values;
				enc = ph.data_page_header.encoding;
				CHECK(rc->nlevels + nlev <= md->num_values);
				page = palloc(usize + 1);
				pq_decompress(md->codec, body, csize, page, usize);
				p = page;
				if (max_rep > 0)
				{
					size_t		used = pq_decode_levels(PQ_ENC_RLE, true, p, left,
														max_rep, rep, nlev);

					p += used;
					left -= used;
				}
				if (max_def > 0)
				{
					size_t		used = pq_decode_levels(PQ_ENC_RLE, true, p, left,
														max_def, def, nlev);

					p += used;
					left -= used;
				}
				vals = p;
				vlen = left;
			}
			else
			{
				const PqDataPageHeaderV2 *h = &ph.data_page_header_v2;
				size_t		rl = h->repetition_levels_byte_length;
				size_t		dl = h->definition_levels_byte_length;
				int			rows = 0;

				nlev = h->num_values;
				enc = h->encoding;
				CHECK(rc->nlevels + nlev <= md->num_values);
				CHECK(rl + dl <= csize && rl + dl <= usize);
				if (max_rep > 0)
					pq_decode_levels(PQ_ENC_RLE, false, body, rl, max_rep, rep, nlev);
				if (max_def > 0)
					pq_decode_levels(PQ_ENC_RLE, false, body + rl, dl, max_def,
									 def, nlev);
				CHECK(h->is_compressed == (md->codec != PQ_CODEC_UNCOMPRESSED));
				vlen = usize - rl - dl;
				if (h->is_compressed)
				{
					page = palloc(vlen + 1);
					pq_decompress(md->codec, body + rl + dl, csize - rl - dl,
								  page, vlen);
					vals = page;
				}
				else
					vals = body + rl + dl;
				for (i = 0; i < nlev; i++)
					rows += max_rep == 0 || rep[i] == 0;
				CHECK_EQ_INT(h->num_rows, rows);
				for (i = 0; i < nlev; i++)
					nv += max_def == 0 || def[i] == max_def;
				CHECK_EQ_INT(h->num_nulls, nlev - nv);
				nv = 0;
			}
			for (i = 0; i < nlev; i++)
			{
				if (max_rep == 0)
					rep[i] = 0;
				if (max_def == 0)
					def[i] = 0;
				nv += def[i] == max_def;
			}
			rc->page_offset[rc->npages] = pos;
			rc->page_size[rc->npages] = (int) (hlen + csize);
			rc->page_first_level[rc->npages] = rc->nlevels;
			rc->page_first_value[rc->npages] = rc->nvalues;
			rc->npages++;
			rc->encodings[enc]++;
			pq_valdec_init(&d, enc, ptype, type_length, vals, vlen, nv);
			if (pq_encoding_is_dictionary(enc))
			{
				uint32	   *ids = palloc(sizeof(uint32) * (nv + 1));

				CHECK(rc->dict_size >= 0);
				pq_valdec_read_indices(&d, nv, ids, rc->dict_size);
				for (i = 0; i < nv; i++)
				{
					if (width > 0)
						memcpy(rc->fixed + (size_t) (rc->nvalues + i) * width,
							   dict_fixed + (size_t) ids[i] * width, width);
					else
						rc->ba[rc->nvalues + i] = dict_ba[ids[i]];
				}
			}
			else if (width > 0)
				pq_valdec_read_fixed(&d, nv, rc->fixed + (size_t) rc->nvalues * width);
			else
				pq_valdec_read_byte_array(&d, nv, rc->ba + rc->nvalues);
			rc->nlevels += nlev;
			rc->nvalues += nv;
		}
		pos += hlen + csize;
	}
	rc->page_first_level[rc->npages] = rc->nlevels;
	rc->page_first_value[rc->npages] = rc->nvalues;
	CHECK(pos == end);
	CHECK_EQ_INT(rc->nlevels, md->num_values);
}

/* The OffsetIndex must locate exactly the pages the walk found. */
static void
check_offset_index(const PqColumnChunk *cc, const ReadChunk *rc, int max_rep)
{
	PqOffsetIndex oi;
	int64		row = 0;
	int			i;
	int			lv;

	CHECK(cc->has_offset_index_offset && cc->has_offset_index_length);
	CHECK_EQ_INT(pq_read_offset_index(file_buf.data + cc->offset_index_offset,
									  cc->offset_index_length, &oi),
				 cc->offset_index_length);
	CHECK_EQ_INT(oi.n_page_locations, rc->npages);
	for (i = 0; i < rc->npages; i++)
	{
		CHECK_EQ_INT(oi.page_locations[i].offset, rc->page_offset[i]);
		CHECK_EQ_INT(oi.page_locations[i].compressed_page_size, rc->page_size[i]);
		CHECK_EQ_INT(oi.page_locations[i].first_row_index, row);
		CHECK(max_rep == 0 || rc->rep[rc->page_first_level[i]] == 0);
		for (lv = rc->page_first_level[i]; lv < rc->page_first_level[i + 1]; lv++)
			row += rc->rep[lv] == 0;
	}
}

/* ---- the round trip table: a value per (column, row) by formula ---- */

#define RT_COLS 8

static void
rt_fields(PqWriterField *f)
{
	f[0] = leaf("i32", PQ_OPTIONAL, PQ_INT32, 0, lt_int(32, true));
	f[1] = leaf("i64", PQ_REQUIRED, PQ_INT64, 0, lt_none());
	f[2] = leaf("dbl", PQ_OPTIONAL, PQ_DOUBLE, 0, lt_none());
	f[3] = leaf("str", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, lt_id(PQ_LT_STRING));
	f[3].bloom_filter = true;
	f[4] = leaf("flag", PQ_OPTIONAL, PQ_BOOLEAN, 0, lt_none());
	f[5] = leaf("uuid", PQ_REQUIRED, PQ_FIXED_LEN_BYTE_ARRAY, 16, lt_id(PQ_LT_UUID));
	f[6] = leaf("uniq", PQ_REQUIRED, PQ_BYTE_ARRAY, 0, lt_none());
	f[7] = leaf("u8", PQ_OPTIONAL, PQ_INT32, 0, lt_int(8, false));
}

/*
 * Value of column c in row i: false for NULL, else its PLAIN bytes
 * (without length prefix) in buf, length in *len.
 */
static bool
rt_value(int c, int64 i, uint8 *buf, int *len)
{
	int32		v32;
	int64		v64;
	double		d;
	uint64		h;
	int			k;

	switch (c)
	{
		case 0:
			if (i % 7 == 0)
				return false;
			v32 = (int32) (i * 3 - 5000);
			memcpy(buf, &v32, 4);
			*len = 4;
			return true;
		case 1:
			v64 = i * 1000003 - INT64CONST(5000000000);
			memcpy(buf, &v64, 8);
			*len = 8;
			return true;
		case 2:
			if (i % 11 == 3)
				return false;
			d = i % 97 == 5 ? NAN : i * 0.25 - 100;
			memcpy(buf, &d, 8);
			*len = 8;
			return true;
		case 3:
			if (i % 5 == 1)
				return false;
			*len = sprintf((char *) buf, "s%d", (int) (i % 50));
			return true;
		case 4:
			if (i % 3 == 2)
				return false;
			buf[0] = i % 4 == 0;
			*len = 1;
			return true;
		case 5:
			h = (uint64) i * UINT64CONST(0x9E3779B97F4A7C15);
			for (k = 0; k < 8; k++)
			{
				buf[k] = (uint8) (h >> (56 - 8 * k));
				buf[8 + k] = (uint8) ((uint64) i >> (56 - 8 * k));
			}
			*len = 16;
			return true;
		case 6:
			*len = sprintf((char *) buf, "u%08d-", (int) i);
			memset(buf + *len, 'a' + (int) (i % 26), i % 40);
			*len += (int) (i % 40);
			return true;
		default:
			if (i % 13 == 0)
				return false;
			v32 = (int32) (i % 256);
			memcpy(buf, &v32, 4);
			*len = 4;
			return true;
	}
}

/* Write rows [start, start + n) of the table, column by column. */
static void
rt_write_rows(PqFileWriter *w, int64 start, int n)
{
	int16	   *def = palloc(sizeof(int16) * n);
	uint8	   *fixed = palloc((size_t) n * 16);
	PqByteArray *ba = palloc(sizeof(PqByteArray) * n);
	uint8	   *strs = palloc((size_t) n * 64);
	int			c;

	for (c = 0; c < RT_COLS; c++)
	{
		int			nv = 0;
		int			r;

		for (r = 0; r < n; r++)
		{
			uint8		buf[64];
			int			len;
			bool		present = rt_value(c, start + r, buf, &len);

			def[r] = present ? 1 : 0;
			if (!present)
				continue;
			if (c == 3 || c == 6)
			{
				memcpy(strs + (size_t) r * 64, buf, len);
				ba[nv].ptr = strs + (size_t) r * 64;
				ba[nv].len = len;
			}
			else
				memcpy(fixed + (size_t) nv * len, buf, len);
			nv++;
		}
		pq_file_writer_write_column(w, c, n,
									c == 1 || c == 5 || c == 6 ? NULL : def,
									NULL, nv,
									c == 3 || c == 6 ? NULL : fixed,
									c == 3 || c == 6 ? ba : NULL);
	}
	pq_file_writer_end_rows(w, n);
	pfree(def);
	pfree(fixed);
	pfree(ba);
	pfree(strs);
}

static int
rt_cmp(int c, const uint8 *a, int alen, const uint8 *b, int blen)
{
	static const int orders[RT_COLS] = {
		PQ_SORT_INT32, PQ_SORT_INT64, PQ_SORT_DOUBLE, PQ_SORT_BYTES,
		PQ_SORT_BOOL, PQ_SORT_BYTES, PQ_SORT_BYTES, PQ_SORT_UINT32
	};

	return pq_stats_compare(orders[c], a, alen, b, blen);
}

/*
 * Every value of the file in file_buf against the formulas, and the
 * statistics, page index and Bloom filter against the decoded pages.
 */
static void
rt_verify(int64 nrows, const PqWriterOptions *o)
{
	static const int widths[RT_COLS] = {4, 8, 8, 0, 1, 16, 0, 4};
	int64		row_base = 0;
	int			g;
	int			c;

	read_footer();
	if (ut_failures_in_test)
		return;
	CHECK_EQ_INT(footer.num_rows, nrows);
	CHECK_EQ_INT(footer.n_column_orders, RT_COLS);
	for (c = 0; c < RT_COLS; c++)
		CHECK_EQ_INT(footer.column_orders[c], PQ_ORDER_TYPE_DEFINED);
	CHECK(strcmp(footer.created_by, "parquet_fdw test") == 0);
	CHECK_EQ_INT(footer.schema[4].converted_type, PQ_CT_UTF8);
	CHECK_EQ_INT(footer.schema[8].converted_type, PQ_CT_UINT_8);

	for (g = 0; g < footer.n_row_groups; g++)
	{
		const PqRowGroup *rg = &footer.row_groups[g];

		CHECK(rg->num_rows == o->row_group_rows || g == footer.n_row_groups - 1);
		for (c = 0; c < RT_COLS; c++)
		{
			const PqColumnChunk *cc = &rg->columns[c];
			const PqColumnMetaData *md = &cc->meta_data;
			ReadChunk	rc;
			int			v = 0;
			int			r;
			int			p;
			int			k;
			int64		nulls = 0;
			const uint8 *mn = NULL,
					   *mx = NULL;
			int			mnlen = 0,
						mxlen = 0;

			read_chunk(md, c == 5 ? 16 : 0, c == 1 || c == 5 || c == 6 ? 0 : 1,
					   0, &rc);
			if (ut_failures_in_test)
				return;
			CHECK_EQ_INT(rc.nlevels, rg->num_rows);
			CHECK_EQ_INT(md->codec, o->codec);
			for (r = 0; r < rc.nlevels; r++)
			{
				uint8		buf[64];
				int			len;
				bool		present = rt_value(c, row_base + r, buf, &len);
				const uint8 *got;
				int			gotlen;

				CHECK_EQ_INT(rc.def[r] == (c == 1 || c == 5 || c == 6 ? 0 : 1),
							 present);
				if (!present)
				{
					nulls++;
					continue;
				}
				got = widths[c] ? rc.fixed + (size_t) v * widths[c] : rc.ba[v].ptr;
				gotlen = widths[c] ? widths[c] : (int) rc.ba[v].len;
				CHECK(gotlen == len && memcmp(got, buf, len) == 0);
				v++;
				if (c == 2 && isnan(*(double *) buf))
					continue;
				if (mn == NULL || rt_cmp(c, got, gotlen, mn, mnlen) < 0)
				{
					mn = got;
					mnlen = gotlen;
				}
				if (mx == NULL || rt_cmp(c, got, gotlen, mx, mxlen) > 0)
				{
					mx = got;
					mxlen = gotlen;
				}
			}
			CHECK_EQ_INT(v, rc.nvalues);

			/* chunk statistics against the decoded values */
			CHECK(md->has_statistics && md->statistics.has_null_count);
			CHECK_EQ_INT(md->statistics.null_count, nulls);
			CHECK(md->statistics.min_value.len == mnlen &&
				  memcmp(md->statistics.min_value.ptr, mn, mnlen) == 0);
			CHECK(md->statistics.max_value.len == mxlen &&
				  memcmp(md->statistics.max_value.ptr, mx, mxlen) == 0);
			CHECK(md->statistics.has_nan_count == (c == 2));
			CHECK((md->statistics.min.ptr != NULL) == (c <= 2));

			/* encodings: what the options ask for */
			if (c == 4)
				CHECK_EQ_INT(rc.encodings[o->page_version == 2 ? PQ_ENC_RLE : PQ_ENC_PLAIN],
							 rc.npages);
			if (c == 3)
				CHECK(o->dictionary ? rc.dict_size == 40 &&
					  rc.encodings[PQ_ENC_RLE_DICTIONARY] == rc.npages :
					  rc.dict_size < 0);
			if (c == 6 && o->page_version == 2)
				CHECK(rc.encodings[PQ_ENC_DELTA_BYTE_ARRAY] +
					  rc.encodings[PQ_ENC_DELTA_LENGTH_BYTE_ARRAY] == rc.npages);
			if (c == 1 && o->page_version == 2)
				CHECK(rc.encodings[PQ_ENC_DELTA_BINARY_PACKED] == rc.npages);
			if (c == 6)
				CHECK(rc.dict_size < 0);	/* unique: the dictionary does not pay */

			check_offset_index(cc, &rc, 0);
			if (ut_failures_in_test)
				return;

			/* ColumnIndex: bounds and nulls of each decoded page */
			CHECK(cc->has_column_index_offset);
			if (c == 0 || c == 3 || c == 7)
			{
				PqColumnIndex ci;

				CHECK(cc->has_column_index_offset);
				pq_read_column_index(file_buf.data + cc->column_index_offset,
									 cc->column_index_length, &ci);
				CHECK_EQ_INT(ci.n_null_pages, rc.npages);
				CHECK(c != 0 || ci.boundary_order == PQ_BOUNDARY_ASCENDING);
				for (p = 0; p < rc.npages; p++)
				{
					int			first = rc.page_first_value[p];
					int			last = rc.page_first_value[p + 1];
					int			w = widths[c];

					CHECK_EQ_INT(ci.null_counts[p],
								 (rc.page_first_level[p + 1] - rc.page_first_level[p]) -
								 (last - first));
					CHECK_EQ_INT(ci.null_pages[p], first == last);
					if (first == last)
						continue;
					mn = mx = w ? rc.fixed + (size_t) first * w : rc.ba[first].ptr;
					mnlen = mxlen = w ? w : (int) rc.ba[first].len;
					for (k = first + 1; k < last; k++)
					{
						const uint8 *x = w ? rc.fixed + (size_t) k * w : rc.ba[k].ptr;
						int			xl = w ? w : (int) rc.ba[k].len;

						if (rt_cmp(c, x, xl, mn, mnlen) < 0)
						{
							mn = x;
							mnlen = xl;
						}
						if (rt_cmp(c, x, xl, mx, mxlen) > 0)
						{
							mx = x;
							mxlen = xl;
						}
					}
					CHECK(ci.min_values[p].len == mnlen &&
						  memcmp(ci.min_values[p].ptr, mn, mnlen) == 0);
					CHECK(ci.max_values[p].len == mxlen &&
						  memcmp(ci.max_values[p].ptr, mx, mxlen) == 0);
				}
			}

			/* Bloom filter: every value present probes true */
			CHECK(md->has_bloom_filter_offset == (c == 3));
			if (c == 3)
			{
				PqBloomFilterHeader bh;
				const uint8 *bp = file_buf.data + md->bloom_filter_offset;
				size_t		hl = pq_read_bloom_filter_header(bp, md->bloom_filter_length, &bh);
				int			fp = 0;

				CHECK_EQ_INT(hl + bh.num_bytes, md->bloom_filter_length);
				CHECK(bh.algorithm == 1 && bh.hash == 1 && bh.compression == 1);
				for (k = 0; k < 50; k++)
				{
					char		s[16];
					int			l = sprintf(s, "s%d", k);

					/* every value but the ones only NULL rows would have */
					CHECK(k % 5 == 1 ||
						  pq_bloom_check(bp + hl, bh.num_bytes, XXH64(s, l, 0)));
					l = sprintf(s, "absent%d", k);
					fp += pq_bloom_check(bp + hl, bh.num_bytes, XXH64(s, l, 0));
				}
				CHECK(fp < 10);
			}
		}
		row_base += rg->num_rows;
	}
	CHECK_EQ_INT(row_base, nrows);
}

static void
rt_options(PqWriterOptions *o, int version, bool dict, int codec)
{
	pq_writer_options_init(o);
	o->page_version = version;
	o->dictionary = dict;
	o->codec = codec;
	o->data_page_bytes = 4096;
	o->row_group_rows = 3000;
	o->created_by = "parquet_fdw test";
}

/* Every page version x dictionary x codec, read back and compared. */
static void
test_roundtrip(void)
{
	static const int codecs[] = {
		PQ_CODEC_UNCOMPRESSED, PQ_CODEC_SNAPPY, PQ_CODEC_GZIP, PQ_CODEC_ZSTD,
		PQ_CODEC_LZ4_RAW, PQ_CODEC_BROTLI
	};
	PqWriterField f[RT_COLS];
	int			combo;

	rt_fields(f);
	for (combo = 0; combo < 4 * (int) lengthof(codecs); combo++)
	{
		PqWriterOptions o;
		PqFileWriter *w;
		int64		row = 0;
		int			batch = 1;

		rt_options(&o, 1 + combo % 2, (combo / 2) % 2 == 0, codecs[combo / 4]);
		w = open_writer(f, RT_COLS, &o);
		/* batches of varying size, cut to end row groups exactly */
		while (row < 7000)
		{
			int			n = (int) Min(Min(batch, 7000 - row),
									  pq_file_writer_row_group_room(w));

			rt_write_rows(w, row, n);
			row += n;
			batch = batch * 3 % 1013 + 1;
		}
		pq_file_writer_finish(w);
		rt_verify(7000, &o);
		if (ut_failures_in_test)
		{
			fprintf(stderr, "  (page v%d, dictionary %d, %s)\n", o.page_version,
					o.dictionary, pq_codec_name(o.codec));
			return;
		}
		shim_free_all();
	}
}

/* Pages are cut after the slice (1024 levels) that reaches the size. */
static void
test_page_cutting(void)
{
	PqWriterField f = leaf("x", PQ_REQUIRED, PQ_INT64, 0, lt_none());
	PqWriterOptions o;
	PqFileWriter *w;
	int64	   *v = palloc(sizeof(int64) * 10000);
	ReadChunk	rc;
	int			i;

	for (i = 0; i < 10000; i++)
		v[i] = i;
	pq_writer_options_init(&o);
	o.dictionary = false;
	o.codec = PQ_CODEC_UNCOMPRESSED;
	o.data_page_bytes = 20000;	/* 3 slices of 8192 bytes reach it */
	w = open_writer(&f, 1, &o);
	pq_file_writer_write_column(w, 0, 10000, NULL, NULL, 10000, v, NULL);
	pq_file_writer_end_rows(w, 10000);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(ut_failures_in_test == 0);
	read_chunk(&footer.row_groups[0].columns[0].meta_data, 0, 0, 0, &rc);
	CHECK(ut_failures_in_test == 0);
	CHECK_EQ_INT(rc.npages, 4);
	CHECK_EQ_INT(rc.page_first_level[1], 3072);
	CHECK_EQ_INT(rc.page_first_level[3], 9216);
	CHECK(memcmp(rc.fixed, v, sizeof(int64) * 10000) == 0);
	check_offset_index(&footer.row_groups[0].columns[0], &rc, 0);
}

static void
write_strings(PqFileWriter *w, int64 start, int n, bool unique_after_2000)
{
	PqByteArray *ba = palloc(sizeof(PqByteArray) * n);
	char	   *s = palloc((size_t) n * 16);
	int			i;

	for (i = 0; i < n; i++)
	{
		int64		r = start + i;
		int			len;

		if (r < 2000 || !unique_after_2000)
			len = sprintf(s + i * 16, "v%d", (int) (r % 10));
		else
			len = sprintf(s + i * 16, "u%09d", (int) r);
		ba[i].ptr = (const uint8 *) s + i * 16;
		ba[i].len = len;
	}
	pq_file_writer_write_column(w, 0, n, NULL, NULL, n, NULL, ba);
	pq_file_writer_end_rows(w, n);
}

/*
 * The dictionary is kept while it is small, falls back to PLAIN (v1) when
 * it outgrows its limit, and is dropped when it does not pay on the first
 * page.
 */
static void
test_dictionary_fallback(void)
{
	PqWriterField f = leaf("s", PQ_REQUIRED, PQ_BYTE_ARRAY, 0, lt_id(PQ_LT_STRING));
	PqWriterOptions o;
	PqFileWriter *w;
	ReadChunk	rc;
	const PqColumnMetaData *md;
	int			i;

	pq_writer_options_init(&o);
	o.dictionary_page_limit = 1000;
	w = open_writer(&f, 1, &o);
	for (i = 0; i < 10; i++)
		write_strings(w, i * 1000, 1000, true);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(ut_failures_in_test == 0);
	md = &footer.row_groups[0].columns[0].meta_data;
	read_chunk(md, 0, 0, 0, &rc);
	CHECK(ut_failures_in_test == 0);
	/* batches 1-2 repeat 10 values; batch 3 adds 1000 new: over the limit */
	CHECK(rc.dict_size > 10);
	CHECK_EQ_INT(rc.encodings[PQ_ENC_RLE_DICTIONARY], 1);
	CHECK_EQ_INT(rc.page_first_level[1], 3000);
	CHECK_EQ_INT(rc.encodings[PQ_ENC_PLAIN], rc.npages - 1);
	CHECK(rc.ba[1999].len == 2 && memcmp(rc.ba[1999].ptr, "v9", 2) == 0);
	CHECK(rc.ba[2999].len == 10 && memcmp(rc.ba[2999].ptr, "u000002999", 10) == 0);
	CHECK(rc.ba[9999].len == 10 && memcmp(rc.ba[9999].ptr, "u000009999", 10) == 0);
	CHECK(md->has_encoding_stats && md->n_encoding_stats == 3);
	CHECK(md->encoding_stats[0].page_type == PQ_PAGE_DICTIONARY &&
		  md->encoding_stats[0].encoding == PQ_ENC_PLAIN);
	CHECK(md->encoding_stats[2].encoding == PQ_ENC_RLE_DICTIONARY &&
		  md->encoding_stats[2].count == 1);
	CHECK(md->has_dictionary_page_offset && md->dictionary_page_offset == 4);

	/* only unique values: the first page decides against a dictionary */
	w = open_writer(&f, 1, &o);
	for (i = 0; i < 10; i++)
		write_strings(w, 2000 + i * 1000, 1000, true);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(ut_failures_in_test == 0);
	md = &footer.row_groups[0].columns[0].meta_data;
	read_chunk(md, 0, 0, 0, &rc);
	CHECK(ut_failures_in_test == 0);
	CHECK(rc.dict_size < 0 && !md->has_dictionary_page_offset);
	CHECK_EQ_INT(rc.encodings[PQ_ENC_PLAIN], rc.npages);
	CHECK(rc.ba[0].len == 10 && memcmp(rc.ba[0].ptr, "u000002000", 10) == 0);

	/* distinct integers leave the dictionary after a 64 KiB sample */
	{
		PqWriterField fi = leaf("x", PQ_REQUIRED, PQ_INT64, 0, lt_none());
		int64		v[1000];
		int			k;

		for (k = 0; k < 2; k++)
		{
			pq_writer_options_init(&o);
			w = open_writer(&fi, 1, &o);
			for (i = 0; i < 20000; i++)
			{
				v[i % 1000] = k == 0 ? i : i / 4;
				if (i % 1000 == 999)
				{
					pq_file_writer_write_column(w, 0, 1000, NULL, NULL, 1000, v, NULL);
					pq_file_writer_end_rows(w, 1000);
				}
			}
			pq_file_writer_finish(w);
			read_footer();
			CHECK(ut_failures_in_test == 0);
			read_chunk(&footer.row_groups[0].columns[0].meta_data, 0, 0, 0, &rc);
			CHECK(ut_failures_in_test == 0);
			CHECK_EQ_INT(rc.npages, 1);
			/* 20000 values each: 5000 distinct pay for a dictionary */
			CHECK_EQ_INT(rc.dict_size, k == 0 ? -1 : 5000);
			CHECK_EQ_INT(((int64 *) rc.fixed)[19999], k == 0 ? 19999 : 4999);
		}
	}

	/* few values: one dictionary for the whole chunk, whatever its size */
	w = open_writer(&f, 1, &o);
	for (i = 0; i < 10; i++)
		write_strings(w, i * 1000, 1000, false);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(ut_failures_in_test == 0);
	read_chunk(&footer.row_groups[0].columns[0].meta_data, 0, 0, 0, &rc);
	CHECK(rc.dict_size == 10 && rc.encodings[PQ_ENC_RLE_DICTIONARY] == rc.npages);
}

/*
 * A 3-level LIST of optional int32: rows [1, 2], NULL, [], [NULL, 3],
 * repeated.  Levels: list 1 (optional), repeated group 2, element 3.
 */
static void
test_nested_list(void)
{
	PqWriterField f[3];
	PqWriterOptions o;
	PqFileWriter *w;
	static const int16 def1[] = {3, 3, 0, 1, 2, 3};
	static const int16 rep1[] = {0, 1, 0, 0, 0, 1};
	static const int32 val1[] = {1, 2, 3};
	int16	   *def = palloc(sizeof(int16) * 6000);
	int16	   *rep = palloc(sizeof(int16) * 6000);
	int32	   *val = palloc(sizeof(int32) * 3000);
	ReadChunk	rc;
	int			max_def,
				max_rep;
	int			i;

	memset(f, 0, sizeof(f));
	f[0].name = "l";
	f[0].repetition = PQ_OPTIONAL;
	f[0].num_children = 1;
	f[0].logical = lt_id(PQ_LT_LIST);
	f[0].converted_type = -1;
	f[1].name = "list";
	f[1].repetition = PQ_REPEATED;
	f[1].num_children = 1;
	f[1].converted_type = -1;
	f[2] = leaf("element", PQ_OPTIONAL, PQ_INT32, 0, lt_none());
	pq_writer_options_init(&o);
	o.data_page_bytes = 256;
	o.page_version = 2;
	w = open_writer(f, 3, &o);
	CHECK_EQ_INT(pq_file_writer_num_columns(w), 1);
	pq_file_writer_column_levels(w, 0, &max_def, &max_rep);
	CHECK(max_def == 3 && max_rep == 1);
	for (i = 0; i < 6000; i++)
	{
		def[i] = def1[i % 6];
		rep[i] = rep1[i % 6];
	}
	for (i = 0; i < 3000; i++)
		val[i] = val1[i % 3] + i / 3;
	pq_file_writer_write_column(w, 0, 6000, def, rep, 3000, val, NULL);
	pq_file_writer_end_rows(w, 4000);
	pq_file_writer_finish(w);

	read_footer();
	CHECK(ut_failures_in_test == 0);
	CHECK_EQ_INT(footer.n_schema, 4);
	CHECK_EQ_INT(footer.schema[1].converted_type, PQ_CT_LIST);
	CHECK_EQ_INT(footer.row_groups[0].columns[0].meta_data.n_path_in_schema, 3);
	CHECK_EQ_INT(footer.num_rows, 4000);
	read_chunk(&footer.row_groups[0].columns[0].meta_data, 0, 3, 1, &rc);
	CHECK(ut_failures_in_test == 0);
	CHECK(rc.npages > 3);
	CHECK(memcmp(rc.def, def, sizeof(int16) * 6000) == 0);
	CHECK(memcmp(rc.rep, rep, sizeof(int16) * 6000) == 0);
	CHECK(memcmp(rc.fixed, val, sizeof(int32) * 3000) == 0);
	check_offset_index(&footer.row_groups[0].columns[0], &rc, 1);
	CHECK_EQ_INT(footer.row_groups[0].columns[0].meta_data.statistics.null_count,
				 3000);

	/* a batch must start a row */
	w = open_writer(f, 3, &o);
	CHECK_ERROR(pq_file_writer_write_column(w, 0, 5, def + 1, rep + 1, 2, val, NULL),
				ERRCODE_INTERNAL_ERROR);
}

/* A struct: levels count the optional group; paths name the group. */
static void
test_nested_struct(void)
{
	PqWriterField f[4];
	PqWriterOptions o;
	PqFileWriter *w;
	static const int16 def_a[] = {1, 0, 1, 1};
	static const int16 def_b[] = {2, 0, 1, 2};
	static const int32 a[] = {10, 30, 40};
	PqByteArray b[2];
	ReadChunk	rc;
	const PqColumnChunk *cc;
	int			max_def,
				max_rep;

	memset(f, 0, sizeof(f));
	f[0].name = "st";
	f[0].repetition = PQ_OPTIONAL;
	f[0].num_children = 2;
	f[0].converted_type = -1;
	f[1] = leaf("a", PQ_REQUIRED, PQ_INT32, 0, lt_none());
	f[2] = leaf("b", PQ_OPTIONAL, PQ_BYTE_ARRAY, 0, lt_id(PQ_LT_STRING));
	f[3] = leaf("top", PQ_REQUIRED, PQ_BOOLEAN, 0, lt_none());
	b[0].ptr = NULL;			/* an empty string without a pointer */
	b[0].len = 0;
	b[1] = ba_str("yz");
	pq_writer_options_init(&o);
	w = open_writer(f, 4, &o);
	CHECK_EQ_INT(pq_file_writer_num_columns(w), 3);
	pq_file_writer_column_levels(w, 0, &max_def, &max_rep);
	CHECK(max_def == 1 && max_rep == 0);
	pq_file_writer_column_levels(w, 1, &max_def, &max_rep);
	CHECK(max_def == 2 && max_rep == 0);
	pq_file_writer_write_column(w, 0, 4, def_a, NULL, 3, a, NULL);
	pq_file_writer_write_column(w, 1, 4, def_b, NULL, 2, NULL, b);
	pq_file_writer_write_column(w, 2, 4, NULL, NULL, 4, "\1\0\0\1", NULL);
	pq_file_writer_end_rows(w, 4);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(ut_failures_in_test == 0);
	CHECK_EQ_INT(footer.n_schema, 5);
	CHECK_EQ_INT(footer.schema[0].num_children, 2);
	CHECK_EQ_INT(footer.schema[1].num_children, 2);
	cc = &footer.row_groups[0].columns[1];
	CHECK(cc->meta_data.n_path_in_schema == 2 &&
		  strcmp(cc->meta_data.path_in_schema[0], "st") == 0 &&
		  strcmp(cc->meta_data.path_in_schema[1], "b") == 0);
	read_chunk(&cc->meta_data, 0, 2, 0, &rc);
	CHECK(ut_failures_in_test == 0);
	CHECK(memcmp(rc.def, def_b, sizeof(def_b)) == 0);
	CHECK(rc.nvalues == 2 && rc.ba[0].len == 0 && rc.ba[1].len == 2 &&
		  memcmp(rc.ba[1].ptr, "yz", 2) == 0);
	CHECK_EQ_INT(cc->meta_data.statistics.null_count, 2);
	read_chunk(&footer.row_groups[0].columns[2].meta_data, 0, 0, 0, &rc);
	CHECK(rc.nvalues == 4 && memcmp(rc.fixed, "\1\0\0\1", 4) == 0);
}

/* Row groups end at row_group_rows; callers can size batches exactly. */
static void
test_row_groups(void)
{
	PqWriterField f = leaf("x", PQ_REQUIRED, PQ_INT32, 0, lt_none());
	PqWriterOptions o;
	PqFileWriter *w;
	int32		v[100];
	int			i;

	for (i = 0; i < 100; i++)
		v[i] = i;
	pq_writer_options_init(&o);
	o.row_group_rows = 1000;
	w = open_writer(&f, 1, &o);
	CHECK_EQ_INT(pq_file_writer_row_group_room(w), 1000);
	for (i = 0; i < 25; i++)
	{
		pq_file_writer_write_column(w, 0, 100, NULL, NULL, 100, v, NULL);
		pq_file_writer_end_rows(w, 100);
	}
	CHECK_EQ_INT(pq_file_writer_row_group_room(w), 500);
	pq_file_writer_flush_row_group(w);
	pq_file_writer_write_column(w, 0, 10, NULL, NULL, 10, v, NULL);
	pq_file_writer_end_rows(w, 10);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(ut_failures_in_test == 0);
	CHECK_EQ_INT(footer.n_row_groups, 4);
	CHECK_EQ_INT(footer.row_groups[0].num_rows, 1000);
	CHECK_EQ_INT(footer.row_groups[2].num_rows, 500);
	CHECK_EQ_INT(footer.row_groups[3].num_rows, 10);
	CHECK_EQ_INT(footer.row_groups[3].ordinal, 3);
	CHECK_EQ_INT(footer.row_groups[1].file_offset,
				 footer.row_groups[1].columns[0].meta_data.dictionary_page_offset);

	/* the byte limit ends row groups too */
	o.row_group_bytes = 1;
	w = open_writer(&f, 1, &o);
	for (i = 0; i < 3; i++)
	{
		pq_file_writer_write_column(w, 0, 100, NULL, NULL, 100, v, NULL);
		pq_file_writer_end_rows(w, 100);
	}
	pq_file_writer_finish(w);
	read_footer();
	CHECK_EQ_INT(footer.n_row_groups, 3);

	/* no rows at all: a valid file without row groups */
	w = open_writer(&f, 1, &o);
	pq_file_writer_finish(w);
	read_footer();
	CHECK(footer.n_row_groups == 0 && footer.num_rows == 0);
}

/*
 * One type rule (type_rules.c) for writer and reader: every annotation the
 * writer accepts on a leaf, over every physical type and several widths,
 * makes a file whose schema the reader builds with the same logical type.
 * Before the rule was shared the writer accepted a VARIANT-annotated
 * BYTE_ARRAY leaf that the reader refused as corrupt.
 */
static bool
writer_accepts(const PqWriterField *f)
{
	volatile bool ok = true;

	PG_TRY();
	{
		PqWriterOptions o;

		pq_writer_options_init(&o);
		pq_file_writer_finish(open_writer(f, 1, &o));
	}
	PG_CATCH();
	{
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

static void
test_type_rules_agree(void)
{
	int			ids[] = {PQ_LT_NONE, PQ_LT_STRING, PQ_LT_MAP, PQ_LT_LIST,
		PQ_LT_ENUM, PQ_LT_DATE, PQ_LT_UNKNOWN, PQ_LT_JSON, PQ_LT_BSON,
		PQ_LT_UUID, PQ_LT_FLOAT16, PQ_LT_VARIANT, PQ_LT_GEOMETRY,
	PQ_LT_GEOGRAPHY, PQ_LT_FILE};
	int			lengths[] = {2, 5, 12, 16, 300};
	int			precisions[] = {1, 9, 10, 18, 19, 38, 39, 300, 700};
	int			accepted = 0;
	int			refused = 0;
	int			pt;

	for (pt = PQ_BOOLEAN; pt <= PQ_FIXED_LEN_BYTE_ARRAY; pt++)
	{
		int			nlen = pt == PQ_FIXED_LEN_BYTE_ARRAY ? 5 : 1;
		int			li;

		for (li = 0; li < nlen; li++)
		{
			int			tlen = pt == PQ_FIXED_LEN_BYTE_ARRAY ? lengths[li] : 0;
			PqLogicalType cases[64];
			int			converted[64];
			int			n = 0;
			int			k;

			for (k = 0; k < lengthof(ids); k++)
			{
				converted[n] = -1;
				cases[n++] = lt_id(ids[k]);
			}
			for (k = PQ_UNIT_NONE; k <= PQ_UNIT_NANOS; k++)
			{
				cases[n] = lt_id(PQ_LT_TIME);
				cases[n].time_unit = k;
				cases[n].is_adjusted_to_utc = true;
				converted[n++] = -1;
				cases[n] = lt_id(PQ_LT_TIMESTAMP);
				cases[n].time_unit = k;
				converted[n++] = -1;
			}
			for (k = 8; k <= 64; k *= 2)
			{
				converted[n] = -1;
				cases[n++] = lt_int(k, true);
				converted[n] = -1;
				cases[n++] = lt_int(k, false);
			}
			for (k = 0; k < lengthof(precisions); k++)
			{
				converted[n] = -1;
				cases[n++] = lt_decimal(precisions[k], 2);
			}
			converted[n] = -1;
			cases[n++] = lt_decimal(5, 6);
			/* INTERVAL exists only as a ConvertedType */
			converted[n] = PQ_CT_INTERVAL;
			cases[n++] = lt_none();
			Assert(n <= lengthof(cases));

			for (k = 0; k < n; k++)
			{
				PqWriterField f = leaf("c", PQ_REQUIRED, pt, tlen, cases[k]);
				PqSchema   *schema;
				int			want = cases[k].id;

				f.converted_type = converted[k];
				if (!writer_accepts(&f))
				{
					refused++;
					continue;
				}
				accepted++;
				read_footer();
				schema = pq_schema_build(&footer);
				if (converted[k] == PQ_CT_INTERVAL)
					want = PQ_LT_INTERVAL;
				if (schema->n_columns != 1 ||
					schema->columns[0].node->logical.id != want)
				{
					char		m[128];

					snprintf(m, sizeof(m), "physical %d (length %d), logical %d: read as %d",
							 pt, tlen, want, schema->columns[0].node->logical.id);
					ut_fail(__FILE__, __LINE__, m);
					return;
				}
			}
		}
	}
	/*
	 * What LogicalTypes.md allows of these 12 x 42 cases, counted by hand:
	 * BOOLEAN, INT96, FLOAT, DOUBLE 2 each (none, UNKNOWN); INT32 11 (DATE,
	 * TIME(MILLIS), 6 INTEGER, DECIMAL(9)); INT64 12 (2 TIME, 3 TIMESTAMP,
	 * 2 INTEGER, DECIMAL 9 to 18); BYTE_ARRAY 16 (6 string-like, 8
	 * DECIMAL); FLBA(2) 3, (5) 4, (12) 7, (16) 8, (300) 9.
	 */
	CHECK_EQ_INT(accepted, 78);
	CHECK_EQ_INT(refused, 12 * 42 - 78);
	shim_free_all();
}

static void
test_writer_errors(void)
{
	PqWriterField f[2];
	PqWriterOptions o;
	PqFileWriter *w;
	int32		v[4] = {1, 2, 3, 4};
	int16		bad_def[2] = {1, 2};

	f[0] = leaf("a", PQ_OPTIONAL, PQ_INT32, 0, lt_none());
	f[1] = leaf("b", PQ_REQUIRED, PQ_INT32, 0, lt_none());

	pq_writer_options_init(&o);
	o.page_version = 3;
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_INVALID_PARAMETER_VALUE);
	pq_writer_options_init(&o);
	o.codec = PQ_CODEC_LZO;
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_FEATURE_NOT_SUPPORTED);
	pq_writer_options_init(&o);
	o.codec = PQ_CODEC_ZSTD;
	o.compression_level = 99;
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_INVALID_PARAMETER_VALUE);

	pq_writer_options_init(&o);
	f[1] = leaf("b", PQ_REQUIRED, PQ_INT32, 0, lt_id(PQ_LT_UUID));
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_INVALID_PARAMETER_VALUE);
	f[1] = leaf("b", PQ_REQUIRED, PQ_BOOLEAN, 0, lt_none());
	f[1].bloom_filter = true;
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_INVALID_PARAMETER_VALUE);
	f[1] = leaf("b", PQ_REQUIRED, PQ_INT32, 0, lt_decimal(10, 2));
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_INVALID_PARAMETER_VALUE);
	f[1] = leaf("b", PQ_REQUIRED, PQ_INT32, 0, lt_none());
	f[0].num_children = 2;
	CHECK_ERROR(open_writer(f, 2, &o), ERRCODE_INVALID_PARAMETER_VALUE);
	f[0].num_children = 0;

	w = open_writer(f, 2, &o);
	/* a level above the maximum */
	CHECK_ERROR(pq_file_writer_write_column(w, 0, 2, bad_def, NULL, 1, v, NULL),
				ERRCODE_INTERNAL_ERROR);
	w = open_writer(f, 2, &o);
	/* the columns disagree on the rows */
	pq_file_writer_write_column(w, 0, 2, NULL, NULL, 2, v, NULL);
	pq_file_writer_write_column(w, 1, 3, NULL, NULL, 3, v, NULL);
	CHECK_ERROR(pq_file_writer_end_rows(w, 2), ERRCODE_INTERNAL_ERROR);
	/* values do not match the defined levels */
	w = open_writer(f, 2, &o);
	CHECK_ERROR(pq_file_writer_write_column(w, 1, 3, NULL, NULL, 2, v, NULL),
				ERRCODE_INTERNAL_ERROR);
	w = open_writer(f, 2, &o);
	pq_file_writer_finish(w);
	CHECK_ERROR(pq_file_writer_write_column(w, 1, 1, NULL, NULL, 1, v, NULL),
				ERRCODE_INTERNAL_ERROR);
}

void
suite_writer(void)
{
	ut_run("writer_sort_orders", test_sort_orders);
	ut_run("writer_stats_integers", test_stats_integers);
	ut_run("writer_stats_floats", test_stats_floats);
	ut_run("writer_stats_bytes_and_decimals", test_stats_bytes_and_decimals);
	ut_run("writer_truncation", test_truncation);
	ut_run("writer_boundary_order", test_boundary_order);
	ut_run("writer_roundtrip", test_roundtrip);
	ut_run("writer_page_cutting", test_page_cutting);
	ut_run("writer_dictionary_fallback", test_dictionary_fallback);
	ut_run("writer_nested_list", test_nested_list);
	ut_run("writer_nested_struct", test_nested_struct);
	ut_run("writer_row_groups", test_row_groups);
	ut_run("writer_errors", test_writer_errors);
	ut_run("writer_type_rules_agree", test_type_rules_agree);
}
