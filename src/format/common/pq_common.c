/*-------------------------------------------------------------------------
 *
 * pq_common.c
 *		Error reporting with file location, enum names, growable buffers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "format/common/pq_common.h"
#include "utils/memutils.h"

static uint32 pq_next_dictionary_id = 0;

uint32
pq_new_dictionary_id(void)
{
	/* 0 means none: skipped when the counter wraps */
	if (++pq_next_dictionary_id == 0)
		++pq_next_dictionary_id;
	return pq_next_dictionary_id;
}

/*
 * The callback of a location's entry.  It adds no CONTEXT line: pq_report()
 * puts the file in the message and the place in DETAIL, and the fdw layer
 * names the file where it matters.  Its address marks the entry as ours.
 */
static void
pq_errloc_context(void *arg)
{
}

void
pq_errloc_push(PqErrorLocation *loc, const char *filename)
{
	loc->filename = filename;
	loc->row_group = -1;
	loc->column = NULL;
	loc->page_offset = -1;
	loc->cb.callback = pq_errloc_context;
	loc->cb.arg = loc;
	loc->cb.previous = error_context_stack;
	error_context_stack = &loc->cb;
}

void
pq_errloc_pop(PqErrorLocation *loc)
{
	Assert(error_context_stack == &loc->cb);
	error_context_stack = loc->cb.previous;
}

const PqErrorLocation *
pq_errloc_current(void)
{
	ErrorContextCallback *e;

	for (e = error_context_stack; e != NULL; e = e->previous)
		if (e->callback == pq_errloc_context)
			return e->arg;
	return NULL;
}

const char *
pq_errloc_filename(void)
{
	const PqErrorLocation *loc = pq_errloc_current();

	return loc ? loc->filename : NULL;
}

/*
 * errdetail() naming the row group, column and page of loc, as far as they
 * are known, in one whole sentence; called inside ereport() as PostgreSQL's
 * errdetail_relkind_not_supported() is.
 */
static int
errdetail_location(const PqErrorLocation *loc)
{
	int			rg = loc ? loc->row_group : -1;
	const char *col = loc ? loc->column : NULL;
	int64		page = loc ? loc->page_offset : -1;

	if (rg >= 0 && col && page >= 0)
		return errdetail("Row group %d, column \"%s\", page at byte offset " INT64_FORMAT ".",
						 rg, col, page);
	if (rg >= 0 && col)
		return errdetail("Row group %d, column \"%s\".", rg, col);
	if (rg >= 0 && page >= 0)
		return errdetail("Row group %d, page at byte offset " INT64_FORMAT ".",
						 rg, page);
	if (rg >= 0)
		return errdetail("Row group %d.", rg);
	if (col && page >= 0)
		return errdetail("Column \"%s\", page at byte offset " INT64_FORMAT ".",
						 col, page);
	if (col)
		return errdetail("Column \"%s\".", col);
	if (page >= 0)
		return errdetail("Page at byte offset " INT64_FORMAT ".", page);
	return 0;
}

/*
 * The kinds of error the format layer raises, each with its own whole
 * messages (naming a file or not), so that every message is one
 * translatable string.
 */
typedef enum PqErrorKind
{
	PQ_ERR_CORRUPT,
	PQ_ERR_UNSUPPORTED,
	PQ_ERR_TOO_LARGE,
	PQ_ERR_AUTH
} PqErrorKind;

typedef struct PqErrorKindInfo
{
	int			sqlstate;
	const char *file_msg;		/* file name, then what is wrong */
	const char *data_msg;		/* what is wrong */
	const char *hint;
} PqErrorKindInfo;

