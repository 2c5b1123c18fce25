/*-------------------------------------------------------------------------
 *
 * deletion_vector.c
 *		Delta Lake deletion vectors: a descriptor's file and span, and the
 *		row positions of its data (see deletion_vector.h).
 *
 * Each 32-bit bitmap is walked here before libroaring sees it: its length
 * and cardinality are then known without allocating, so that a count the
 * data cannot back fails first, and libroaring 0.2.66 (Debian 12) is only
 * ever given a well-formed bitmap.  It would take some malformed ones (a
 * negative container count, runs past their container, unsorted arrays,
 * a bitset whose stated cardinality is wrong) and prints to stderr on
 * others.  libroaring then decodes what the walk accepted, and the two
 * must agree.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <roaring/roaring.h>

#include "format/codec/codec.h"
#include "table/common/z85.h"
#include "table/delta/deletion_vector.h"

/* RoaringBitmapArray magic numbers (Delta's RoaringBitmapArray.scala) */
#define DV_MAGIC_PORTABLE	UINT64CONST(1681511377)
#define DV_MAGIC_NATIVE		UINT64CONST(1681511376)

/* The 32-bit portable format (RoaringFormatSpec) */
#define RB_COOKIE_NO_RUNS	12346
#define RB_COOKIE_RUNS		12347
#define RB_NO_OFFSET_BELOW	4	/* with runs, offsets only from 4 containers */
#define RB_ARRAY_MAX		4096	/* more values than this: a bitset */
#define RB_BITSET_BYTES		8192

/* The least a 32-bit bitmap takes: a cookie and a count of 0. */
#define RB_MIN_BYTES		8

/* The smallest data: a magic number and a native count. */
#define DV_MIN_BYTES		8

typedef enum DvLayout
{
	DV_PORTABLE,				/* the protocol's: key before each bitmap */
	DV_NATIVE_LE,				/* length before each, key = index */
	DV_NATIVE_BE				/* the same, the protocol's inline example */
} DvLayout;

/* Reads the bitmaps of a deletion vector's data in turn. */
typedef struct DvFrame
{
	const uint8 *p;				/* the next bitmap's first byte */
	const uint8 *end;
	DvLayout	layout;
	uint64		nbitmaps;		/* as the data says */
	uint64		done;			/* bitmaps read so far */
	int64		last_key;		/* -1 before the first */
} DvFrame;

/* One bitmap of the data */
typedef struct DvBitmap
{
	uint32		key;			/* the positions' high 32 bits */
	const uint8 *bytes;			/* its 32-bit portable serialization */
	size_t		len;
	uint64		card;
} DvBitmap;

/* What the iteration callback fills */
typedef struct DvFill
{
	uint64	   *pos;
	uint64		cap;
	uint64		n;
	uint64		high;
	bool		bad;
} DvFill;

static inline uint32
rd_le16(const uint8 *p)
{
	return (uint32) p[0] | ((uint32) p[1] << 8);
}

static inline uint32
rd_le32(const uint8 *p)
{
	return (uint32) p[0] | ((uint32) p[1] << 8) | ((uint32) p[2] << 16) |
		((uint32) p[3] << 24);
}

static inline uint32
rd_be32(const uint8 *p)
{
	return ((uint32) p[0] << 24) | ((uint32) p[1] << 16) |
		((uint32) p[2] << 8) | (uint32) p[3];
}

static inline uint64
rd_le64(const uint8 *p)
{
	return (uint64) rd_le32(p) | ((uint64) rd_le32(p + 4) << 32);
}

/*
 * Walk one 32-bit bitmap in the portable serialization at p, of at most
 * left bytes: *used gets its length, *card its cardinality.  Refuses what
 * the format allows no writer to produce, so that what it accepts is one
 * well-defined set of values, the one Java's RoaringBitmap reads too.
 */
