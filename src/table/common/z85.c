/*-------------------------------------------------------------------------
 *
 * z85.c
 *		Z85 decoding (ZeroMQ RFC 32) for Delta Lake's deletion vectors.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/common/z85.h"

/*
 * Each ASCII character's digit value, -1 for characters outside the
 * alphabet "0-9a-zA-Z.-:+=^!/ *?&<>()[]{}@%$#" (without the blank).
 */
static const int8 z85_digit[128] = {
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	-1, 68, -1, 84, 83, 82, 72, -1, 75, 76, 70, 65, -1, 63, 62, 69,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 64, -1, 73, 66, 74, 71,
	81, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
	51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 77, -1, 78, 67, -1,
	-1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 79, -1, 80, -1, -1,
};

bool
pq_z85_decode(const char *text, size_t len, uint8 *out, const char **why)
{
	const unsigned char *s = (const unsigned char *) text;
	size_t		i;

	if (len % 5 != 0)
	{
		*why = "Z85 text length is not a multiple of 5";
		return false;
	}
	for (i = 0; i < len; i += 5)
	{
		uint64		v = 0;
		int			k;

		for (k = 0; k < 5; k++)
		{
			unsigned char c = s[i + k];

			if (c >= 128 || z85_digit[c] < 0)
			{
				*why = "invalid character in Z85 text";
				return false;
			}
			v = v * 85 + (uint64) z85_digit[c];
		}
		/* 85^5 > 2^32: five characters can say more than four bytes hold */
		if (v > PG_UINT32_MAX)
		{
			*why = "Z85 group out of range";
			return false;
		}
		out[0] = (uint8) (v >> 24);
		out[1] = (uint8) (v >> 16);
		out[2] = (uint8) (v >> 8);
		out[3] = (uint8) v;
		out += 4;
	}
	return true;
}
