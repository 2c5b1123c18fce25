/*-------------------------------------------------------------------------
 *
 * row_former.c
 *		Whole-row values (t.*) formed a chunk of rows at a time.
 *
 * heap_form_tuple() decides each value's width, alignment and header form
 * anew, row by row.  Here the chunk is formed attribute by attribute: one
 * pass per attribute sizes every row, one pass per attribute writes its
 * values, each a loop specialised for the attribute's kind and width, and
 * a last pass writes the headers.  The bytes are exactly those of
 * heap_form_tuple() (same header fields, short varlena headers where it
 * would make them, zeroed alignment padding), so the composites equal what
 * ExecEvalWholeRowVar would build from the same row, image for image.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "fdw/common/pg_compat.h"
#include "fdw/scan/row_former.h"
#include "format/common/pq_common.h"
#include "funcapi.h"
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

/*
 * Alignment padding is zeroed by storing eight zero bytes where the value
 * would start unaligned, before the value itself; the store may reach this
 * far past the row's last value, into the next row's header (written last)
 * or past the buffer's end (allocated this much longer).
 */
#define PAD_SPILL 8

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

	/* one row's Datums, for toast_build_flattened_tuple() */
	Datum	   *row_values;
	bool	   *row_nulls;

	/* the column-major batch being formed from */
	const Datum *values;
	const bool *nulls;
	int			batch_rows;

	/* the header fields every row shares; MAXALIGN'd like the rows */
	HeapTupleHeader header;

	/* per attribute: whether a row of the chunk has it NULL */
	bool	   *has_nulls;

	/*
	 * The chunk's leading by-value attributes without NULLs, before attribute
	 * nlead, are at the same offsets in every row: lead_off[a], after the
	 * previous one's end lead_end[a]; lead bytes in all.
	 */
	int			nlead;
	Size	   *lead_off;
	Size	   *lead_end;
	Size		lead;

	/* the chunk being formed, per row */
	int			row[PQFDW_FORM_CHUNK];	/* its batch row */
	char	   *data[PQFDW_FORM_CHUNK]; /* its tuple's data area */
	Size		off[PQFDW_FORM_CHUNK];	/* data bytes so far */
	bool		anynull[PQFDW_FORM_CHUNK];
	bool		varwidth[PQFDW_FORM_CHUNK];
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
	rf->row_values = MemoryContextAlloc(cxt, sizeof(Datum) * Max(desc->natts, 1));
	rf->row_nulls = MemoryContextAlloc(cxt, sizeof(bool) * Max(desc->natts, 1));
	rf->has_nulls = MemoryContextAlloc(cxt, sizeof(bool) * Max(desc->natts, 1));
	rf->lead_off = MemoryContextAlloc(cxt, sizeof(Size) * Max(desc->natts, 1));
	rf->lead_end = MemoryContextAlloc(cxt, sizeof(Size) * Max(desc->natts, 1));
	rf->header = MemoryContextAlloc(cxt, MAXALIGN(SizeofHeapTupleHeader +
												  BITMAPLEN(desc->natts)));
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

/*
 * The offset of a value of alignment mask+1 in data at off, its padding
 * zeroed (see PAD_SPILL).
 */
static inline Size
align_zeroed(char *data, Size off, Size mask)
{
	if (mask != 0)
	{
		uint64		zero = 0;

		memcpy(data + off, &zero, PAD_SPILL);
	}
	return (off + mask) & ~mask;
}

/* Attribute a's Datums and nulls in the batch. */
static inline const Datum *
att_values(PqRowFormer *rf, int a)
{
	return rf->values + (size_t) a * rf->batch_rows;
}

static inline const bool *
att_nulls(PqRowFormer *rf, int a)
{
	return rf->nulls + (size_t) a * rf->batch_rows;
}

/*
 * Add attribute a of fixed width to the n rows' sizes.  Without NULLs in
 * the chunk (a constant once inlined) the loop has no branch.
 */
static inline void
size_fixed(PqRowFormer *rf, int a, int n, Size len, Size mask, bool has_nulls)
{
	const bool *nulls = att_nulls(rf, a);
	int			k;

	for (k = 0; k < n; k++)
		if (!has_nulls || !nulls[rf->row[k]])
			rf->off[k] = ((rf->off[k] + mask) & ~mask) + len;
}

