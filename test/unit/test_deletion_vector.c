/*
 * test_deletion_vector.c
 *		Delta Lake deletion vectors (src/table/delta/deletion_vector.c) and
 *		Z85 (src/table/common/z85.c), against truths that none of that code
 *		computed: deletion vectors of the shared Delta test tables and the
 *		protocol's examples, decoded independently; bitmaps libroaring
 *		serialized from sets this file chose; and the refusals promised.
 *
 * The real deletion vectors below are the spans (size, data, CRC) of the
 * files under ../shared/testdata/table-formats/delta/ (golden/ and
 * kernel-data/), each with its descriptor from the table's _delta_log.
 * Their positions, file names and the many-bucket vector were computed in
 * Node.js (not part of this repository): a hand-written Z85 decoder and
 * encoder, zlib.crc32, and the "roaring" npm package's
 * RoaringBitmap32.deserialize(buffer, true) for each 32-bit bitmap, the
 * 64-bit framing read by hand per PROTOCOL.md; the file names are those of
 * the files in the tables.
 */
#include "postgres.h"

#include <roaring/roaring.h>
#include <zlib.h>

#include "table/common/z85.h"
#include "table/delta/deletion_vector.h"
#include "unit_test.h"
#include "utils/memutils.h"

/* ---- building deletion vectors from sets ---- */

typedef struct Buf
{
	uint8	   *d;
	size_t		n;
	size_t		cap;
} Buf;

static void
buf_put(Buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap)
	{
		size_t		cap = Max(b->cap * 2, b->n + n + 64);

		b->d = b->d ? repalloc(b->d, cap) : palloc(cap);
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->d + b->n, p, n);
	b->n += n;
}

static void
put_le32(Buf *b, uint32 v)
{
	uint8		x[4] = {v, v >> 8, v >> 16, v >> 24};

	buf_put(b, x, 4);
}

static void
put_be32(Buf *b, uint32 v)
{
	uint8		x[4] = {v >> 24, v >> 16, v >> 8, v};

	buf_put(b, x, 4);
}

static void
put_le64(Buf *b, uint64 v)
{
	put_le32(b, (uint32) v);
	put_le32(b, (uint32) (v >> 32));
}

/* One 32-bit bitmap of a deletion vector to build: values ascending. */
typedef struct Bucket
{
	uint32		key;
	const uint32 *v;
	size_t		n;
	bool		runs;			/* let libroaring use run containers */
} Bucket;

static Bucket
bucket(uint32 key, const uint32 *v, size_t n, bool runs)
{
	Bucket		bk;

	bk.key = key;
	bk.v = v;
	bk.n = n;
	bk.runs = runs;
	return bk;
}

/* The bucket's values in the portable format, as libroaring writes it. */
static void
put_bitmap(Buf *b, const Bucket *bk)
{
	roaring_bitmap_t *r = roaring_bitmap_of_ptr(bk->n, bk->v);
	size_t		sz;
	char	   *tmp;

	if (bk->runs)
		roaring_bitmap_run_optimize(r);
	sz = roaring_bitmap_portable_size_in_bytes(r);
	tmp = palloc(sz);
	roaring_bitmap_portable_serialize(r, tmp);
	roaring_bitmap_free(r);
	buf_put(b, tmp, sz);
	pfree(tmp);
}

enum
{
	L_PORTABLE,					/* PROTOCOL.md's format */
	L_NATIVE_LE,				/* Delta's native, little-endian */
	L_NATIVE_BE					/* native, big-endian: inline Example 3 */
};

#define MAGIC_PORTABLE 1681511377
#define MAGIC_NATIVE 1681511376

/* Data (magic first) of the buckets; native keys are their indexes. */
static Buf
build_data(int layout, const Bucket *bk, int nb)
{
	Buf			b = {0};
	int			i;

	if (layout == L_PORTABLE)
	{
		put_le32(&b, MAGIC_PORTABLE);
		put_le64(&b, nb);
	}
	else if (layout == L_NATIVE_LE)
	{
		put_le32(&b, MAGIC_NATIVE);
		put_le32(&b, nb);
	}
	else
	{
		put_be32(&b, MAGIC_NATIVE);
		put_be32(&b, nb);
	}
	for (i = 0; i < nb; i++)
	{
		if (layout == L_PORTABLE)
		{
			put_le32(&b, bk[i].key);
			put_bitmap(&b, &bk[i]);
		}
		else
		{
			Buf			one = {0};

			put_bitmap(&one, &bk[i]);
			if (layout == L_NATIVE_LE)
				put_le32(&b, one.n);
			else
				put_be32(&b, one.n);
			buf_put(&b, one.d, one.n);
		}
	}
	return b;
}

/* A stored span of data: big-endian size, data, big-endian CRC-32. */
static uint8 *
frame(const uint8 *data, size_t n, size_t *span_len)
{
	Buf			b = {0};

	put_be32(&b, n);
	buf_put(&b, data, n);
	put_be32(&b, (uint32) crc32(0, data, n));
	*span_len = b.n;
	return ut_exact_copy(b.d, b.n);
}

