/*
 * test_rle.c
 *		Bit packing, the RLE/bit-packed hybrid, levels and the RLE encoder.
 *
 * Expected bytes come from the specification's examples, from vectors
 * computed outside this project (a Python big-integer packer) and from a
 * naive per-bit reference packer below, never from the code under test.
 */
#include "postgres.h"

#include "format/encoding/encoding.h"
#include "unit_test.h"

/* Fixed-seed xorshift64* so that failures reproduce. */

static uint64
mask64(int bw)
{
	return bw == 64 ? PG_UINT64_MAX : (UINT64CONST(1) << bw) - 1;
}

/* Reference LSB-first packer, one bit at a time. */
static void
ref_pack(const uint64 *vals, int n, int bw, uint8 *out)
{
	int			i;
	int			b;

	memset(out, 0, ((size_t) n * bw + 7) / 8);
	for (i = 0; i < n; i++)
		for (b = 0; b < bw; b++)
			if ((vals[i] >> b) & 1)
			{
				size_t		bit = (size_t) i * bw + b;

				out[bit / 8] |= (uint8) (1 << (bit % 8));
			}
}

/*
 * Eleven values per width 0..64, v[i] = top bw bits of
 * (i + 1) * 0x9E3779B97F4A7C15, packed by an independent Python packer.
 */
