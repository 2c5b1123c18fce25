/*-------------------------------------------------------------------------
 *
 * convert.c
 *		Natural PostgreSQL type of each Parquet type, converter setup,
 *		casts to declared types, dictionary caching and null placement.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_cast.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "fdw/convert/convert.h"
#include "parser/parse_coerce.h"
#include "pgtime.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/syscache.h"

static Datum apply_cast(PqConverter *cv, Datum d);

/* numeric typmod as numeric(p,s) produces it */
static int32
numeric_typmod(int precision, int scale)
{
	if (precision < 1 || precision > NUMERIC_MAX_PRECISION)
		return -1;
	return ((precision << 16) | (scale & 0x7ff)) + VARHDRSZ;
}

void
pqfdw_natural_type(const PqSchemaNode *node, Oid *typid, int32 *typmod)
{
	const PqLogicalType *lt = &node->logical;

	*typmod = -1;
	switch (lt->id)
	{
		case PQ_LT_STRING:
		case PQ_LT_ENUM:
			*typid = TEXTOID;
			return;
		case PQ_LT_JSON:
			*typid = JSONBOID;
			return;
		case PQ_LT_BSON:
		case PQ_LT_GEOMETRY:
		case PQ_LT_GEOGRAPHY:
			*typid = BYTEAOID;
			return;
		case PQ_LT_UUID:
			*typid = UUIDOID;
			return;
		case PQ_LT_FLOAT16:
			*typid = FLOAT4OID;
			return;
		case PQ_LT_DECIMAL:
			*typid = NUMERICOID;
			*typmod = numeric_typmod(lt->decimal_precision, lt->decimal_scale);
			return;
		case PQ_LT_DATE:
			*typid = DATEOID;
			return;
		case PQ_LT_TIME:
			*typid = TIMEOID;
			return;
		case PQ_LT_TIMESTAMP:
			*typid = lt->is_adjusted_to_utc ? TIMESTAMPTZOID : TIMESTAMPOID;
			return;
		case PQ_LT_INTEGER:
			if (lt->int_is_signed)
				*typid = lt->int_bit_width <= 16 ? INT2OID :
					lt->int_bit_width == 32 ? INT4OID : INT8OID;
			else
				*typid = lt->int_bit_width == 8 ? INT2OID :
					lt->int_bit_width == 16 ? INT4OID :
					lt->int_bit_width == 32 ? INT8OID : NUMERICOID;
			return;
		case PQ_LT_INTERVAL:
			*typid = INTERVALOID;
			return;
		case PQ_LT_UNKNOWN:
			*typid = TEXTOID;
			return;
		default:
			break;
	}
	switch (node->physical_type)
	{
		case PQ_BOOLEAN:
			*typid = BOOLOID;
			break;
		case PQ_INT32:
			*typid = INT4OID;
			break;
		case PQ_INT64:
			*typid = INT8OID;
			break;
		case PQ_INT96:
			*typid = TIMESTAMPOID;
			break;
		case PQ_FLOAT:
			*typid = FLOAT4OID;
			break;
		case PQ_DOUBLE:
			*typid = FLOAT8OID;
			break;
		default:
			*typid = BYTEAOID;
			break;
	}
}

static bool
is_string_type(Oid typid)
{
	char		category;
	bool		preferred;

	get_type_category_preferred(typid, &category, &preferred);
	return category == TYPCATEGORY_STRING;
}

/* Number of arguments of a cast or length-coercion function. */
static int
func_nargs(Oid funcid)
{
	HeapTuple	tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	int			nargs;

	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for function %u", funcid);
	nargs = ((Form_pg_proc) GETSTRUCT(tp))->pronargs;
	ReleaseSysCache(tp);
	return nargs;
}

static void
setup_io_cast(PqConverter *cv, MemoryContext cxt)
{
	Oid			outfunc;
	bool		isvarlena;
	Oid			infunc;

	getTypeOutputInfo(cv->natural_type, &outfunc, &isvarlena);
	getTypeInputInfo(cv->target_type, &infunc, &cv->in_ioparam);
	fmgr_info_cxt(outfunc, &cv->out_func, cxt);
	fmgr_info_cxt(infunc, &cv->in_func, cxt);
	cv->cast = PQ_CAST_IO;
}

