/*-------------------------------------------------------------------------
 *
 * convert.h
 *		Parquet values -> PostgreSQL Datums.
 *
 * A PqConverter turns the dense values of a segment into Datums of the
 * column's natural PostgreSQL type with one specialised loop per
 * (physical type, logical type) pair, then, if the foreign table declares
 * another type, casts each Datum.  Dictionary pages are converted once per
 * dictionary and gathered by id.
 *
 *		convert.c	the registry: natural types, converter setup, casts,
 *					nulls; calls the families below
 *		numeric.c	bool, integers, floats, FLOAT16, DECIMAL
 *		decimal.c	DECIMAL in INT32/INT64 encoded as numeric
 *		datetime.c	DATE, TIME, TIMESTAMP, INT96, INTERVAL
 *		binary.c	text, bytea, uuid, json
 *		geo.c		GEOMETRY/GEOGRAPHY as PostGIS geometry/geography
 *		narrowing.c	declared types narrower than the file's: order and
 *					fit of statistics
 *		common.c	what the families share: node paths, out-of-range errors
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_CONVERT_H
#define PQFDW_CONVERT_H

#include "fmgr.h"
#include "format/read/column_reader.h"
#include "format/read/segment_select.h"

typedef struct PqConverter PqConverter;

/* Convert n dense values (fixed or ba) to Datums of the natural type. */
typedef void (*PqConvertFn) (PqConverter *cv, const void *fixed,
							 const PqByteArray *ba, int n, Datum *out);

typedef enum PqCastKind
{
	PQ_CAST_NONE,				/* natural type is the declared type */
	PQ_CAST_FUNC,				/* cast function (optionally with typmod) */
	PQ_CAST_IO,					/* output of natural, input of declared */
	PQ_CAST_GEO					/* WKB to PostGIS (geo.c) */
} PqCastKind;

struct PqConverter
{
	const char *attname;		/* foreign table column, for messages */
	const PqSchemaNode *node;	/* Parquet leaf */
	int			physical_type;
	int			type_length;
	int			max_def;
	Oid			natural_type;
	int32		natural_typmod;
	Oid			target_type;
	int32		target_typmod;
	PqConvertFn fn;
	bool		always_null;	/* UNKNOWN logical type */
	int			decimal_scale;
	bool		unscaled_wide;	/* unscaled DECIMAL Datums point to int128 */
	int			time_unit;

	/* cast to the declared type */
	PqCastKind	cast;
	FmgrInfo	cast_func;
	int			cast_nargs;
	FmgrInfo	out_func;
	FmgrInfo	in_func;
	Oid			in_ioparam;
	struct PqGeoCast *geo;		/* PQ_CAST_GEO */
	bool		need_typmod_func;	/* length/precision coercion after cast */
	FmgrInfo	typmod_func;
	int			typmod_nargs;
	bool		assignment_cast;	/* a cast only assignment allows */
	bool		narrowing;		/* a value may not fit: that or typmod */

	/* dictionary cache, in dict_cxt */
	MemoryContext dict_cxt;
	uint32		dict_id;
	Datum	   *dict_datums;
	uint8	   *dict_bad;		/* entries out of range, or NULL: an ERROR for
								 * each row that holds one */
	const char *dict_bad_what;

	/*
	 * While a dictionary or a statistic converts: where
	 * pqfdw_value_out_of_range_deferred() marks values out of range.
	 */
	uint8	   *bad;
	int			nbad;
	const char *bad_what;

	/*
	 * Set by a caller that converts rows before it knows which it keeps (a
	 * scan with a filter): rows holding a dictionary entry out of range are
	 * noted here instead of raising, for pqfdw_converter_check_kept().
	 */
	bool		defer_bad_rows;
	int64	   *bad_rows;		/* row numbers, as row_base counts them */
	int			nbad_rows;
	int			bad_rows_cap;

	/* error reporting: which rows the current segment covers */
	int64		row_base;		/* row number of the segment's first entry */
	const int16 *cur_def;
	const int16 *cur_rep;		/* nested leaves: rows start at level 0 */
	const int  *cur_rows;		/* selected entries: each one's row, from
								 * row_base (pqfdw_convert_segment_rows) */

	MemoryContext cxt;			/* where the converter lives */

	/* pqfdw_convert_segment_rows: the selected entries, allocated once */
	PqSegmentScratch scratch;
};