static const char *const width_vectors[65] = {
	/* 0 */
	"",
	/* 1 */
	"\xa5\x05",
	/* 2 */
	"\x72\xd8\x32",
	/* 3 */
	"\x8c\x87\xea\x8c\x01",
	/* 4 */
	"\x39\x7d\xb1\xf5\x28\x0c",
	/* 5 */
	"\xf3\xec\x27\xac\xf2\xb1\x64",
	/* 6 */
	"\xe7\x63\x7b\x45\x4b\xf1\xe3\x32\x03",
	/* 7 */
	"\x4f\x4f\x9b\xb7\xd0\xa6\xf0\xc7\x8b\x19",
	/* 8 */
	"\x9e\x3c\xda\x78\x17\xb5\x53\xf1\x8f\x2e\xcc",
	/* 9 */
	"\x3c\xf1\xd4\x8e\xe7\x42\xed\xa9\xf1\x1f\xb9\x60\x06",
	/* 10 */
	"\x78\xc6\xa3\xf6\x78\x5c\x54\xeb\x94\xf1\x3f\xe2\x12\x33",
	/* 11 */
	"\xf1\x1c\x4f\xb5\x8d\x87\x0b\xd5\x72\xaa\xf1\x7f\x8c\xcb"
	"\x98\x01",
	/* 12 */
	"\xe3\x69\x3c\xaa\xdd\x78\x71\x41\xb5\x38\xb5\xf1\xff\x28"
	"\x2e\xc6\x0c",
	/* 13 */
	"\xc6\xb3\xf1\x50\xed\x8d\x27\x2e\x52\x2d\x9c\xba\xf1\xfe"
	"\xb1\xb8\x30\x66",
	/* 14 */
	"\x8d\xe7\xc6\x93\x6a\xdf\x78\xc5\xc5\x54\x1b\x4e\xb9\xf1"
	"\xfc\xa3\xe2\x82\x31\x03",
	/* 15 */
	"\x1b\xcf\x1b\xcf\x54\xdb\x8d\xa7\xb8\x30\xd5\x0a\xa7\xba"
	"\xf1\xf9\xc7\x8a\x4b\x8c\x19",
	/* 16 */
	"\x37\x9e\x6e\x3c\xa6\xda\xdd\x78\x15\x17\x4c\xb5\x84\x53"
	"\xbb\xf1\xf3\x8f\x2a\x2e\x62\xcc",
	/* 17 */
	"\x6e\x3c\xbb\xf1\x30\xd5\xde\x8d\xa7\xe2\x22\x53\x2d\xc2"
	"\xa9\xbb\xf1\xe6\x1f\xab\xb8\x10\x63\x06",
	/* 18 */
	"\xdd\x78\xee\xc6\x93\xa9\xf6\xdd\x78\x55\x5c\xcc\x54\x1b"
	"\xe1\xd4\xbb\xf1\xcd\x3f\xae\xe2\x82\x18\x33",
	/* 19 */
	"\xbb\xf1\xbc\x1b\xcf\x4c\xb5\xdf\x8d\xb7\x8a\x0b\x33\xd5"
	"\x8a\x70\xca\xbb\xf1\x9a\x7f\xb4\x8a\x4b\xc4\x98\x01",
	/* 20 */
	"\x77\xe3\xf9\x6e\x3c\x66\xaa\xed\xdd\x78\x56\x71\xd1\x4c"
	"\xb5\x45\x38\xc5\xbb\xf1\x34\xff\xc8\x2a\x2e\x23\xc6\x0c",
	/* 21 */
	"\xef\xc6\xd3\xbb\xf1\x34\x53\x6d\xde\x8d\xc7\x2a\x2e\x36"
	"\x53\xad\x22\x9c\xca\xbb\xf1\x68\xfe\x11\xab\xb8\x1c\x31"
	"\x66",
	/* 22 */
	"\xde\x8d\x27\xef\xc6\xb3\x99\x6a\xe7\xdd\x78\x58\xc5\x85"
	"\xcd\x54\x5b\x11\x4e\xcd\xbb\xf1\xd1\xfc\x23\xac\xe2\xe2"
	"\x88\x31\x03",
	/* 23 */
	"\xbc\x1b\xcf\xbc\x1b\x8f\xcd\x54\x7b\xde\x8d\x07\xab\xb8"
	"\x68\x33\xd5\xaa\x08\xa7\xcc\xbb\xf1\xa3\xf9\x47\xb0\x8a"
	"\x4b\x47\x8c\x19",
	/* 24 */
	"\x79\x37\x9e\xf3\x6e\x3c\x6d\xa6\xda\xe6\xdd\x78\x60\x15"
	"\x17\xda\x4c\xb5\x54\x84\x53\xcd\xbb\xf1\x47\xf3\x8f\xc1"
	"\x2a\x2e\x3a\x62\xcc",
	/* 25 */
	"\xf3\x6e\x3c\xcd\xbb\xf1\x68\x33\xd5\x6e\xde\x8d\x17\xac"
	"\xe2\x82\x36\x53\x2d\x2a\xc2\xa9\xcd\xbb\xf1\x8f\xe6\x1f"
	"\x05\xab\xb8\xd4\x11\x63\x06",
	/* 26 */
	"\xe6\xdd\x78\x36\xef\xc6\x43\x9b\xa9\xf6\xe6\xdd\x78\x82"
	"\x55\x5c\xa4\xcd\x54\x0b\x15\xe1\xd4\xcd\xbb\xf1\x1e\xcd"
	"\x3f\x12\xac\xe2\xb2\x8e\x18\x33",
	/* 27 */
	"\xcd\xbb\xf1\xdc\xbc\x1b\x4f\xda\x4c\xb5\x6f\xde\x8d\x47"
	"\xb0\x8a\x0b\x69\x33\xd5\x82\x8a\x70\xca\xcd\xbb\xf1\x3c"
	"\x9a\x7f\x4c\xb0\x8a\xcb\x75\xc4\x98\x01",
	/* 28 */
	"\x9b\x77\xe3\x79\xf3\x6e\x3c\xd2\x66\xaa\xed\xe6\xdd\x78"
	"\x09\x56\x71\x51\xda\x4c\xb5\x41\x45\x38\xc5\xcd\xbb\xf1"
	"\x78\x34\xff\x38\xc1\x2a\x2e\xaf\x23\xc6\x0c",
	/* 29 */
	"\x37\xef\xc6\xd3\xcd\xbb\xf1\x94\x36\x53\x6d\x6e\xde\x8d"
	"\x37\xc1\x2a\x2e\x96\x36\x53\xad\xa0\x22\x9c\xca\xcd\xbb"
	"\xf1\xf0\x68\xfe\xf1\x04\xab\xb8\x7c\x1d\x31\x66",
	/* 30 */
	"\x6e\xde\x8d\x27\x37\xef\xc6\xb3\xb4\x99\x6a\xe7\xe6\xdd"
	"\x78\x27\x58\xc5\x85\xa5\xcd\x54\x4b\x50\x11\x4e\xc9\xcd"
	"\xbb\xf1\xe1\xd1\xfc\xe3\x13\xac\xe2\xe2\xeb\x88\x31\x03",
	/* 31 */
	"\xdc\xbc\x1b\xcf\xdc\xbc\x1b\x8f\xa5\xcd\x54\x5b\x6e\xde"
	"\x8d\xf7\x04\xab\xb8\x60\x69\x33\xd5\x26\xa8\x08\xa7\xca"
	"\xcd\xbb\xf1\xc2\xa3\xf9\xc7\x4f\xb0\x8a\x0b\x5f\x47\x8c"
	"\x19",
	/* 32 */
	"\xb9\x79\x37\x9e\x72\xf3\x6e\x3c\x2c\x6d\xa6\xda\xe5\xe6"
	"\xdd\x78\x9f\x60\x15\x17\x58\xda\x4c\xb5\x12\x54\x84\x53"
	"\xcb\xcd\xbb\xf1\x85\x47\xf3\x8f\x3e\xc1\x2a\x2e\xf8\x3a"
	"\x62\xcc",
	/* 33 */
	"\x72\xf3\x6e\x3c\xcb\xcd\xbb\xf1\x60\x69\x33\xd5\x5e\x6e"
	"\xde\x8d\xe7\x13\xac\xe2\x22\x96\x36\x53\x2d\x09\x2a\xc2"
	"\xa9\xcb\xcd\xbb\xf1\x0a\x8f\xe6\x1f\xfb\x04\xab\xb8\xc0"
	"\xd7\x11\x63\x06",
	/* 34 */
	"\xe5\xe6\xdd\x78\x2e\x37\xef\xc6\x13\x4b\x9b\xa9\xf6\xe5"
	"\xe6\xdd\x78\x7d\x82\x55\x5c\x8c\xa5\xcd\x54\x9b\x04\x15"
	"\xe1\xd4\xcb\xcd\xbb\xf1\x15\x1e\xcd\x3f\xee\x13\xac\xe2"
	"\x12\xbe\x8e\x18\x33",
	/* 35 */
	"\xcb\xcd\xbb\xf1\xbc\xdc\xbc\x1b\xcf\x58\xda\x4c\xb5\x5f"
	"\x6e\xde\x8d\xb7\x4f\xb0\x8a\x8b\x63\x69\x33\xd5\x4e\x82"
	"\x8a\x70\xea\xcb\xcd\xbb\xf1\x2b\x3c\x9a\x7f\xbc\x4f\xb0"
	"\x8a\xcb\xf0\x75\xc4\x98\x01",
	/* 36 */
	"\x97\x9b\x77\xe3\xf9\x72\xf3\x6e\x3c\xc7\xd2\x66\xaa\xfd"
	"\xe5\xe6\xdd\x78\xf7\x09\x56\x71\xf1\x58\xda\x4c\xb5\x27"
	"\x41\x45\x38\xf5\xcb\xcd\xbb\xf1\x57\x78\x34\xff\xf8\x3e"
	"\xc1\x2a\x2e\x87\xaf\x23\xc6\x0c",
	/* 37 */
	"\x2f\x37\xef\xc6\xf3\xcb\xcd\xbb\xf1\x3c\x96\x36\x53\xed"
	"\x5f\x6e\xde\x8d\xf7\x3e\xc1\x2a\x2e\x3e\x96\x36\x53\xed"
	"\x93\xa0\x22\x9c\xfa\xcb\xcd\xbb\xf1\xaf\xf0\x68\xfe\xf1"
	"\xfb\x04\xab\xb8\x3c\x7c\x1d\x31\x66",
	/* 38 */
	"\x5f\x6e\xde\x8d\xe7\x2f\x37\xef\xc6\xf3\xb1\xb4\x99\x6a"
	"\xff\xe5\xe6\xdd\x78\xdf\x27\x58\xc5\x85\x8f\xa5\xcd\x54"
	"\xeb\x49\x50\x11\x4e\xf9\xcb\xcd\xbb\xf1\x5e\xe1\xd1\xfc"
	"\xa3\xef\x13\xac\xe2\xe2\xe1\xeb\x88\x31\x03",
	/* 39 */
	"\xbf\xdc\xbc\x1b\xcf\xbf\xdc\xbc\x1b\x8f\x8f\xa5\xcd\x54"
	"\xdb\x5f\x6e\xde\x8d\xe7\xfb\x04\xab\xb8\xe8\x63\x69\x33"
	"\xd5\xf6\x24\xa8\x08\xa7\xfa\xcb\xcd\xbb\xf1\xbc\xc2\xa3"
	"\xf9\x47\xbe\x4f\xb0\x8a\x0b\x0f\x5f\x47\x8c\x19",
	/* 40 */
	"\x7f\xb9\x79\x37\x9e\xfe\x72\xf3\x6e\x3c\x7d\x2c\x6d\xa6"
	"\xda\xfd\xe5\xe6\xdd\x78\x7c\x9f\x60\x15\x17\xfb\x58\xda"
	"\x4c\xb5\x7b\x12\x54\x84\x53\xfa\xcb\xcd\xbb\xf1\x79\x85"
	"\x47\xf3\x8f\xf8\x3e\xc1\x2a\x2e\x78\xf8\x3a\x62\xcc",
	/* 41 */
	"\xfe\x72\xf3\x6e\x3c\xfb\xcb\xcd\xbb\xf1\xec\x63\x69\x33"
	"\xd5\xd6\x5f\x6e\xde\x8d\x87\xef\x13\xac\xe2\xe2\x3e\x96"
	"\x36\x53\xad\x3d\x09\x2a\xc2\x29\xfa\xcb\xcd\xbb\xf1\xf3"
	"\x0a\x8f\xe6\x1f\xe3\xfb\x04\xab\xb8\xc0\xc3\xd7\x11\x63"
	"\x06",
	/* 42 */
	"\xfd\xe5\xe6\xdd\x78\xea\x2f\x37\xef\xc6\x73\x1f\x4b\x9b"
	"\xa9\x36\xfd\xe5\xe6\xdd\x78\xf1\x7d\x82\x55\x5c\xb8\x8f"
	"\xa5\xcd\x54\xcb\x9e\x04\x15\xe1\x54\xfa\xcb\xcd\xbb\xf1"
	"\xe6\x15\x1e\xcd\x3f\x8e\xef\x13\xac\xe2\x02\x1e\xbe\x8e"
	"\x18\x33",
	/* 43 */
	"\xfa\xcb\xcd\xbb\xf1\xa4\xbf\xdc\xbc\x1b\x8f\xfb\x58\xda"
	"\x4c\xb5\xd3\x5f\x6e\xde\x8d\x37\xbe\x4f\xb0\x8a\x8b\xee"
	"\x63\x69\x33\xd5\x62\x4f\x82\x8a\x70\x4a\xfa\xcb\xcd\xbb"
	"\xf1\xcc\x2b\x3c\x9a\x7f\x3c\xbe\x4f\xb0\x8a\x4b\xf0\xf0"
	"\x75\xc4\x98\x01",
	/* 44 */
	"\xf4\x97\x9b\x77\xe3\x99\xfe\x72\xf3\x6e\x3c\xdd\xc7\xd2"
	"\x66\xaa\x2d\xfd\xe5\xe6\xdd\x78\xc7\xf7\x09\x56\x71\xb1"
	"\xfb\x58\xda\x4c\xb5\xb0\x27\x41\x45\x38\x55\xfa\xcb\xcd"
	"\xbb\xf1\x99\x57\x78\x34\xff\xe8\xf8\x3e\xc1\x2a\x2e\x83"
	"\x87\xaf\x23\xc6\x0c",
	/* 45 */
	"\xe9\x2f\x37\xef\xc6\x53\xfa\xcb\xcd\xbb\xf1\xec\x3e\x96"
	"\x36\x53\xed\xd2\x5f\x6e\xde\x8d\xe7\xf8\x3e\xc1\x2a\x2e"
	"\xee\x3e\x96\x36\x53\x6d\xd8\x93\xa0\x22\x9c\x52\xfa\xcb"
	"\xcd\xbb\xf1\x33\xaf\xf0\x68\xfe\xb1\xe3\xfb\x04\xab\xb8"
	"\x18\x3c\x7c\x1d\x31\x66",
	/* 46 */
	"\xd2\x5f\x6e\xde\x8d\x67\xe9\x2f\x37\xef\xc6\x73\xf7\xb1"
	"\xb4\x99\x6a\x2b\xfd\xe5\xe6\xdd\x78\x1d\xdf\x27\x58\xc5"
	"\xc5\xbb\x8f\xa5\xcd\x54\x2b\xec\x49\x50\x11\x4e\x51\xfa"
	"\xcb\xcd\xbb\xf1\x67\x5e\xe1\xd1\xfc\xa3\x8e\xef\x13\xac"
	"\xe2\xc2\xe0\xe1\xeb\x88\x31\x03",
	/* 47 */
	"\xa5\xbf\xdc\xbc\x1b\x4f\xa5\xbf\xdc\xbc\x1b\xcf\xbb\x8f"
	"\xa5\xcd\x54\x9b\xd2\x5f\x6e\xde\x8d\xa7\xe3\xfb\x04\xab"
	"\xb8\xf8\xee\x63\x69\x33\xd5\x12\xf6\x24\xa8\x08\xa7\x52"
	"\xfa\xcb\xcd\xbb\xf1\xcf\xbc\xc2\xa3\xf9\x47\x3a\xbe\x4f"
	"\xb0\x8a\x4b\x06\x0f\x5f\x47\x8c\x19",
	/* 48 */
	"\x4a\x7f\xb9\x79\x37\x9e\x94\xfe\x72\xf3\x6e\x3c\xdf\x7d"
	"\x2c\x6d\xa6\xda\x29\xfd\xe5\xe6\xdd\x78\x74\x7c\x9f\x60"
	"\x15\x17\xbe\xfb\x58\xda\x4c\xb5\x09\x7b\x12\x54\x84\x53"
	"\x53\xfa\xcb\xcd\xbb\xf1\x9e\x79\x85\x47\xf3\x8f\xe8\xf8"
	"\x3e\xc1\x2a\x2e\x33\x78\xf8\x3a\x62\xcc",
	/* 49 */
	"\x94\xfe\x72\xf3\x6e\x3c\x53\xfa\xcb\xcd\xbb\xf1\xf8\xee"
	"\x63\x69\x33\xd5\x9e\xd2\x5f\x6e\xde\x8d\x87\x8e\xef\x13"
	"\xac\xe2\xa2\xef\x3e\x96\x36\x53\xad\x84\x3d\x09\x2a\xc2"
	"\xa9\x53\xfa\xcb\xcd\xbb\xf1\x3c\xf3\x0a\x8f\xe6\x1f\xa3"
	"\xe3\xfb\x04\xab\xb8\x98\xc1\xc3\xd7\x11\x63\x06",
	/* 50 */
	"\x29\xfd\xe5\xe6\xdd\x78\x4e\xe9\x2f\x37\xef\xc6\xd3\x77"
	"\x1f\x4b\x9b\xa9\xf6\x29\xfd\xe5\xe6\xdd\x78\xd1\xf1\x7d"
	"\x82\x55\x5c\xec\xbb\x8f\xa5\xcd\x54\x5b\xc2\x9e\x04\x15"
	"\xe1\xd4\x53\xfa\xcb\xcd\xbb\xf1\x79\xe6\x15\x1e\xcd\x3f"
	"\x8e\x8e\xef\x13\xac\xe2\xd2\x0c\x1e\xbe\x8e\x18\x33",
	/* 51 */
	"\x53\xfa\xcb\xcd\xbb\xf1\x3c\xa5\xbf\xdc\xbc\x1b\xcf\xbe"
	"\xfb\x58\xda\x4c\xb5\x9f\xd2\x5f\x6e\xde\x8d\x37\x3a\xbe"
	"\x4f\xb0\x8a\x8b\xfb\xee\x63\x69\x33\xd5\x2e\x61\x4f\x82"
	"\x8a\x70\xea\x53\xfa\xcb\xcd\xbb\xf1\xf2\xcc\x2b\x3c\x9a"
	"\x7f\x34\x3a\xbe\x4f\xb0\x8a\x8b\x66\xf0\xf0\x75\xc4\x98"
	"\x01",
	/* 52 */
	"\xa7\xf4\x97\x9b\x77\xe3\xf9\x94\xfe\x72\xf3\x6e\x3c\xf7"
	"\xdd\xc7\xd2\x66\xaa\xfd\x29\xfd\xe5\xe6\xdd\x78\x46\xc7"
	"\xf7\x09\x56\x71\xe1\xbe\xfb\x58\xda\x4c\xb5\x96\xb0\x27"
	"\x41\x45\x38\xe5\x53\xfa\xcb\xcd\xbb\xf1\xe5\x99\x57\x78"
	"\x34\xff\xd8\xe8\xf8\x3e\xc1\x2a\x2e\x35\x83\x87\xaf\x23"
	"\xc6\x0c",
	/* 53 */
	"\x4f\xe9\x2f\x37\xef\xc6\xf3\x53\xfa\xcb\xcd\xbb\xf1\xb8"
	"\xef\x3e\x96\x36\x53\x6d\x9f\xd2\x5f\x6e\xde\x8d\xd7\xe8"
	"\xf8\x3e\xc1\x2a\x2e\xba\xef\x3e\x96\x36\x53\x2d\x4b\xd8"
	"\x93\xa0\x22\x9c\xe2\x53\xfa\xcb\xcd\xbb\xf1\xcb\x33\xaf"
	"\xf0\x68\xfe\x71\xa3\xe3\xfb\x04\xab\xb8\xa8\x19\x3c\x7c"
	"\x1d\x31\x66",
	/* 54 */
	"\x9f\xd2\x5f\x6e\xde\x8d\xa7\x4f\xe9\x2f\x37\xef\xc6\xd3"
	"\x7d\xf7\xb1\xb4\x99\x6a\xf3\x29\xfd\xe5\xe6\xdd\x78\x1b"
	"\x1d\xdf\x27\x58\xc5\x85\xee\xbb\x8f\xa5\xcd\x54\x9b\x25"
	"\xec\x49\x50\x11\x4e\xe1\x53\xfa\xcb\xcd\xbb\xf1\x97\x67"
	"\x5e\xe1\xd1\xfc\xa3\x8d\x8e\xef\x13\xac\xe2\x52\xcd\xe0"
	"\xe1\xeb\x88\x31\x03",
	/* 55 */
	"\x3e\xa5\xbf\xdc\xbc\x1b\x4f\x3e\xa5\xbf\xdc\xbc\x1b\x8f"
	"\xee\xbb\x8f\xa5\xcd\x54\x1b\x9f\xd2\x5f\x6e\xde\x8d\x67"
	"\xa3\xe3\xfb\x04\xab\xb8\xa0\xfb\xee\x63\x69\x33\xd5\xca"
	"\x12\xf6\x24\xa8\x08\xa7\xe0\x53\xfa\xcb\xcd\xbb\xf1\x2e"
	"\xcf\xbc\xc2\xa3\xf9\x47\x36\x3a\xbe\x4f\xb0\x8a\x8b\x6a"
	"\x06\x0f\x5f\x47\x8c\x19",
	/* 56 */
	"\x7c\x4a\x7f\xb9\x79\x37\x9e\xf8\x94\xfe\x72\xf3\x6e\x3c"
	"\x74\xdf\x7d\x2c\x6d\xa6\xda\xf0\x29\xfd\xe5\xe6\xdd\x78"
	"\x6c\x74\x7c\x9f\x60\x15\x17\xe8\xbe\xfb\x58\xda\x4c\xb5"
	"\x64\x09\x7b\x12\x54\x84\x53\xe0\x53\xfa\xcb\xcd\xbb\xf1"
	"\x5c\x9e\x79\x85\x47\xf3\x8f\xd8\xe8\xf8\x3e\xc1\x2a\x2e"
	"\x54\x33\x78\xf8\x3a\x62\xcc",
	/* 57 */
	"\xf8\x94\xfe\x72\xf3\x6e\x3c\xe1\x53\xfa\xcb\xcd\xbb\xf1"
	"\xa0\xfb\xee\x63\x69\x33\xd5\x06\x9f\xd2\x5f\x6e\xde\x8d"
	"\x87\x8d\x8e\xef\x13\xac\xe2\x02\xba\xef\x3e\x96\x36\x53"
	"\x6d\xb2\x84\x3d\x09\x2a\xc2\xa9\xe0\x53\xfa\xcb\xcd\xbb"
	"\xf1\xb9\x3c\xf3\x0a\x8f\xe6\x1f\x63\xa3\xe3\xfb\x04\xab"
	"\xb8\xa4\x9a\xc1\xc3\xd7\x11\x63\x06",
	/* 58 */
	"\xf0\x29\xfd\xe5\xe6\xdd\x78\x82\x4f\xe9\x2f\x37\xef\xc6"
	"\x03\xdd\x77\x1f\x4b\x9b\xa9\x76\xf0\x29\xfd\xe5\xe6\xdd"
	"\x78\xb1\xd1\xf1\x7d\x82\x55\x5c\x84\xee\xbb\x8f\xa5\xcd"
	"\x54\x2b\x59\xc2\x9e\x04\x15\xe1\x94\xe0\x53\xfa\xcb\xcd"
	"\xbb\xf1\x72\x79\xe6\x15\x1e\xcd\x3f\x8e\x8d\x8e\xef\x13"
	"\xac\xe2\x32\xd5\x0c\x1e\xbe\x8e\x18\x33",
	/* 59 */
	"\xe0\x53\xfa\xcb\xcd\xbb\xf1\x0c\x3e\xa5\xbf\xdc\xbc\x1b"
	"\x4f\xe8\xbe\xfb\x58\xda\x4c\xb5\x05\x9f\xd2\x5f\x6e\xde"
	"\x8d\x37\x36\x3a\xbe\x4f\xb0\x8a\x8b\xa1\xfb\xee\x63\x69"
	"\x33\xd5\x92\x2c\x61\x4f\x82\x8a\x70\xaa\xe0\x53\xfa\xcb"
	"\xcd\xbb\xf1\xe5\xf2\xcc\x2b\x3c\x9a\x7f\x34\x36\x3a\xbe"
	"\x4f\xb0\x8a\xcb\xa9\x66\xf0\xf0\x75\xc4\x98\x01",
	/* 60 */
	"\xc1\xa7\xf4\x97\x9b\x77\xe3\x29\xf8\x94\xfe\x72\xf3\x6e"
	"\x3c\x43\xf7\xdd\xc7\xd2\x66\xaa\x5d\xf0\x29\xfd\xe5\xe6"
	"\xdd\x78\xc6\x46\xc7\xf7\x09\x56\x71\x71\xe8\xbe\xfb\x58"
	"\xda\x4c\xb5\x49\x96\xb0\x27\x41\x45\x38\xa5\xe0\x53\xfa"
	"\xcb\xcd\xbb\xf1\xcb\xe5\x99\x57\x78\x34\xff\xd8\xd8\xe8"
	"\xf8\x3e\xc1\x2a\x2e\x4e\x35\x83\x87\xaf\x23\xc6\x0c",
	/* 61 */
	"\x82\x4f\xe9\x2f\x37\xef\xc6\xb3\xe0\x53\xfa\xcb\xcd\xbb"
	"\xf1\x1c\xba\xef\x3e\x96\x36\x53\x6d\x05\x9f\xd2\x5f\x6e"
	"\xde\x8d\xd7\xd8\xe8\xf8\x3e\xc1\x2a\x2e\x1e\xba\xef\x3e"
	"\x96\x36\x53\xad\x24\x4b\xd8\x93\xa0\x22\x9c\xaa\xe0\x53"
	"\xfa\xcb\xcd\xbb\xf1\x97\xcb\x33\xaf\xf0\x68\xfe\x51\x63"
	"\xa3\xe3\xfb\x04\xab\xb8\x70\xaa\x19\x3c\x7c\x1d\x31\x66",
	/* 62 */
	"\x05\x9f\xd2\x5f\x6e\xde\x8d\xa7\x82\x4f\xe9\x2f\x37\xef"
	"\xc6\xf3\xd0\x7d\xf7\xb1\xb4\x99\x6a\x57\xf0\x29\xfd\xe5"
	"\xe6\xdd\x78\x1a\x1b\x1d\xdf\x27\x58\xc5\xc5\x87\xee\xbb"
	"\x8f\xa5\xcd\x54\x4b\x92\x25\xec\x49\x50\x11\x4e\xa9\xe0"
	"\x53\xfa\xcb\xcd\xbb\xf1\x2f\x97\x67\x5e\xe1\xd1\xfc\x23"
	"\x8d\x8d\x8e\xef\x13\xac\xe2\x92\x53\xcd\xe0\xe1\xeb\x88"
	"\x31\x03",
	/* 63 */
	"\x0a\x3e\xa5\xbf\xdc\xbc\x1b\xcf\x0a\x3e\xa5\xbf\xdc\xbc"
	"\x1b\xcf\x87\xee\xbb\x8f\xa5\xcd\x54\x5b\x05\x9f\xd2\x5f"
	"\x6e\xde\x8d\x47\x63\xa3\xe3\xfb\x04\xab\xb8\xf8\xa1\xfb"
	"\xee\x63\x69\x33\xd5\x26\xc9\x12\xf6\x24\xa8\x08\xa7\xa8"
	"\xe0\x53\xfa\xcb\xcd\xbb\xf1\x5e\x2e\xcf\xbc\xc2\xa3\xf9"
	"\xc7\x34\x36\x3a\xbe\x4f\xb0\x8a\xcb\x9c\x6a\x06\x0f\x5f"
	"\x47\x8c\x19",
	/* 64 */
	"\x15\x7c\x4a\x7f\xb9\x79\x37\x9e\x2a\xf8\x94\xfe\x72\xf3"
	"\x6e\x3c\x3f\x74\xdf\x7d\x2c\x6d\xa6\xda\x54\xf0\x29\xfd"
	"\xe5\xe6\xdd\x78\x69\x6c\x74\x7c\x9f\x60\x15\x17\x7e\xe8"
	"\xbe\xfb\x58\xda\x4c\xb5\x93\x64\x09\x7b\x12\x54\x84\x53"
	"\xa8\xe0\x53\xfa\xcb\xcd\xbb\xf1\xbd\x5c\x9e\x79\x85\x47"
	"\xf3\x8f\xd2\xd8\xe8\xf8\x3e\xc1\x2a\x2e\xe7\x54\x33\x78"
	"\xf8\x3a\x62\xcc",
};