/* Z85 of n bytes, zero-padded to a multiple of 4 as Delta writes it. */
static char *
z85_encode(const uint8 *d, size_t n)
{
	static const char alphabet[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	".-:+=^!/*?&<>()[]{}@%$#";
	size_t		groups = (n + 3) / 4;
	char	   *s = palloc(groups * 5 + 1);
	size_t		g;

	for (g = 0; g < groups; g++)
	{
		uint32		v = 0;
		int			k;

		for (k = 0; k < 4; k++)
			v = (v << 8) | (g * 4 + k < n ? d[g * 4 + k] : 0);
		for (k = 4; k >= 0; k--)
		{
			s[g * 5 + k] = alphabet[v % 85];
			v /= 85;
		}
	}
	s[groups * 5] = '\0';
	return s;
}

static PqDeltaDv
dv_of(char type, const char *s, int64 offset, int64 size, int64 card)
{
	PqDeltaDv	dv;

	dv.storage_type = type;
	dv.path_or_inline = s;
	dv.offset = offset;
	dv.size_in_bytes = size;
	dv.cardinality = card;
	return dv;
}

/* Decode data both stored and inline; both must give expect[n]. */
static bool
decodes_to(const uint8 *data, size_t n, const uint64 *expect, uint64 count)
{
	PqDeltaDv	dv;
	PqDeletedRows rows;
	const char *why = NULL;
	size_t		span_len;
	uint8	   *span = frame(data, n, &span_len);
	char	   *text = z85_encode(data, n);
	int			pass;

	for (pass = 0; pass < 2; pass++)
	{
		if (pass == 0)
		{
			dv = dv_of('u', "ignored", 1, n, count);
			if (!pq_delta_dv_decode(&dv, span, span_len, &rows, &why))
				return false;
		}
		else
		{
			dv = dv_of('i', text, -1, n, count);
			if (!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why))
				return false;
		}
		if (rows.count != count || (count == 0) != (rows.pos == NULL))
			return false;
		if (count > 0 && memcmp(rows.pos, expect, count * sizeof(uint64)) != 0)
			return false;
	}
	return true;
}

/*
 * Refused, stored and inline alike, with out left empty, and for the
 * reason that has expect in it (unless NULL): the decoder checks most
 * things twice, and that the first check holds is what this shows.
 */
static bool
refused_for(const uint8 *data, size_t n, int64 card, const char *expect)
{
	PqDeltaDv	dv;
	PqDeletedRows rows;
	const char *why = NULL;
	size_t		span_len;
	uint8	   *span = frame(data, n, &span_len);
	char	   *text = z85_encode(data, n);

	dv = dv_of('p', "s3://b/t/dv.bin", 1, n, card);
	rows.count = 99;
	if (pq_delta_dv_decode(&dv, span, span_len, &rows, &why) ||
		why == NULL || rows.count != 0 || rows.pos != NULL)
		return false;
	if (expect != NULL && strstr(why, expect) == NULL)
	{
		fprintf(stderr, "  refused for \"%s\", not \"%s\"\n", why, expect);
		return false;
	}
	why = NULL;
	dv = dv_of('i', text, -1, n, card);
	rows.count = 99;
	if (pq_delta_dv_decode(&dv, NULL, 0, &rows, &why) ||
		why == NULL || rows.count != 0 || rows.pos != NULL)
		return false;
	if (expect != NULL && strstr(why, expect) == NULL)
		return false;
	return true;
}

#define refused(data, n, card) refused_for(data, n, card, NULL)

/* ---- Z85 ---- */

static void
test_z85(void)
{
	uint8		out[16];
	const char *why = NULL;
	static const uint8 hello[8] = {0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B};

	/* RFC 32's test vector */
	CHECK(pq_z85_decode("HelloWorld", 10, out, &why));
	CHECK(memcmp(out, hello, 8) == 0);
	/* the smallest and largest groups */
	CHECK(pq_z85_decode("00000%nSc0", 10, out, &why));
	CHECK(out[0] == 0 && out[3] == 0 && out[4] == 0xFF && out[7] == 0xFF);
	CHECK(pq_z85_decode("", 0, out, &why));
	/* this file's encoder agrees with RFC 32 */
	CHECK(strcmp(z85_encode(hello, 8), "HelloWorld") == 0);

	CHECK(!pq_z85_decode("HelloWorl", 9, out, &why));
	CHECK(strstr(why, "multiple of 5") != NULL);
	CHECK(!pq_z85_decode("Hello\"orld", 10, out, &why));
	CHECK(strstr(why, "character") != NULL && strstr(why, "orld") == NULL);
	CHECK(!pq_z85_decode("Hello orld", 10, out, &why));
	CHECK(!pq_z85_decode("Hello~orld", 10, out, &why));
	CHECK(!pq_z85_decode("Hello,orld", 10, out, &why));
	CHECK(!pq_z85_decode("Hello\x80orld", 10, out, &why));
	CHECK(!pq_z85_decode("Hell\0World", 10, out, &why));
	/* 85^5 - 1 and 2^32 do not fit four bytes */
	CHECK(!pq_z85_decode("#####", 5, out, &why));
	CHECK(strstr(why, "range") != NULL);
	CHECK(!pq_z85_decode("%nSc1", 5, out, &why));
}

/* ---- file names ---- */

