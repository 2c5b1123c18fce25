/*-------------------------------------------------------------------------
 *
 * pq_common.h
 *		Basic types, enums and error helpers of the Parquet format layer.
 *
 * The format layer (src/format) uses only palloc/ereport from PostgreSQL,
 * never executor or catalog code, so it can be compiled into standalone
 * unit-test and fuzz binaries with a thin shim (test/unit/shim.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_COMMON_H
#define PQ_COMMON_H

#include "postgres.h"

#if PG_VERSION_NUM >= 160000
#include "varatt.h"				/* VARDATA() etc., out of postgres.h in 16 */
#endif

/*
 * PostgreSQL 18 replaced the postfix pg_attribute_noreturn() by the prefix
 * pg_noreturn (c.h); GCC and Clang accept the attribute in either place.
 */
#if PG_VERSION_NUM >= 180000 && !defined(pg_attribute_noreturn)
#define pg_attribute_noreturn() __attribute__((noreturn))
#endif

/* Physical types (parquet.thrift enum Type) */
typedef enum PqPhysicalType
{
	PQ_BOOLEAN = 0,
	PQ_INT32 = 1,
	PQ_INT64 = 2,
	PQ_INT96 = 3,
	PQ_FLOAT = 4,
	PQ_DOUBLE = 5,
	PQ_BYTE_ARRAY = 6,
	PQ_FIXED_LEN_BYTE_ARRAY = 7
} PqPhysicalType;

/* Encodings (enum Encoding) */
typedef enum PqEncoding
{
	PQ_ENC_PLAIN = 0,
	PQ_ENC_PLAIN_DICTIONARY = 2,
	PQ_ENC_RLE = 3,
	PQ_ENC_BIT_PACKED = 4,
	PQ_ENC_DELTA_BINARY_PACKED = 5,
	PQ_ENC_DELTA_LENGTH_BYTE_ARRAY = 6,
	PQ_ENC_DELTA_BYTE_ARRAY = 7,
	PQ_ENC_RLE_DICTIONARY = 8,
	PQ_ENC_BYTE_STREAM_SPLIT = 9,
	PQ_ENC_ALP = 10
} PqEncoding;

/* Compression codecs (enum CompressionCodec) */
typedef enum PqCodec
{
	PQ_CODEC_UNCOMPRESSED = 0,
	PQ_CODEC_SNAPPY = 1,
	PQ_CODEC_GZIP = 2,
	PQ_CODEC_LZO = 3,
	PQ_CODEC_BROTLI = 4,
	PQ_CODEC_LZ4 = 5,
	PQ_CODEC_ZSTD = 6,
	PQ_CODEC_LZ4_RAW = 7
} PqCodec;

/* Page types (enum PageType) */
typedef enum PqPageType
{
	PQ_PAGE_DATA = 0,
	PQ_PAGE_INDEX = 1,
	PQ_PAGE_DICTIONARY = 2,
	PQ_PAGE_DATA_V2 = 3
} PqPageType;

/* Field repetition (enum FieldRepetitionType) */
typedef enum PqRepetition
{
	PQ_REQUIRED = 0,
	PQ_OPTIONAL = 1,
	PQ_REPEATED = 2
} PqRepetition;

/* ConvertedType (legacy annotations) */
typedef enum PqConvertedType
{
	PQ_CT_UTF8 = 0,
	PQ_CT_MAP = 1,
	PQ_CT_MAP_KEY_VALUE = 2,
	PQ_CT_LIST = 3,
	PQ_CT_ENUM = 4,
	PQ_CT_DECIMAL = 5,
	PQ_CT_DATE = 6,
	PQ_CT_TIME_MILLIS = 7,
	PQ_CT_TIME_MICROS = 8,
	PQ_CT_TIMESTAMP_MILLIS = 9,
	PQ_CT_TIMESTAMP_MICROS = 10,
	PQ_CT_UINT_8 = 11,
	PQ_CT_UINT_16 = 12,
	PQ_CT_UINT_32 = 13,
	PQ_CT_UINT_64 = 14,
	PQ_CT_INT_8 = 15,
	PQ_CT_INT_16 = 16,
	PQ_CT_INT_32 = 17,
	PQ_CT_INT_64 = 18,
	PQ_CT_JSON = 19,
	PQ_CT_BSON = 20,
	PQ_CT_INTERVAL = 21
} PqConvertedType;