static uint64
vector_value(int i, int bw)
{
	if (bw == 0)
		return 0;
	return ((uint64) (i + 1) * UINT64CONST(0x9E3779B97F4A7C15)) >> (64 - bw);
}

/* Spec: 0..7 with width 3 is 10001000 11000110 11111010. */
static void
test_unpack_spec_example(void)
{
	static const uint8 bytes[] = {0x88, 0xC6, 0xFA};
	uint8	   *in = ut_exact_copy(bytes, sizeof(bytes));
	uint32		out32[8];
	uint64		out64[8];
	int			i;

	pq_unpack32(in, 3, out32, 8);
	pq_unpack64(in, 3, out64, 8);
	for (i = 0; i < 8; i++)
	{
		CHECK_EQ_INT(out32[i], i);
		CHECK_EQ_INT(out64[i], i);
	}
}

/* Every width 0..64: unpack the external vectors and pack them back. */
static void
test_width_vectors(void)
{
	int			bw;

	for (bw = 0; bw <= 64; bw++)
	{
		size_t		len = (11 * bw + 7) / 8;
		uint8	   *in = ut_exact_copy(width_vectors[bw], len);
		uint64		vals[11];
		uint64		out64[11];
		uint32		vals32[11];
		uint32		out32[11];
		PqBuffer	buf;
		int			i;

		for (i = 0; i < 11; i++)
			vals[i] = vector_value(i, bw);
		pq_unpack64(in, bw, out64, 11);
		for (i = 0; i < 11; i++)
			CHECK(out64[i] == vals[i]);
		pq_buffer_init(&buf, 0);
		pq_pack64(&buf, vals, 11, bw);
		CHECK_EQ_INT(buf.len, len);
		CHECK(memcmp(buf.data, in, len) == 0);
		if (bw > 32)
			continue;
		for (i = 0; i < 11; i++)
			vals32[i] = (uint32) vals[i];
		pq_unpack32(in, bw, out32, 11);
		for (i = 0; i < 11; i++)
			CHECK_EQ_INT(out32[i], vals32[i]);
		pq_buffer_reset(&buf);
		pq_pack32(&buf, vals32, 11, bw);
		CHECK_EQ_INT(buf.len, len);
		CHECK(memcmp(buf.data, in, len) == 0);
	}
}

