/*-------------------------------------------------------------------------
 *
 * write_leaf.c
 *		A scalar PostgreSQL type -> a Parquet leaf (schema node, physical
 *		type); definition levels and the dispatch of a batch to its
 *		family's conversion loop (write_numeric.c, write_datetime.c,
 *		write_binary.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fdw/common/postgis.h"
#include "fdw/copy/write_convert.h"
#include "mb/pg_wchar.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* Largest precision whose unscaled values fit the int128 arithmetic. */
#define PQW_MAX_DECIMAL_PRECISION 38

/* Bytes of the smallest two's-complement integer holding 10^p - 1. */
static int
decimal_flba_length(int precision)
{
	int			bytes = 1;
	double		limit = 1.0;
	int			i;

	for (i = 0; i < precision; i++)
		limit *= 10.0;
	/* 2^(8 * bytes - 1) must exceed 10^precision - 1 */
	while (ldexp(1.0, 8 * bytes - 1) < limit)
		bytes++;
	return bytes;
}

/*
 * numeric(p, s) as DECIMAL(precision, scale) with 0 <= scale <= precision:
 * PostgreSQL 15 also allows s < 0 (values are multiples of 10^-s, with up
 * to p - s integer digits) and s > p (values below 10^(p - s)).
 */
static void
decimal_for_typmod(int32 typmod, int numeric_scale, int *precision,
				   int *scale)
{
	int32		p;
	int32		s;

	if (typmod < (int32) VARHDRSZ)
	{
		/* unconstrained: the widest int128 decimal at the chosen scale */
		*precision = PQW_MAX_DECIMAL_PRECISION;
		*scale = numeric_scale;
		return;
	}
	p = ((typmod - VARHDRSZ) >> 16) & 0xffff;
	/* the scale is an 11-bit signed field */
	s = (((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024;
	if (s < 0)
	{
		*precision = p - s;
		*scale = 0;
	}
	else
	{
		*precision = Max(p, s);
		*scale = s;
	}
}

PqWriterField *
pqfdw_field_list_add(PqWriterFieldList *list)
{
	if (list->n == list->cap)
	{
		list->cap = Max(16, list->cap * 2);
		list->items = list->items == NULL ?
			palloc(sizeof(PqWriterField) * list->cap) :
			repalloc(list->items, sizeof(PqWriterField) * list->cap);
	}
	memset(&list->items[list->n], 0, sizeof(PqWriterField));
	return &list->items[list->n++];
}

/*
 * PostGIS geometry/geography -> GEOMETRY/GEOGRAPHY holding ISO WKB
 * (ST_AsBinary).  The CRS comes from the typmod's SRID: none (readers then
 * assume OGC:CRS84) for 4326 and for geography without one, "srid:N"
 * otherwise; geometry without an SRID in its type is "srid:0" (unknown),
 * since the file's schema is written before any value is seen.
 */
static bool
postgis_leaf_init(PqWriteColumn *col, PqWriterField *field, Oid base,
				  int32 typmod)
{
	bool		geography;
	char	   *nspname;
	Oid			arg = base;
	int32		srid;

	if (!pqfdw_postgis_type(base, &geography, &nspname))
		return false;
	fmgr_info(pqfdw_postgis_function(nspname, "st_asbinary", 1, &arg, BYTEAOID),
			  &col->out_func);
	col->kind = PQW_GEO;
	col->physical_type = PQ_BYTE_ARRAY;
	field->logical.id = geography ? PQ_LT_GEOGRAPHY : PQ_LT_GEOMETRY;
	srid = pqfdw_postgis_typmod_srid(typmod);
	if (srid != 4326 && !(geography && srid == 0))
		field->logical.geo_crs = psprintf("srid:%d", srid);
	return true;
}

void
pqfdw_write_leaf_init(PqWriteColumn *col, PqWriterField *field,
					  const char *name, Oid base, int32 base_typmod,
					  bool required, const PqWriteTypeOptions *topts,
					  int capacity)
{
	int			encoding = GetDatabaseEncoding();
	int			width;

	memset(col, 0, sizeof(*col));
	memset(field, 0, sizeof(*field));

	col->name = name;
	col->typid = base;
	col->typmod = base_typmod;
	col->required = required;
	col->capacity = capacity;
	col->interval_truncate = topts->interval_truncate;
	get_typlenbyval(base, &col->typlen, &col->typbyval);

	field->name = name;
	field->repetition = required ? PQ_REQUIRED : PQ_OPTIONAL;
	field->num_children = 0;
	field->logical.id = PQ_LT_NONE;
	field->converted_type = -1;

	switch (base)
	{
		case BOOLOID:
			col->kind = PQW_BOOL;
			col->physical_type = PQ_BOOLEAN;
			break;
		case INT2OID:
		case INT4OID:
		case INT8OID:
			col->kind = base == INT2OID ? PQW_INT2 :
				base == INT4OID ? PQW_INT4 : PQW_INT8;
			col->physical_type = base == INT8OID ? PQ_INT64 : PQ_INT32;
			field->logical.id = PQ_LT_INTEGER;
			field->logical.int_bit_width = base == INT2OID ? 16 :
				base == INT4OID ? 32 : 64;
			field->logical.int_is_signed = true;
			break;
		case FLOAT4OID:
			col->kind = PQW_FLOAT4;
			col->physical_type = PQ_FLOAT;
			break;
		case FLOAT8OID:
			col->kind = PQW_FLOAT8;
			col->physical_type = PQ_DOUBLE;
			break;
		case NUMERICOID:
			decimal_for_typmod(base_typmod, topts->numeric_scale,
							   &col->decimal_precision, &col->decimal_scale);
			if (col->decimal_precision > PQW_MAX_DECIMAL_PRECISION ||
				(topts->numeric_as_string && base_typmod < (int32) VARHDRSZ))
			{
				/*
				 * Wider than any reader's decimal, or asked for: exact text
				 * (NaN and Infinity included).
				 */
				col->kind = PQW_OUTPUT;
				col->physical_type = PQ_BYTE_ARRAY;
				field->logical.id = PQ_LT_STRING;
				break;
			}
			col->kind = PQW_DECIMAL;
			if (col->decimal_precision <= 9)
				col->physical_type = PQ_INT32;
			else if (col->decimal_precision <= 18)
				col->physical_type = PQ_INT64;
			else
			{
				col->physical_type = PQ_FIXED_LEN_BYTE_ARRAY;
				col->type_length = decimal_flba_length(col->decimal_precision);
			}
			field->logical.id = PQ_LT_DECIMAL;
			field->logical.decimal_precision = col->decimal_precision;
			field->logical.decimal_scale = col->decimal_scale;
			break;
		case DATEOID:
			col->kind = PQW_DATE;
			col->physical_type = PQ_INT32;
			field->logical.id = PQ_LT_DATE;
			break;
		case TIMEOID:
		case TIMETZOID:
			col->kind = base == TIMEOID ? PQW_TIME : PQW_TIMETZ;
			col->physical_type = PQ_INT64;
			field->logical.id = PQ_LT_TIME;
			field->logical.is_adjusted_to_utc = base == TIMETZOID;
			field->logical.time_unit = PQ_UNIT_MICROS;
			break;
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			col->kind = PQW_TIMESTAMP;
			col->physical_type = PQ_INT64;
			field->logical.id = PQ_LT_TIMESTAMP;
			field->logical.is_adjusted_to_utc = base == TIMESTAMPTZOID;
			field->logical.time_unit = PQ_UNIT_MICROS;
			break;
		case INTERVALOID:
			/* INTERVAL has a ConvertedType only */
			col->kind = PQW_INTERVAL;
			col->physical_type = PQ_FIXED_LEN_BYTE_ARRAY;
			col->type_length = 12;
			field->converted_type = PQ_CT_INTERVAL;
			break;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
			col->kind = PQW_VARLENA;
			col->physical_type = PQ_BYTE_ARRAY;
			field->logical.id = PQ_LT_STRING;
			break;
		case NAMEOID:
			col->kind = PQW_NAME;
			col->physical_type = PQ_BYTE_ARRAY;
			field->logical.id = PQ_LT_STRING;
			break;
		case BYTEAOID:
			col->kind = PQW_VARLENA;
			col->physical_type = PQ_BYTE_ARRAY;
			break;
		case UUIDOID:
			col->kind = PQW_UUID;
			col->physical_type = PQ_FIXED_LEN_BYTE_ARRAY;
			col->type_length = 16;
			field->logical.id = PQ_LT_UUID;
			break;
		case JSONOID:
		case JSONBOID:
			col->kind = base == JSONOID ? PQW_VARLENA : PQW_JSONB;
			col->physical_type = PQ_BYTE_ARRAY;
			field->logical.id = PQ_LT_JSON;
			break;
		default:
			if (postgis_leaf_init(col, field, base, base_typmod))
				break;
			col->kind = PQW_OUTPUT;
			col->physical_type = PQ_BYTE_ARRAY;
			field->logical.id = type_is_enum(base) ? PQ_LT_ENUM :
				PQ_LT_STRING;
			break;
	}

	if (col->kind == PQW_OUTPUT)
	{
		Oid			out_oid;
		bool		is_varlena;

		getTypeOutputInfo(base, &out_oid, &is_varlena);
		fmgr_info(out_oid, &col->out_func);
	}

	/* Parquet strings are UTF-8; bytea is not text */
	col->to_utf8 = field->logical.id != PQ_LT_NONE &&
		col->physical_type == PQ_BYTE_ARRAY &&
		encoding != PG_UTF8 && encoding != PG_SQL_ASCII;

	field->physical_type = col->physical_type;
	field->type_length = col->type_length;

	col->values = palloc(sizeof(Datum) * capacity);
	col->nulls = palloc0(sizeof(bool) * capacity);
	col->def = palloc(sizeof(int16) * capacity);
	switch (col->physical_type)
	{
		case PQ_BYTE_ARRAY:
			col->ba = palloc(sizeof(PqByteArray) * capacity);
			width = 0;
			break;
		case PQ_BOOLEAN:
			width = 1;
			break;
		case PQ_INT32:
		case PQ_FLOAT:
			width = 4;
			break;
		case PQ_INT64:
		case PQ_DOUBLE:
			width = 8;
			break;
		default:
			width = col->type_length;
			break;
	}
	col->width = width;
	if (width > 0)
		col->fixed = palloc((Size) width * capacity);
}

void
pqfdw_write_column_reserve(PqWriteColumn *col, int n)
{
	int			cap = col->capacity;

	if (n <= cap)
		return;
	while (cap < n)
	{
		if (cap > PG_INT32_MAX / 2)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("too many values in one batch of column \"%s\"",
							col->name),
					 errhint("Use a smaller row_group_size.")));
		cap *= 2;
	}
	col->values = repalloc_huge(col->values, sizeof(Datum) * cap);
	col->nulls = repalloc_huge(col->nulls, sizeof(bool) * cap);
	memset(col->nulls + col->capacity, 0, sizeof(bool) * (cap - col->capacity));
	col->def = repalloc_huge(col->def, sizeof(int16) * cap);
	if (col->ba != NULL)
		col->ba = repalloc_huge(col->ba, sizeof(PqByteArray) * cap);
	if (col->fixed != NULL)
		col->fixed = repalloc_huge(col->fixed, (Size) col->width * cap);
	col->capacity = cap;
}

int
pqfdw_write_convert(PqWriteColumn *col, int n, int64 row_base)
{
	int			nvalues = 0;
	int			i;

	if (col->required)
	{
		/*
		 * NOT NULL of a foreign table is not enforced, and a REQUIRED column
		 * cannot hold a null.
		 */
		for (i = 0; i < n; i++)
			if (unlikely(col->nulls[i]))
				pqfdw_write_value_error(col, row_base, i,
										ERRCODE_NOT_NULL_VIOLATION,
										"The column is NOT NULL, so it is written as REQUIRED, but the value is null.",
										"COPY from a query that filters out or replaces the nulls (for example with coalesce()).");
		nvalues = n;
	}
	else
	{
		for (i = 0; i < n; i++)
		{
			col->def[i] = col->nulls[i] ? 0 : 1;
			nvalues += col->def[i];
		}
	}

	switch (col->kind)
	{
		case PQW_BOOL:
		case PQW_INT2:
		case PQW_INT4:
		case PQW_INT8:
		case PQW_FLOAT4:
		case PQW_FLOAT8:
		case PQW_DECIMAL:
			pqfdw_write_numeric(col, n, row_base);
			break;
		case PQW_DATE:
		case PQW_TIME:
		case PQW_TIMETZ:
		case PQW_TIMESTAMP:
		case PQW_INTERVAL:
			pqfdw_write_datetime(col, n, row_base);
			break;
		case PQW_VARLENA:
		case PQW_NAME:
		case PQW_UUID:
		case PQW_JSONB:
		case PQW_GEO:
		case PQW_OUTPUT:
			pqfdw_write_binary(col, n, row_base);
			break;
	}
	return nvalues;
}