/*
 * Add varlena attribute a to the n rows' sizes; false when a value is a
 * TOAST pointer (heap_form_tuple()'s callers detoast those).
 */
static inline bool
size_varlena(PqRowFormer *rf, int a, int n, Size mask, bool packable,
			 bool has_nulls)
{
	const Datum *values = att_values(rf, a);
	const bool *nulls = att_nulls(rf, a);
	int			k;

	for (k = 0; k < n; k++)
	{
		Pointer		p;

		if (has_nulls && nulls[rf->row[k]])
			continue;
		p = DatumGetPointer(values[rf->row[k]]);
		rf->varwidth[k] = true;
		if (VARATT_IS_SHORT(p))
		{
			if (unlikely(VARATT_IS_EXTERNAL(p)))
				return false;
			rf->off[k] += VARSIZE_SHORT(p);
		}
		else if (packable && VARATT_CAN_MAKE_SHORT(p))
			rf->off[k] += VARATT_CONVERTED_SHORT_SIZE(p);
		else
			rf->off[k] = ((rf->off[k] + mask) & ~mask) + VARSIZE(p);
	}
	return true;
}

/*
 * Write by-value attribute a of width len; len and has_nulls are constants
 * once inlined.
 */
static inline void
fill_byval(PqRowFormer *rf, int a, int n, int len, Size mask, bool has_nulls)
{
	const Datum *values = att_values(rf, a);
	const bool *nulls = att_nulls(rf, a);
	int			k;

	for (k = 0; k < n; k++)
	{
		Size		off;

		if (has_nulls && nulls[rf->row[k]])
			continue;
		off = align_zeroed(rf->data[k], rf->off[k], mask);
		store_att_byval(rf->data[k] + off, values[rf->row[k]], len);
		rf->off[k] = off + len;
	}
}

/*
 * Write leading attribute a (see nlead) of width len, a constant once
 * inlined; padding before it is zeroed as in align_zeroed().
 */
static inline void
fill_lead(PqRowFormer *rf, int a, int n, int len)
{
	const Datum *values = att_values(rf, a);
	Size		off = rf->lead_off[a];
	Size		end = rf->lead_end[a];
	int			k;

	for (k = 0; k < n; k++)
	{
		if (off != end)
		{
			uint64		zero = 0;

			memcpy(rf->data[k] + end, &zero, PAD_SPILL);
		}
		store_att_byval(rf->data[k] + off, values[rf->row[k]], len);
	}
}

static void
fill_fixed(PqRowFormer *rf, int a, int n, Size len, Size mask)
{
	const Datum *values = att_values(rf, a);
	const bool *nulls = att_nulls(rf, a);
	int			k;

	for (k = 0; k < n; k++)
	{
		Size		off;

		if (nulls[rf->row[k]])
			continue;
		off = align_zeroed(rf->data[k], rf->off[k], mask);
		memcpy(rf->data[k] + off, DatumGetPointer(values[rf->row[k]]), len);
		rf->off[k] = off + len;
	}
}

static inline void
fill_varlena(PqRowFormer *rf, int a, int n, Size mask, bool packable,
			 bool has_nulls)
{
	const Datum *values = att_values(rf, a);
	const bool *nulls = att_nulls(rf, a);
	int			k;

	for (k = 0; k < n; k++)
	{
		Pointer		p;
		char	   *dst;
		Size		len;

		if (has_nulls && nulls[rf->row[k]])
			continue;
		p = DatumGetPointer(values[rf->row[k]]);
		dst = rf->data[k] + rf->off[k];
		if (VARATT_IS_SHORT(p))
		{
			len = VARSIZE_SHORT(p);
			pq_copy_short(dst, p, len);
		}
		else if (packable && VARATT_CAN_MAKE_SHORT(p))
		{
			len = VARATT_CONVERTED_SHORT_SIZE(p);
			SET_VARSIZE_SHORT(dst, len);
			pq_copy_short(dst + 1, VARDATA(p), len - 1);
		}
		else
		{
			Size		off = align_zeroed(rf->data[k], rf->off[k], mask);

			dst = rf->data[k] + off;
			len = VARSIZE(p);
			memcpy(dst, p, len);
			rf->off[k] = off;
		}
		rf->off[k] += len;
	}
}

