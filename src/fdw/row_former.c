/*-------------------------------------------------------------------------
 *
 * row_former.c
 *		Whole-row values (t.*) formed a chunk of rows at a time.
 *
 * heap_form_tuple() decides each value's width, alignment and header form
 * anew; here each attribute is handled once per chunk with a loop for its
 * kind: one pass sizes every row, one writes headers, one pass per
 * attribute writes its values.  The bytes are exactly those of
 * heap_form_tuple() (same header fields, short varlena headers where it
 * would make them, zeroed alignment padding), so the composites equal what
 * ExecEvalWholeRowVar would build from the same row, image for image.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "funcapi.h"
#include "row_former.h"
#include "utils/memutils.h"

bool		pqfdw_enable_whole_row_forming = true;

typedef enum PqFormKind
{
	PQ_FORM_DROPPED,			/* always NULL */
	PQ_FORM_BYVAL,				/* by value, of attlen 1, 2, 4 or 8 */
	PQ_FORM_FIXED,				/* attlen > 0, by reference */
	PQ_FORM_VARLENA				/* attlen -1 */
} PqFormKind;

typedef struct PqFormAtt
{
	PqFormKind	kind;
	int16		len;
	uint8		alignmask;		/* alignment - 1 */
	bool		packable;		/* 4-byte headers become 1-byte headers */
} PqFormAtt;

struct PqRowFormer
{
	TupleDesc	desc;
	const char *relname;
	int			natts;
	PqFormAtt  *atts;
	bool		generic;		/* a cstring attribute: heap_form_tuple() */
	bool		dropped;		/* a dropped attribute: every row has a NULL */
	MemoryContext cxt;

	/*
	 * The chunk's composites: reused, as the previous chunk's are no longer
	 * referenced (a fresh allocation per chunk costs page faults).
	 */
	char	   *buf;
	Size		bufsize;

	/* the chunk being formed */
	size_t		row[PQFDW_FORM_CHUNK];	/* first Datum of each row */
	bool		anynull[PQFDW_FORM_CHUNK];
	Size		off[PQFDW_FORM_CHUNK];	/* data bytes */
};

PqRowFormer *
pqfdw_row_former_create(TupleDesc desc, const char *relname, MemoryContext cxt)
{
	PqRowFormer *rf = MemoryContextAllocZero(cxt, sizeof(PqRowFormer));
	int			a;

	rf->desc = desc;
	rf->cxt = cxt;
	rf->relname = MemoryContextStrdup(cxt, relname);
	rf->natts = desc->natts;
	rf->atts = MemoryContextAllocZero(cxt, sizeof(PqFormAtt) * Max(desc->natts, 1));
	for (a = 0; a < desc->natts; a++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, a);
		PqFormAtt  *fa = &rf->atts[a];
		int			align;

		switch (att->attalign)
		{
			case TYPALIGN_CHAR:
				align = 1;
				break;
			case TYPALIGN_SHORT:
				align = ALIGNOF_SHORT;
				break;
			case TYPALIGN_INT:
				align = ALIGNOF_INT;
				break;
			default:
				align = ALIGNOF_DOUBLE;
				break;
		}
		fa->alignmask = align - 1;
		fa->len = att->attlen;
		fa->packable = att->attlen == -1 && att->attstorage != TYPSTORAGE_PLAIN;
		if (att->attisdropped)
		{
			fa->kind = PQ_FORM_DROPPED;
			rf->dropped = true;
		}
		else if (att->attbyval)
			fa->kind = PQ_FORM_BYVAL;
		else if (att->attlen > 0)
			fa->kind = PQ_FORM_FIXED;
		else if (att->attlen == -1)
			fa->kind = PQ_FORM_VARLENA;
		else
			rf->generic = true;
	}
	return rf;
}

/* Pad data[off ...] with zero bytes up to the alignment. */
static inline Size
pad(char *data, Size off, uint8 mask)
{
	while (off & mask)
		data[off++] = 0;
	return off;
}

/* memcpy() without a call for the short strings most values are. */
static inline void
copy_bytes(char *dst, const char *src, Size len)
{
	if (len >= 8 && len <= 16)
	{
		uint64		a;
		uint64		b;

		memcpy(&a, src, 8);
		memcpy(&b, src + len - 8, 8);
		memcpy(dst, &a, 8);
		memcpy(dst + len - 8, &b, 8);
	}
	else if (len < 8)
	{
		Size		i;

		for (i = 0; i < len; i++)
			dst[i] = src[i];
	}
	else
		memcpy(dst, src, len);
}

/*
 * Data bytes of row k (Datums v, nulls isn) into rf->off[k]; false when a
 * value is a TOAST pointer (heap_form_tuple()'s callers detoast those).
 */
static inline bool
size_row(PqRowFormer *rf, const Datum *v, const bool *isn, int k)
{
	Size		off = 0;
	int			a;

	for (a = 0; a < rf->natts; a++)
	{
		PqFormAtt  *fa = &rf->atts[a];
		Pointer		p;

		if (isn[a] || fa->kind == PQ_FORM_DROPPED)
			continue;
		if (fa->kind != PQ_FORM_VARLENA)
		{
			off = TYPEALIGN(fa->alignmask + 1, off) + fa->len;
			continue;
		}
		p = DatumGetPointer(v[a]);
		if (VARATT_IS_EXTERNAL(p))
			return false;
		if (VARATT_IS_SHORT(p))
			off += VARSIZE_SHORT(p);
		else if (fa->packable && VARATT_CAN_MAKE_SHORT(p))
			off += VARATT_CONVERTED_SHORT_SIZE(p);
		else
			off = TYPEALIGN(fa->alignmask + 1, off) + VARSIZE(p);
	}
	rf->off[k] = off;
	return true;
}

