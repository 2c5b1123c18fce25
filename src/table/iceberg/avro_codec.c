/*-------------------------------------------------------------------------
 *
 * avro_codec.c
 *		Avro container blocks decompressed: deflate (zlib), snappy with
 *		its CRC-32, zstandard (libzstd); output bounded by the caller.
 *
 * zlib allocates through palloc here, so that an ERROR raised while a
 * block is inflated (out of memory growing the output) leaves nothing
 * behind that the memory context does not free.  zstd's context is one
 * per process, reset for each block, as format/codec/zstd.c keeps its own.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "table/iceberg/avro_codec.h"

/* zstd's window, and so its memory, for one block: Java writes far less. */
#define ZSTD_WINDOW_LOG_MAX 24

/* Output buffer to start with: a few times the input, within the cap. */
static size_t
first_size(size_t len, size_t cap)
{
	size_t		size = len < cap / 4 ? len * 4 : cap;

	return Max(Min(size, cap), 1);
}

/* Double *size (within cap), repalloc'ing *buf; false at the cap. */
static bool
grow(uint8 **buf, size_t *size, size_t cap)
{
	size_t		next;

	if (*size >= cap)
		return false;
	next = *size > cap / 2 ? cap : *size * 2;
	*buf = repalloc_huge(*buf, next);
	*size = next;
	return true;
}

bool
pq_avro_codec(const uint8 *name, size_t len, PqAvroCodec *codec,
			  const char **why)
{
	static const struct
	{
		const char *name;
		PqAvroCodec codec;
	}			codecs[] =
	{
		{"null", PQ_AVRO_CODEC_NULL},
		{"deflate", PQ_AVRO_CODEC_DEFLATE},
		{"snappy", PQ_AVRO_CODEC_SNAPPY},
		{"zstandard", PQ_AVRO_CODEC_ZSTD},
	};
	int			i;

	if (name == NULL)
	{
		*codec = PQ_AVRO_CODEC_NULL;
		return true;
	}
	for (i = 0; i < lengthof(codecs); i++)
		if (len == strlen(codecs[i].name) &&
			memcmp(name, codecs[i].name, len) == 0)
		{
			*codec = codecs[i].codec;
			return true;
		}
	if ((len == 5 && memcmp(name, "bzip2", 5) == 0) ||
		(len == 2 && memcmp(name, "xz", 2) == 0))
		*why = len == 2 ? "the file's codec xz is not supported"
			: "the file's codec bzip2 is not supported";
	else
		*why = "the file's codec is unknown";
	return false;
}

static voidpf
z_palloc(voidpf opaque, uInt items, uInt size)
{
	return palloc((Size) items * size);
}

static void
z_pfree(voidpf opaque, voidpf p)
{
	pfree(p);
}

static bool
inflate_block(const uint8 *src, size_t len, size_t cap, const uint8 **out,
			  size_t *outlen, const char **why)
{
	z_stream	zs;
	uint8	   *buf;
	size_t		size = first_size(len, cap);
	int			ret;

	if (len > UINT_MAX || cap > UINT_MAX)
	{
		*why = "a deflate block is larger than 4 GB";
		return false;
	}
	memset(&zs, 0, sizeof(zs));
	zs.zalloc = z_palloc;
	zs.zfree = z_pfree;
	if (inflateInit2(&zs, -MAX_WBITS) != Z_OK)
	{
		*why = "deflate decompression could not start";
		return false;
	}
	buf = palloc(size);
	zs.next_in = (Bytef *) src;
	zs.avail_in = (uInt) len;
	zs.next_out = buf;
	zs.avail_out = (uInt) size;
	for (;;)
	{
		ret = inflate(&zs, Z_NO_FLUSH);
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_OK && zs.avail_out > 0)
			continue;
		if ((ret == Z_OK || ret == Z_BUF_ERROR) && zs.avail_out == 0)
		{
			size_t		done = size;

			if (!grow(&buf, &size, cap))
			{
				*why = psprintf("a deflate block decompresses to more than %zu bytes",
								cap);
				break;
			}
			zs.next_out = buf + done;
			zs.avail_out = (uInt) (size - done);
			continue;
		}
		*why = ret == Z_BUF_ERROR ? "a deflate block is truncated"
			: "a deflate block is corrupt";
		break;
	}
	inflateEnd(&zs);
	if (ret != Z_STREAM_END)
		return false;
	if (zs.avail_in != 0)
	{
		*why = "a deflate block has bytes after its stream";
		return false;
	}
	*out = buf;
	*outlen = size - zs.avail_out;
	return true;
}