/* Rows with TOAST pointers or cstrings: PostgreSQL's own path. */
static void
form_generic(PqRowFormer *rf, int n, Datum *out)
{
	int			k;
	int			a;

	for (k = 0; k < n; k++)
	{
		HeapTuple	t;

		for (a = 0; a < rf->natts; a++)
		{
			rf->row_values[a] = att_values(rf, a)[rf->row[k]];
			rf->row_nulls[a] = att_nulls(rf, a)[rf->row[k]];
		}
		t = toast_build_flattened_tuple(rf->desc, rf->row_values,
										rf->row_nulls);

		out[k] = HeapTupleHeaderGetDatum(t->t_data);
	}
}

/*
 * Which attributes have NULLs in the chunk (has_nulls), and which rows
 * (anynull).
 */
static void
find_nulls(PqRowFormer *rf, int n)
{
	int			a;
	int			k;

	memset(rf->anynull, rf->dropped, sizeof(bool) * n);
	for (a = 0; a < rf->natts; a++)
	{
		const bool *nulls = att_nulls(rf, a);
		bool		has = false;

		if (rf->atts[a].kind == PQ_FORM_DROPPED)
		{
			rf->has_nulls[a] = true;
			continue;
		}
		/* rows in sequence unless filtered */
		if (rf->row[n - 1] - rf->row[0] == n - 1)
			has = memchr(nulls + rf->row[0], true, n) != NULL;
		else
			for (k = 0; k < n; k++)
				has |= nulls[rf->row[k]];
		rf->has_nulls[a] = has;
		if (has)
			for (k = 0; k < n; k++)
				rf->anynull[k] |= nulls[rf->row[k]];
	}
}

/*
 * Size every row into rf->off; false when the generic path must form.
 * The leading by-value attributes without NULLs (nlead) take the same
 * bytes in every row: counted once.
 */
static bool
size_rows(PqRowFormer *rf, int n)
{
	Size		lead = 0;
	int			a;
	int			k;

	memset(rf->varwidth, false, sizeof(bool) * n);
	for (a = 0; a < rf->natts; a++)
	{
		PqFormAtt  *fa = &rf->atts[a];

		if (fa->kind == PQ_FORM_BYVAL && !rf->has_nulls[a])
		{
			rf->lead_end[a] = lead;
			lead = ((lead + fa->alignmask) & ~(Size) fa->alignmask);
			rf->lead_off[a] = lead;
			lead += fa->len;
		}
		else if (fa->kind != PQ_FORM_DROPPED)
			break;
	}
	rf->nlead = a;
	rf->lead = lead;
	for (k = 0; k < n; k++)
		rf->off[k] = lead;

	for (a = rf->nlead; a < rf->natts; a++)
	{
		PqFormAtt  *fa = &rf->atts[a];
		bool		has_nulls = rf->has_nulls[a];

		switch (fa->kind)
		{
			case PQ_FORM_DROPPED:
				break;
			case PQ_FORM_BYVAL:
			case PQ_FORM_FIXED:
				if (has_nulls)
					size_fixed(rf, a, n, fa->len, fa->alignmask, true);
				else
					size_fixed(rf, a, n, fa->len, fa->alignmask, false);
				break;
			case PQ_FORM_VARLENA:
				if (has_nulls ?
					!size_varlena(rf, a, n, fa->alignmask, fa->packable, true) :
					!size_varlena(rf, a, n, fa->alignmask, fa->packable, false))
					return false;
				break;
		}
	}
	return true;
}

