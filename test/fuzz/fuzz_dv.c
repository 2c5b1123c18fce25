/*
 * fuzz_dv.c
 *		Delta Lake deletion vectors (src/table/delta/deletion_vector.c,
 *		src/table/common/z85.c).  The first byte's low two bits choose what
 *		the rest is: 0, a deletion vector's data, framed here with its size
 *		and a CRC-32 that match (so the parser, not the checksum, meets the
 *		bytes) and also encoded inline as Z85; 1, a stored span as read from
 *		a file; 2, the data as Z85 text only; 3, a pathOrInlineDv text, as an
 *		inline deletion vector and as 'u' and 'p' file names.  Four bytes
 *		give the cardinality (below 2^16 unless the top bit is set), four
 *		more sizeInBytes where the input chooses it (bit 2) and the offset.
 *
 * Checks: what decodes has as many positions as the cardinality,
 * ascending, and the same stored and inline; what is refused says why and
 * leaves nothing; memory stays within a few times the input plus the
 * positions (nothing else for stored data, the decoded Z85 for inline);
 * a 'u' file name is the prefix, "deletion_vector_", a UUID
 * and ".bin", and a span is sizeInBytes + 8 bytes after the version byte.
 */
#include "fuzz.h"

#include "format/codec/codec.h"
#include "table/common/z85.h"
#include "table/delta/deletion_vector.h"

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

static uint8 *
frame(const uint8 *data, size_t n, size_t *span_len)
{
	uint8	   *s = palloc(n + 8);
	uint32		crc = pq_crc32(data, n);
	int			i;

	for (i = 0; i < 4; i++)
	{
		s[i] = (uint8) (n >> (24 - 8 * i));
		s[n + 4 + i] = (uint8) (crc >> (24 - 8 * i));
	}
	memcpy(s + 4, data, n);
	*span_len = n + 8;
	return s;
}

/*
 * Decode, check what came out, and return it (count 0 when refused).
 * allowance: bytes the decoder may allocate besides the positions.
 */
static PqDeletedRows
decode(const PqDeltaDv *dv, const uint8 *at, size_t len, size_t allowance)
{
	PqDeletedRows rows;
	const char *why = NULL;
	size_t		base = shim_live_bytes();
	bool		ok;
	uint64		i;

	shim_peak_reset();
	ok = pq_delta_dv_decode(dv, at, len, &rows, &why);
	if (shim_peak_above(base) > allowance + (ok ? rows.count * 8 : 0))
		abort();
	if (!ok)
	{
		if (why == NULL || rows.count != 0 || rows.pos != NULL)
			abort();
		return rows;
	}
	if (rows.count != (uint64) dv->cardinality ||
		(rows.count == 0) != (rows.pos == NULL))
		abort();
	for (i = 1; i < rows.count; i++)
		if (rows.pos[i - 1] >= rows.pos[i])
			abort();
	/* the protocol's keys are below 2^31 */
	if (rows.count > 0 && rows.pos[rows.count - 1] >> 63)
		abort();
	return rows;
}

static bool
same(PqDeletedRows a, PqDeletedRows b)
{
	return a.count == b.count &&
		(a.count == 0 || memcmp(a.pos, b.pos, a.count * 8) == 0);
}

static void
check_names(const char *text, size_t len)
{
	PqDeltaDv	dv;
	const char *why = NULL;
	char	   *path;
	int64		off,
				slen;

	dv.storage_type = 'u';
	dv.path_or_inline = text;

	dv.offset = 1;
	dv.size_in_bytes = 34;
	dv.cardinality = 1;
	path = pq_delta_dv_file(&dv, &why);

	if (path != NULL)
	{
		size_t		plen = len - 20;
		size_t		n = strlen(path);
		size_t		i;

		if (len < 20 || n != (plen ? plen + 1 : 0) + 16 + 36 + 4 ||
			(plen && (memcmp(path, text, plen) != 0 || path[plen] != '/')) ||
			strcmp(path + n - 4, ".bin") != 0 ||
			memcmp(path + n - 56, "deletion_vector_", 16) != 0)
			abort();
		for (i = 0; i < plen; i++)
			if (path[i] == '.' || path[i] == '/' || path[i] == '\\' ||
				path[i] == '%')
				abort();
	}
	else if (why == NULL)
		abort();
	dv.storage_type = 'p';
	path = pq_delta_dv_file(&dv, &why);
	if ((path == NULL) != (len == 0) ||
		(path != NULL && strcmp(path, text) != 0))
		abort();
	if (pq_delta_dv_stored_span(&dv, &off, &slen, &why) &&
		(off != 1 || slen != 42))
		abort();
}

static void
one(const uint8 *data, size_t size)
{
	FuzzInput	in = {data, size};
	uint8		mode = fuzz_byte(&in);
	uint32		c = fuzz_u32(&in);
	uint32		sz = fuzz_u32(&in);
	int64		off = (int32) fuzz_u32(&in);
	int64		card = (c & 0x80000000) ? (int64) (c & 0x7FFFFFFF) : (int64) (c & 0xFFFF);
	size_t		n;
	uint8	   *rest = fuzz_bytes(&in, in.left, &n);
	PqDeltaDv	dv;
	PqDeletedRows a;
	PqDeletedRows b;
	int64		s_off,
				s_len;
	const char *why = NULL;

	dv.cardinality = card;
	dv.offset = off < 0 ? -1 : off;
	switch (mode & 3)
	{
		case 0:
			{
				size_t		span_len;
				uint8	   *span = frame(rest, n, &span_len);
				char	   *text = z85_encode(rest, n);

				dv.storage_type = 'u';
				dv.path_or_inline = "0X9F0q2<2yJ-f)Gm2!e0";
				dv.size_in_bytes = n;
				if (dv.offset == 0)
					dv.offset = 1;
				a = decode(&dv, span, span_len, 1024);
				dv.storage_type = 'i';
				dv.path_or_inline = text;

				dv.offset = -1;
				b = decode(&dv, NULL, 0, n + 1024);
				if (!same(a, b))
					abort();
				break;
			}
		case 1:
			dv.storage_type = (mode & 8) ? 'p' : 'u';
			dv.path_or_inline = "s3://b/t/dv.bin";
			dv.size_in_bytes = (mode & 4) ? (int64) sz : (int64) n - 8;
			if (pq_delta_dv_stored_span(&dv, &s_off, &s_len, &why) &&
				(s_off < 1 || s_len != dv.size_in_bytes + 8))
				abort();
			(void) decode(&dv, rest, n, 1024);
			break;
		case 2:
			dv.storage_type = 'i';
			dv.path_or_inline = z85_encode(rest, n);
			dv.size_in_bytes = (mode & 4) ? (int64) sz : (int64) n;
			dv.offset = (mode & 8) ? dv.offset : -1;
			(void) decode(&dv, NULL, 0, n + 1024);
			break;
		case 3:
			{
				char	   *text = pnstrdup((const char *) rest, n);
				size_t		len = strlen(text);

				dv.storage_type = 'i';
				dv.path_or_inline = text;

				dv.size_in_bytes = (mode & 4) ? (int64) sz : (int64) len / 5 * 4;
				dv.offset = -1;
				(void) decode(&dv, NULL, 0, len + 1024);
				check_names(text, len);
				break;
			}
	}
}

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