static bool
snappy_block(const uint8 *src, size_t len, size_t cap, const uint8 **out,
			 size_t *outlen, const char **why)
{
	size_t		n;
	uint8	   *buf;
	uint32		crc;

	if (len < 4 ||
		snappy_uncompressed_length((const char *) src, len - 4, &n) != SNAPPY_OK)
	{
		*why = "a snappy block is corrupt";
		return false;
	}
	if (n > cap)
	{
		*why = psprintf("a snappy block decompresses to more than %zu bytes",
						cap);
		return false;
	}
	buf = palloc(Max(n, 1));
	if (snappy_uncompress((const char *) src, len - 4, (char *) buf, &n) != SNAPPY_OK)
	{
		*why = "a snappy block is corrupt";
		return false;
	}
	crc = ((uint32) src[len - 4] << 24) | ((uint32) src[len - 3] << 16) |
		((uint32) src[len - 2] << 8) | src[len - 1];
	if (crc32(0, buf, (uInt) n) != crc)
	{
		*why = "a snappy block does not match its CRC-32";
		return false;
	}
	*out = buf;
	*outlen = n;
	return true;
}

static ZSTD_DCtx *zstd_ctx = NULL;

static bool
zstd_block(const uint8 *src, size_t len, size_t cap, const uint8 **out,
		   size_t *outlen, const char **why)
{
	ZSTD_inBuffer in = {src, len, 0};
	size_t		size = first_size(len, cap);
	uint8	   *buf;
	size_t		done = 0;

	if (zstd_ctx == NULL)
	{
		zstd_ctx = ZSTD_createDCtx();
		if (zstd_ctx == NULL)
		{
			*why = "zstd decompression could not start";
			return false;
		}
	}
	if (ZSTD_isError(ZSTD_DCtx_reset(zstd_ctx, ZSTD_reset_session_and_parameters)) ||
		ZSTD_isError(ZSTD_DCtx_setParameter(zstd_ctx, ZSTD_d_windowLogMax,
											ZSTD_WINDOW_LOG_MAX)))
	{
		*why = "zstd decompression could not start";
		return false;
	}
	buf = palloc(size);
	for (;;)
	{
		ZSTD_outBuffer ob = {buf, size, done};
		size_t		ret = ZSTD_decompressStream(zstd_ctx, &ob, &in);

		done = ob.pos;
		if (ZSTD_isError(ret))
		{
			*why = "a zstd block is corrupt";
			return false;
		}
		/* 0: a frame ended; another may follow */
		if (ret == 0 && in.pos == in.size)
			break;
		if (done == size)
		{
			if (!grow(&buf, &size, cap))
			{
				*why = psprintf("a zstd block decompresses to more than %zu bytes",
								cap);
				return false;
			}
		}
		else if (in.pos == in.size)
		{
			*why = "a zstd block is truncated";
			return false;
		}
	}
	*out = buf;
	*outlen = done;
	return true;
}

bool
pq_avro_decompress(PqAvroCodec codec, const uint8 *src, size_t len,
				   size_t cap, const uint8 **out, size_t *outlen,
				   const char **why)
{
	switch (codec)
	{
		case PQ_AVRO_CODEC_NULL:
			if (len > cap)
			{
				*why = psprintf("a block is larger than %zu bytes", cap);
				return false;
			}
			*out = src;
			*outlen = len;
			return true;
		case PQ_AVRO_CODEC_DEFLATE:
			return inflate_block(src, len, cap, out, outlen, why);
		case PQ_AVRO_CODEC_SNAPPY:
			return snappy_block(src, len, cap, out, outlen, why);
		case PQ_AVRO_CODEC_ZSTD:
			return zstd_block(src, len, cap, out, outlen, why);
	}
	*why = "the file's codec is unknown";
	return false;
}
