/*-------------------------------------------------------------------------
 *
 * codec.h
 *		Page compression codecs (codec.c dispatches; one file per library
 *		family: snappy.c, gzip.c, brotli.c, zstd.c,
 *		lz4.c) and the page CRC32 (crc32.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_CODEC_H
#define PQ_CODEC_H

#include "format/common/pq_common.h"

/*
 * Decompress src into exactly dstlen bytes at dst.  A stream that fails to
 * decode, or decodes to a size other than dstlen, raises pq_corrupt().  LZO
 * and unknown codecs raise pq_unsupported() naming the codec (even for an
 * empty page).  srclen == 0 with dstlen == 0 is valid for every supported
 * codec and never calls the library.  Both sizes must fit in int32, as
 * Parquet page sizes do; larger ones raise pq_corrupt().
 *
 * LZ4 (codec 5) tries Hadoop framing first ([4-byte BE uncompressed size]
 * [4-byte BE compressed size][block], repeated) and falls back to a raw LZ4
 * block.  GZIP accepts several concatenated members.
 */
extern void pq_decompress(int codec, const uint8 *src, size_t srclen,
						  uint8 *dst, size_t dstlen);

/*
 * Compress src and append the result to out.  level < 0 means the codec's
 * default; a level outside pq_codec_level_range() raises
 * ERRCODE_INVALID_PARAMETER_VALUE, and codecs without levels ignore it.
 * UNCOMPRESSED appends src as is.  GZIP writes one gzip member.  LZ4
 * (deprecated) writes one Hadoop frame.
 */
extern void pq_compress(int codec, int level, const uint8 *src, size_t srclen,
						PqBuffer *out);

/*
 * Whether a page that claims dstlen bytes uncompressed from srclen
 * compressed bytes is plausible for the codec (checked before the output
 * buffer is allocated): within the allocation limit and the codec's
 * largest expansion ratio where it has a useful one.
 */
extern bool pq_decompressed_size_plausible(int codec, size_t compressed,
										   size_t uncompressed);

/*
 * pq_too_large() when a page's uncompressed size cannot be held in memory
 * (over MaxAllocSize: a valid file PostgreSQL cannot read) or is a ZSTD or
 * BROTLI page over PQ_DECODED_MIN more than 1032 times its compressed size
 * (valid, but refused: see codec.c); pq_corrupt() when it is implausible
 * for the codec.
 */
extern void pq_check_page_size(int codec, size_t compressed,
							   size_t uncompressed);

/* True if this build can decompress and compress codec. */
extern bool pq_codec_supported(int codec);

/* Valid level range for the codec; false if it takes no level. */
extern bool pq_codec_level_range(int codec, int *min_level, int *max_level);

/* CRC-32 (ISO-HDLC, as zlib/gzip) used by Parquet page checksums. */
extern uint32 pq_crc32(const uint8 *buf, size_t len);

/*
 * Per-library entry points, called only by codec.c after it has checked
 * that both sizes fit in int32 (Parquet page sizes are i32) and replaced a
 * default level by a concrete, in-range one (codecs without levels ignore
 * it).  dst is never NULL, even when dstlen is 0.
 */
extern void pq_snappy_decompress(const uint8 *src, size_t srclen,
								 uint8 *dst, size_t dstlen);
extern void pq_snappy_compress(int level, const uint8 *src, size_t srclen,
							   PqBuffer *out);
extern void pq_gzip_decompress(const uint8 *src, size_t srclen,
							   uint8 *dst, size_t dstlen);
extern void pq_gzip_compress(int level, const uint8 *src, size_t srclen,
							 PqBuffer *out);
extern void pq_brotli_decompress(const uint8 *src, size_t srclen,
								 uint8 *dst, size_t dstlen);
extern void pq_brotli_compress(int level, const uint8 *src, size_t srclen,
							   PqBuffer *out);
extern void pq_zstd_decompress(const uint8 *src, size_t srclen,
							   uint8 *dst, size_t dstlen);
extern void pq_zstd_compress(int level, const uint8 *src, size_t srclen,
							 PqBuffer *out);
extern void pq_lz4_raw_decompress(const uint8 *src, size_t srclen,
								  uint8 *dst, size_t dstlen);
extern void pq_lz4_raw_compress(int level, const uint8 *src, size_t srclen,
								PqBuffer *out);
extern void pq_lz4_hadoop_decompress(const uint8 *src, size_t srclen,
									 uint8 *dst, size_t dstlen);
extern void pq_lz4_hadoop_compress(int level, const uint8 *src,
								   size_t srclen, PqBuffer *out);

#endif							/* PQ_CODEC_H */