/* All-ones values pack to 0xFF bytes and a partial last byte. */
static void
test_all_ones(void)
{
	static const int counts[] = {1, 5, 13, 32, 45};
	int			bw;
	int			c;

	for (bw = 1; bw <= 64; bw++)
		for (c = 0; c < lengthof(counts); c++)
		{
			int			n = counts[c];
			size_t		bits = (size_t) n * bw;
			size_t		len = (bits + 7) / 8;
			uint8	   *in = palloc(len);
			uint64	   *out64 = palloc(sizeof(uint64) * n);
			uint32	   *out32 = palloc(sizeof(uint32) * n);
			int			i;

			memset(in, 0xFF, len);
			if (bits % 8)
				in[len - 1] = (uint8) ((1 << (bits % 8)) - 1);
			pq_unpack64(in, bw, out64, n);
			for (i = 0; i < n; i++)
				CHECK(out64[i] == mask64(bw));
			if (bw <= 32)
			{
				pq_unpack32(in, bw, out32, n);
				for (i = 0; i < n; i++)
					CHECK(out32[i] == (uint32) mask64(bw));
			}
		}
}

/* Random values, odd counts: unpack and pack agree with the reference. */
static void
test_reference_random(void)
{
	static const int counts[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65,
	100, 255, 1000};
	int			bw;
	int			c;

	ut_rng_seed(42);
	for (bw = 0; bw <= 64; bw++)
		for (c = 0; c < lengthof(counts); c++)
		{
			int			n = counts[c];
			size_t		len = ((size_t) n * bw + 7) / 8;
			uint64	   *vals = palloc(sizeof(uint64) * (n + 1));
			uint32	   *vals32 = palloc(sizeof(uint32) * (n + 1));
			uint64	   *out64 = palloc(sizeof(uint64) * (n + 1));
			uint32	   *out32 = palloc(sizeof(uint32) * (n + 1));
			uint8	   *ref = palloc(len + 1);
			uint8	   *in;
			PqBuffer	buf;
			int			i;

			for (i = 0; i < n; i++)
			{
				vals[i] = ut_rng_next() & mask64(bw);
				vals32[i] = (uint32) vals[i];
			}
			ref_pack(vals, n, bw, ref);
			in = ut_exact_copy(ref, len);
			pq_unpack64(in, bw, out64, n);
			for (i = 0; i < n; i++)
				CHECK(out64[i] == vals[i]);
			pq_buffer_init(&buf, 0);
			pq_pack64(&buf, vals, n, bw);
			CHECK_EQ_INT(buf.len, len);
			CHECK(len == 0 || memcmp(buf.data, ref, len) == 0);
			if (bw > 32)
				continue;
			pq_unpack32(in, bw, out32, n);
			for (i = 0; i < n; i++)
				CHECK_EQ_INT(out32[i], vals32[i]);
			pq_buffer_reset(&buf);
			pq_pack32(&buf, vals32, n, bw);
			CHECK_EQ_INT(buf.len, len);
			CHECK(len == 0 || memcmp(buf.data, ref, len) == 0);
		}
}