/* Write every attribute's values, one attribute at a time. */
static void
fill_rows(PqRowFormer *rf, int n)
{
	int			a;
	int			k;

	/* constant widths and NULL-ness: a loop for each */
	for (a = 0; a < rf->nlead; a++)
	{
		switch (rf->atts[a].kind == PQ_FORM_DROPPED ? 0 : rf->atts[a].len)
		{
			case 0:
				break;
			case 8:
				fill_lead(rf, a, n, 8);
				break;
			case 4:
				fill_lead(rf, a, n, 4);
				break;
			case 2:
				fill_lead(rf, a, n, 2);
				break;
			default:
				fill_lead(rf, a, n, 1);
				break;
		}
	}
	for (k = 0; k < n; k++)
		rf->off[k] = rf->lead;
	for (a = rf->nlead; a < rf->natts; a++)
	{
		PqFormAtt  *fa = &rf->atts[a];
		bool		has_nulls = rf->has_nulls[a];

		switch (fa->kind)
		{
			case PQ_FORM_DROPPED:
				break;
			case PQ_FORM_BYVAL:
				if (has_nulls)
					fill_byval(rf, a, n, fa->len, fa->alignmask, true);
				else if (fa->len == 8)
					fill_byval(rf, a, n, 8, fa->alignmask, false);
				else if (fa->len == 4)
					fill_byval(rf, a, n, 4, fa->alignmask, false);
				else if (fa->len == 2)
					fill_byval(rf, a, n, 2, fa->alignmask, false);
				else
					fill_byval(rf, a, n, 1, fa->alignmask, false);
				break;
			case PQ_FORM_FIXED:
				fill_fixed(rf, a, n, fa->len, fa->alignmask);
				break;
			case PQ_FORM_VARLENA:
				if (has_nulls)
					fill_varlena(rf, a, n, fa->alignmask, fa->packable, true);
				else
					fill_varlena(rf, a, n, fa->alignmask, fa->packable, false);
				break;
		}
	}
}

void
pqfdw_form_rows(PqRowFormer *rf, const Datum *values, const bool *nulls,
				int batch_rows, const int *rows, int first, int n, Datum *out)
{
	int			natts = rf->natts;
	Size		hoff_nulls = MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(natts));
	Size		hoff_plain = MAXALIGN(SizeofHeapTupleHeader);
	Size		total = PAD_SPILL;
	char	   *p;
	int			a;
	int			k;

	Assert(n > 0 && n <= PQFDW_FORM_CHUNK);
	rf->values = values;
	rf->nulls = nulls;
	rf->batch_rows = batch_rows;
	for (k = 0; k < n; k++)
		rf->row[k] = rows ? rows[k] : first + k;
	if (!rf->generic)
		find_nulls(rf, n);
	if (rf->generic || !size_rows(rf, n))
	{
		form_generic(rf, n, out);
		return;
	}
	for (k = 0; k < n; k++)
	{
		Size		len = (rf->anynull[k] ? hoff_nulls : hoff_plain) + rf->off[k];

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

	/* where each row goes */
	p = rf->buf;
	for (k = 0; k < n; k++)
	{
		Size		hoff = rf->anynull[k] ? hoff_nulls : hoff_plain;

		out[k] = PointerGetDatum(p);
		rf->data[k] = p + hoff;
		p += MAXALIGN(hoff + rf->off[k]);
	}
	fill_rows(rf, n);

	/*
	 * The header fields heap_form_tuple() sets, every other byte zero: those
	 * that do not depend on the row (row type, its version) from a template,
	 * then the length, flags and null bitmap.
	 */
	memset(rf->header, 0, hoff_nulls);
	rf->header->t_infomask2 = natts;
	pqfdw_set_datum_fields(rf->header, rf->desc, 0);
	for (k = 0; k < n; k++)
	{
		HeapTupleHeader td = (HeapTupleHeader) DatumGetPointer(out[k]);
		Size		hoff = rf->data[k] - (char *) td;

		memcpy(td, rf->header, hoff);
		HeapTupleHeaderSetDatumLength(td, hoff + rf->off[k]);
		td->t_hoff = hoff;
		if (rf->anynull[k])
		{
			td->t_infomask |= HEAP_HASNULL;
			for (a = 0; a < natts; a++)
				if (!att_nulls(rf, a)[rf->row[k]] &&
					rf->atts[a].kind != PQ_FORM_DROPPED)
					td->t_bits[a >> 3] |= 1 << (a & 7);
		}
		if (rf->varwidth[k])
			td->t_infomask |= HEAP_HASVARWIDTH;
	}
}
