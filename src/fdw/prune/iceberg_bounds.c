/*-------------------------------------------------------------------------
 *
 * iceberg_bounds.c
 *		Whole data files of an Iceberg table ruled out at plan time by what
 *		its metadata keeps for them: the manifest list's partition summaries
 *		(a whole manifest's files at once), identity partition values,
 *		record and null counts, and lower and upper bounds (the single-value
 *		binary serialization), found by the column's field id.
 *
 * A bound is read into the declared type of the column only where its
 * order is the declared type's: integers, dates, timestamps and decimals
 * into the matching PostgreSQL types, strings (whose bounds compare as
 * UTF-8 bytes, and may be truncated prefixes) under the C collation only.
 * Floating-point bounds leave NaN out, which PostgreSQL orders above every
 * number: they decide nothing.  A bound that does not read decides
 * nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/common/pg_compat.h"
#include "fdw/prune/prune.h"
#include "fdw/prune/table_stats.h"
#include "table/iceberg/value_text.h"
#include "utils/lsyscache.h"

static int64
count_of(const PqIcebergCount *counts, int n, int32 id)
{
	int			i;

	for (i = 0; i < n; i++)
		if (counts[i].field_id == id)
			return counts[i].count;
	return -1;
}

static const PqIcebergBound *
bound_of(const PqIcebergBound *bounds, int n, int32 id)
{
	int			i;

	for (i = 0; i < n; i++)
		if (bounds[i].field_id == id)
			return &bounds[i];
	return NULL;
}

/* Whether bounds of Iceberg type type order as values of typid do. */
static bool
orders_as(const char *type, Oid typid, Oid collation)
{
	switch (typid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			return strcmp(type, "int") == 0 || strcmp(type, "long") == 0;
		case DATEOID:
			return strcmp(type, "date") == 0;
		case TIMESTAMPOID:
			return strcmp(type, "timestamp") == 0;
		case TIMESTAMPTZOID:
			return strcmp(type, "timestamptz") == 0;
		case NUMERICOID:
			return strncmp(type, "decimal(", 8) == 0;
		case TEXTOID:
		case VARCHAROID:
			return strcmp(type, "string") == 0 && OidIsValid(collation) &&
				pqfdw_collate_is_c(collation);
	}
	return false;
}

static bool
bound_datum(const PqIcebergBound *b, const char *type, Oid typid,
			Datum *out)
{
	const char *why = NULL;
	char	   *text;
	Oid			infunc;
	Oid			ioparam;

	if (b == NULL)
		return false;
	text = pq_iceberg_bound_text(b->bytes, b->len, type, &why);

	if (text == NULL)
		return false;
	getTypeInputInfo(typid, &infunc, &ioparam);
	*out = OidInputFunctionCall(infunc, text, ioparam, -1);
	return true;
}

/*
 * The Iceberg field predicate p compares (by the column's cached field
 * id); NULL when p is not one whose metadata can decide it.
 */
static const PqIcebergField *
pred_field(const PqPrunePred *p, const PqfdwTableSnapshot *snap, Oid relid,
		   PqfdwDataset *ds)
{
	int32		id;

	if (PQ_PRED_IS_NESTED(p) || p->kind == PQ_PRUNE_BBOX ||
		pqfdw_dataset_is_virtual(ds, p->attnum) ||
		!pqfdw_field_id(relid, p->attnum, &id))
		return NULL;
	return pqfdw_iceberg_schema_field(snap->ice_schema, id);
}

/*
 * Can a row of data file ice satisfy p, by an identity partition's value
 * (every row holds it, whether the file stores the column or not)?
 */
static bool
partition_may_match(PqPrunePred *p, const PqIcebergField *field,
					const PqfdwIcebergFile *ice, Oid typid)
{
	const char *text = NULL;
	bool		found = false;
	Datum		v;
	Oid			infunc;
	Oid			ioparam;
	int			i;

	for (i = 0; i < ice->nidentity; i++)
		if (ice->identity_ids[i] == field->id)
		{
			found = true;
			text = ice->identity_text[i];
		}
	if (!found)
		return true;
	switch (p->kind)
	{
		case PQ_PRUNE_IS_NULL:
			return text == NULL;

		case PQ_PRUNE_IS_NOT_NULL:
			return text !=NULL;

		case PQ_PRUNE_COMPARE:
			break;
		default:
			return true;
	}
	if (text == NULL)
		return false;
	/* an exact value compares right in any collation */
	if (p->has_cast || !(orders_as(field->type, typid, InvalidOid) ||
						 (strcmp(field->type, "string") == 0 &&
						  (typid == TEXTOID || typid == VARCHAROID))))
		return true;
	getTypeInputInfo(typid, &infunc, &ioparam);
	v = OidInputFunctionCall(infunc, (char *) text, ioparam, -1);
	return pqfdw_pred_range_may_match(p, v, true, v, true);
}

/*
 * Can a row of data file ice satisfy p, by its identity partition values
 * (partition) or by its counts and bounds (!partition)?
 */