static const PqErrorKindInfo pq_error_kinds[] = {
	[PQ_ERR_CORRUPT] = {
		ERRCODE_DATA_CORRUPTED,
		gettext_noop("corrupt Parquet file \"%s\": %s"),
		gettext_noop("corrupt Parquet data: %s"), NULL
	},
	[PQ_ERR_UNSUPPORTED] = {
		ERRCODE_FEATURE_NOT_SUPPORTED,
		gettext_noop("unsupported feature in Parquet file \"%s\": %s"),
		gettext_noop("unsupported feature in Parquet data: %s"), NULL
	},
	[PQ_ERR_TOO_LARGE] = {
		ERRCODE_PROGRAM_LIMIT_EXCEEDED,
		gettext_noop("cannot read Parquet file \"%s\": %s"),
		gettext_noop("cannot read Parquet data: %s"), NULL
	},
	[PQ_ERR_AUTH] = {
		ERRCODE_DATA_CORRUPTED,
		gettext_noop("could not decrypt Parquet file \"%s\": %s"),
		gettext_noop("could not decrypt Parquet data: %s"),
		gettext_noop("The key or the AAD prefix is wrong, or the file was modified.")
	},
};

static void pq_report(PqErrorKind kind, const char *fmt, va_list args) pg_attribute_printf(2, 0) pg_attribute_noreturn();

static void
pq_report(PqErrorKind kind, const char *fmt, va_list args)
{
	const PqErrorLocation *loc = pq_errloc_current();
	const char *file = loc ? loc->filename : NULL;
	char		msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, args);
	ereport(ERROR,
			(errcode(pq_error_kinds[kind].sqlstate),
			 file ? errmsg(pq_error_kinds[kind].file_msg, file, msg) :
			 errmsg(pq_error_kinds[kind].data_msg, msg),
			 errdetail_location(loc),
			 pq_error_kinds[kind].hint ?
			 errhint("%s", _(pq_error_kinds[kind].hint)) : 0));
	pg_unreachable();
}

void
pq_corrupt(const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	pq_report(PQ_ERR_CORRUPT, fmt, args);
	va_end(args);
}

void
pq_unsupported(const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	pq_report(PQ_ERR_UNSUPPORTED, fmt, args);
	va_end(args);
}

void
pq_too_large(const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	pq_report(PQ_ERR_TOO_LARGE, fmt, args);
	va_end(args);
}

void
pq_auth_failure(const char *fmt,...)
{
	va_list		args;

	va_start(args, fmt);
	pq_report(PQ_ERR_AUTH, fmt, args);
	va_end(args);
}

const char *
pq_physical_type_name(int type)
{
	static const char *const names[] = {
		"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE",
		"BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"
	};

	if (type >= 0 && type < (int) lengthof(names))
		return names[type];
	return "UNKNOWN";
}

const char *
pq_encoding_name(int encoding)
{
	static const char *const names[] = {
		"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED",
		"DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
		"RLE_DICTIONARY", "BYTE_STREAM_SPLIT", "ALP"
	};

	if (encoding >= 0 && encoding < (int) lengthof(names))
		return names[encoding];
	return "UNKNOWN";
}

const char *
pq_codec_name(int codec)
{
	static const char *const names[] = {
		"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD",
		"LZ4_RAW"
	};

	if (codec >= 0 && codec < (int) lengthof(names))
		return names[codec];
	return "UNKNOWN";
}

const char *
pq_converted_type_name(int ct)
{
	static const char *const names[] = {
		"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE",
		"TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS",
		"UINT_8", "UINT_16", "UINT_32", "UINT_64", "INT_8", "INT_16",
		"INT_32", "INT_64", "JSON", "BSON", "INTERVAL"
	};

	if (ct >= 0 && ct < (int) lengthof(names))
		return names[ct];
	return "UNKNOWN";
}

const char *
pq_repetition_name(int rep)
{
	static const char *const names[] = {"REQUIRED", "OPTIONAL", "REPEATED"};

	if (rep >= 0 && rep < (int) lengthof(names))
		return names[rep];
	return "UNKNOWN";
}

const char *
pq_page_type_name(int type)
{
	static const char *const names[] = {
		"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"
	};

	if (type >= 0 && type < (int) lengthof(names))
		return names[type];
	return "UNKNOWN";
}