static bool
walk_bitmap32(const uint8 *p, size_t left, size_t *used, uint64 *card,
			  const char **why)
{
	const uint8 *start = p;
	const uint8 *end = p + left;
	const uint8 *runflags = NULL;
	const uint8 *keycards;
	uint32		cookie;
	uint32		n;
	uint32		k;
	int64		last_key = -1;
	uint64		total = 0;

	if (left < 4)
		goto truncated;
	cookie = rd_le32(p);
	p += 4;
	if ((cookie & 0xFFFF) == RB_COOKIE_RUNS)
	{
		n = (cookie >> 16) + 1;
		if ((size_t) (end - p) < (n + 7) / 8)
			goto truncated;
		runflags = p;
		p += (n + 7) / 8;
	}
	else if (cookie == RB_COOKIE_NO_RUNS)
	{
		if (end - p < 4)
			goto truncated;
		n = rd_le32(p);
		p += 4;
		/* 2^16 containers of 2^16 values cover all 32 bits */
		if (n > 65536)
		{
			*why = "roaring bitmap with more than 65536 containers";
			return false;
		}
	}
	else
	{
		*why = "roaring bitmap without a known cookie";
		return false;
	}

	/* keys and cardinalities, then offsets (which readers do not need) */
	if ((size_t) (end - p) < (size_t) n * 4)
		goto truncated;
	keycards = p;
	p += (size_t) n * 4;
	if (runflags == NULL || n >= RB_NO_OFFSET_BELOW)
	{
		if ((size_t) (end - p) < (size_t) n * 4)
			goto truncated;
		p += (size_t) n * 4;
	}

	for (k = 0; k < n; k++)
	{
		uint32		key = rd_le16(keycards + 4 * k);
		uint32		c = rd_le16(keycards + 4 * k + 2) + 1;
		uint32		i;

		if ((int64) key <= last_key)
		{
			*why = "roaring containers not in ascending order";
			return false;
		}
		last_key = key;

		if (runflags != NULL && (runflags[k / 8] & (1 << (k % 8))) != 0)
		{
			uint32		nruns;
			int64		last = -1;
			uint32		sum = 0;

			if (end - p < 2)
				goto truncated;
			nruns = rd_le16(p);
			p += 2;
			if ((size_t) (end - p) < (size_t) nruns * 4)
				goto truncated;
			for (i = 0; i < nruns; i++)
			{
				uint32		v = rd_le16(p + 4 * i);
				uint32		l = rd_le16(p + 4 * i + 2);

				/* ordered, apart, and inside the container's 2^16 values */
				if ((int64) v <= last || v + l > 65535)
				{
					*why = "roaring run container with runs out of order or out of range";
					return false;
				}
				last = v + l;
				sum += l + 1;
			}
			p += (size_t) nruns * 4;
			if (sum != c)
			{
				*why = "roaring run container whose runs disagree with its cardinality";
				return false;
			}
		}
		else if (c > RB_ARRAY_MAX)
		{
			uint32		bits = 0;

			if (end - p < RB_BITSET_BYTES)
				goto truncated;
			for (i = 0; i < RB_BITSET_BYTES; i += 8)
			{
				uint64		w;

				memcpy(&w, p + i, 8);
				bits += (uint32) __builtin_popcountll(w);
			}
			p += RB_BITSET_BYTES;
			if (bits != c)
			{
				*why = "roaring bitset container whose bits disagree with its cardinality";
				return false;
			}
		}
		else
		{
			int64		last = -1;

			if ((size_t) (end - p) < (size_t) c * 2)
				goto truncated;
			for (i = 0; i < c; i++)
			{
				uint32		v = rd_le16(p + 2 * i);

				if ((int64) v <= last)
				{
					*why = "roaring array container not in ascending order";
					return false;
				}
				last = v;
			}
			p += (size_t) c * 2;
		}
		total += c;
	}
	*used = (size_t) (p - start);
	*card = total;
	return true;

truncated:
	*why = "roaring bitmap truncated";
	return false;
}

/* Start reading data of len bytes: its magic number and count. */
static bool
frame_open(DvFrame *f, const uint8 *data, size_t len, const char **why)
{
	uint32		magic;
	size_t		left;

	if (len < DV_MIN_BYTES)
	{
		*why = "deletion vector data too short";
		return false;
	}
	magic = rd_le32(data);
	f->p = data + 4;
	f->end = data + len;
	f->done = 0;
	f->last_key = -1;
	if (magic == DV_MAGIC_PORTABLE)
	{
		if (f->end - f->p < 8)
		{
			*why = "deletion vector data too short";
			return false;
		}
		f->layout = DV_PORTABLE;
		f->nbitmaps = rd_le64(f->p);
		f->p += 8;
	}
	else if (magic == DV_MAGIC_NATIVE || rd_be32(data) == DV_MAGIC_NATIVE)
	{
		f->layout = magic == DV_MAGIC_NATIVE ? DV_NATIVE_LE : DV_NATIVE_BE;
		f->nbitmaps = f->layout == DV_NATIVE_LE ? rd_le32(f->p) : rd_be32(f->p);
		f->p += 4;
		/* a signed int in Java */
		if (f->nbitmaps > PG_INT32_MAX)
		{
			*why = "deletion vector with a negative count of bitmaps";
			return false;
		}
	}
	else
	{
		*why = "deletion vector data without a known magic number";
		return false;
	}

	/*
	 * Each bitmap takes at least 12 bytes (its key or length, a cookie and a
	 * count), so a count the bytes cannot hold is refused at once: this also
	 * covers the negative ones of the 8-byte signed count.
	 */
	left = (size_t) (f->end - f->p);
	if (f->nbitmaps > left / (4 + RB_MIN_BYTES))
	{
		*why = "deletion vector with more bitmaps than its data holds";
		return false;
	}
	return true;
}