/* Packing ignores bits above the width. */
static void
test_pack_masks(void)
{
	uint32		v32[2] = {0xFFFFFFF5, 0xFFFFFFF2};
	uint64		v64[2] = {PG_UINT64_MAX, 0};
	PqBuffer	buf;

	pq_buffer_init(&buf, 0);
	pq_pack32(&buf, v32, 2, 4);
	CHECK_EQ_INT(buf.len, 1);
	CHECK_EQ_INT(buf.data[0], 0x25);
	pq_buffer_reset(&buf);
	pq_pack64(&buf, v64, 2, 36);
	CHECK_EQ_INT(buf.len, 9);
	CHECK_EQ_INT(buf.data[4], 0x0F);
	CHECK_EQ_INT(buf.data[8], 0x00);
}

/* ---- RLE / bit-packed hybrid decoder ---- */

static int
rle_decode(const uint8 *bytes, size_t len, int bw, uint32 *out, int n)
{
	PqRleDecoder d;

	pq_rle_init(&d, ut_exact_copy(bytes, len), len, bw);
	return pq_rle_read_u32(&d, out, n);
}

static void
test_rle_spec_bit_packed(void)
{
	static const uint8 bytes[] = {0x03, 0x88, 0xC6, 0xFA};
	uint32		out[9];
	int			i;

	CHECK_EQ_INT(rle_decode(bytes, sizeof(bytes), 3, out, 9), 8);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out[i], i);
}