static bool
pred_may_match(PqPrunePred *p, const PqfdwTableSnapshot *snap,
			   const PqfdwIcebergFile *ice, Oid relid, PqfdwDataset *ds,
			   bool partition)
{
	const PqIcebergDataFile *df = ice->df;
	const PqIcebergField *field = NULL;
	int32		id;
	int64		nnull;
	Datum		min = 0,
				max = 0;
	bool		has_min,
				has_max;
	Oid			typid;
	int			i;

	if (p->kind == PQ_PRUNE_OR)
	{
		for (i = 0; i < p->nargs; i++)
			if (pred_may_match(&p->args[i], snap, ice, relid, ds, partition))
				return true;
		return false;
	}
	if ((field = pred_field(p, snap, relid, ds)) == NULL)
		return true;
	id = field->id;
	if (partition)
		return partition_may_match(p, field, ice,
								   get_atttype(relid, p->attnum));
	/* a file without the column reads its default: no counts tell that */
	if (field->initial_default != NULL ||
		count_of(df->value_counts, df->nvalue_counts, id) < 0)
		return true;
	nnull = count_of(df->null_value_counts, df->nnull_value_counts, id);
	switch (p->kind)
	{
		case PQ_PRUNE_IS_NULL:
			return nnull != 0;
		case PQ_PRUNE_IS_NOT_NULL:
			return nnull < 0 || nnull < df->record_count;
		case PQ_PRUNE_COMPARE:
			break;
		default:
			return true;
	}
	if (nnull >= 0 && nnull >= df->record_count)
		return false;
	typid = get_atttype(relid, p->attnum);
	if (p->has_cast || !orders_as(field->type, typid, p->collation))
		return true;
	has_min = bound_datum(bound_of(df->lower_bounds, df->nlower_bounds, id),
						  field->type, typid, &min);
	has_max = bound_datum(bound_of(df->upper_bounds, df->nupper_bounds, id),
						  field->type, typid, &max);
	return pqfdw_pred_range_may_match(p, min, has_min, max, has_max);
}

/*
 * Can a row of a data file of manifest mf satisfy p, by the manifest
 * list's summary of an identity partition field (its lower and upper
 * bounds, whether it holds nulls)?
 */
static bool
summary_may_match(PqPrunePred *p, const PqfdwTableSnapshot *snap,
				  const PqIcebergManifestFile *mf, Oid relid, PqfdwDataset *ds)
{
	const PqIcebergSpec *spec = pq_iceberg_spec(snap->ice_md,
												mf->partition_spec_id);
	const PqIcebergField *field = NULL;
	const PqIcebergFieldSummary *sum = NULL;
	PqIcebergBound lo;
	PqIcebergBound hi;
	Datum		min = 0,
				max = 0;
	bool		has_min,
				has_max;
	Oid			typid;
	int32		id;
	int			i;

	if (p->kind == PQ_PRUNE_OR)
	{
		for (i = 0; i < p->nargs; i++)
			if (summary_may_match(&p->args[i], snap, mf, relid, ds))
				return true;
		return false;
	}
	if (spec == NULL || (field = pred_field(p, snap, relid, ds)) == NULL)
		return true;
	id = field->id;
	for (i = 0; i < spec->nfields && i < mf->npartitions; i++)
		if (spec->fields[i].source_id == id &&
			strcmp(spec->fields[i].transform, "identity") == 0)
			sum = &mf->partitions[i];
	if (sum == NULL)
		return true;
	/* without bounds a partition holds nulls only (or nothing) */
	if (p->kind == PQ_PRUNE_IS_NULL)
		return sum->contains_null;
	if (sum->lower_bound == NULL && sum->upper_bound == NULL)
		return !sum->contains_null;
	if (p->kind != PQ_PRUNE_COMPARE)
		return true;
	typid = get_atttype(relid, p->attnum);
	if (p->has_cast || !orders_as(field->type, typid, p->collation))
		return true;
	lo.field_id = hi.field_id = id;
	lo.bytes = sum->lower_bound;
	lo.len = sum->lower_len;
	hi.bytes = sum->upper_bound;
	hi.len = sum->upper_len;
	has_min = lo.bytes && bound_datum(&lo, field->type, typid, &min);
	has_max = hi.bytes && bound_datum(&hi, field->type, typid, &max);
	return pqfdw_pred_range_may_match(p, min, has_min, max, has_max);
}

bool
pqfdw_iceberg_manifest_may_match(PqPrunePred *preds, int npreds,
								 const PqfdwTableSnapshot *snap,
								 const PqIcebergManifestFile *mf, Oid relid,
								 PqfdwDataset *ds)
{
	int			k;

	for (k = 0; k < npreds; k++)
		if (!summary_may_match(&preds[k], snap, mf, relid, ds))
			return false;
	return true;
}

bool
pqfdw_iceberg_file_may_match(PqPrunePred *preds, int npreds,
							 const PqfdwTableSnapshot *snap, int file,
							 Oid relid, PqfdwDataset *ds, bool partition)
{
	int			k;

	for (k = 0; k < npreds; k++)
		if (!pred_may_match(&preds[k], snap, snap->ice[file], relid, ds,
							partition))
			return false;
	return true;
}
