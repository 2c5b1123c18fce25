/*-------------------------------------------------------------------------
 *
 * encoding.h
 *		Parquet value and level encodings: decoders (reader) and encoders
 *		(writer).  One file per encoding family:
 *
 *		bitpack.c		bit packing/unpacking, widths 0..64
 *		rle.c			RLE/bit-packed hybrid (levels, dictionary ids,
 *							RLE booleans) and deprecated BIT_PACKED levels
 *		plain.c			PLAIN for every physical type
 *		delta_binary.c	DELTA_BINARY_PACKED (INT32, INT64)
 *		delta_bytes.c	DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY
 *		byte_stream_split.c	BYTE_STREAM_SPLIT
 *		value_decoder.c		PqValueDecoder: one page's values, any encoding
 *		decode_limits.c		sizes a decoder may allocate by
 *
 * Decoders never read outside [buf, buf + len): a count or length that does
 * not fit the bytes that exist raises pq_corrupt().
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_ENCODING_H
#define PQ_ENCODING_H

#include "format/common/pq_common.h"

/* ---- bit packing (LSB-first, as in the RLE/bit-packed hybrid) ---- */

/*
 * Unpack n values of bit_width bits from in (which must hold at least
 * (n * bit_width + 7) / 8 bytes).  bit_width 0 yields zeros.
 */
extern void pq_unpack32(const uint8 *in, int bit_width, uint32 *out, int n);	/* 0..32 */
extern void pq_unpack64(const uint8 *in, int bit_width, uint64 *out, int n);	/* 0..64 */

/* Pack n values; appends (n * bit_width + 7) / 8 bytes. */
extern void pq_pack32(PqBuffer *out, const uint32 *in, int n, int bit_width);
extern void pq_pack64(PqBuffer *out, const uint64 *in, int n, int bit_width);

/* Number of bits needed for v (0 for 0). */
static inline int
pq_bit_width32(uint32 v)
{
	return v == 0 ? 0 : 32 - __builtin_clz(v);
}

static inline int
pq_bit_width64(uint64 v)
{
	return v == 0 ? 0 : 64 - __builtin_clzll(v);
}

/* ---- ULEB128 / zigzag varints (shared with DELTA_* encodings) ---- */

/* Read a ULEB128 value, at most 10 bytes; advances *pos; errors on overrun. */
extern uint64 pq_read_uleb128(const uint8 **pos, const uint8 *end);
extern void pq_write_uleb128(PqBuffer *out, uint64 v);

/* ---- RLE / bit-packed hybrid ---- */

typedef struct PqRleDecoder
{
	const uint8 *pos;			/* next run header */
	const uint8 *end;
	int			bit_width;		/* 0..32 */
	bool		in_rle;			/* current run is an RLE run */
	uint32		rle_value;
	uint32		run_left;		/* values left in current run */
	const uint8 *bp_pos;		/* next group of 8 in a bit-packed run */
	uint32		bp_group[8];	/* unpacked current group */
	int			bp_group_pos;	/* next value in bp_group; 8 = empty */
} PqRleDecoder;

/* buf/len: the encoded runs (without any length prefix). */
extern void pq_rle_init(PqRleDecoder *d, const uint8 *buf, size_t len,
						int bit_width);

/*
 * Decode up to n values.  Returns the number decoded, fewer than n only when
 * the input is exhausted.  Bit-packed runs may be padded past the last real
 * value: the caller decides how many values it needs.
 */
extern int	pq_rle_read_u32(PqRleDecoder *d, uint32 *out, int n);

/* Levels: each value is checked against max_level (pq_corrupt if above). */
extern int	pq_rle_read_levels(PqRleDecoder *d, int16 *out, int n,
							   int max_level);

/*
 * If the next n values all belong to one RLE run, consume them, set *value
 * and return true; otherwise consume nothing and return false.  Lets level
 * readers skip materialising long runs (all present, all null).
 */
extern bool pq_rle_take_run(PqRleDecoder *d, int n, uint32 *value);

/* Pass over up to n values without decoding them; returns how many. */
extern int	pq_rle_skip(PqRleDecoder *d, int n);