/* RLE run, bit-packed run, RLE run with a two-byte varint header. */
static void
test_rle_mixed_runs(void)
{
	static const uint8 bytes[] = {
		0x0A, 0x04,				/* 5 x 4 */
		0x03, 0x88, 0xC6, 0xFA, /* 0..7 */
		0xD8, 0x04, 0x06		/* 300 x 6 */
	};
	PqRleDecoder d;
	uint32		out[400];
	int			i;

	CHECK_EQ_INT(rle_decode(bytes, sizeof(bytes), 3, out, 400), 313);
	for (i = 0; i < 5; i++)
		CHECK_EQ_INT(out[i], 4);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out[5 + i], i);
	for (i = 13; i < 313; i++)
		CHECK_EQ_INT(out[i], 6);

	/* the same in small reads, which split runs and groups */
	pq_rle_init(&d, ut_exact_copy(bytes, sizeof(bytes)), sizeof(bytes), 3);
	CHECK_EQ_INT(pq_rle_read_u32(&d, out, 3), 3);
	CHECK_EQ_INT(out[2], 4);
	CHECK_EQ_INT(pq_rle_read_u32(&d, out, 4), 4);
	CHECK_EQ_INT(out[1], 4);
	CHECK_EQ_INT(out[2], 0);
	CHECK_EQ_INT(out[3], 1);
	CHECK_EQ_INT(pq_rle_read_u32(&d, out, 3), 3);
	CHECK_EQ_INT(out[0], 2);
	CHECK_EQ_INT(out[2], 4);
	CHECK_EQ_INT(pq_rle_read_u32(&d, out, 5), 5);
	CHECK_EQ_INT(out[2], 7);
	CHECK_EQ_INT(out[3], 6);
	CHECK_EQ_INT(pq_rle_read_u32(&d, out, 1000), 298);
	CHECK_EQ_INT(pq_rle_read_u32(&d, out, 1), 0);
}

/* RLE values take ceil(bit_width / 8) little-endian bytes. */
static void
test_rle_wide_values(void)
{
	static const uint8 w9[] = {0x04, 0xFF, 0x01};
	static const uint8 w17[] = {0x02, 0x01, 0x00, 0x01};
	static const uint8 w32[] = {0x02, 0xFF, 0xFF, 0xFF, 0xFF};
	uint32		out[2];

	CHECK_EQ_INT(rle_decode(w9, sizeof(w9), 9, out, 2), 2);
	CHECK_EQ_INT(out[1], 511);
	CHECK_EQ_INT(rle_decode(w17, sizeof(w17), 17, out, 2), 1);
	CHECK_EQ_INT(out[0], 65537);
	CHECK_EQ_INT(rle_decode(w32, sizeof(w32), 32, out, 2), 1);
	CHECK(out[0] == 0xFFFFFFFF);
}

static void
test_rle_width_zero(void)
{
	/* RLE run of 10 and one bit-packed group: no value bytes at all */
	static const uint8 bytes[] = {0x14, 0x03};
	uint32		out[20];
	int			i;

	memset(out, 0xAB, sizeof(out));
	CHECK_EQ_INT(rle_decode(bytes, sizeof(bytes), 0, out, 20), 18);
	for (i = 0; i < 18; i++)
		CHECK_EQ_INT(out[i], 0);
}

/* Empty runs carry nothing and are skipped. */
static void
test_rle_empty_runs(void)
{
	static const uint8 bytes[] = {0x00, 0x07, 0x01, 0x04, 0x05};
	uint32		out[4];

	CHECK_EQ_INT(rle_decode(bytes, sizeof(bytes), 3, out, 4), 2);
	CHECK_EQ_INT(out[0], 5);
	CHECK_EQ_INT(out[1], 5);
}

/*
 * A bit-packed run claiming two groups of width 3 (6 bytes) with only 4
 * bytes left yields the 10 values whose bits exist.
 */
static void
test_rle_truncated_bit_packed(void)
{
	static const uint8 bytes[] = {0x05, 0x88, 0xC6, 0xFA, 0xFF};
	static const uint8 nothing[] = {0x03, 0x01};
	uint32		out[16];
	int			i;

	CHECK_EQ_INT(rle_decode(bytes, sizeof(bytes), 3, out, 16), 10);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out[i], i);
	CHECK_EQ_INT(out[8], 7);
	CHECK_EQ_INT(out[9], 7);
	/* one byte is less than one value of width 9 */
	CHECK_EQ_INT(rle_decode(nothing, sizeof(nothing), 9, out, 16), 0);
}