void
pq_buffer_init(PqBuffer *buf, size_t initial)
{
	buf->cap = Max(initial, 64);
	buf->data = palloc_extended(buf->cap, MCXT_ALLOC_HUGE);
	buf->len = 0;
}

void
pq_buffer_reserve(PqBuffer *buf, size_t extra)
{
	size_t		need = buf->len + extra;
	size_t		newcap;

	if (need <= buf->cap)
		return;
	if (need > MaxAllocHugeSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Parquet buffer size %zu exceeds the allocation limit",
						need)));
	newcap = buf->cap;
	while (newcap < need)
		newcap = (newcap > MaxAllocHugeSize / 2) ? MaxAllocHugeSize : newcap * 2;
	buf->data = repalloc_huge(buf->data, newcap);
	buf->cap = newcap;
}

void
pq_buffer_append(PqBuffer *buf, const void *data, size_t len)
{
	pq_buffer_reserve(buf, len);
	if (len > 0)
		memcpy(buf->data + buf->len, data, len);
	buf->len += len;
}

void
pq_buffer_reset(PqBuffer *buf)
{
	buf->len = 0;
}

int
pq_twos_be_digits(const uint8 *be, size_t len, char *digits, bool *negative)
{
	int			nlimbs = (int) ((len + 3) / 4);
	uint32	   *limbs;			/* magnitude, most significant first */
	char	   *rev;			/* digits, least significant first */
	int			nd = 0;
	int			i;
	size_t		j;

	*negative = len > 0 && (be[0] & 0x80) != 0;
	if (len == 0)
	{
		digits[0] = '0';
		return 1;
	}
	limbs = palloc0(sizeof(uint32) * nlimbs);
	rev = palloc(PQ_DECIMAL_DIGITS_CAP(len));
	for (j = 0; j < len; j++)
	{
		uint32		byte = *negative ? (uint8) ~be[j] : be[j];
		size_t		pos = len - 1 - j;	/* from the least significant end */

		limbs[nlimbs - 1 - pos / 4] |= byte << (8 * (pos % 4));
	}
	if (*negative)
	{
		/* two's complement: magnitude = ~x + 1 */
		for (i = nlimbs - 1; i >= 0; i--)
			if (++limbs[i] != 0)
				break;
	}

	/* repeated division by 10^9, nine digits at a time */
	for (;;)
	{
		uint64		rem = 0;
		bool		zero = true;

		for (i = 0; i < nlimbs; i++)
		{
			uint64		cur = (rem << 32) | limbs[i];

			limbs[i] = (uint32) (cur / 1000000000);
			rem = cur % 1000000000;
			zero &= (limbs[i] == 0);
		}
		for (i = 0; i < 9; i++)
		{
			rev[nd++] = '0' + (rem % 10);
			rem /= 10;
		}
		if (zero)
			break;
	}
	while (nd > 1 && rev[nd - 1] == '0')
		nd--;
	for (i = 0; i < nd; i++)
		digits[i] = rev[nd - 1 - i];
	pfree(limbs);
	pfree(rev);
	return nd;
}

int
pq_fixed_width(int ptype, int type_length)
{
	switch (ptype)
	{
		case PQ_BOOLEAN:
			return 1;
		case PQ_INT32:
		case PQ_FLOAT:
			return 4;
		case PQ_INT64:
		case PQ_DOUBLE:
			return 8;
		case PQ_INT96:
			return 12;
		case PQ_FIXED_LEN_BYTE_ARRAY:
			return type_length;
		default:
			return 0;			/* BYTE_ARRAY: no fixed width */
	}
}

float
pq_half_to_float(uint16 h)
{
	int			exp = (h >> 10) & 0x1F;
	int			mant = h & 0x3FF;
	float		v;

	if (exp == 0)
		v = ldexpf((float) mant, -24);
	else if (exp == 31)
		v = mant != 0 ? NAN : INFINITY;
	else
		v = ldexpf((float) (mant | 0x400), exp - 25);
	return (h & 0x8000) ? -v : v;
}
