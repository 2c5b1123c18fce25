/*-------------------------------------------------------------------------
 *
 * bitpack.c
 *		Bit packing and unpacking, LSB first, as used by the RLE/bit-packed
 *		hybrid and DELTA_BINARY_PACKED.
 *
 * Unpacking is hot (dictionary indices, levels, deltas), so it works on
 * groups of 32 values: such a group of width w is exactly w little-endian
 * 32-bit words.  One function per width is generated from an always-inline
 * template, which lets the compiler turn every shift and mask into a
 * constant and never read past the group.  A trailing partial group is
 * copied into a zeroed scratch group first, so reads stay within
 * (n * bit_width + 7) / 8 bytes.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "format/common/pq_common.h"
#include "format/encoding/encoding.h"

typedef void (*unpack32_fn) (const uint8 *in, uint32 *out, int ngroups);
typedef void (*unpack64_fn) (const uint8 *in, uint64 *out, int ngroups);

/* Value i of a 32-value group of width bw (1..32). */
static pg_attribute_always_inline uint32
extract32(const uint8 *in, int bw, int i)
{
	int			bit = i * bw;
	int			w = bit / 32;
	int			s = bit % 32;
	uint32		v = pq_load_le32(in + 4 * w) >> s;

	if (s + bw > 32)
		v |= pq_load_le32(in + 4 * (w + 1)) << (32 - s);
	return bw == 32 ? v : v & (((uint32) 1 << bw) - 1);
}

/* Value i of a 32-value group of width bw (1..64). */
static pg_attribute_always_inline uint64
extract64(const uint8 *in, int bw, int i)
{
	int			bit = i * bw;
	int			w = bit / 32;
	int			s = bit % 32;
	uint64		v = pq_load_le32(in + 4 * w) >> s;

	if (32 - s < bw)
		v |= (uint64) pq_load_le32(in + 4 * (w + 1)) << (32 - s);
	if (64 - s < bw)
		v |= (uint64) pq_load_le32(in + 4 * (w + 2)) << (64 - s);
	return bw == 64 ? v : v & ((UINT64CONST(1) << bw) - 1);
}

#define X8(X, b) \
	X(b); X(b + 1); X(b + 2); X(b + 3); X(b + 4); X(b + 5); X(b + 6); X(b + 7)
#define X32(X) X8(X, 0); X8(X, 8); X8(X, 16); X8(X, 24)

static pg_attribute_always_inline void
unpack32_groups(const uint8 *in, uint32 *out, int ngroups, int bw)
{
	int			g;

	for (g = 0; g < ngroups; g++)
	{
#define U32(i) out[i] = extract32(in, bw, i)
		X32(U32);
#undef U32
		in += 4 * bw;
		out += 32;
	}
}

static pg_attribute_always_inline void
unpack64_groups(const uint8 *in, uint64 *out, int ngroups, int bw)
{
	int			g;

	for (g = 0; g < ngroups; g++)
	{
#define U64(i) out[i] = extract64(in, bw, i)
		X32(U64);
#undef U64
		in += 4 * bw;
		out += 32;
	}
}

#define DEFINE_UNPACK32(w) \
static void \
unpack32_w##w(const uint8 *in, uint32 *out, int ngroups) \
{ \
	unpack32_groups(in, out, ngroups, w); \
}
#define DEFINE_UNPACK64(w) \
static void \
unpack64_w##w(const uint8 *in, uint64 *out, int ngroups) \
{ \
	unpack64_groups(in, out, ngroups, w); \
}
#define DEFINE_BOTH(w) DEFINE_UNPACK32(w) DEFINE_UNPACK64(w)