/* The natural PostgreSQL type of a Parquet field. */
extern void pqfdw_natural_type(const PqSchemaNode *node, Oid *typid,
							   int32 *typmod);

/*
 * Set up a converter for a leaf column read into a column of type
 * target_type/target_typmod.  An impossible declaration is an error naming
 * the column and both types.  Allocates in cxt.
 */
extern void pqfdw_converter_init(PqConverter *cv, const PqSchemaNode *node,
								 Oid target_type, int32 target_typmod,
								 const char *attname, MemoryContext cxt);

/*
 * Set up a converter that reads a DECIMAL as its unscaled values
 * (cv->decimal_scale is the scale), for grouped scans, which aggregate them
 * exactly in integers: int8 Datums for INT32/INT64, and for
 * FIXED_LEN_BYTE_ARRAY/BYTE_ARRAY of precision <= 38 Datums pointing to
 * int128 values (cv->unscaled_wide); false for any other column.
 */
extern bool pqfdw_converter_init_unscaled(PqConverter *cv,
										  const PqSchemaNode *node,
										  const char *attname,
										  MemoryContext cxt);

/*
 * Convert one segment into values[0, seg->n) / nulls[0, seg->n),
 * allocating in the current memory context.
 */
extern void pqfdw_convert_segment(PqConverter *cv, const PqSegment *seg,
								  Datum *values, bool *nulls);

/*
 * Convert only the entries rows[0..nrows) (ascending) of a segment of a
 * column without repetition into values[0, nrows) / nulls[0, nrows); with
 * codes, their dictionary indices too (pqfdw_segment_codes).
 */
extern void pqfdw_convert_segment_rows(PqConverter *cv, const PqSegment *seg,
									   const int *rows, int nrows,
									   Datum *values, bool *nulls,
									   uint32 *codes);

/* A segment entry that is NULL or not dictionary-encoded (no code). */
#define PQFDW_NO_CODE PG_UINT32_MAX

/*
 * Each entry's dictionary index into codes[0, seg->n): PQFDW_NO_CODE for
 * NULL entries and for every entry of a segment without a dictionary.
 */
extern void pqfdw_segment_codes(const PqConverter *cv, const PqSegment *seg,
								uint32 *codes);

/*
 * The dictionary's entries as Datums of the declared type, converted once
 * per dictionary and kept until the next dictionary.
 */
extern const Datum *pqfdw_dictionary_datums(PqConverter *cv,
											const PqDictionary *dict);

/*
 * With defer_bad_rows: raise the ERROR of the first noted row among the
 * kept ones, first_row + sel[0..m) (all n from first_row when sel is
 * NULL), and forget the notes.
 */
extern void pqfdw_converter_check_kept(PqConverter *cv, int64 first_row,
									   const int *sel, int m, int n);

/*
 * A converter with a narrowing cast (cv->narrowing): whether the cast keeps
 * the order of values, and whether a natural-type value d fits the declared
 * type, without raising the cast's error (false: unknown or no).
 */
extern bool pqfdw_narrowing_keeps_order(const PqConverter *cv);
extern bool pqfdw_narrowing_fits(PqConverter *cv, Datum d);

/*
 * After pqfdw_dictionary_datums(): does every Datum compare as its entry
 * does?  Entries out of range are placeholders that order like them, but
 * only in the natural type: false when they also needed a cast.
 */
extern bool pqfdw_dictionary_exact(const PqConverter *cv);

/*
 * Plain ASCII without NUL bytes is valid UTF-8 text: checked eight bytes at
 * a time, so that pg_verify_mbstr() only sees strings with other bytes.
 */
static inline bool
pqfdw_ascii_without_nul(const char *s, uint32 len)
{
	const uint64 high = UINT64CONST(0x8080808080808080);
	const uint64 ones = UINT64CONST(0x0101010101010101);
	uint64		bad = 0;
	uint64		w;
	uint32		i = 0;

	/* bytes >= 0x80, and zero bytes (w - ones borrows into their high bit) */
	for (; i + 8 <= len; i += 8)
	{
		memcpy(&w, s + i, 8);
		bad |= w | ((w - ones) & ~w);
	}
	if (i < len && len >= 8)
	{
		/* the last eight bytes, some of them checked already */
		memcpy(&w, s + len - 8, 8);
		bad |= w | ((w - ones) & ~w);
	}
	else
		for (; i < len; i++)
			if ((unsigned char) s[i] >= 0x80 || s[i] == '\0')
				return false;
	return (bad & high) == 0;
}