/* pathOrInlineDv of the shared tables' logs and the files they name */
static const char *const dv_names[][2] = {
	{"h{&8fAg]=QYJvl-}c!yH", "deletion_vector_37d10da3-70a1-4730-bc58-3b44f9617505.bin"},
	{"j=hZPftg7qJYIw^L+Oz9", "deletion_vector_3d8a467a-2fbd-4d35-8e3a-775894a30576.bin"},
	{"^jP?.<zvDfIGb{C.FPij", "deletion_vector_d12e7d16-e46d-48c9-8a71-b222c26dfc3b.bin"},
	{"0X9F0q2<2yJ-f)Gm2!e0", "deletion_vector_0229ec3d-5100-44e1-8e53-702d448da8da.bin"},
	{"]m5]-UtmB0Rl<C?0(qO5", "deletion_vector_f37f3d8e-af4f-40c0-a5b4-5b3c02c1bdd8.bin"},
	{"SZYoUv7OW&PVt[Vm4y.s", "deletion_vector_aa46415b-60bb-4096-a0c7-de47449cb72e.bin"},
	{"sl^HN8g+F2G%ix@bXmgx", "deletion_vector_57eabe30-1981-4c70-85b0-343c24650691.bin"},
	{"TG?RwHuR9iGfiz)NQ>$j", "deletion_vector_acb1fa71-86e9-445d-833c-5cda9a64f221.bin"},
	{"Zcq?bs*HKQWCB[Sjf[.o", "deletion_vector_be3f06b1-59b3-4537-b5de-554c3bb2fad9.bin"},
	{"NZQXpd#3xxK!oBujr/=:", "deletion_vector_9ab6d39e-2b86-4282-919f-c0813c228da9.bin"},
	{"+V9Oq([R6mTaoM.}Isa)", "deletion_vector_cc54e26b-ec32-4705-ab80-eccffa88e1e6.bin"},
	{"]g#Gi8g29gLy&KMkGJr?", "deletion_vector_f34fad76-197a-4fd7-9382-f7773fc8eff9.bin"},
	{"7NnC4LX-RqU.S:B4VD9n", "deletion_vector_179561f5-946c-40d8-b088-0d890e8c854c.bin"},
	{"5DxE90SCJoMhWOS&LEbJ", "deletion_vector_10ffbe3a-01fe-457d-95fe-a4a7e1c22c07.bin"},
	{"&9sA9{u>E#S[qd3XLIaZ", "deletion_vector_e05cca56-f6ee-487b-aad8-6cbdb94fdfa9.bin"},
	{"bmfc5TmwY>TJV$^4Zs$+", "deletion_vector_23098751-abf2-45bb-accc-96330eb0e349.bin"},
	{"GOBG7L]@&bKr%xe4PF6?", "deletion_vector_8486718a-9520-4eb1-9025-f0120e548361.bin"},
	{"m?5^MJ=4G^SC%md8dbcb", "deletion_vector_470d5e7d-8e6e-4b50-a971-2621195f320b.bin"},
	{"0Mb{.bIUQYOtd%By%1f@", "deletion_vector_01c31d5c-23dc-424f-9ca3-35af6cca28f1.bin"},
	{"oAq1>cIQ1AV0k$:hf0RA", "deletion_vector_4c00a855-26f8-4515-b15b-dbac35717161.bin"},
	{"kqleN6eh%pR:{MHoS{Q]", "deletion_vector_3f30576a-1330-4838-a747-f9974caf3dbf.bin"},
	{"^wV}@i>E%:Tv:EZ=7q>&", "deletion_vector_d1a8fb85-3abb-4956-ac4a-1c7fcd9ec4c1.bin"},
	{"*Cr(.vsy[nS2z}u{${-v", "deletion_vector_db3372bc-617e-4c95-a81a-b1a9f8df8417.bin"},
	{"U5OWRz5k%CFT.Td}yCPW", "deletion_vector_ae7177f2-6d17-4ea8-819b-8d62fa2c5469.bin"},
	{"vBn[lx{q8@P<9BNH/isA", "deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin"},
	/* PROTOCOL.md, JSON Example 1: a random prefix "ab" */
	{"ab^-aqEH.-t@S}K{vb[*k^", "ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin"},
};