DEFINE_BOTH(1) DEFINE_BOTH(2) DEFINE_BOTH(3) DEFINE_BOTH(4)
DEFINE_BOTH(5) DEFINE_BOTH(6) DEFINE_BOTH(7) DEFINE_BOTH(8)
DEFINE_BOTH(9) DEFINE_BOTH(10) DEFINE_BOTH(11) DEFINE_BOTH(12)
DEFINE_BOTH(13) DEFINE_BOTH(14) DEFINE_BOTH(15) DEFINE_BOTH(16)
DEFINE_BOTH(17) DEFINE_BOTH(18) DEFINE_BOTH(19) DEFINE_BOTH(20)
DEFINE_BOTH(21) DEFINE_BOTH(22) DEFINE_BOTH(23) DEFINE_BOTH(24)
DEFINE_BOTH(25) DEFINE_BOTH(26) DEFINE_BOTH(27) DEFINE_BOTH(28)
DEFINE_BOTH(29) DEFINE_BOTH(30) DEFINE_BOTH(31) DEFINE_BOTH(32)
DEFINE_UNPACK64(33) DEFINE_UNPACK64(34) DEFINE_UNPACK64(35)
DEFINE_UNPACK64(36) DEFINE_UNPACK64(37) DEFINE_UNPACK64(38)
DEFINE_UNPACK64(39) DEFINE_UNPACK64(40) DEFINE_UNPACK64(41)
DEFINE_UNPACK64(42) DEFINE_UNPACK64(43) DEFINE_UNPACK64(44)
DEFINE_UNPACK64(45) DEFINE_UNPACK64(46) DEFINE_UNPACK64(47)
DEFINE_UNPACK64(48) DEFINE_UNPACK64(49) DEFINE_UNPACK64(50)
DEFINE_UNPACK64(51) DEFINE_UNPACK64(52) DEFINE_UNPACK64(53)
DEFINE_UNPACK64(54) DEFINE_UNPACK64(55) DEFINE_UNPACK64(56)
DEFINE_UNPACK64(57) DEFINE_UNPACK64(58) DEFINE_UNPACK64(59)
DEFINE_UNPACK64(60) DEFINE_UNPACK64(61) DEFINE_UNPACK64(62)
DEFINE_UNPACK64(63) DEFINE_UNPACK64(64)

static const unpack32_fn unpack32_table[33] = {
	NULL, unpack32_w1, unpack32_w2, unpack32_w3, unpack32_w4, unpack32_w5,
	unpack32_w6, unpack32_w7, unpack32_w8, unpack32_w9, unpack32_w10,
	unpack32_w11, unpack32_w12, unpack32_w13, unpack32_w14, unpack32_w15,
	unpack32_w16, unpack32_w17, unpack32_w18, unpack32_w19, unpack32_w20,
	unpack32_w21, unpack32_w22, unpack32_w23, unpack32_w24, unpack32_w25,
	unpack32_w26, unpack32_w27, unpack32_w28, unpack32_w29, unpack32_w30,
	unpack32_w31, unpack32_w32
};

static const unpack64_fn unpack64_table[65] = {
	NULL, unpack64_w1, unpack64_w2, unpack64_w3, unpack64_w4, unpack64_w5,
	unpack64_w6, unpack64_w7, unpack64_w8, unpack64_w9, unpack64_w10,
	unpack64_w11, unpack64_w12, unpack64_w13, unpack64_w14, unpack64_w15,
	unpack64_w16, unpack64_w17, unpack64_w18, unpack64_w19, unpack64_w20,
	unpack64_w21, unpack64_w22, unpack64_w23, unpack64_w24, unpack64_w25,
	unpack64_w26, unpack64_w27, unpack64_w28, unpack64_w29, unpack64_w30,
	unpack64_w31, unpack64_w32, unpack64_w33, unpack64_w34, unpack64_w35,
	unpack64_w36, unpack64_w37, unpack64_w38, unpack64_w39, unpack64_w40,
	unpack64_w41, unpack64_w42, unpack64_w43, unpack64_w44, unpack64_w45,
	unpack64_w46, unpack64_w47, unpack64_w48, unpack64_w49, unpack64_w50,
	unpack64_w51, unpack64_w52, unpack64_w53, unpack64_w54, unpack64_w55,
	unpack64_w56, unpack64_w57, unpack64_w58, unpack64_w59, unpack64_w60,
	unpack64_w61, unpack64_w62, unpack64_w63, unpack64_w64
};