/* LogicalType union member ids */
typedef enum PqLogicalTypeId
{
	PQ_LT_NONE = 0,				/* no LogicalType present */
	PQ_LT_STRING = 1,
	PQ_LT_MAP = 2,
	PQ_LT_LIST = 3,
	PQ_LT_ENUM = 4,
	PQ_LT_DECIMAL = 5,
	PQ_LT_DATE = 6,
	PQ_LT_TIME = 7,
	PQ_LT_TIMESTAMP = 8,
	PQ_LT_INTEGER = 10,
	PQ_LT_UNKNOWN = 11,
	PQ_LT_JSON = 12,
	PQ_LT_BSON = 13,
	PQ_LT_UUID = 14,
	PQ_LT_FLOAT16 = 15,
	PQ_LT_VARIANT = 16,
	PQ_LT_GEOMETRY = 17,
	PQ_LT_GEOGRAPHY = 18,
	PQ_LT_FILE = 19,
	PQ_LT_UNRECOGNIZED = 1000	/* a union member this reader does not know */
} PqLogicalTypeId;

/* TimeUnit union member ids */
typedef enum PqTimeUnit
{
	PQ_UNIT_NONE = 0,
	PQ_UNIT_MILLIS = 1,
	PQ_UNIT_MICROS = 2,
	PQ_UNIT_NANOS = 3
} PqTimeUnit;

/* A byte range inside a buffer the caller keeps alive. ptr == NULL: absent. */
typedef struct PqBytes
{
	const uint8 *ptr;
	int32		len;
} PqBytes;

/* One BYTE_ARRAY value: points into a page, dictionary or decoder arena. */
typedef struct PqByteArray
{
	const uint8 *ptr;
	uint32		len;
} PqByteArray;

/*
 * Where the reader is, for error messages.  Code that knows a place (a file,
 * a row group, a column chunk, a page) pushes one onto PostgreSQL's
 * error_context_stack for as long as it works there and updates it as it
 * goes; pq_corrupt() and friends, and the fdw layer's own messages, report
 * the innermost one.  So decoders, codecs and Thrift, which know nothing of
 * files, still raise errors that name the place, and nothing outlives the
 * call that pushed it.  Fields are "unknown" when -1 / NULL.
 */
typedef struct PqErrorLocation
{
	ErrorContextCallback cb;	/* its entry in error_context_stack */
	const char *filename;
	int			row_group;
	const char *column;
	int64		page_offset;
} PqErrorLocation;

/* Push loc, naming only the file (or nothing when filename is NULL). */
extern void pq_errloc_push(PqErrorLocation *loc, const char *filename);

/* Pop loc, which must be the innermost entry of error_context_stack. */
extern void pq_errloc_pop(PqErrorLocation *loc);

/* The innermost location pushed, or NULL. */
extern const PqErrorLocation *pq_errloc_current(void);

/* The innermost location's file name, or NULL. */
extern const char *pq_errloc_filename(void);

/*
 * A new dictionary id: never 0, different from every recent one, so that
 * callers can cache what they derive from a dictionary by its id.
 */
extern uint32 pq_new_dictionary_id(void);

/*
 * ERROR with ERRCODE_DATA_CORRUPTED: the message names the file, and the
 * detail names row group, column and page where known.
 */
extern void pq_corrupt(const char *fmt,...) pg_attribute_printf(1, 2) pg_attribute_noreturn();

/*
 * ERROR with ERRCODE_PROGRAM_LIMIT_EXCEEDED: a valid file holds something
 * larger than PostgreSQL can (a page or value over 1 GB).
 */
extern void pq_too_large(const char *fmt,...) pg_attribute_printf(1, 2) pg_attribute_noreturn();

/* ERROR with ERRCODE_FEATURE_NOT_SUPPORTED, same location reporting. */
extern void pq_unsupported(const char *fmt,...) pg_attribute_printf(1, 2) pg_attribute_noreturn();

/*
 * ERROR with ERRCODE_DATA_CORRUPTED for an encrypted module that does not
 * authenticate (wrong key or AAD prefix, or tampering), with a hint saying so.
 */
extern void pq_auth_failure(const char *fmt,...) pg_attribute_printf(1, 2) pg_attribute_noreturn();

/*
 * The magnitude of a big-endian two's-complement integer of len bytes as
 * decimal digits, most significant first, into digits (at least
 * PQ_DECIMAL_DIGITS_CAP(len) bytes; "0" for zero, not NUL-terminated).
 * Returns the number of digits and sets *negative.  (DECIMAL values stored
 * in BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY, of any length.)
 */