static void
declaration_error(PqConverter *cv)
{
	char	   *ltype = pq_logical_type_string(cv->node);

	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("column \"%s\" of type %s cannot hold Parquet column \"%s\" of type %s%s%s",
					cv->attname, format_type_with_typemod(cv->target_type, cv->target_typmod),
					cv->node->name, pq_physical_type_name(cv->physical_type),
					ltype[0] ? " " : "", ltype),
			 errhint("Declare the column as %s, or as a type it can be assigned to, such as text.",
					 format_type_with_typemod(cv->natural_type, cv->natural_typmod))));
}

/*
 * Choose how natural-type Datums become declared-type Datums: implicit
 * casts (int4 -> int8, timestamp -> timestamptz, ...), anything to a string
 * type via its output function, strings to any type via its input function,
 * PostGIS geometry/geography for GEOMETRY/GEOGRAPHY (geo.c), and
 * typmod coercion (varchar(n), numeric(p,s)).
 */
static void
setup_cast(PqConverter *cv, MemoryContext cxt)
{
	Oid			funcid = InvalidOid;
	CoercionPathType path;

	cv->cast = PQ_CAST_NONE;
	if (cv->target_type != cv->natural_type && !pqfdw_geo_setup_cast(cv, cxt))
	{
		path = find_coercion_pathway(cv->target_type, cv->natural_type,
									 COERCION_IMPLICIT, &funcid);

		/*
		 * Otherwise what an INSERT of the value would do: bool -> text gives
		 * 'true', and a narrower type (int4 -> int2, float8 -> float4) takes
		 * each value that fits and raises the cast's error for one that does
		 * not.
		 */
		if (path == COERCION_PATH_NONE)
		{
			path = find_coercion_pathway(cv->target_type, cv->natural_type,
										 COERCION_ASSIGNMENT, &funcid);
			cv->assignment_cast = path != COERCION_PATH_NONE;
		}
		if (path == COERCION_PATH_FUNC && OidIsValid(funcid))
		{
			fmgr_info_cxt(funcid, &cv->cast_func, cxt);
			cv->cast_nargs = func_nargs(funcid);
			cv->cast = PQ_CAST_FUNC;
		}
		else if (path == COERCION_PATH_RELABELTYPE)
			cv->cast = PQ_CAST_NONE;
		else if (path == COERCION_PATH_COERCEVIAIO ||
				 is_string_type(cv->target_type) ||
				 is_string_type(cv->natural_type))
			setup_io_cast(cv, cxt);
		else
			declaration_error(cv);
	}

	/* the input function applies the typmod itself */
	cv->need_typmod_func = false;
	if (cv->cast != PQ_CAST_IO && cv->target_typmod >= 0 &&
		!(cv->target_type == cv->natural_type &&
		  cv->target_typmod == cv->natural_typmod))
	{
		Oid			tmfunc;

		if (find_typmod_coercion_function(cv->target_type, &tmfunc) ==
			COERCION_PATH_FUNC)
		{
			fmgr_info_cxt(tmfunc, &cv->typmod_func, cxt);
			cv->typmod_nargs = func_nargs(tmfunc);
			cv->need_typmod_func = true;
		}
	}
	cv->narrowing = cv->assignment_cast || cv->need_typmod_func;
}

/* What every converter of node takes from it. */
static void
init_from_node(PqConverter *cv, const PqSchemaNode *node, const char *attname)
{
	memset(cv, 0, sizeof(*cv));
	cv->attname = attname;
	cv->node = node;
	cv->physical_type = node->physical_type;
	cv->type_length = node->type_length;
	cv->max_def = node->max_def;
	cv->decimal_scale = node->logical.decimal_scale;
	cv->time_unit = node->logical.time_unit;
}