/*
 * Raise the error the text conversion raises for a STRING value that is not
 * text of the database (invalid UTF-8, over 1 GB); dense_index as in
 * pqfdw_value_out_of_range().  Only for a UTF-8 database.
 */
extern void pqfdw_check_utf8_text(PqConverter *cv, int dense_index,
								  const char *src, uint32 len);

/*
 * Convert n dense values (fixed or ba) to Datums of the declared type, for
 * leaves of nested fields (nested.c).  For error messages, set
 * row_base, cur_def and cur_rep to the levels the values came with.
 */
extern void pqfdw_convert_values(PqConverter *cv, const void *fixed,
								 const PqByteArray *ba, int n, Datum *out);

/*
 * One statistics value (the PLAIN encoding of a value, without a length
 * prefix for byte arrays) as a Datum of the declared type.  False when its
 * length does not fit the physical type.
 */
extern bool pqfdw_stat_to_datum(PqConverter *cv, PqBytes b, Datum *out);

/*
 * True when every value converts to a Datum that stands for it: not for
 * an always-NULL column, nor when a length limit (varchar(n)) would reject
 * a value instead of keeping it.  Pruning converts bounds and dictionary
 * entries only then.
 */
extern bool pqfdw_converter_keeps_values(PqConverter *cv);

/*
 * True when the declared type orders values as the Parquet type does, so
 * that min/max statistics bound the declared-type values.
 */
extern bool pqfdw_stat_converter_keeps_order(PqConverter *cv);

/*
 * n DECIMAL unscaled values (int32 when narrow, else int64) with the given
 * scale to numeric Datums, allocated in one block (decimal.c).
 */
extern void pqfdw_decimals_to_numeric(const void *values, bool narrow, int n,
									  int scale, Datum *out);

/* Choose the natural conversion loop (convert_*.c). */
extern PqConvertFn pqfdw_numeric_converter(PqConverter *cv);

/* 10^k for 0 <= k <= 18 (decimal.c) */
extern const uint64 pqfdw_pow10[19];
extern PqConvertFn pqfdw_datetime_converter(PqConverter *cv);
extern PqConvertFn pqfdw_binary_converter(PqConverter *cv);

/* A DECIMAL's unscaled values (see init_unscaled; numeric.c), else NULL */
extern PqConvertFn pqfdw_unscaled_converter(PqConverter *cv);

/*
 * PostGIS: when the column is GEOMETRY/GEOGRAPHY and the declared type is
 * PostGIS's geometry or geography, set cv->cast to PQ_CAST_GEO and return
 * true; pqfdw_geo_cast() then turns one WKB bytea into that type.
 */
extern bool pqfdw_geo_setup_cast(PqConverter *cv, MemoryContext cxt);
extern Datum pqfdw_geo_cast(PqConverter *cv, Datum wkb);

/*
 * Bind a PostGIS column's converter to a file of the table: the first file
 * sets the SRID its CRS names (projjson:KEY needs the file's key/value
 * metadata); every later file must give the same SRID (the converter is set
 * up once): an ERROR otherwise.
 */
extern void pqfdw_geo_bind_file(PqConverter *cv, const PqSchemaNode *node,
								const PqFileMetaData *md, const char *path,
								bool first);

/* common.c: the dotted path of a node below the root, for messages */
extern char *pqfdw_node_path(const PqSchemaNode *node);

/*
 * common.c: ERROR for a value that does not fit; dense_index is within the
 * segment.
 */
extern void pqfdw_value_out_of_range(PqConverter *cv, int dense_index,
									 const char *what) pg_attribute_noreturn();

/* The row number (as row_base counts) of a segment's dense value. */
extern int64 pqfdw_dense_row(const PqConverter *cv, int dense_index);

/*
 * The same for a value no row holds yet (a dictionary entry, a statistic):
 * marked in cv->bad, and the caller stores a placeholder that orders like
 * the value (just below or above the type's range); otherwise the ERROR.
 */
extern void pqfdw_value_out_of_range_deferred(PqConverter *cv, int dense_index,
											  const char *what);

#endif							/* PQFDW_CONVERT_H */