/*
 * What a page may decode or decompress to from any number of bytes: the
 * floor of the decoded-values limit (encoding/decode_limits.c) and the size
 * up to which ZSTD and BROTLI pages are read whatever their ratio
 * (codec/codec.c).  Writers cut pages at about 1 MB.
 */
#define PQ_DECODED_MIN ((size_t) 32 * 1024 * 1024)

#define PQ_DECIMAL_DIGITS_CAP(len) ((len) * 3 + 12)
extern int	pq_twos_be_digits(const uint8 *be, size_t len, char *digits,
							  bool *negative);

/* Names for messages and inspection functions. */
extern const char *pq_physical_type_name(int type);
extern const char *pq_encoding_name(int encoding);
extern const char *pq_codec_name(int codec);
extern const char *pq_converted_type_name(int ct);
extern const char *pq_repetition_name(int rep);
extern const char *pq_page_type_name(int type);

/* Little-endian loads/stores (Parquet is little-endian on disk). */
static inline uint32
pq_load_le32(const uint8 *p)
{
	return (uint32) p[0] | ((uint32) p[1] << 8) |
		((uint32) p[2] << 16) | ((uint32) p[3] << 24);
}

/* Unsigned little-endian integer of n (1 to 4) bytes. */
static inline uint32
pq_load_le_n(const uint8 *p, int n)
{
	uint32		v = 0;
	int			i;

	for (i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static inline uint64
pq_load_le64(const uint8 *p)
{
	return (uint64) pq_load_le32(p) | ((uint64) pq_load_le32(p + 4) << 32);
}

static inline void
pq_store_le32(uint8 *p, uint32 v)
{
	p[0] = (uint8) v;
	p[1] = (uint8) (v >> 8);
	p[2] = (uint8) (v >> 16);
	p[3] = (uint8) (v >> 24);
}

static inline void
pq_store_le64(uint8 *p, uint64 v)
{
	pq_store_le32(p, (uint32) v);
	pq_store_le32(p + 4, (uint32) (v >> 32));
}

/* Growable output buffer for the writer-side code (thrift, encoders). */
typedef struct PqBuffer
{
	uint8	   *data;
	size_t		len;
	size_t		cap;
} PqBuffer;

extern void pq_buffer_init(PqBuffer *buf, size_t initial);
extern void pq_buffer_reserve(PqBuffer *buf, size_t extra);
extern void pq_buffer_append(PqBuffer *buf, const void *data, size_t len);
extern void pq_buffer_reset(PqBuffer *buf);

static inline void
pq_buffer_append_byte(PqBuffer *buf, uint8 b)
{
	if (buf->len == buf->cap)
		pq_buffer_reserve(buf, 1);
	buf->data[buf->len++] = b;
}

/* The first and last w bytes of len (w <= len <= 2w); w a constant. */
static inline void
pq_copy_ends(char *d, const char *s, size_t len, size_t w)
{
	uint64		a[2];
	uint64		b[2];

	memcpy(a, s, w);
	memcpy(b, s + len - w, w);
	memcpy(d, a, w);
	memcpy(d + len - w, b, w);
}

/*
 * memcpy() of a variable length without a call for the short strings most
 * values are: two overlapping moves of the largest power of two <= len.
 */
static inline void
pq_copy_short(void *dst, const void *src, size_t len)
{
	char	   *d = dst;
	const char *s = src;

	if (len > 16 && len <= 32)
		pq_copy_ends(d, s, len, 16);
	else if (len >= 8 && len <= 16)
		pq_copy_ends(d, s, len, 8);
	else if (len >= 4 && len < 8)
		pq_copy_ends(d, s, len, 4);
	else if (len >= 2 && len < 4)
		pq_copy_ends(d, s, len, 2);
	else if (len == 1)
		d[0] = s[0];
	else if (len > 32)
		memcpy(d, s, len);
}

/* The value of a hexadecimal digit, -1 for any other character. */
static inline int
pq_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Width in bytes of one fixed-size value in read_fixed output: BOOLEAN 1
 * (0 or 1), INT32/FLOAT 4, INT64/DOUBLE 8, INT96 12, FLBA type_length.
 */
extern int	pq_fixed_width(int ptype, int type_length);

/* Half float (IEEE binary16 bits) to float, exactly. */
extern float pq_half_to_float(uint16 h);

#endif							/* PQ_COMMON_H */