void
pqfdw_converter_init(PqConverter *cv, const PqSchemaNode *node,
					 Oid target_type, int32 target_typmod,
					 const char *attname, MemoryContext cxt)
{
	init_from_node(cv, node, attname);
	pqfdw_natural_type(node, &cv->natural_type, &cv->natural_typmod);

	/* un-annotated binary declared as a string type: its bytes as text */
	if (node->logical.id == PQ_LT_NONE && cv->natural_type == BYTEAOID &&
		is_string_type(target_type))
		cv->natural_type = TEXTOID;
	/* JSON declared json: the text as it is, validated by json's input */
	if (node->logical.id == PQ_LT_JSON && target_type == JSONOID)
		cv->natural_type = TEXTOID;
	/* a UTC time of day declared timetz: at offset zero, not the session's */
	if (node->logical.id == PQ_LT_TIME && node->logical.is_adjusted_to_utc &&
		target_type == TIMETZOID)
		cv->natural_type = TIMETZOID;
	cv->target_type = target_type;
	cv->target_typmod = target_typmod;
	cv->always_null = (node->logical.id == PQ_LT_UNKNOWN);

	if (!cv->always_null)
	{
		cv->fn = pqfdw_numeric_converter(cv);
		if (cv->fn == NULL)
			cv->fn = pqfdw_datetime_converter(cv);
		if (cv->fn == NULL)
			cv->fn = pqfdw_binary_converter(cv);
		if (cv->fn == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("reading Parquet column \"%s\" (%s) is not supported",
							node->name, pq_physical_type_name(node->physical_type))));
		setup_cast(cv, cxt);
	}

	cv->cxt = cxt;
	cv->dict_cxt = AllocSetContextCreate(cxt, "parquet dictionary datums",
										 ALLOCSET_DEFAULT_SIZES);
}

bool
pqfdw_converter_init_unscaled(PqConverter *cv, const PqSchemaNode *node,
							  const char *attname, MemoryContext cxt)
{
	init_from_node(cv, node, attname);
	cv->fn = pqfdw_unscaled_converter(cv);
	if (cv->fn == NULL)
		return false;
	cv->natural_type = cv->target_type = INT8OID;
	cv->natural_typmod = cv->target_typmod = -1;
	cv->unscaled_wide = cv->physical_type == PQ_FIXED_LEN_BYTE_ARRAY ||
		cv->physical_type == PQ_BYTE_ARRAY;
	cv->cast = PQ_CAST_NONE;
	cv->cxt = cxt;
	cv->dict_cxt = AllocSetContextCreate(cxt, "parquet dictionary datums",
										 ALLOCSET_DEFAULT_SIZES);
	return true;
}

bool
pqfdw_converter_keeps_values(PqConverter *cv)
{
	return !cv->always_null &&
		!(cv->need_typmod_func && is_string_type(cv->target_type));
}

bool
pqfdw_stat_to_datum(PqConverter *cv, PqBytes b, Datum *out)
{
	PqByteArray ba;
	uint8	   *fixed;
	int64		saved_row_base = cv->row_base;
	uint8		bad = 0;

	if (!pqfdw_converter_keeps_values(cv) || b.ptr == NULL || b.len < 0)
		return false;
	cv->row_base = -1;
	cv->cur_def = NULL;
	/* a statistic out of range bounds nothing, and is no row's value */
	cv->bad = &bad;
	cv->nbad = 0;
	if (cv->physical_type == PQ_BYTE_ARRAY)
	{
		ba.ptr = b.ptr;
		ba.len = b.len;
		cv->fn(cv, NULL, &ba, 1, out);
	}
	else
	{
		int			width = cv->physical_type == PQ_BOOLEAN ? 1 :
		pq_fixed_width(cv->physical_type, cv->type_length);

		if (b.len != width)
		{
			cv->bad = NULL;
			cv->row_base = saved_row_base;
			return false;
		}
		/* statistics bytes are not aligned */
		fixed = palloc(width);
		memcpy(fixed, b.ptr, width);
		cv->fn(cv, fixed, NULL, 1, out);
	}
	cv->bad = NULL;
	cv->row_base = saved_row_base;
	if (cv->nbad > 0)
		return false;
	if (cv->narrowing && !pqfdw_narrowing_fits(cv, *out))
		return false;
	if (cv->cast != PQ_CAST_NONE || cv->need_typmod_func)
		*out = apply_cast(cv, *out);
	return true;
}