/* Write the values of a row into data; bits is its null bitmap or NULL. */
static inline void
fill_row(PqRowFormer *rf, const Datum *v, const bool *isn, char *data,
		 bits8 *bits, uint16 *infomask)
{
	Size		off = 0;
	int			a;

	for (a = 0; a < rf->natts; a++)
	{
		PqFormAtt  *fa = &rf->atts[a];
		Pointer		p;
		Size		len;

		if (isn[a] || fa->kind == PQ_FORM_DROPPED)
			continue;
		if (bits)
			bits[a >> 3] |= 1 << (a & 7);
		switch (fa->kind)
		{
			case PQ_FORM_BYVAL:
				off = pad(data, off, fa->alignmask);
				store_att_byval(data + off, v[a], fa->len);
				off += fa->len;
				break;
			case PQ_FORM_FIXED:
				off = pad(data, off, fa->alignmask);
				memcpy(data + off, DatumGetPointer(v[a]), fa->len);
				off += fa->len;
				break;
			default:
				p = DatumGetPointer(v[a]);
				*infomask |= HEAP_HASVARWIDTH;
				if (VARATT_IS_SHORT(p))
				{
					len = VARSIZE_SHORT(p);
					copy_bytes(data + off, p, len);
				}
				else if (fa->packable && VARATT_CAN_MAKE_SHORT(p))
				{
					len = VARATT_CONVERTED_SHORT_SIZE(p);
					SET_VARSIZE_SHORT(data + off, len);
					copy_bytes(data + off + 1, VARDATA(p), len - 1);
				}
				else
				{
					off = pad(data, off, fa->alignmask);
					len = VARSIZE(p);
					memcpy(data + off, p, len);
				}
				off += len;
				break;
		}
	}
}

/*
 * Length, type and row type version of a composite datum.  Minor releases
 * with versioned row types (HEAP_IS_DATUM) have a function for it.
 */
static inline void
set_datum_fields(HeapTupleHeader td, TupleDesc desc, Size len)
{
#ifdef HEAP_IS_DATUM
	heap_tuple_set_datum(td, desc, len);
#else
	HeapTupleHeaderSetDatumLength(td, len);
	HeapTupleHeaderSetTypeId(td, desc->tdtypeid);
	HeapTupleHeaderSetTypMod(td, desc->tdtypmod);
	ItemPointerSetInvalid(&td->t_ctid);
#endif
}

/* Rows with TOAST pointers or cstrings: PostgreSQL's own path. */
static void
form_generic(PqRowFormer *rf, const Datum *values, const bool *nulls, int n,
			 Datum *out)
{
	int			k;

	for (k = 0; k < n; k++)
	{
		HeapTuple	t = toast_build_flattened_tuple(rf->desc,
													(Datum *) values + rf->row[k],
													(bool *) nulls + rf->row[k]);

		out[k] = HeapTupleHeaderGetDatum(t->t_data);
	}
}

void
pqfdw_form_rows(PqRowFormer *rf, const Datum *values, const bool *nulls,
				int stride, const int *rows, int first, int n, Datum *out)
{
	int			natts = rf->natts;
	Size		hoff_nulls = MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(natts));
	Size		hoff_plain = MAXALIGN(SizeofHeapTupleHeader);
	Size		total = 0;
	char	   *p;
	int			a;
	int			k;

	Assert(n <= PQFDW_FORM_CHUNK);
	for (k = 0; k < n; k++)
		rf->row[k] = (size_t) (rows ? rows[k] : first + k) * stride;
	if (rf->generic)
	{
		form_generic(rf, values, nulls, n, out);
		return;
	}
	for (k = 0; k < n; k++)
	{
		size_t		r = rf->row[k];
		bool		any = rf->dropped;
		Size		len;

		for (a = 0; a < natts; a++)
			any |= nulls[r + a];
		rf->anynull[k] = any;
		if (!size_row(rf, values + r, nulls + r, k))
		{
			form_generic(rf, values, nulls, n, out);
			return;
		}
		len = (any ? hoff_nulls : hoff_plain) + rf->off[k];
		if (len > MaxAllocSize)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("whole-row value of relation \"%s\" would take %zu bytes, more than the maximum of %zu",
							rf->relname, len, (Size) MaxAllocSize)));
		total += MAXALIGN(len);
	}

	if (total > rf->bufsize)
	{
		if (rf->buf)
			pfree(rf->buf);
		rf->buf = MemoryContextAllocHuge(rf->cxt, total);
		rf->bufsize = total;
	}
	p = rf->buf;
	for (k = 0; k < n; k++)
	{
		HeapTupleHeader td = (HeapTupleHeader) p;
		Size		hoff = rf->anynull[k] ? hoff_nulls : hoff_plain;
		Size		len = hoff + rf->off[k];

		/* the fields heap_form_tuple() sets, every other byte zero */
		memset(td, 0, hoff);
		td->t_infomask2 = natts;
		td->t_hoff = hoff;
		td->t_infomask = rf->anynull[k] ? HEAP_HASNULL : 0;
		set_datum_fields(td, rf->desc, len);
		fill_row(rf, values + rf->row[k], nulls + rf->row[k], p + hoff,
				 rf->anynull[k] ? td->t_bits : NULL, &td->t_infomask);
		out[k] = PointerGetDatum(td);
		p += MAXALIGN(len);
	}
}