/* The next bitmap, walked (see walk_bitmap32). */
static bool
frame_next(DvFrame *f, DvBitmap *b, const char **why)
{
	size_t		left = (size_t) (f->end - f->p);
	uint32		word;

	if (left < 4)
	{
		*why = "deletion vector data truncated";
		return false;
	}
	word = f->layout == DV_NATIVE_BE ? rd_be32(f->p) : rd_le32(f->p);
	f->p += 4;
	left -= 4;
	if (f->layout == DV_PORTABLE)
	{
		/* the protocol keeps the top bit clear (keys are signed in Java) */
		if (word > (uint32) PG_INT32_MAX)
		{
			*why = "deletion vector key out of range";
			return false;
		}
		if ((int64) word <= f->last_key)
		{
			*why = "deletion vector keys not in ascending order";
			return false;
		}
		b->key = word;
		if (!walk_bitmap32(f->p, left, &b->len, &b->card, why))
			return false;
	}
	else
	{
		if (word > left)
		{
			*why = "deletion vector bitmap length beyond its data";
			return false;
		}
		b->key = (uint32) f->done;
		if (!walk_bitmap32(f->p, word, &b->len, &b->card, why))
			return false;
		if (b->len != word)
		{
			*why = "deletion vector bitmap length differs from its bitmap";
			return false;
		}
	}
	b->bytes = f->p;
	f->p += b->len;
	f->last_key = b->key;
	f->done++;
	return true;
}

static bool
fill_one(uint32_t value, void *arg)
{
	DvFill	   *fill = (DvFill *) arg;
	uint64		p = fill->high | value;

	if (fill->n >= fill->cap || (fill->n > 0 && p <= fill->pos[fill->n - 1]))
	{
		fill->bad = true;
		return false;
	}
	fill->pos[fill->n++] = p;
	return true;
}

/*
 * The positions of data (len bytes, the magic number first), which must
 * be cardinality many.  Walks the data once to count them, then has
 * libroaring decode each bitmap in turn into the array.
 */
static bool
decode_data(const uint8 *data, size_t len, uint64 cardinality,
			PqDeletedRows *out, const char **why)
{
	DvFrame		f;
	DvBitmap	b;
	DvFill		fill;
	uint64		total = 0;
	uint64		i;

	if (!frame_open(&f, data, len, why))
		return false;
	for (i = 0; i < f.nbitmaps; i++)
	{
		if (!frame_next(&f, &b, why))
			return false;
		total += b.card;
		if (total > cardinality)
			break;
	}
	if (total != cardinality)
	{
		*why = "deletion vector cardinality differs from its data";
		return false;
	}
	if (f.p != f.end)
	{
		*why = "deletion vector data has bytes after its last bitmap";
		return false;
	}
	if (total == 0)
		return true;

	/* allocated before libroaring holds anything, as palloc may throw */
	fill.pos = palloc(total * sizeof(uint64));
	fill.cap = total;
	fill.n = 0;
	fill.bad = false;

	(void) frame_open(&f, data, len, why);
	for (i = 0; i < f.nbitmaps; i++)
	{
		roaring_bitmap_t *r;
		bool		agree;

		(void) frame_next(&f, &b, why);
		if (b.card == 0)
			continue;
		r = roaring_bitmap_portable_deserialize_safe((const char *) b.bytes,
													 b.len);
		if (r == NULL)
		{
			/* the walk accepted it, so libroaring ran out of memory */
			*why = "deletion vector bitmap could not be decoded";
			pfree(fill.pos);
			return false;
		}
		fill.high = (uint64) b.key << 32;
		agree = roaring_bitmap_get_cardinality(r) == b.card &&
			roaring_iterate(r, fill_one, &fill) && !fill.bad;
		roaring_bitmap_free(r);
		if (!agree)
		{
			*why = "deletion vector bitmap decoded inconsistently";
			pfree(fill.pos);
			return false;
		}
	}
	if (fill.n != total)
	{
		*why = "deletion vector bitmap decoded inconsistently";
		pfree(fill.pos);
		return false;
	}
	out->pos = fill.pos;
	out->count = total;
	return true;
}

/* What every use of a descriptor requires. */
static bool
check_descriptor(const PqDeltaDv *dv, const char **why)
{
	if (dv->storage_type != 'u' && dv->storage_type != 'i' &&
		dv->storage_type != 'p')
	{
		*why = "unknown deletion vector storage type";
		return false;
	}
	if (dv->path_or_inline == NULL)
	{
		*why = "deletion vector without pathOrInlineDv";
		return false;
	}
	if (dv->size_in_bytes < DV_MIN_BYTES || dv->size_in_bytes > PQ_DV_MAX_BYTES)
	{
		*why = "deletion vector sizeInBytes out of range";
		return false;
	}
	if (dv->cardinality < 0 || dv->cardinality > PQ_DV_MAX_POSITIONS)
	{
		*why = "deletion vector cardinality out of range";
		return false;
	}
	if (dv->storage_type == 'i')
	{
		if (dv->offset != -1)
		{
			*why = "inline deletion vector with an offset";
			return false;
		}
	}
	else if (dv->offset != -1 && (dv->offset < 1 || dv->offset > PG_INT32_MAX))
	{
		/* 0 is the file's version byte; the protocol's offset is an Int */
		*why = "deletion vector offset out of range";
		return false;
	}
	return true;
}