bool
pqfdw_stat_converter_keeps_order(PqConverter *cv)
{
	char		ncat;
	char		tcat;
	bool		preferred;

	if (cv->cast == PQ_CAST_NONE)
		return true;
	if (cv->cast != PQ_CAST_FUNC)
		return false;
	if (cv->assignment_cast)
		return pqfdw_narrowing_keeps_order(cv);

	/*
	 * A local time read as timestamptz moves by the session zone's offset at
	 * that time: across a DST gap a later local time can land earlier (02:30
	 * becomes 03:30+02, after 03:00+02).  Only a zone of one offset keeps the
	 * order.
	 */
	if (cv->natural_type == TIMESTAMPOID && cv->target_type == TIMESTAMPTZOID)
	{
		long int	gmtoff;

		return pg_get_timezone_offset(session_timezone, &gmtoff);
	}
	/* widening numeric and date/time casts keep the order */
	get_type_category_preferred(cv->natural_type, &ncat, &preferred);
	get_type_category_preferred(cv->target_type, &tcat, &preferred);
	return ncat == tcat &&
		(ncat == TYPCATEGORY_NUMERIC || ncat == TYPCATEGORY_DATETIME);
}

static Datum
apply_cast(PqConverter *cv, Datum d)
{
	if (cv->cast == PQ_CAST_FUNC)
	{
		if (cv->cast_nargs >= 3)
			d = FunctionCall3(&cv->cast_func, d, Int32GetDatum(-1),
							  BoolGetDatum(false));
		else if (cv->cast_nargs == 2)
			d = FunctionCall2(&cv->cast_func, d, Int32GetDatum(-1));
		else
			d = FunctionCall1(&cv->cast_func, d);
	}
	else if (cv->cast == PQ_CAST_IO)
	{
		char	   *s = OutputFunctionCall(&cv->out_func, d);

		d = InputFunctionCall(&cv->in_func, s, cv->in_ioparam,
							  cv->target_typmod);
	}
	else if (cv->cast == PQ_CAST_GEO)
		d = pqfdw_geo_cast(cv, d);
	if (cv->need_typmod_func)
	{
		if (cv->typmod_nargs >= 3)
			d = FunctionCall3(&cv->typmod_func, d,
							  Int32GetDatum(cv->target_typmod),
							  BoolGetDatum(false));
		else
			d = FunctionCall2(&cv->typmod_func, d,
							  Int32GetDatum(cv->target_typmod));
	}
	return d;
}

/* What the values cast are, for the CONTEXT of a cast's error. */
typedef enum CastPlaceKind
{
	CAST_PLACE_ROWS,			/* a segment's dense values */
	CAST_PLACE_DICTIONARY,		/* a dictionary's entries */
	CAST_PLACE_CALLER			/* the caller's error context says */
} CastPlaceKind;

typedef struct CastPlace
{
	PqConverter *cv;
	int			index;			/* dense index, or dictionary entry */
	CastPlaceKind kind;
} CastPlace;

static void
cast_error_callback(void *arg)
{
	CastPlace  *place = arg;
	PqConverter *cv = place->cv;
	const char *filename = pq_errloc_filename();

	if (filename == NULL)
		errcontext("column \"%s\"", cv->attname);
	else if (place->kind == CAST_PLACE_DICTIONARY)
		errcontext("column \"%s\", dictionary entry %d, Parquet file \"%s\"",
				   cv->attname, place->index, filename);
	else if (cv->row_base >= 0)
		errcontext("column \"%s\", row " INT64_FORMAT " (counted from 1), Parquet file \"%s\"",
				   cv->attname, pqfdw_dense_row(cv, place->index) + 1,
				   filename);
	else
		errcontext("column \"%s\", Parquet file \"%s\"",
				   cv->attname, filename);
}