static void
test_rle_corrupt(void)
{
	static const uint8 short_value[] = {0x04, 0xFF};
	static const uint8 short_header[] = {0x80};
	static const uint8 long_rle[] = {0x80, 0x80, 0x80, 0x80, 0x10, 0x01};
	static const uint8 long_bp[] = {0x81, 0x80, 0x80, 0x80, 0x02};
	static const uint8 overflow[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	0xFF, 0xFF, 0xFF, 0xFF, 0x01};
	uint32		out[4];
	PqRleDecoder d;

	CHECK_ERROR(rle_decode(short_value, sizeof(short_value), 9, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(rle_decode(short_header, sizeof(short_header), 3, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(rle_decode(long_rle, sizeof(long_rle), 3, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(rle_decode(long_bp, sizeof(long_bp), 0, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(rle_decode(overflow, sizeof(overflow), 3, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_rle_init(&d, short_value, 2, 33), ERRCODE_DATA_CORRUPTED);
}

static void
test_rle_read_levels(void)
{
	static const uint8 w9[] = {0x04, 0x2C, 0x01};
	static const uint8 w16[] = {0x02, 0x40, 0x9C};
	PqRleDecoder d;
	int16		out[3];

	pq_rle_init(&d, ut_exact_copy(w9, sizeof(w9)), sizeof(w9), 9);
	CHECK_EQ_INT(pq_rle_read_levels(&d, out, 3, 300), 2);
	CHECK_EQ_INT(out[0], 300);
	CHECK_EQ_INT(out[1], 300);
	/* 300 is above a maximum level of 299 */
	pq_rle_init(&d, ut_exact_copy(w9, sizeof(w9)), sizeof(w9), 9);
	CHECK_ERROR(pq_rle_read_levels(&d, out, 1, 299), ERRCODE_DATA_CORRUPTED);
	/* 40000 does not fit a level */
	pq_rle_init(&d, ut_exact_copy(w16, sizeof(w16)), sizeof(w16), 16);
	CHECK_ERROR(pq_rle_read_levels(&d, out, 1, PG_INT16_MAX), ERRCODE_DATA_CORRUPTED);
}

/* ---- levels ---- */

/*
 * v1 levels, max level 2: length 5, RLE 4 x 2, then one bit-packed group
 * 0,1,2,0,1,2,0,1 (00100100 01001001), then a byte of the values section.
 */
static const uint8 v1_levels[] = {
	0x05, 0x00, 0x00, 0x00, 0x08, 0x02, 0x03, 0x24, 0x49, 0xEE
};

static void
test_levels_rle(void)
{
	static const int16 expect[] = {2, 2, 2, 2, 0, 1, 2, 0, 1, 2, 0, 1};
	uint8	   *buf = ut_exact_copy(v1_levels, sizeof(v1_levels));
	int16		out[12];
	int			i;

	CHECK_EQ_INT(pq_decode_levels(PQ_ENC_RLE, true, buf, sizeof(v1_levels),
								  2, out, 12), 9);
	for (i = 0; i < 12; i++)
		CHECK_EQ_INT(out[i], expect[i]);
	/* fewer levels than the padded group holds */
	CHECK_EQ_INT(pq_decode_levels(PQ_ENC_RLE, true, buf, sizeof(v1_levels),
								  2, out, 10), 9);
	/* v2: no prefix, the exact section length */
	memset(out, 0, sizeof(out));
	CHECK_EQ_INT(pq_decode_levels(PQ_ENC_RLE, false, buf + 4, 5, 2, out, 12),
				 5);
	for (i = 0; i < 12; i++)
		CHECK_EQ_INT(out[i], expect[i]);
	/* max level 0: nothing stored */
	out[0] = 7;
	CHECK_EQ_INT(pq_decode_levels(PQ_ENC_RLE, true, buf, 0, 0, out, 3), 0);
	CHECK_EQ_INT(out[0], 0);
}

static void
test_levels_corrupt(void)
{
	static const uint8 rle_high[] = {0x02, 0x03};
	static const uint8 bp_high[] = {0x03, 0xFF, 0xFF};
	static const uint8 long_prefix[] = {0x06, 0x00, 0x00, 0x00, 0x02, 0x01};
	uint8	   *buf = ut_exact_copy(v1_levels, sizeof(v1_levels));
	int16		out[16];

	/* more levels than the data holds */
	CHECK_ERROR(pq_decode_levels(PQ_ENC_RLE, true, buf, sizeof(v1_levels),
								 2, out, 13), ERRCODE_DATA_CORRUPTED);
	/* a level above the maximum, in an RLE run and in a bit-packed run */
	CHECK_ERROR(pq_decode_levels(PQ_ENC_RLE, false, rle_high, 2, 1, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decode_levels(PQ_ENC_RLE, false, bp_high, 3, 2, out, 8),
				ERRCODE_DATA_CORRUPTED);
	/* length prefix beyond the buffer, and no room for the prefix */
	CHECK_ERROR(pq_decode_levels(PQ_ENC_RLE, true, long_prefix, 6, 1, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decode_levels(PQ_ENC_RLE, true, long_prefix, 3, 1, out, 1),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decode_levels(PQ_ENC_PLAIN, true, buf, 10, 1, out, 1),
				ERRCODE_FEATURE_NOT_SUPPORTED);
}

/* Spec: deprecated BIT_PACKED, 0..7 width 3 MSB first. */
static void
test_levels_bit_packed(void)
{
	static const uint8 spec[] = {0x05, 0x39, 0x77};
	static const uint8 thirty[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	0xF0};
	uint8	   *buf = ut_exact_copy(spec, sizeof(spec));
	int16		out[30];
	int			i;

	CHECK_EQ_INT(pq_decode_levels(PQ_ENC_BIT_PACKED, true, buf, 3, 7, out, 8),
				 3);
	for (i = 0; i < 8; i++)
		CHECK_EQ_INT(out[i], i);
	/* the spec's 30 values of 2 bits take 8 bytes */
	buf = ut_exact_copy(thirty, sizeof(thirty));
	CHECK_EQ_INT(pq_decode_levels(PQ_ENC_BIT_PACKED, false, buf, 8, 3, out,
								  30), 8);
	for (i = 0; i < 30; i++)
		CHECK_EQ_INT(out[i], 3);
	/* too few bytes; a level above the maximum */
	buf = ut_exact_copy(spec, sizeof(spec));
	CHECK_ERROR(pq_decode_levels(PQ_ENC_BIT_PACKED, true, buf, 3, 7, out, 9),
				ERRCODE_DATA_CORRUPTED);
	CHECK_ERROR(pq_decode_levels(PQ_ENC_BIT_PACKED, true, buf, 3, 4, out, 8),
				ERRCODE_DATA_CORRUPTED);
}

/* ---- encoder ---- */

static bool
rle_encodes_to(const uint32 *vals, int n, int bw, const uint8 *expect,
			   size_t len)
{
	PqBuffer	buf;
	PqRleEncoder e;
	int			i;

	pq_buffer_init(&buf, 0);
	pq_rle_encoder_init(&e, &buf, bw);
	for (i = 0; i < n; i++)
		pq_rle_encoder_put(&e, vals[i]);
	pq_rle_encoder_flush(&e);
	return buf.len == len && memcmp(buf.data, expect, len) == 0;
}

static void
test_rle_encoder_vectors(void)
{
	static const uint32 seq[] = {0, 1, 2, 3, 4, 5, 6, 7, 2, 2, 2, 2, 2, 2, 2,
	2, 2};
	static const uint8 seq_rle[] = {0x03, 0x88, 0xC6, 0xFA, 0x12, 0x02};
	static const uint32 short_vals[] = {1, 2, 3};
	static const uint8 short_rle[] = {0x03, 0x39, 0x00};
	static const uint32 sevens[] = {7, 7, 7};
	static const uint8 sevens_rle[] = {0x06, 0x07};
	static const uint8 zeros_rle[] = {0x28};
	static const uint8 w9_rle[] = {0x10, 0x2C, 0x01};
	uint32		vals[512];
	PqBuffer	buf;
	PqRleEncoder e;
	int			i;

	for (i = 0; i < 10; i++)
		vals[i] = 5;
	CHECK(rle_encodes_to(vals, 10, 3, (const uint8 *) "\x14\x05", 2));
	CHECK(rle_encodes_to(seq, 8, 3, seq_rle, 4));
	CHECK(rle_encodes_to(seq, lengthof(seq), 3, seq_rle, sizeof(seq_rle)));
	CHECK(rle_encodes_to(short_vals, 3, 2, short_rle, sizeof(short_rle)));
	CHECK(rle_encodes_to(sevens, 3, 3, sevens_rle, sizeof(sevens_rle)));
	memset(vals, 0, sizeof(vals));
	CHECK(rle_encodes_to(vals, 20, 0, zeros_rle, sizeof(zeros_rle)));
	for (i = 0; i < 8; i++)
		vals[i] = 300;
	CHECK(rle_encodes_to(vals, 8, 9, w9_rle, sizeof(w9_rle)));

	/* 64 groups need two bit-packed runs: 63 groups, then 1 */
	for (i = 0; i < 512; i++)
		vals[i] = i & 7;
	pq_buffer_init(&buf, 0);
	pq_rle_encoder_init(&e, &buf, 3);
	for (i = 0; i < 512; i++)
		pq_rle_encoder_put(&e, vals[i]);
	pq_rle_encoder_flush(&e);
	CHECK_EQ_INT(buf.len, 194);
	CHECK_EQ_INT(buf.data[0], 0x7F);
	CHECK_EQ_INT(buf.data[190], 0x03);
	CHECK(memcmp(buf.data + 191, "\x88\xC6\xFA", 3) == 0);
}

/*
 * n values of width bw in random runs (repeats and noise, up to 40 long),
 * and their encoding by pq_rle_encoder_put into buf.
 */
static uint32 *
random_runs(int n, int bw, PqBuffer *buf)
{
	uint32	   *vals = palloc(sizeof(uint32) * n);
	PqRleEncoder e;
	int			i = 0;

	while (i < n)
	{
		int			run = 1 + (int) (ut_rng_next() % 40);
		bool		repeat = (ut_rng_next() & 1) != 0;
		uint32		v = (uint32) (ut_rng_next() & mask64(bw));

		for (; run > 0 && i < n; run--)
			vals[i++] = repeat ? v : (uint32) (ut_rng_next() & mask64(bw));
	}
	pq_buffer_init(buf, 0);
	pq_rle_encoder_init(&e, buf, bw);
	for (i = 0; i < n; i++)
		pq_rle_encoder_put(&e, vals[i]);
	pq_rle_encoder_flush(&e);
	return vals;
}

/* Random runs and noise for every width, decoded in uneven reads. */
static void
test_rle_roundtrip(void)
{
	int			bw;

	ut_rng_seed(7);
	for (bw = 0; bw <= 32; bw++)
	{
		int			n = 5000;
		PqBuffer	buf;
		uint32	   *vals = random_runs(n, bw, &buf);
		uint32	   *out = palloc(sizeof(uint32) * (n + 8));
		PqRleEncoder e;
		PqRleDecoder d;
		int			i;
		int			got = 0;

		/* put_many, in uneven pieces, writes the same bytes */
		{
			PqBuffer	many;
			int			at = 0;

			pq_buffer_init(&many, 0);
			pq_rle_encoder_init(&e, &many, bw);
			while (at < n)
			{
				int			k = 1 + (int) (ut_rng_next() % 100);

				k = Min(k, n - at);

				pq_rle_encoder_put_many(&e, vals + at, k);
				at += k;
			}
			pq_rle_encoder_flush(&e);
			CHECK_EQ_INT(many.len, buf.len);
			CHECK(memcmp(many.data, buf.data, buf.len) == 0);
		}

		pq_rle_init(&d, ut_exact_copy(buf.data, buf.len), buf.len, bw);
		while (got < n)
		{
			int			want = 1 + (int) (ut_rng_next() % 70);

			want = Min(want, n - got);
			CHECK_EQ_INT(pq_rle_read_u32(&d, out + got, want), want);
			got += want;
		}
		for (i = 0; i < n; i++)
			CHECK_EQ_INT(out[i], vals[i]);
		/* only zero padding of the last group can follow */
		CHECK(pq_rle_read_u32(&d, out, 8) < 8);
	}
}

/*
 * Skips interleaved with reads, at every width: each read returns the
 * values the encoder was given at that position, so a skip passed over
 * exactly its values (within RLE runs, whole bit-packed groups, and a
 * group partly read); a skip past the end stops at the last value.
 */
static void
test_rle_skip(void)
{
	int			bw;

	ut_rng_seed(11);
	for (bw = 0; bw <= 32; bw++)
	{
		int			n = 6000;
		PqBuffer	buf;
		uint32	   *vals = random_runs(n, bw, &buf);
		uint32	   *out = palloc(sizeof(uint32) * 80);
		PqRleDecoder d;
		int			i;
		int			at = 0;

		pq_rle_init(&d, ut_exact_copy(buf.data, buf.len), buf.len, bw);
		while (at < n)
		{
			int			skip = (int) (ut_rng_next() % 90);
			int			want = 1 + (int) (ut_rng_next() % 20);

			skip = Min(skip, n - at);
			CHECK_EQ_INT(pq_rle_skip(&d, skip), skip);
			at += skip;
			want = Min(want, n - at);
			CHECK_EQ_INT(pq_rle_read_u32(&d, out, want), want);
			for (i = 0; i < want; i++)
				CHECK_EQ_INT(out[i], vals[at + i]);
			at += want;
		}
		/* only zero padding of the last group can follow */
		CHECK(pq_rle_skip(&d, 8) < 8);
	}
}

void
suite_bitpack_rle(void)
{
	ut_run("bitpack: spec example width 3", test_unpack_spec_example);
	ut_run("bitpack: external vectors, widths 0..64", test_width_vectors);
	ut_run("bitpack: all-ones, widths 1..64", test_all_ones);
	ut_run("bitpack: reference packer, random, odd counts",
		   test_reference_random);
	ut_run("bitpack: pack masks high bits", test_pack_masks);
	ut_run("rle: spec bit-packed run", test_rle_spec_bit_packed);
	ut_run("rle: mixed runs and split reads", test_rle_mixed_runs);
	ut_run("rle: multi-byte RLE values", test_rle_wide_values);
	ut_run("rle: bit width 0", test_rle_width_zero);
	ut_run("rle: empty runs are skipped", test_rle_empty_runs);
	ut_run("rle: truncated bit-packed run", test_rle_truncated_bit_packed);
	ut_run("rle: corrupt input", test_rle_corrupt);
	ut_run("rle: int16 reads", test_rle_read_levels);
	ut_run("levels: RLE v1 and v2", test_levels_rle);
	ut_run("levels: corrupt", test_levels_corrupt);
	ut_run("levels: deprecated BIT_PACKED", test_levels_bit_packed);
	ut_run("rle encoder: hand vectors", test_rle_encoder_vectors);
	ut_run("rle encoder: round trip, widths 0..32", test_rle_roundtrip);
	ut_run("rle: skips between reads, widths 0..32", test_rle_skip);
}