/*
 * Decode levels of a data page.  For v1 pages with RLE, buf starts with the
 * 4-byte little-endian length; for BIT_PACKED (deprecated, MSB-first, no
 * length prefix) the size is (n * bit_width + 7) / 8.  For v2 pages pass
 * prefixed = false and the exact section length.  Returns the bytes consumed
 * from buf.  Errors if fewer than n levels can be decoded or a level exceeds
 * max_level.
 */
extern size_t pq_decode_levels(int encoding, bool prefixed,
							   const uint8 *buf, size_t len,
							   int max_level, int16 *out, int n);

/* RLE encoder: buffers values, emits RLE runs for repeats of >= 8. */
typedef struct PqRleEncoder
{
	PqBuffer   *out;
	int			bit_width;
	uint32		buffered[8];
	int			n_buffered;
	uint32		repeat_value;
	int			repeat_count;
	size_t		bp_header_pos;	/* position of open bit-packed run header, or
								 * SIZE_MAX */
	int			bp_groups;		/* groups in the open bit-packed run */
} PqRleEncoder;

extern void pq_rle_encoder_init(PqRleEncoder *e, PqBuffer *out, int bit_width);
extern void pq_rle_encoder_put(PqRleEncoder *e, uint32 value);

/* ... n values at once (one call, not one per value: the writer's pages) */
extern void pq_rle_encoder_put_many(PqRleEncoder *e, const uint32 *values,
									int n);
extern void pq_rle_encoder_put_levels(PqRleEncoder *e, const int16 *levels,
									  int n);
extern void pq_rle_encoder_flush(PqRleEncoder *e);

/* ---- DELTA_BINARY_PACKED ---- */

typedef struct PqDeltaDecoder
{
	const uint8 *pos;
	const uint8 *end;
	uint64		block_size;
	uint64		miniblocks_per_block;
	uint64		values_per_miniblock;
	uint64		total_values;	/* from the header */
	uint64		values_read;	/* including the first value */
	uint64		last_value;		/* wraps: unsigned arithmetic */
	uint64		min_delta;
	const uint8 *bit_widths;	/* of the current block */
	uint64		miniblock_index;
	uint64		miniblock_left; /* values left in the current miniblock */
	uint64		buf[64];		/* unpacked deltas, refilled 32 at a time */
	int			buf_pos;
	int			buf_len;
} PqDeltaDecoder;

extern void pq_delta_init(PqDeltaDecoder *d, const uint8 *buf, size_t len);

/* Decode n values (error if fewer remain); int64 or int32 (truncated wrap). */
extern void pq_delta_read_i64(PqDeltaDecoder *d, int64 *out, int n);
extern void pq_delta_read_i32(PqDeltaDecoder *d, int32 *out, int n);

/*
 * End of the encoded data (after the last miniblock holding a value, padding
 * included): DELTA_LENGTH needs the end of the lengths block.  Values not
 * read yet are skipped without decoding; the decoder is done afterwards.
 */
extern const uint8 *pq_delta_end(PqDeltaDecoder *d);

/* Encode n values with block size 128 and 4 miniblocks. */
extern void pq_delta_encode_i64(PqBuffer *out, const int64 *in, int n);
extern void pq_delta_encode_i32(PqBuffer *out, const int32 *in, int n);

/* ---- decoded size limits (decode_limits.c) ---- */

/*
 * The most memory a page's values may take once decoded: their bytes plus
 * one PqByteArray each (what the decoder holds and the scan converts).
 * Most encodings cannot exceed the bytes present, but DELTA_BYTE_ARRAY's
 * shared prefixes and the zero-width miniblocks of the DELTA_* length
 * streams can stand for any amount.  As a page's uncompressed size is held
 * to its codec's ratio and the allocation limit (codec.c), its decoded
 * values are held to PQ_DECODED_RATIO times its encoded section, with a
 * floor of PQ_DECODED_MIN (pq_common.h) so that small pages of long repeated values
 * (20,000 values of 1.6 kB, the row-count page limit of parquet-mr and
 * arrow-rs) still decode, and never more than MaxAllocSize.
 */