/*
 * Cast the natural-type Datums d[0, n) to the declared type, skipping the
 * entries skip marks (out of range already).  A narrowing cast's error
 * says where the value is.
 */
static void
apply_casts(PqConverter *cv, Datum *d, int n, const uint8 *skip,
			CastPlaceKind kind)
{
	ErrorContextCallback callback;
	CastPlace	place;
	int			i;

	if (cv->cast == PQ_CAST_NONE && !cv->need_typmod_func)
		return;
	if (!cv->narrowing || kind == CAST_PLACE_CALLER)
	{
		for (i = 0; i < n; i++)
			if (skip == NULL || !skip[i])
				d[i] = apply_cast(cv, d[i]);
		return;
	}
	place.cv = cv;
	place.kind = kind;
	callback.callback = cast_error_callback;
	callback.arg = &place;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	for (i = 0; i < n; i++)
	{
		place.index = i;
		if (skip == NULL || !skip[i])
			d[i] = apply_cast(cv, d[i]);
	}
	error_context_stack = callback.previous;
}

const Datum *
pqfdw_dictionary_datums(PqConverter *cv, const PqDictionary *dict)
{
	MemoryContext old;
	Datum	   *dd;
	int64		saved_row_base;
	const int16 *saved_def;
	const int  *saved_rows;

	if (cv->dict_id == dict->id)
		return cv->dict_datums;
	saved_row_base = cv->row_base;
	saved_def = cv->cur_def;
	saved_rows = cv->cur_rows;
	MemoryContextReset(cv->dict_cxt);
	cv->dict_id = 0;
	cv->dict_bad = NULL;
	old = MemoryContextSwitchTo(cv->dict_cxt);
	dd = palloc_extended(sizeof(Datum) * Max(dict->count, 1), MCXT_ALLOC_HUGE);

	/*
	 * Dictionary entries have no row number.  One out of range is an ERROR
	 * only for the rows that hold it: the others, and the rows a WHERE clause
	 * the scan evaluates leaves out, still read.
	 */
	cv->cur_def = NULL;
	cv->cur_rows = NULL;
	cv->row_base = -1;
	cv->bad = palloc_extended(Max(dict->count, 1), MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	cv->nbad = 0;
	cv->fn(cv, dict->fixed, dict->ba, dict->count, dd);
	if (cv->nbad > 0)
	{
		cv->dict_bad = cv->bad;
		cv->dict_bad_what = cv->bad_what;
	}
	cv->bad = NULL;
	apply_casts(cv, dd, dict->count, cv->dict_bad, CAST_PLACE_DICTIONARY);
	MemoryContextSwitchTo(old);
	cv->row_base = saved_row_base;
	cv->cur_def = saved_def;
	cv->cur_rows = saved_rows;
	cv->dict_datums = dd;
	cv->dict_id = dict->id;
	return dd;
}

bool
pqfdw_dictionary_exact(const PqConverter *cv)
{
	return cv->dict_bad == NULL ||
		(cv->cast == PQ_CAST_NONE && !cv->need_typmod_func);
}

/*
 * A row holds a dictionary entry out of range: its ERROR, or with
 * defer_bad_rows a note for when the caller knows whether it keeps the row
 * (the Datum is the entry's placeholder until then).
 */
static void
note_bad_row(PqConverter *cv, int dense_index)
{
	if (!cv->defer_bad_rows)
		pqfdw_value_out_of_range(cv, dense_index, cv->dict_bad_what);
	if (cv->nbad_rows == cv->bad_rows_cap)
	{
		cv->bad_rows_cap = Max(cv->bad_rows_cap * 2, 16);
		cv->bad_rows = cv->bad_rows ?
			repalloc_huge(cv->bad_rows, sizeof(int64) * cv->bad_rows_cap) :
			MemoryContextAllocHuge(cv->cxt, sizeof(int64) * cv->bad_rows_cap);
	}
	cv->bad_rows[cv->nbad_rows++] = pqfdw_dense_row(cv, dense_index);
}

/* Dense Datums for the segment's values, converted once per dictionary. */
static void
dense_values(PqConverter *cv, const PqSegment *seg, Datum *dense)
{
	int			i;

	if (seg->indices)
	{
		const Datum *dd = pqfdw_dictionary_datums(cv, seg->dict);

		if (unlikely(cv->dict_bad != NULL))
			for (i = 0; i < seg->nvalues; i++)
				if (cv->dict_bad[seg->indices[i]])
					note_bad_row(cv, i);
		for (i = 0; i < seg->nvalues; i++)
			dense[i] = dd[seg->indices[i]];
		return;
	}

	cv->fn(cv, seg->fixed, seg->ba, seg->nvalues, dense);
	apply_casts(cv, dense, seg->nvalues, NULL, CAST_PLACE_ROWS);
}

void
pqfdw_convert_values(PqConverter *cv, const void *fixed, const PqByteArray *ba,
					 int n, Datum *out)
{
	if (cv->always_null || n == 0)
		return;
	cv->fn(cv, fixed, ba, n, out);
	/* the nested reader's error context names the field */
	apply_casts(cv, out, n, NULL, CAST_PLACE_CALLER);
}

void
pqfdw_segment_codes(const PqConverter *cv, const PqSegment *seg,
					uint32 *codes)
{
	int			k = 0;
	int			i;

	if (seg->indices == NULL || cv->always_null)
	{
		for (i = 0; i < seg->n; i++)
			codes[i] = PQFDW_NO_CODE;
		return;
	}
	if (seg->def == NULL)
	{
		memcpy(codes, seg->indices, sizeof(uint32) * seg->n);
		return;
	}
	for (i = 0; i < seg->n; i++)
		codes[i] = seg->def[i] == cv->max_def ? seg->indices[k++] :
			PQFDW_NO_CODE;
}

void
pqfdw_convert_segment_rows(PqConverter *cv, const PqSegment *seg,
						   const int *rows, int nrows, Datum *values,
						   bool *nulls, uint32 *codes)
{
	PqSegment	sel;
	int			i;

	if (cv->always_null)
	{
		memset(nulls, true, sizeof(bool) * nrows);
		for (i = 0; codes && i < nrows; i++)
			codes[i] = PQFDW_NO_CODE;
		return;
	}
	if (cv->scratch.def == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(cv->cxt);
		int			width = Max(pq_fixed_width(cv->physical_type, cv->type_length), 1);

		cv->scratch.def = palloc(sizeof(int16) * PQ_SEGMENT_CAP);
		cv->scratch.indices = palloc(sizeof(uint32) * PQ_SEGMENT_CAP);
		cv->scratch.fixed = palloc((Size) width * pq_segment_cap(width));
		cv->scratch.ba = palloc(sizeof(PqByteArray) * PQ_SEGMENT_CAP);
		MemoryContextSwitchTo(old);
	}
	pq_segment_select(seg, pq_fixed_width(cv->physical_type, cv->type_length),
					  cv->max_def, rows, nrows, &cv->scratch, &sel);
	/* errors name the selected entries' rows */
	cv->cur_rows = rows;
	pqfdw_convert_segment(cv, &sel, values, nulls);
	if (codes)
		pqfdw_segment_codes(cv, &sel, codes);
}

void
pqfdw_convert_segment(PqConverter *cv, const PqSegment *seg,
					  Datum *values, bool *nulls)
{
	int16		max_def = cv->max_def;
	int			k;
	int			i;

	if (cv->always_null)
	{
		memset(nulls, true, sizeof(bool) * seg->n);
		cv->cur_rows = NULL;
		return;
	}

	/* the values in front, then moved back to their rows (k <= i) */
	cv->cur_def = seg->def;
	dense_values(cv, seg, values);
	cv->cur_rows = NULL;
	if (seg->def == NULL)
	{
		memset(nulls, false, sizeof(bool) * seg->n);
		return;
	}
	k = seg->nvalues;
	for (i = seg->n - 1; i >= 0; i--)
	{
		bool		present = (seg->def[i] == max_def);

		k -= present;
		nulls[i] = !present;
		values[i] = present ? values[k] : (Datum) 0;
	}
}
