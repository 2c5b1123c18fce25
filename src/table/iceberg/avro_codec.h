/*-------------------------------------------------------------------------
 *
 * avro_codec.h
 *		The block codecs of Avro container files (Avro specification,
 *		"Required Codecs" and "Optional Codecs") that Iceberg writes:
 *		null, deflate, snappy and zstandard.
 *
 * A block does not say what it decompresses to, so output grows up to a
 * cap the caller gives and a block past it is refused (a deflate bomb
 * costs no more than the cap).  Refusals give false and *why, a sentence
 * part that quotes none of the data.  Memory: palloc; zlib's state too,
 * zstd's one decompression context per process is reused.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_AVRO_CODEC_H
#define PQ_AVRO_CODEC_H

typedef enum PqAvroCodec
{
	PQ_AVRO_CODEC_NULL,
	PQ_AVRO_CODEC_DEFLATE,		/* raw deflate (RFC 1951) */
	PQ_AVRO_CODEC_SNAPPY,		/* snappy, then the big-endian CRC-32 of the
								 * uncompressed data */
	PQ_AVRO_CODEC_ZSTD			/* "zstandard": zstd frames */
} PqAvroCodec;

/*
 * The codec named by an avro.codec value of len bytes (absent: "null").
 * False with *why for bzip2, xz and unknown names.
 */
extern bool pq_avro_codec(const uint8 *name, size_t len, PqAvroCodec *codec,
						  const char **why);

/*
 * The len bytes at src decompressed: *out (palloc'd; src itself for the
 * null codec) of *outlen bytes, at most cap.
 */
extern bool pq_avro_decompress(PqAvroCodec codec, const uint8 *src,
							   size_t len, size_t cap, const uint8 **out,
							   size_t *outlen, const char **why);

#endif							/* PQ_AVRO_CODEC_H */