void
pq_unpack32(const uint8 *in, int bit_width, uint32 *out, int n)
{
	int			ngroups = n / 32;
	int			rest = n % 32;

	Assert(bit_width >= 0 && bit_width <= 32 && n >= 0);
	if (bit_width == 0)
	{
		memset(out, 0, sizeof(uint32) * n);
		return;
	}
	if (ngroups > 0)
		unpack32_table[bit_width] (in, out, ngroups);
	if (rest > 0)
	{
		uint8		scratch[4 * 32] = {0};
		uint32		tmp[32];

		memcpy(scratch, in + (size_t) ngroups * 4 * bit_width,
			   (rest * bit_width + 7) / 8);
		unpack32_table[bit_width] (scratch, tmp, 1);
		memcpy(out + (size_t) ngroups * 32, tmp, sizeof(uint32) * rest);
	}
}

void
pq_unpack64(const uint8 *in, int bit_width, uint64 *out, int n)
{
	int			ngroups = n / 32;
	int			rest = n % 32;

	Assert(bit_width >= 0 && bit_width <= 64 && n >= 0);
	if (bit_width == 0)
	{
		memset(out, 0, sizeof(uint64) * n);
		return;
	}
	if (ngroups > 0)
		unpack64_table[bit_width] (in, out, ngroups);
	if (rest > 0)
	{
		uint8		scratch[4 * 64] = {0};
		uint64		tmp[32];

		memcpy(scratch, in + (size_t) ngroups * 4 * bit_width,
			   (rest * bit_width + 7) / 8);
		unpack64_table[bit_width] (scratch, tmp, 1);
		memcpy(out + (size_t) ngroups * 32, tmp, sizeof(uint64) * rest);
	}
}

/*
 * Packing keeps at most 31 pending bits in a 64-bit accumulator and stores
 * whole 32-bit words; 33..64-bit values go in as two halves.
 */
typedef struct BitWriter
{
	uint8	   *p;
	uint64		acc;
	int			nbits;
} BitWriter;

static inline void
bitwriter_put(BitWriter *w, uint64 v, int bw)
{
	w->acc |= v << w->nbits;
	w->nbits += bw;
	if (w->nbits >= 32)
	{
		pq_store_le32(w->p, (uint32) w->acc);
		w->p += 4;
		w->acc >>= 32;
		w->nbits -= 32;
	}
}

static inline void
bitwriter_finish(BitWriter *w)
{
	while (w->nbits > 0)
	{
		*w->p++ = (uint8) w->acc;
		w->acc >>= 8;
		w->nbits -= 8;
	}
}

void
pq_pack32(PqBuffer *out, const uint32 *in, int n, int bit_width)
{
	size_t		nbytes = ((size_t) n * bit_width + 7) / 8;
	uint32		mask;
	BitWriter	w;
	int			i;

	Assert(bit_width >= 0 && bit_width <= 32 && n >= 0);
	if (bit_width == 0)
		return;
	mask = bit_width == 32 ? PG_UINT32_MAX : ((uint32) 1 << bit_width) - 1;
	pq_buffer_reserve(out, nbytes);
	w.p = out->data + out->len;
	w.acc = 0;
	w.nbits = 0;
	for (i = 0; i < n; i++)
		bitwriter_put(&w, in[i] & mask, bit_width);
	bitwriter_finish(&w);
	out->len += nbytes;
}

void
pq_pack64(PqBuffer *out, const uint64 *in, int n, int bit_width)
{
	size_t		nbytes = ((size_t) n * bit_width + 7) / 8;
	uint64		mask;
	BitWriter	w;
	int			i;

	Assert(bit_width >= 0 && bit_width <= 64 && n >= 0);
	if (bit_width == 0)
		return;
	mask = bit_width == 64 ? PG_UINT64_MAX : (UINT64CONST(1) << bit_width) - 1;
	pq_buffer_reserve(out, nbytes);
	w.p = out->data + out->len;
	w.acc = 0;
	w.nbits = 0;
	if (bit_width <= 32)
	{
		for (i = 0; i < n; i++)
			bitwriter_put(&w, in[i] & mask, bit_width);
	}
	else
	{
		for (i = 0; i < n; i++)
		{
			uint64		v = in[i] & mask;

			bitwriter_put(&w, v & PG_UINT32_MAX, 32);
			bitwriter_put(&w, v >> 32, bit_width - 32);
		}
	}
	bitwriter_finish(&w);
	out->len += nbytes;
}
