/*-------------------------------------------------------------------------
 *
 * variant_binary.h
 *		The Variant binary encoding pieces shared by the unshredded decoder
 *		(variant.c) and the shredded reconstruction (shredded.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_VARIANT_INTERNAL_H
#define PQ_VARIANT_INTERNAL_H

#include "format/metadata/nested_value.h"

/* Nesting deeper than this is refused rather than risking the C stack. */
#define PQ_VARIANT_MAX_DEPTH 1000

/* Basic types: the low 2 bits of a value's first byte */
#define PQ_VARIANT_PRIMITIVE	0
#define PQ_VARIANT_SHORT_STRING 1
#define PQ_VARIANT_OBJECT		2
#define PQ_VARIANT_ARRAY		3

/* A parsed metadata component (the key dictionary). */
typedef struct PqVariantMeta
{
	uint32		dict_size;
	int			offset_size;	/* 1..4 */
	const uint8 *offsets;		/* dict_size + 1 entries */
	const uint8 *strings;
	size_t		strings_len;
} PqVariantMeta;

/* An object value's layout, checked to lie within its bytes. */
typedef struct PqVariantObject
{
	uint32		n;				/* number of fields */
	int			id_size;		/* 1..4 */
	int			offset_size;	/* 1..4 */
	const uint8 *ids;
	const uint8 *offsets;
	const uint8 *data;			/* field values start here */
	size_t		data_len;
	size_t		size;			/* the whole object, header included */
} PqVariantObject;

extern void pq_variant_meta_parse(PqVariantMeta *m, const uint8 *p, size_t len);

/* Dictionary string id; errors when id or its offsets are out of range. */
extern void pq_variant_meta_key(const PqVariantMeta *m, uint32 id,
								const uint8 **key, size_t *len);

/*
 * Append the JSON of the value starting at p, which may use at most avail
 * bytes; returns the bytes it occupies.
 */
extern size_t pq_variant_render(PqBuffer *buf, const PqVariantMeta *m,
								const uint8 *p, size_t avail, int depth);

/* Parse the object at p (false, nothing parsed, when it is no object). */
extern bool pq_variant_object_open(PqVariantObject *o, const uint8 *p,
								   size_t avail);

/*
 * Field i of an object: its key and where its value starts (with the bytes
 * available to it).  Keys may come in any order; the caller checks that
 * they are unique.
 */
extern void pq_variant_object_field(const PqVariantObject *o,
									const PqVariantMeta *m, uint32 i,
									const uint8 **key, size_t *key_len,
									const uint8 **value, size_t *avail);

/*
 * The values of an object or array rendered so far take used bytes: more
 * than its data_len means they share bytes, which is corrupt.
 */
extern void pq_variant_check_disjoint(size_t used, size_t data_len,
									  const char *what);

/* Unsigned byte order of keys (the order the spec asks objects to keep). */
extern int	pq_variant_key_cmp(const uint8 *a, size_t alen,
							   const uint8 *b, size_t blen);

#endif							/* PQ_VARIANT_INTERNAL_H */
