/*
 * test_bloom.c
 *		Split-block Bloom filters: hashing, bit layout, sizing, and the
 *		parquet-testing filter written by parquet-mr.
 */
#include "postgres.h"

#include <math.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "format/metadata/bloom.h"
#include "unit_test.h"

#define CORPUS_DIR "/work/shared/testdata/parquet-testing/data"

/* The spec's salt, repeated here so the layout test is independent. */
static const uint32 spec_salt[8] = {
	0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
	0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U
};


static int
count_bits(const uint8 *p, size_t n)
{
	int			c = 0;
	size_t		i;

	for (i = 0; i < n; i++)
		c += __builtin_popcount(p[i]);
	return c;
}

static void
test_hash_vectors(void)
{
	static const uint8 i32[] = {0x04, 0x03, 0x02, 0x01};
	static const uint8 i64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const uint8 f32[] = {0x00, 0x00, 0x80, 0x3f};
	static const uint8 f64[] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};

	/* The xxHash reference value of the empty input */
	CHECK(pq_bloom_hash_bytes(NULL, 0) == UINT64CONST(0xEF46DB3751D8E999));
	CHECK(pq_bloom_hash_bytes((const uint8 *) "", 0) == UINT64CONST(0xEF46DB3751D8E999));

	/* Fixed-width values hash their little-endian PLAIN bytes. */
	CHECK(pq_bloom_hash_int32(0x01020304) == XXH64(i32, 4, 0));
	CHECK(pq_bloom_hash_int64(-1) == XXH64(i64, 8, 0));
	CHECK(pq_bloom_hash_float(1.0f) == XXH64(f32, 4, 0));
	CHECK(pq_bloom_hash_double(1.0) == XXH64(f64, 8, 0));

	/* Byte arrays hash the bytes alone, without PLAIN's length prefix. */
	CHECK(pq_bloom_hash_bytes((const uint8 *) "hello", 5) == XXH64("hello", 5, 0));
	CHECK(pq_bloom_hash_int32(1) != pq_bloom_hash_int64(1));
}

/* Exactly one bit per little-endian word of the block the spec selects. */
static void
test_bit_layout(void)
{
	uint8		bits[4 * 32];
	int			round;

	for (round = 0; round < 200; round++)
	{
		uint64		h = ut_rng_next();
		uint32		lo = (uint32) h;
		size_t		blk = (size_t) (((h >> 32) * 4) >> 32);
		int			i;

		memset(bits, 0, sizeof(bits));
		CHECK(!pq_bloom_check(bits, sizeof(bits), h));
		pq_bloom_insert(bits, sizeof(bits), h);
		CHECK(pq_bloom_check(bits, sizeof(bits), h));
		CHECK_EQ_INT(count_bits(bits, sizeof(bits)), 8);
		CHECK_EQ_INT(count_bits(bits + blk * 32, 32), 8);
		for (i = 0; i < 8; i++)
		{
			uint32		bit = (uint32) (lo * spec_salt[i]) >> 27;
			const uint8 *word = bits + blk * 32 + i * 4;

			CHECK(word[bit / 8] & (1 << (bit % 8)));
		}
	}
}

static void
test_validate(void)
{
	pq_bloom_validate(32);
	pq_bloom_validate(1024);
	pq_bloom_validate(PQ_BLOOM_MAX_BYTES);
	CHECK_ERROR(pq_bloom_validate(0), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_bloom_validate(31), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_bloom_validate(33), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_bloom_validate(1000), ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_bloom_validate(PQ_BLOOM_MAX_BYTES + 32), ERRCODE_DATA_CORRUPTED);
}

/* A bitset too small for one block cannot exclude anything. */
static void
test_tiny_bitset(void)
{
	uint8		b[16] = {0};

	CHECK(pq_bloom_check(b, 16, 12345));
	CHECK(pq_bloom_check(NULL, 0, 12345));
	CHECK_ERROR(pq_bloom_insert(b, 16, 12345), ERRCODE_INTERNAL_ERROR);
}