#define PQ_DECODED_RATIO 64

extern uint64 pq_decoded_limit(size_t encoded);

/* pq_corrupt() naming what when decoded exceeds pq_decoded_limit(encoded) */
extern void pq_check_decoded_size(const char *what, size_t encoded,
								  uint64 decoded);

/*
 * The fewest bytes n PLAIN values of the type take (BOOLEAN: one bit each,
 * BYTE_ARRAY: the 4-byte length each): a page that claims more values
 * than its bytes can hold is corrupt before anything is sized by the
 * claim.
 */
extern uint64 pq_plain_min_bytes(int ptype, int type_length, int64 n);

/* ---- page value decoder ---- */

/*
 * Decodes the values section of one data page (or a dictionary page) in any
 * encoding.  num_values bounds the values that will be read: the number of
 * encoded (non-null) values, or the page's value count when the nulls are
 * not known yet (v1 pages).  Data holding fewer values is an error only when
 * they are read.  Byte array results point into buf or into an arena
 * palloc'd in the current memory context at init; they stay valid while
 * both live.
 */
typedef struct PqValueDecoder
{
	int			encoding;
	int			ptype;
	int			type_length;	/* FIXED_LEN_BYTE_ARRAY; 12 for INT96 */
	const uint8 *pos;
	const uint8 *end;
	int			remaining;		/* values not yet returned */
	int			bool_bit;		/* PLAIN BOOLEAN: bit offset in *pos */
	PqRleDecoder rle;			/* RLE booleans, dictionary indices */
	PqDeltaDecoder delta;		/* DELTA_BINARY_PACKED */
	/* DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY, decoded at init */
	PqByteArray *arrays;
	int			array_pos;
	/* BYTE_STREAM_SPLIT */
	const uint8 *bss_base;
	int			bss_count;		/* values in the page */
	int			bss_index;		/* next value */
} PqValueDecoder;

/*
 * Set up decoding.  For dictionary-encoded pages (PLAIN_DICTIONARY or
 * RLE_DICTIONARY on a data page) buf starts with the bit-width byte.
 * Unsupported encodings (or encodings invalid for the type) raise
 * pq_unsupported()/pq_corrupt().
 */
extern void pq_valdec_init(PqValueDecoder *d, int encoding, int ptype,
						   int type_length, const uint8 *buf, size_t len,
						   int num_values);

/* True for PLAIN_DICTIONARY/RLE_DICTIONARY data pages. */
static inline bool
pq_encoding_is_dictionary(int encoding)
{
	return encoding == PQ_ENC_PLAIN_DICTIONARY ||
		encoding == PQ_ENC_RLE_DICTIONARY;
}


/* Each reads exactly n values (n <= remaining, else pq_corrupt). */
extern void pq_valdec_read_fixed(PqValueDecoder *d, int n, void *out);
extern void pq_valdec_read_byte_array(PqValueDecoder *d, int n,
									  PqByteArray *out);

/* Dictionary indices; each checked against dict_size. */
extern void pq_valdec_read_indices(PqValueDecoder *d, int n, uint32 *out,
								   uint32 dict_size);

/*
 * Pass over n values without decoding them where the encoding allows
 * (dictionary indices, PLAIN fixed-width values); false, with nothing
 * consumed, where only decoding finds the next value.
 */
extern bool pq_valdec_skip(PqValueDecoder *d, int n);

/* ---- encoders for the writer ---- */

extern void pq_plain_encode_fixed(PqBuffer *out, int ptype, int type_length,
								  const void *values, int n);
extern void pq_plain_encode_byte_array(PqBuffer *out, const PqByteArray *values,
									   int n);
extern void pq_delta_length_encode(PqBuffer *out, const PqByteArray *values,
								   int n);
extern void pq_delta_byte_array_encode(PqBuffer *out, const PqByteArray *values,
									   int n);
extern void pq_byte_stream_split_encode(PqBuffer *out, int width,
										const uint8 *values, int n);

#endif							/* PQ_ENCODING_H */