char *
pq_delta_dv_file(const PqDeltaDv *dv, const char **why)
{
	const char *s = dv->path_or_inline;
	size_t		len;
	size_t		plen;
	uint8		uuid[16];
	char	   *path;
	char	   *o;
	size_t		i;

	if (s == NULL || (dv->storage_type != 'u' && dv->storage_type != 'p'))
	{
		*why = dv->storage_type == 'i' ? "an inline deletion vector has no file" :
			"unknown deletion vector storage type";
		return NULL;
	}
	len = strlen(s);
	if (dv->storage_type == 'p')
	{
		if (len == 0)
		{
			*why = "deletion vector with an empty path";
			return NULL;
		}
		return pstrdup(s);
	}

	/* 'u': <prefix><20 characters of Z85: the UUID's 16 bytes> */
	if (len < 20)
	{
		*why = "deletion vector path shorter than a Z85 UUID";
		return NULL;
	}
	plen = len - 20;
	for (i = 0; i < plen; i++)
	{
		char		c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '_'))
		{
			*why = "deletion vector path prefix with a character other than a letter, digit, '-' or '_'";
			return NULL;
		}
	}
	if (!pq_z85_decode(s + plen, 20, uuid, why))
		return NULL;

	/* "<prefix>/deletion_vector_" + 36 + ".bin" */
	path = palloc(plen + 1 + 16 + 36 + 4 + 1);
	o = path;
	if (plen > 0)
	{
		memcpy(o, s, plen);
		o += plen;
		*o++ = '/';
	}
	memcpy(o, "deletion_vector_", 16);
	o += 16;
	for (i = 0; i < 16; i++)
	{
		static const char hex[] = "0123456789abcdef";

		if (i == 4 || i == 6 || i == 8 || i == 10)
			*o++ = '-';
		*o++ = hex[uuid[i] >> 4];
		*o++ = hex[uuid[i] & 15];
	}
	memcpy(o, ".bin", 5);
	return path;
}

bool
pq_delta_dv_stored_span(const PqDeltaDv *dv, int64 *offset, int64 *len,
						const char **why)
{
	if (!check_descriptor(dv, why))
		return false;
	if (dv->storage_type == 'i')
	{
		*why = "an inline deletion vector has no file";
		return false;
	}
	*offset = dv->offset == -1 ? 1 : dv->offset;
	*len = dv->size_in_bytes + 8;
	return true;
}

bool
pq_delta_dv_file_version_ok(uint8 first_byte, const char **why)
{
	if (first_byte != 1)
	{
		*why = "deletion vector file of an unknown version";
		return false;
	}
	return true;
}

bool
pq_delta_dv_decode(const PqDeltaDv *dv, const uint8 *at, size_t len,
				   PqDeletedRows *out, const char **why)
{
	size_t		size;
	bool		ok;

	out->count = 0;
	out->pos = NULL;
	if (!check_descriptor(dv, why))
		return false;
	size = (size_t) dv->size_in_bytes;

	if (dv->storage_type == 'i')
	{
		/* Delta pads to whole groups of 4 bytes and drops the padding */
		size_t		text_len = strlen(dv->path_or_inline);
		uint8	   *buf;

		if (text_len != (size + 3) / 4 * 5)
		{
			*why = "inline deletion vector text length differs from its sizeInBytes";
			return false;
		}
		buf = palloc(PQ_Z85_DECODED_LEN(text_len));
		ok = pq_z85_decode(dv->path_or_inline, text_len, buf, why) &&
			decode_data(buf, size, (uint64) dv->cardinality, out, why);
		pfree(buf);
		return ok;
	}

	/* stored: [size, big-endian][data][CRC-32 of data, big-endian] */
	if (at == NULL || len != size + 8)
	{
		*why = "deletion vector bytes read differ from its span";
		return false;
	}
	if (rd_be32(at) != size)
	{
		*why = "deletion vector size in its file differs from sizeInBytes";
		return false;
	}
	if (pq_crc32(at + 4, size) != rd_be32(at + 4 + size))
	{
		*why = "deletion vector checksum mismatch";
		return false;
	}
	return decode_data(at + 4, size, (uint64) dv->cardinality, out, why);
}