static void
test_file_names(void)
{
	PqDeltaDv	dv;
	const char *why = NULL;
	char	   *path;
	int			i;

	for (i = 0; i < (int) lengthof(dv_names); i++)
	{
		dv = dv_of('u', dv_names[i][0], 1, 34, 1);
		path = pq_delta_dv_file(&dv, &why);
		CHECK(path != NULL);
		CHECK(strcmp(path, dv_names[i][1]) == 0);
	}
	/* PROTOCOL.md, JSON Example 2: an absolute path, as given */
	dv = dv_of('p', "s3://mytable/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin",
			   4, 40, 6);
	path = pq_delta_dv_file(&dv, &why);
	CHECK(path != NULL && strcmp(path, dv.path_or_inline) == 0);
	CHECK(path != dv.path_or_inline);

	/* refusals */
	dv = dv_of('u', "h{&8fAg]=QYJvl-}c!y", 1, 34, 1);	/* 19 characters */
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	CHECK(strstr(why, "shorter") != NULL);
	dv = dv_of('u', "", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	dv = dv_of('u', "a/h{&8fAg]=QYJvl-}c!yH", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	CHECK(strstr(why, "prefix") != NULL && strstr(why, "h{&8") == NULL);
	dv = dv_of('u', "..h{&8fAg]=QYJvl-}c!yH", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	dv = dv_of('u', "\\h{&8fAg]=QYJvl-}c!yH", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	dv = dv_of('u', "h{&8fAg]=QYJvl-}c!y\"", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	CHECK(strstr(why, "Z85") != NULL);
	dv = dv_of('u', "#####AAAAAAAAAAAAAAA", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	dv = dv_of('i', "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", -1, 40, 6);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	CHECK(strstr(why, "inline") != NULL);
	dv = dv_of('p', "", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	dv = dv_of('x', "h{&8fAg]=QYJvl-}c!yH", 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
	dv = dv_of('u', NULL, 1, 34, 1);
	CHECK(pq_delta_dv_file(&dv, &why) == NULL);
}

/* ---- spans ---- */

static void
test_span(void)
{
	PqDeltaDv	dv;
	const char *why = NULL;
	int64		off = -7,
				len = -7;

	dv = dv_of('u', "h{&8fAg]=QYJvl-}c!yH", 1, 34, 1);
	CHECK(pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK_EQ_INT(off, 1);
	CHECK_EQ_INT(len, 42);
	dv = dv_of('p', "s3://t/dv.bin", 4, 40, 6);
	CHECK(pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK_EQ_INT(off, 4);
	CHECK_EQ_INT(len, 48);
	/* absent: the first place after the version byte */
	dv = dv_of('u', "h{&8fAg]=QYJvl-}c!yH", -1, 34, 1);
	CHECK(pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK_EQ_INT(off, 1);
	/* the limits themselves */
	dv = dv_of('u', "x", PG_INT32_MAX, PQ_DV_MAX_BYTES, PQ_DV_MAX_POSITIONS);
	CHECK(pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK_EQ_INT(len, PQ_DV_MAX_BYTES + 8);
	/* what one palloc holds */
	CHECK(PQ_DV_MAX_BYTES + 8 <= (int64) MaxAllocSize);
	CHECK(PQ_DV_MAX_POSITIONS * (int64) sizeof(uint64) <= (int64) MaxAllocSize);

	dv = dv_of('i', "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", -1, 40, 6);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK(strstr(why, "inline") != NULL);
	dv = dv_of('u', "x", 0, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK(strstr(why, "offset") != NULL);
	dv = dv_of('u', "x", -2, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', "x", (int64) PG_INT32_MAX + 1, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', "x", PG_INT64_MAX, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', "x", 1, 7, 0);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK(strstr(why, "sizeInBytes") != NULL);
	dv = dv_of('u', "x", 1, -1, 0);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', "x", 1, PQ_DV_MAX_BYTES + 1, 0);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', "x", 1, PG_INT64_MAX, 0);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', "x", 1, 34, -1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	CHECK(strstr(why, "cardinality") != NULL);
	dv = dv_of('u', "x", 1, 34, PQ_DV_MAX_POSITIONS + 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('x', "x", 1, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('\0', "x", 1, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));
	dv = dv_of('u', NULL, 1, 34, 1);
	CHECK(!pq_delta_dv_stored_span(&dv, &off, &len, &why));

	CHECK(pq_delta_dv_file_version_ok(1, &why));
	CHECK(!pq_delta_dv_file_version_ok(0, &why));
	CHECK(!pq_delta_dv_file_version_ok(2, &why));
	CHECK(strstr(why, "version") != NULL);
}

/* ---- real deletion vectors ---- */

typedef struct RealDv
{
	const char *path;			/* pathOrInlineDv */
	int64		offset;
	int64		size;
	int64		card;
	size_t		span_len;
	uint8		span[48];
	uint64		pos[3];
} RealDv;

/* Spans of the shared tables' files, at each descriptor's offset */
static const RealDv real_dvs[] = {
	/* log-replay-dv-key-cases/delta, deletion_vector_37d10da3-...bin */
	{"h{&8fAg]=QYJvl-}c!yH", 1, 34, 1, 42, {
			0x00, 0x00, 0x00, 0x22, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0xf7, 0xa6, 0xb4, 0xb5,
	}, {0}},
	/* log-replay-dv-key-cases/delta, deletion_vector_3d8a467a-...bin */
	{"j=hZPftg7qJYIw^L+Oz9", 1, 36, 2, 44, {
			0x00, 0x00, 0x00, 0x24, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x07, 0x00, 0xb4, 0xe4, 0x35, 0xc8,
	}, {0, 7}},
	/* log-replay-dv-key-cases/delta, deletion_vector_d12e7d16-...bin */
	{"^jP?.<zvDfIGb{C.FPij", 1, 38, 3, 46, {
			0x00, 0x00, 0x00, 0x26, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x07, 0x00, 0x0e, 0x00, 0xfd, 0x54, 0xc0, 0x00,
	}, {0, 7, 14}},
	/* dv-partitioned-with-checkpoint/delta, deletion_vector_be3f06b1-...bin */
	{"Zcq?bs*HKQWCB[Sjf[.o", 1, 36, 2, 44, {
			0x00, 0x00, 0x00, 0x24, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x01, 0x00, 0xe2, 0xbe, 0x92, 0x4e,
	}, {0, 1}},
	/* dv-partitioned-with-checkpoint/delta, deletion_vector_0229ec3d-...bin */
	{"0X9F0q2<2yJ-f)Gm2!e0", 1, 34, 1, 42, {
			0x00, 0x00, 0x00, 0x22, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0xf7, 0xa6, 0xb4, 0xb5,
	}, {0}},
	/* dv-with-columnmapping/delta, deletion_vector_3f30576a-...bin */
	{"kqleN6eh%pR:{MHoS{Q]", 1, 36, 2, 44, {
			0x00, 0x00, 0x00, 0x24, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x01, 0x00, 0xe2, 0xbe, 0x92, 0x4e,
	}, {0, 1}},
	/* kernel-data/with-short-dv, deletion_vector_ae7177f2-...bin */
	{"U5OWRz5k%CFT.Td}yCPW", 1, 38, 3, 46, {
			0x00, 0x00, 0x00, 0x26, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x74, 0x8a, 0xd0, 0xd0,
	}, {0, 1, 2}},
	/* kernel-data/table-with-dv-small, deletion_vector_61d16c75-...bin */
	{"vBn[lx{q8@P<9BNH/isA", 1, 36, 2, 44, {
			0x00, 0x00, 0x00, 0x24, 0xd1, 0xd3, 0x39, 0x64, 0x01, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x30, 0x00, 0x00,
			0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x10, 0x00, 0x00, 0x00,
			0x00, 0x00, 0x09, 0x00, 0x2a, 0x67, 0x18, 0x46,
	}, {0, 9}},
};

/*
 * A deletion vector made in Node.js with the "roaring" package (portable
 * serialization, runs optimized): buckets 0: [0, 100000), 1: {5, 7,
 * 196609}, 2: empty, 0x7fffffff: {0, 0xffffffff}; 119 bytes of data,
 * 100005 positions.  First as its span with zlib.crc32, then as Z85.
 */
static const uint8 many_span[127] = {
	0x00, 0x00, 0x00, 0x77, 0xd1, 0xd3, 0x39, 0x64, 0x04, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3b, 0x30, 0x01, 0x00,
	0x03, 0x00, 0x00, 0xff, 0xff, 0x01, 0x00, 0x9f, 0x86, 0x01, 0x00, 0x00,
	0x00, 0xff, 0xff, 0x01, 0x00, 0x00, 0x00, 0x9f, 0x86, 0x01, 0x00, 0x00,
	0x00, 0x3a, 0x30, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x03, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x1c, 0x00, 0x00,
	0x00, 0x05, 0x00, 0x07, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x3a,
	0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x7f, 0x3a,
	0x30, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
	0xff, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x00, 0x00,
	0x00, 0xff, 0xff, 0x35, 0x93, 0x5e, 0xf7,
};
static const char many_inline[] =
"^Bg9^1onA40000000000j1{Wn0@@u3@@Aa(H5?nO0rr610001>H5?nO06h!l00ic20000"
"100ri302LXo02$$s00Juc009630000WfAq7M00030%nNNffAq7O0000000030@@r3o0000"
"q000000rr60";
static const uint64 many_tail[7] = {
	99998, 99999, UINT64CONST(4294967301), UINT64CONST(4294967303),
	UINT64CONST(4295163905), UINT64CONST(9223372032559808512),
	UINT64CONST(9223372036854775807)
};

static void
test_real(void)
{
	PqDeltaDv	dv;
	PqDeletedRows rows;
	const char *why = NULL;
	int64		off,
				len;
	int			i;
	int			k;

	for (i = 0; i < (int) lengthof(real_dvs); i++)
	{
		const RealDv *r = &real_dvs[i];

		for (k = 0; k < 2; k++)
		{
			dv = dv_of(k == 0 ? 'u' : 'p', r->path, r->offset, r->size, r->card);
			CHECK(pq_delta_dv_stored_span(&dv, &off, &len, &why));
			CHECK_EQ_INT(off, r->offset);
			CHECK_EQ_INT(len, r->span_len);
			CHECK(pq_delta_dv_decode(&dv, ut_exact_copy(r->span, r->span_len),
									 r->span_len, &rows, &why));
			CHECK_EQ_INT(rows.count, r->card);
			CHECK(memcmp(rows.pos, r->pos, r->card * sizeof(uint64)) == 0);
		}
	}

	/* PROTOCOL.md, JSON Example 3: "The row indexes ...: 3, 4, 7, 11, 18, 29" */
	{
		static const uint64 expect[6] = {3, 4, 7, 11, 18, 29};

		dv = dv_of('i', "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", -1, 40, 6);
		CHECK(pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
		CHECK_EQ_INT(rows.count, 6);
		CHECK(memcmp(rows.pos, expect, sizeof(expect)) == 0);
	}

	/* many buckets, stored and inline */
	for (k = 0; k < 2; k++)
	{
		if (k == 0)
		{
			dv = dv_of('u', "vBn[lx{q8@P<9BNH/isA", 1, 119, 100005);
			CHECK(pq_delta_dv_decode(&dv, ut_exact_copy(many_span, sizeof(many_span)),
									 sizeof(many_span), &rows, &why));
		}
		else
		{
			dv = dv_of('i', many_inline, -1, 119, 100005);
			CHECK(pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
		}
		CHECK_EQ_INT(rows.count, 100005);
		for (i = 0; i < 100000; i++)
			CHECK(rows.pos[i] == (uint64) i);
		CHECK(memcmp(rows.pos + 99998, many_tail, sizeof(many_tail)) == 0);
	}
	dv = dv_of('i', many_inline, -1, 119, 100004);
	CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	CHECK(strstr(why, "cardinality") != NULL);
}

/* ---- deletion vectors libroaring serialized ---- */

/* Positions of buckets, in order */
static uint64 *
positions_of(const Bucket *bk, int nb, uint64 *count)
{
	uint64		n = 0;
	uint64	   *pos;
	int			i;

	for (i = 0; i < nb; i++)
		n += bk[i].n;
	pos = palloc((n + 1) * sizeof(uint64));
	n = 0;
	for (i = 0; i < nb; i++)
	{
		size_t		j;

		for (j = 0; j < bk[i].n; j++)
			pos[n++] = ((uint64) bk[i].key << 32) | bk[i].v[j];
	}
	*count = n;
	return pos;
}

static void
test_built(void)
{
	uint32	   *evens = palloc(10000 * sizeof(uint32));
	uint32	   *range = palloc(16 * sizeof(uint32));
	static const uint32 ends[2] = {1, 0xFFFFFFFF};
	Bucket		bk[4];
	Buf			data;
	uint64	   *pos;
	uint64		count;
	int			layout;
	int			i;

	/* a bitset container, runs across a container boundary, the ends */
	for (i = 0; i < 10000; i++)
		evens[i] = 2 * i;
	for (i = 0; i < 16; i++)
		range[i] = 65530 + i;
	bk[0] = bucket(0, evens, 10000, true);
	bk[1] = bucket(3, range, 16, true);
	bk[2] = bucket(0x7FFFFFFF, ends, 2, false);
	data = build_data(L_PORTABLE, bk, 3);
	pos = positions_of(bk, 3, &count);
	CHECK_EQ_INT(count, 10018);
	CHECK(decodes_to(data.d, data.n, pos, count));
	/* arrays rather than runs */
	bk[1].runs = false;
	data = build_data(L_PORTABLE, bk, 3);
	CHECK(decodes_to(data.d, data.n, pos, count));

	/* native layouts: keys are the indexes, an empty bitmap between */
	bk[0].key = 0;
	bk[1] = bucket(1, NULL, 0, false);
	bk[2] = bucket(2, range, 16, true);
	pos = positions_of(bk, 3, &count);
	for (layout = L_PORTABLE; layout <= L_NATIVE_BE; layout++)
	{
		data = build_data(layout, bk, 3);
		CHECK(decodes_to(data.d, data.n, pos, count));
	}

	/* no bitmaps at all, and only an empty one */
	for (layout = L_PORTABLE; layout <= L_NATIVE_BE; layout++)
	{
		data = build_data(layout, bk, 0);
		CHECK(decodes_to(data.d, data.n, NULL, 0));
		data = build_data(layout, &bk[1], 1);
		CHECK(decodes_to(data.d, data.n, NULL, 0));
	}
}

/* ---- refusals ---- */

/* data: portable framing of one bucket (key 0) holding raw bitmap bytes */
static Buf
portable_raw(const uint8 *bitmap, size_t n)
{
	Buf			b = {0};

	put_le32(&b, MAGIC_PORTABLE);
	put_le64(&b, 1);
	put_le32(&b, 0);
	buf_put(&b, bitmap, n);
	return b;
}

static void
test_refuse_stored(void)
{
	const RealDv *r = &real_dvs[1]; /* {0, 7} */
	PqDeltaDv	dv = dv_of('u', r->path, 1, r->size, r->card);
	PqDeletedRows rows;
	const char *why = NULL;
	uint8	   *span;
	size_t		n;

	/* a CRC or data byte changed */
	span = ut_exact_copy(r->span, r->span_len);
	span[r->span_len - 1] ^= 1;
	CHECK(!pq_delta_dv_decode(&dv, span, r->span_len, &rows, &why));
	CHECK(strstr(why, "checksum") != NULL);
	span = ut_exact_copy(r->span, r->span_len);
	span[r->span_len - 6] ^= 0x10;
	CHECK(!pq_delta_dv_decode(&dv, span, r->span_len, &rows, &why));
	CHECK(strstr(why, "checksum") != NULL);
	/* the size word differs from sizeInBytes */
	span = ut_exact_copy(r->span, r->span_len);
	span[3] = 35;
	CHECK(!pq_delta_dv_decode(&dv, span, r->span_len, &rows, &why));
	CHECK(strstr(why, "size") != NULL);
	span[3] = 36;
	dv.size_in_bytes = 35;
	CHECK(!pq_delta_dv_decode(&dv, span, r->span_len - 1, &rows, &why));
	dv.size_in_bytes = 36;
	/* bytes read other than the span: every shorter length, one more */
	for (n = 0; n < r->span_len; n++)
	{
		CHECK(!pq_delta_dv_decode(&dv, ut_exact_copy(r->span, n), n, &rows, &why));
		CHECK(rows.count == 0 && rows.pos == NULL);
	}
	span = palloc0(r->span_len + 1);
	memcpy(span, r->span, r->span_len);
	CHECK(!pq_delta_dv_decode(&dv, span, r->span_len + 1, &rows, &why));
	CHECK(!pq_delta_dv_decode(&dv, NULL, r->span_len, &rows, &why));
	/* the cardinality */
	CHECK(pq_delta_dv_decode(&dv, r->span, r->span_len, &rows, &why));
	dv.cardinality = 1;
	CHECK(!pq_delta_dv_decode(&dv, r->span, r->span_len, &rows, &why));
	CHECK(strstr(why, "cardinality") != NULL);
	dv.cardinality = 3;
	CHECK(!pq_delta_dv_decode(&dv, r->span, r->span_len, &rows, &why));
	dv.cardinality = 0;
	CHECK(!pq_delta_dv_decode(&dv, r->span, r->span_len, &rows, &why));
	/* a descriptor out of bounds fails before the bytes are looked at */
	dv.cardinality = 2;
	dv.offset = 0;
	CHECK(!pq_delta_dv_decode(&dv, r->span, r->span_len, &rows, &why));
	CHECK(rows.count == 0 && rows.pos == NULL);
}

static void
test_refuse_data(void)
{
	static const uint32 one[2] = {3, 5};
	Bucket		bk[3] = {{0, one, 2, false}, {1, one, 2, false}, {2, one, 2, false}};
	Buf			data;
	Buf			b;
	uint8	   *d;
	size_t		n;
	uint64	   *pos;
	uint64		count;
	size_t		base;

	/* the control: accepted as built */
	data = build_data(L_PORTABLE, bk, 3);
	pos = positions_of(bk, 3, &count);
	CHECK(decodes_to(data.d, data.n, pos, count));

	/* truncated at every length, with a size and CRC that agree */
	for (n = 0; n < data.n; n++)
		CHECK(refused(data.d, n, 6));
	/* a byte more */
	d = palloc0(data.n + 4);
	memcpy(d, data.d, data.n);
	CHECK(refused_for(d, data.n + 1, 6, "after its last bitmap"));
	CHECK(refused_for(d, data.n + 4, 6, "after its last bitmap"));

	/* the magic number */
	d = ut_exact_copy(data.d, data.n);
	d[0] ^= 2;
	CHECK(refused_for(d, data.n, 6, "magic"));
	d[0] ^= 2;
	/* the native magic: the rest is then not native data */
	d[0] ^= 1;
	CHECK(refused(d, data.n, 6));
	d[0] ^= 1;
	d[3] ^= 0x80;
	CHECK(refused_for(d, data.n, 6, "magic"));

	/* a count of 2^60 or -1 bitmaps, in bounded memory */
	d = ut_exact_copy(data.d, data.n);
	d[11] = 0x10;
	base = shim_live_bytes();
	shim_peak_reset();
	CHECK(refused_for(d, data.n, 6, "more bitmaps"));
	d[11] = 0;
	d[4] = 4;					/* one more than there are */
	CHECK(refused_for(d, data.n, 6, "truncated"));
	memset(d + 4, 0xFF, 8);
	CHECK(refused_for(d, data.n, 6, "more bitmaps"));
	/* the span, the Z85 text and its bytes; nothing for the count */
	CHECK(shim_peak_above(base) < 4 * data.n + 1024);
	/* a cardinality the data cannot back is not allocated either */
	base = shim_live_bytes();
	shim_peak_reset();
	CHECK(refused_for(data.d, data.n, PQ_DV_MAX_POSITIONS, "cardinality"));
	CHECK(shim_peak_above(base) < 4 * data.n + 1024);

	/* keys: descending, equal, with the top bit set */
	bk[0].key = 1;
	bk[1].key = 0;
	data = build_data(L_PORTABLE, bk, 2);
	CHECK(refused_for(data.d, data.n, 4, "keys not in ascending order"));
	bk[0].key = 1;
	bk[1].key = 1;
	data = build_data(L_PORTABLE, bk, 2);
	CHECK(refused_for(data.d, data.n, 4, "keys not in ascending order"));
	bk[0].key = 0x80000000;
	data = build_data(L_PORTABLE, bk, 1);
	CHECK(refused_for(data.d, data.n, 2, "key out of range"));
	bk[0].key = 0x7FFFFFFF;
	data = build_data(L_PORTABLE, bk, 1);
	CHECK(!refused(data.d, data.n, 2));

	/* native: a negative count, lengths beyond or short of the bitmap */
	bk[0].key = 0;
	data = build_data(L_NATIVE_LE, bk, 1);
	CHECK(!refused(data.d, data.n, 2));
	d = ut_exact_copy(data.d, data.n);
	d[7] = 0x80;
	CHECK(refused_for(d, data.n, 2, "negative"));
	d = ut_exact_copy(data.d, data.n);
	d[8]++;
	CHECK(refused_for(d, data.n, 2, "beyond"));
	d[8] -= 2;
	CHECK(refused_for(d, data.n, 2, "truncated"));
	data = build_data(L_NATIVE_BE, bk, 1);
	CHECK(!refused(data.d, data.n, 2));
	d = ut_exact_copy(data.d, data.n);
	d[11]++;
	CHECK(refused_for(d, data.n, 2, "beyond"));
	/* a native length that covers padding after the bitmap */
	memset(&b, 0, sizeof(b));
	put_le32(&b, MAGIC_NATIVE);
	put_le32(&b, 1);
	put_le32(&b, data.n - 12 + 2);
	buf_put(&b, data.d + 12, data.n - 12);
	put_le32(&b, 0);
	CHECK(refused_for(b.d, b.n - 2, 2, "differs from its bitmap"));
}

/* Malformed 32-bit bitmaps, written out by hand (RoaringFormatSpec). */
static void
test_refuse_bitmaps(void)
{
	/* the controls: array {3, 5}; run [65534, 65535] */
	static const uint8 array_ok[] = {0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0,
	16, 0, 0, 0, 3, 0, 5, 0};
	static const uint8 run_ok[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0xfe, 0xff,
	1, 0};

	/* unknown cookie */
	static const uint8 cookie[] = {0x39, 0x30, 0, 0, 0, 0, 0, 0};

	/* 65537 containers; -1 containers (libroaring 0.2.66 would take it) */
	static const uint8 many[] = {0x3a, 0x30, 0, 0, 1, 0, 1, 0};
	static const uint8 minus[] = {0x3a, 0x30, 0, 0, 0xff, 0xff, 0xff, 0xff};

	/* containers 1 then 0 */
	static const uint8 keys[] = {0x3a, 0x30, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 3, 0};

	/* array 5, 3 and 5, 5 */
	static const uint8 unsorted[] = {0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0,
	16, 0, 0, 0, 5, 0, 3, 0};
	static const uint8 twice[] = {0x3a, 0x30, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0,
	16, 0, 0, 0, 5, 0, 5, 0};

	/* run [65535, 65536]: past its container */
	static const uint8 run_out[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0xff, 0xff,
	1, 0};

	/* runs [0, 10] and [5, 7] overlap; [0, 1] and [1, 2] share 1 */
	static const uint8 overlap[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 14, 0, 2, 0,
	0, 0, 10, 0, 5, 0, 2, 0};
	static const uint8 share[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 3, 0, 2, 0,
	0, 0, 1, 0, 1, 0, 1, 0};

	/* the control: [0, 1] and [2, 3] are apart, though not merged */
	static const uint8 apart[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 3, 0, 2, 0,
	0, 0, 1, 0, 2, 0, 1, 0};

	/* runs of 2 values under a cardinality of 3 */
	static const uint8 runcard[] = {0x3b, 0x30, 0, 0, 1, 0, 0, 2, 0, 1, 0, 0xfe, 0xff,
	1, 0};
	Buf			data;
	uint8	   *bits;
	int			i;

	data = portable_raw(array_ok, sizeof(array_ok));
	CHECK(!refused(data.d, data.n, 2));
	data = portable_raw(run_ok, sizeof(run_ok));
	CHECK(!refused(data.d, data.n, 2));
#define REFUSED_RAW(a, card, expect) \
	do { \
		data = portable_raw(a, sizeof(a)); \
		CHECK(refused_for(data.d, data.n, card, expect)); \
	} while (0)
	REFUSED_RAW(cookie, 0, "cookie");
	REFUSED_RAW(many, 0, "65536");
	REFUSED_RAW(minus, 0, "65536");
	REFUSED_RAW(keys, 2, "containers not in ascending order");
	REFUSED_RAW(unsorted, 2, "array container");
	REFUSED_RAW(twice, 2, "array container");
	REFUSED_RAW(twice, 1, "array container");
	REFUSED_RAW(run_out, 2, "out of range");
	REFUSED_RAW(overlap, 15, "out of order");
	REFUSED_RAW(overlap, 11, "out of order");
	REFUSED_RAW(runcard, 2, "disagree");
	REFUSED_RAW(runcard, 3, "disagree");
	REFUSED_RAW(share, 4, "out of order");
	REFUSED_RAW(share, 3, "out of order");
	data = portable_raw(apart, sizeof(apart));
	CHECK(!refused(data.d, data.n, 4));

	/* a bitset container of 5000 values, stated right and wrong */
	bits = palloc0(8 + 4 + 4 + 8192);
	memcpy(bits, "\x3a\x30\x00\x00\x01\x00\x00\x00\x00\x00\x87\x13\x10\x00\x00\x00", 16);
	for (i = 0; i < 5000; i++)
		bits[16 + i / 8] |= 1 << (i % 8);
	data = portable_raw(bits, 16 + 8192);
	CHECK(!refused(data.d, data.n, 5000));
	/* cut inside the bitset (16 + 16 bytes of headers before it) */
	for (i = 0; i < 8192; i += 511)
		CHECK(refused_for(data.d, 32 + i, 5000, "truncated"));
	bits[16] &= ~1;
	data = portable_raw(bits, 16 + 8192);
	CHECK(refused_for(data.d, data.n, 5000, "bitset"));
	CHECK(refused_for(data.d, data.n, 4999, "bitset"));
}

static void
test_refuse_inline(void)
{
	static const char spec[] = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
	PqDeltaDv	dv;
	PqDeletedRows rows;
	const char *why = NULL;
	char	   *s;

	dv = dv_of('i', spec, -1, 40, 6);
	CHECK(pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	/* a character outside Z85, in the data or its padding */
	s = pstrdup(spec);
	s[20] = '"';
	dv.path_or_inline = s;
	CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	CHECK(strstr(why, "Z85") != NULL && strstr(why, "wi5b") == NULL);
	/* lengths: not of 5, not of sizeInBytes */
	dv.path_or_inline = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{";
	CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	dv.path_or_inline = spec;
	dv.size_in_bytes = 41;
	CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	CHECK(strstr(why, "length") != NULL);
	dv.size_in_bytes = 36;
	CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	/* 37 to 39 bytes: the same 50 characters, the data cut short */
	for (dv.size_in_bytes = 37; dv.size_in_bytes < 40; dv.size_in_bytes++)
		CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	/* an offset, which an inline deletion vector never has */
	dv.size_in_bytes = 40;
	dv.offset = 1;
	CHECK(!pq_delta_dv_decode(&dv, NULL, 0, &rows, &why));
	CHECK(rows.count == 0 && rows.pos == NULL);
}

/* ---- random sets ---- */

static int
cmp_u32(const void *a, const void *b)
{
	uint32		x = *(const uint32 *) a;
	uint32		y = *(const uint32 *) b;

	return x < y ? -1 : x > y;
}

/* n values of one of four shapes, ascending and distinct; *n updated */
static uint32 *
random_values(size_t *n)
{
	int			shape = (int) (ut_rng_next() % 4);
	uint32	   *v = palloc((70000 + 1) * sizeof(uint32));
	size_t		k = 0;
	size_t		i;

	if (shape == 0)
	{
		/* sparse anywhere */
		size_t		want = ut_rng_next() % 60;

		for (i = 0; i < want; i++)
			v[k++] = (uint32) ut_rng_next();
	}
	else if (shape == 1)
	{
		/* one range, maybe across containers */
		uint32		start = (uint32) (ut_rng_next() % 200000);
		size_t		len = ut_rng_next() % 70000;

		for (i = 0; i < len; i++)
			v[k++] = start + (uint32) i;
	}
	else if (shape == 2)
	{
		/* dense and scattered: bitsets */
		uint32		base = (uint32) (ut_rng_next() % 4) << 16;

		for (i = 0; i < 65536; i += 1 + ut_rng_next() % 3)
			v[k++] = base + (uint32) i;
	}
	/* shape 3: empty */
	qsort(v, k, sizeof(uint32), cmp_u32);
	if (k > 0)
	{
		size_t		w = 1;

		for (i = 1; i < k; i++)
			if (v[i] != v[w - 1])
				v[w++] = v[i];
		k = w;
	}
	*n = k;
	return v;
}

static void
test_random(void)
{
	int			iter;

	ut_rng_seed(20240601);
	for (iter = 0; iter < 150; iter++)
	{
		int			layout = (int) (ut_rng_next() % 3);
		int			nb = (int) (ut_rng_next() % 5);
		Bucket		bk[5];
		uint32		key = 0;
		Buf			data;
		uint64	   *pos;
		uint64		count;
		int			i;

		for (i = 0; i < nb; i++)
		{
			if (layout == L_PORTABLE)
			{
				/* ascending, sometimes near the top: at most 0x7ffffffc */
				key = (i == 0 ? 0 : key + 1) + (uint32) (ut_rng_next() % 3);
				if (ut_rng_next() % 8 == 0)
					key = Max(key, 0x7FFFFFF0 + 3 * (uint32) i);
			}
			else
				key = (uint32) i;
			bk[i].key = key;
			bk[i].v = random_values(&bk[i].n);
			bk[i].runs = ut_rng_next() % 2 == 0;
		}
		data = build_data(layout, bk, nb);
		pos = positions_of(bk, nb, &count);
		CHECK(decodes_to(data.d, data.n, pos, count));
		shim_free_all();
	}
}

/* Changed bytes (size and CRC made to agree): refused, or sound. */
static void
test_corrupt(void)
{
	static const uint32 few[5] = {1, 2, 3, 70000, 70001};
	uint32		evens[500];
	uint32		run[100];
	Bucket		bk[3];
	Buf			data;
	int			iter;
	int			i;

	for (i = 0; i < 500; i++)
		evens[i] = 1000 + i * 2;
	for (i = 0; i < 100; i++)
		run[i] = 65500 + i;
	bk[0] = bucket(0, few, 5, false);
	bk[1] = bucket(1, evens, 500, false);
	bk[2] = bucket(2, run, 100, true);
	data = build_data(L_PORTABLE, bk, 3);
	ut_rng_seed(7);
	for (iter = 0; iter < 5000; iter++)
	{
		uint8	   *d = ut_exact_copy(data.d, data.n);
		int			flips = 1 + (int) (ut_rng_next() % 3);
		size_t		span_len;
		uint8	   *span;
		PqDeltaDv	dv;
		PqDeletedRows rows;
		const char *why = NULL;
		uint64		k;

		/* mostly the headers, where the counts and lengths are */
		for (i = 0; i < flips; i++)
			d[ut_rng_next() % (ut_rng_next() % 2 ? 64 : data.n)] ^=
				(uint8) (1 << (ut_rng_next() % 8));
		span = frame(d, data.n, &span_len);
		dv = dv_of('u', "x", 1, data.n, 604 + (int64) (ut_rng_next() % 3));
		if (pq_delta_dv_decode(&dv, span, span_len, &rows, &why))
		{
			CHECK(rows.count == (uint64) dv.cardinality);
			for (k = 1; k < rows.count; k++)
				CHECK(rows.pos[k - 1] < rows.pos[k]);
			pfree(rows.pos);
		}
		else
			CHECK(why != NULL && rows.count == 0 && rows.pos == NULL);
		pfree(d);
		pfree(span);
	}
}

void
suite_deletion_vector(void)
{
	ut_run("z85", test_z85);
	ut_run("dv_file_names", test_file_names);
	ut_run("dv_span", test_span);
	ut_run("dv_real", test_real);
	ut_run("dv_built", test_built);
	ut_run("dv_refuse_stored", test_refuse_stored);
	ut_run("dv_refuse_data", test_refuse_data);
	ut_run("dv_refuse_bitmaps", test_refuse_bitmaps);
	ut_run("dv_refuse_inline", test_refuse_inline);
	ut_run("dv_random", test_random);
	ut_run("dv_corrupt", test_corrupt);
}