static void
test_optimal_bytes(void)
{
	uint64		ndv;
	size_t		prev = 0;

	CHECK_EQ_INT(pq_bloom_optimal_bytes(10000, 0.01), 16384);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(256, 0.01), 512);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(200, 0.01), 256);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(1000000, 0.001), 2097152);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(0, 0.01), 32);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(1, 0.5), 32);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(UINT64CONST(1000000000000), 0.01),
				 PQ_BLOOM_MAX_BYTES);
	CHECK_EQ_INT(pq_bloom_optimal_bytes(PG_UINT64_MAX, 1e-300),
				 PQ_BLOOM_MAX_BYTES);

	/* Powers of two, growing with ndv */
	for (ndv = 1; ndv < UINT64CONST(100000000000); ndv = ndv * 3 + 1)
	{
		size_t		b = pq_bloom_optimal_bytes(ndv, 0.05);

		CHECK(b >= PQ_BLOOM_MIN_BYTES && b <= PQ_BLOOM_MAX_BYTES);
		CHECK((b & (b - 1)) == 0);
		CHECK(b >= prev);
		prev = b;
	}

	CHECK_ERROR(pq_bloom_optimal_bytes(10, 0.0), ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK_ERROR(pq_bloom_optimal_bytes(10, 1.0), ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK_ERROR(pq_bloom_optimal_bytes(10, -0.5), ERRCODE_INVALID_PARAMETER_VALUE);
	CHECK_ERROR(pq_bloom_optimal_bytes(10, NAN), ERRCODE_INVALID_PARAMETER_VALUE);
}

/* No false negatives, and the measured FPP near the requested 1%. */
static void
test_fpp(void)
{
	size_t		nbytes = pq_bloom_optimal_bytes(10000, 0.01);
	uint8	   *bits = palloc0(nbytes);
	int64		i;
	int			fp = 0;
	char		s[32];

	pq_bloom_validate(nbytes);
	for (i = 0; i < 10000; i++)
		pq_bloom_insert(bits, nbytes, pq_bloom_hash_int64(i * 7919));
	for (i = 0; i < 10000; i++)
		CHECK(pq_bloom_check(bits, nbytes, pq_bloom_hash_int64(i * 7919)));
	for (i = 0; i < 100000; i++)
	{
		/* Not multiples of 7919 below 79190000 */
		if (pq_bloom_check(bits, nbytes, pq_bloom_hash_int64(i * 7919 + 1)))
			fp++;
	}
	CHECK(fp < 2000);

	/* The same with strings */
	memset(bits, 0, nbytes);
	for (i = 0; i < 10000; i++)
	{
		snprintf(s, sizeof(s), "value-%lld", (long long) i);
		pq_bloom_insert(bits, nbytes, pq_bloom_hash_bytes((uint8 *) s, strlen(s)));
	}
	for (i = 0; i < 10000; i++)
	{
		snprintf(s, sizeof(s), "value-%lld", (long long) i);
		CHECK(pq_bloom_check(bits, nbytes, pq_bloom_hash_bytes((uint8 *) s, strlen(s))));
	}
	fp = 0;
	for (i = 0; i < 100000; i++)
	{
		snprintf(s, sizeof(s), "absent-%lld", (long long) i);
		if (pq_bloom_check(bits, nbytes, pq_bloom_hash_bytes((uint8 *) s, strlen(s))))
			fp++;
	}
	CHECK(fp < 2000);
}

/* Read a compact-protocol varint; false if it runs past end. */
static bool
read_varint(const uint8 **p, const uint8 *end, uint64 *out)
{
	uint64		v = 0;
	int			shift = 0;

	while (*p < end && shift < 64)
	{
		uint8		b = *(*p)++;

		v |= (uint64) (b & 0x7f) << shift;
		if ((b & 0x80) == 0)
		{
			*out = v;
			return true;
		}
		shift += 7;
	}
	return false;
}

/*
 * bloom_filter.xxhash.bin (parquet-mr): a BloomFilterHeader in Thrift
 * compact protocol, then the bitset.  Its README says the strings "hello",
 * "parquet", "bloom" and "filter" were inserted.
 */
static void
test_corpus_filter(void)
{
	static const char *const present[] = {"hello", "parquet", "bloom", "filter"};
	const char *path = CORPUS_DIR "/bloom_filter.xxhash.bin";
	struct stat st;
	FILE	   *f;
	uint8	   *data;
	const uint8 *p;
	uint64		raw;
	int64		nbytes;
	const uint8 *bitset;
	int			i;
	int			absent = 0;
	char		s[64];

	if (stat(CORPUS_DIR, &st) != 0)
	{
		printf("# CORPUS ABSENT: %s not found, bloom corpus test skipped\n",
			   CORPUS_DIR);
		return;
	}
	f = fopen(path, "rb");
	CHECK(f != NULL);
	CHECK(fstat(fileno(f), &st) == 0);
	data = palloc(st.st_size);
	CHECK(fread(data, 1, st.st_size, f) == (size_t) st.st_size);
	fclose(f);

	/* Field 1 (numBytes): delta 1, type i32 (5), zigzag varint */
	p = data;
	CHECK(st.st_size > 1 && *p++ == 0x15);
	CHECK(read_varint(&p, data + st.st_size, &raw));
	nbytes = (int64) (raw >> 1) ^ -(int64) (raw & 1);
	CHECK(nbytes > 0 && nbytes <= st.st_size - (p - data));
	pq_bloom_validate((size_t) nbytes);
	bitset = data + st.st_size - nbytes;

	for (i = 0; i < (int) lengthof(present); i++)
		CHECK(pq_bloom_check(bitset, nbytes,
							 pq_bloom_hash_bytes((const uint8 *) present[i],
												 strlen(present[i]))));

	/* Four values set at most 32 bits. */
	CHECK(count_bits(bitset, nbytes) > 0 && count_bits(bitset, nbytes) <= 32);

	for (i = 0; i < 1000; i++)
	{
		snprintf(s, sizeof(s), "absent-%d-%llx", i,
				 (unsigned long long) ut_rng_next());
		if (!pq_bloom_check(bitset, nbytes,
							pq_bloom_hash_bytes((const uint8 *) s, strlen(s))))
			absent++;
	}
	CHECK(absent > 500);
	CHECK(!pq_bloom_check(bitset, nbytes,
						  pq_bloom_hash_bytes((const uint8 *) "Hello", 5)));
}

void
suite_bloom(void)
{
	ut_run("bloom_hash_vectors", test_hash_vectors);
	ut_run("bloom_bit_layout", test_bit_layout);
	ut_run("bloom_validate", test_validate);
	ut_run("bloom_tiny_bitset", test_tiny_bitset);
	ut_run("bloom_optimal_bytes", test_optimal_bytes);
	ut_run("bloom_fpp", test_fpp);
	ut_run("bloom_corpus_filter", test_corpus_filter);
}
