/*-------------------------------------------------------------------------
 *
 * dataset.c
 *		The columns of a dataset: which are Parquet fields and which come
 *		from the file (hive partition keys of its path, the path itself,
 *		the row's number in it), and the values of the latter.
 *
 * A partition column is declared like any column; its declared type's
 * input function reads the directory's value (so an int column over
 * part=007 reads 7), and a value it rejects is an error naming the file.
 * A table column whose name is a partition key reads the key even when the
 * files also hold a field of that name, as DuckDB does: the writers that
 * keep the field (write_partition_columns) keep it equal.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "catalog/pg_type.h"
#include "fdw/common/columns.h"
#include "fdw/dataset/dataset.h"
#include "nodes/pathnodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

/* The attribute named name (not column_name: the table's own name), or 0. */
static AttrNumber
named_attribute(TupleDesc tupdesc, const char *name, const char *option,
				Oid relid)
{
	int			i;

	if (name == NULL)
		return InvalidAttrNumber;
	for (i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (!att->attisdropped && strcmp(NameStr(att->attname), name) == 0)
			return i + 1;
	}
	ereport(ERROR,
			(errcode(ERRCODE_UNDEFINED_COLUMN),
			 errmsg("column \"%s\" named by option %s does not exist in foreign table \"%s\"",
					name, option, get_rel_name(relid)),
			 errhint("Add the column to the table, or change the option.")));
	return InvalidAttrNumber;	/* keep compiler quiet */
}

/* The partition key a field name matches: exactly, else unambiguously in any case. */
static int
matching_key(PqfdwDataset *ds, const char *name)
{
	int			found = -1;
	int			i;

	for (i = 0; i < ds->nkeys; i++)
		if (strcmp(ds->keys[i], name) == 0)
			return i;
	for (i = 0; i < ds->nkeys; i++)
		if (pg_strcasecmp(ds->keys[i], name) == 0)
		{
			if (found >= 0)
				return -1;
			found = i;
		}
	return found;
}

static void
set_kinds(PqfdwDataset *ds, TupleDesc tupdesc, const PqfdwTableOptions *opts)
{
	AttrNumber	fname = named_attribute(tupdesc, opts->filename_column,
										"filename_column", ds->relid);
	AttrNumber	rownum = named_attribute(tupdesc, opts->row_number_column,
										 "file_row_number_column", ds->relid);
	int			i;

	for (i = 0; i < ds->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		int			key;

		ds->kind[i] = PQFDW_COLUMN_FIELD;
		if (att->attisdropped)
			continue;
		if (i + 1 == rownum)
		{
			if (att->atttypid != INT8OID)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("column \"%s\" named by option file_row_number_column must be of type bigint",
								NameStr(att->attname))));
			ds->kind[i] = PQFDW_COLUMN_ROW_NUMBER;
		}
		else if (i + 1 == fname)
		{
			if (TypeCategory(att->atttypid) != TYPCATEGORY_STRING)
				ereport(ERROR,
						(errcode(ERRCODE_DATATYPE_MISMATCH),
						 errmsg("column \"%s\" named by option filename_column must be of a string type such as text",
								NameStr(att->attname))));
			ds->kind[i] = PQFDW_COLUMN_FILENAME;
		}
		else if (ds->nkeys > 0 &&
				 (key = matching_key(ds, pqfdw_field_name(ds->relid, i + 1))) >= 0)
		{
			ds->kind[i] = PQFDW_COLUMN_PARTITION;
			ds->key_of[i] = key;
		}
		if (ds->kind[i] == PQFDW_COLUMN_FIELD)
			continue;
		ds->has_virtual = true;
		if (ds->kind[i] != PQFDW_COLUMN_ROW_NUMBER)
		{
			Oid			infunc;

			getTypeInputInfo(att->atttypid, &infunc, &ds->in_ioparam[i]);
			fmgr_info_cxt(infunc, &ds->in_func[i], ds->cxt);
			ds->in_typmod[i] = att->atttypmod;
		}
	}
}

/*
 * The partition values and deletion vectors of a table format's files
 * (ds->paths, which may be those a plan kept), from its snapshot.
 */
static void
table_format_files(PqfdwDataset *ds, const PqfdwTableOptions *opts)
{
	const PqfdwTableSnapshot *snap;
	int			f;
	int			k;

	pqfdw_table_ref(opts, &ds->ref);
	snap = pqfdw_table_snapshot(&ds->ref);
	ds->location = pstrdup(snap->location);
	if (pqfdw_table_remote(opts) != NULL)
	{
		PqfdwRemoteId *r = palloc(sizeof(PqfdwRemoteId));

		*r = opts->access.remote;
		ds->remote = r;
	}
	ds->at = opts->at;
	if (ds->at.ref != NULL)
		ds->at.ref = pstrdup(ds->at.ref);
	ds->ref.location = ds->location;
	ds->ref.at = ds->at;
	ds->ref.remote = ds->remote;
	if (ds->ref.location_map != NULL)
		ds->ref.location_map = pstrdup(ds->ref.location_map);
	pqfdw_access_local(&ds->access, NULL);
	ds->access.remote = opts->access.remote;
	ds->version = snap->version;
	ds->schema_id = snap->ice_schema ? snap->ice_schema->schema_id : -1;
	if (snap->nested_mapped)
	{
		ds->schema_string = pstrdup(snap->schema_string);
		ds->mapping = snap->mapping;
	}
	if (snap->ice_schema != NULL)
	{
		const PqIcebergSchema *is = snap->ice_schema;

		ds->variant_ids = palloc(sizeof(int32) * Max(is->nfields, 1));
		ds->variant_names = palloc(sizeof(char *) * Max(is->nfields, 1));
		for (k = 0; k < is->nfields; k++)
			if (strcmp(is->fields[k].type, "variant") == 0)
			{
				ds->variant_ids[ds->nvariant] = is->fields[k].id;
				ds->variant_names[ds->nvariant++] = pstrdup(is->fields[k].name);
			}
	}
	ds->nkeys = snap->nkeys;
	ds->keys = palloc(sizeof(char *) * Max(ds->nkeys, 1));
	for (k = 0; k < ds->nkeys; k++)
		ds->keys[k] = pstrdup(snap->keys[k]);
	ds->raw = palloc(sizeof(char *) * Max(ds->nkeys * ds->nfiles, 1));
	for (f = 0; f < ds->nfiles; f++)
	{
		int			i = pqfdw_snapshot_file(snap, ds->paths[f]);
		const char *v;

		if (i < 0)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("data file \"%s\" is no longer part of %s table \"%s\"",
							ds->paths[f], pqfdw_table_format_name(snap->format),
							snap->location),
					 errhint("Run the statement again.")));
		for (k = 0; k < ds->nkeys; k++)
			ds->raw[f * ds->nkeys + k] =
				(v = pqfdw_snapshot_partition_value(snap, i, k)) ? pstrdup(v) : NULL;
		if (snap->ice != NULL && snap->ice[i]->ndeletes > 0)
		{
			if (ds->ice_deletes == NULL)
			{
				ds->ice_deletes = palloc0(sizeof(bool) * ds->nfiles);
				ds->deleted = palloc0(sizeof(PqDeletedRows *) * ds->nfiles);
			}
			ds->ice_deletes[f] = true;
		}
		if (snap->files[i]->has_dv)
		{
			PqDeltaDv  *dv = palloc(sizeof(PqDeltaDv));

			if (ds->dv == NULL)
			{
				ds->dv = palloc0(sizeof(PqDeltaDv *) * ds->nfiles);
				if (ds->deleted == NULL)
					ds->deleted = palloc0(sizeof(PqDeletedRows *) * ds->nfiles);
			}
			*dv = snap->files[i]->dv;
			dv->path_or_inline = pstrdup(dv->path_or_inline);
			ds->dv[f] = dv;
		}
	}
}

/*
 * Every column of a table format's table that reads a field names a column
 * of its schema: a file may lack a column (added later, or void), which
 * then reads as NULL, but a name the table does not have is a mistake.
 */
static void
check_table_columns(PqfdwDataset *ds, TupleDesc tupdesc,
					const PqfdwTableOptions *opts)
{
	const PqfdwTableSnapshot *snap = pqfdw_table_snapshot(&ds->ref);
	int			i;

	for (i = 0; i < ds->natts; i++)
	{
		char	   *name;

		if (TupleDescAttr(tupdesc, i)->attisdropped ||
			ds->kind[i] != PQFDW_COLUMN_FIELD)
			continue;
		name = pqfdw_column_declared_name(ds->relid, i + 1);
		if (pqfdw_snapshot_field_name(snap, name) == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" of foreign table \"%s\" is not a column of %s table \"%s\"",
							name, get_rel_name(ds->relid),
							pqfdw_table_format_name(snap->format),
							snap->location),
					 errhint("parquet_fdw.table_schema() lists the table's columns.")));
	}
}

/* Whether top-level node is the Iceberg variant column ds knows it as. */
static bool
iceberg_variant(const PqfdwDataset *ds, const PqSchemaNode *node)
{
	int			i;

	if (node->is_leaf || node->logical.id != PQ_LT_NONE ||
		node->n_children != 2 ||
		pq_schema_child(node, "metadata") == NULL ||
		pq_schema_child(node, "value") == NULL)
		return false;
	for (i = 0; i < ds->nvariant; i++)
		if (node->elem && node->elem->has_field_id ?
			node->elem->field_id == ds->variant_ids[i] :
			strcmp(node->name, ds->variant_names[i]) == 0)
			return true;
	return false;
}

/*
 * Iceberg's variant columns as writers leave them (Trino): a group of
 * metadata and value without the VARIANT annotation; the table's schema
 * says what they are, and a copy of the file's schema says it too.
 */
static PqSchema *
iceberg_variants(PqfdwDataset *ds, PqSchema *schema)
{
	PqSchema   *copy = NULL;
	int			i;

	for (i = 0; i < schema->root->n_children; i++)
		if (iceberg_variant(ds, schema->root->children[i]))
		{
			if (copy == NULL)
				copy = pq_schema_copy(schema);
			copy->root->children[i]->logical.id = PQ_LT_VARIANT;
		}
	return copy ? copy : schema;
}

PqSchema *
pqfdw_dataset_file_schema(PqfdwDataset *ds, PqSchema *schema)
{
	PqSchema   *copy;

	if (ds != NULL && ds->nvariant > 0)
		return iceberg_variants(ds, schema);
	if (ds == NULL || ds->schema_string == NULL)
		return schema;
	if (ds->logical == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(ds->cxt);
		PqDeltaSchema *ls = palloc0(sizeof(PqDeltaSchema));
		const char *why = NULL;

		if (!pq_delta_parse_schema(ds->schema_string, ls, &why))
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("Delta table \"%s\" cannot be read: its schema is invalid: %s",
							ds->location, why)));
		ds->logical = ls;
		MemoryContextSwitchTo(old);
	}
	copy = pq_schema_copy(schema);
	pq_delta_logical_names(copy, ds->logical, ds->mapping);
	return copy;
}

const PqDeletedRows *
pqfdw_dataset_deleted_rows(PqfdwDataset *ds, int file)
{
	if (ds != NULL && ds->ice_deletes != NULL && ds->ice_deletes[file])
	{
		if (ds->deleted[file] == NULL)
			ds->deleted[file] = pqfdw_iceberg_deleted_rows(ds, file);
		return ds->deleted[file];
	}
	if (ds == NULL || ds->dv == NULL || ds->dv[file] == NULL)
		return NULL;
	if (ds->deleted[file] == NULL)
		ds->deleted[file] = pqfdw_delta_deleted_rows(ds->location, ds->remote,
													 ds->dv[file],
													 ds->paths[file], ds->cxt);
	return ds->deleted[file];
}

void
pqfdw_dataset_check_size(PqfdwDataset *ds, int file, int64 size)
{
	const PqfdwTableSnapshot *snap;
	int			i;

	if (ds == NULL || ds->ref.format != PQFDW_FORMAT_ICEBERG)
		return;
	snap = pqfdw_table_snapshot(&ds->ref);
	i = pqfdw_snapshot_file(snap, ds->paths[file]);
	if (i >= 0 && snap->ice[i]->df->file_size_in_bytes != size)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("data file \"%s\" of Iceberg table \"%s\" is " INT64_FORMAT " bytes long, not " INT64_FORMAT " as its manifest says",
						ds->paths[file], snap->location, size,
						snap->ice[i]->df->file_size_in_bytes),
				 errhint("The file was replaced after the table's snapshot was written.")));
}

bool
pqfdw_dataset_missing_value(PqfdwDataset *ds, int file, AttrNumber attnum,
							Datum *value)
{
	int			att = attnum - 1;
	const PqfdwTableSnapshot *snap;
	const char *text;
	int			i;
	MemoryContext old;

	*value = (Datum) 0;
	if (ds == NULL || ds->ref.format != PQFDW_FORMAT_ICEBERG)
		return true;
	if (ds->memo_file[att] == file)
	{
		*value = ds->memo_value[att];
		return ds->memo_null[att];
	}
	snap = pqfdw_table_snapshot(&ds->ref);
	i = pqfdw_snapshot_file(snap, ds->paths[file]);
	text = i < 0 ? NULL :
	pqfdw_snapshot_missing_value(snap, i,
								 pqfdw_column_declared_name(ds->relid, attnum));

	ds->memo_file[att] = file;
	ds->memo_null[att] = text == NULL;

	ds->memo_value[att] = (Datum) 0;
	if (text !=NULL)
	{
		Oid			infunc;
		Oid			ioparam;

		old = MemoryContextSwitchTo(ds->cxt);
		getTypeInputInfo(ds->att_type[att], &infunc, &ioparam);
		ds->memo_value[att] = OidInputFunctionCall(infunc, (char *) text,
												   ioparam,
												   ds->att_typmod[att]);
		MemoryContextSwitchTo(old);
	}
	*value = ds->memo_value[att];
	return ds->memo_null[att];
}

PqfdwDataset *
pqfdw_dataset_create(Oid relid, TupleDesc tupdesc, List *paths,
					 const PqfdwTableOptions *opts, PqfdwHiveMode hive,
					 MemoryContext cxt)
{
	MemoryContext old = MemoryContextSwitchTo(cxt);
	PqfdwDataset *ds = palloc0(sizeof(PqfdwDataset));
	PqfdwHivePath *parsed = NULL;
	List	   *keys = NIL;
	ListCell   *lc;
	int			i;

	ds->relid = relid;
	ds->cxt = cxt;
	ds->nfiles = list_length(paths);
	ds->paths = palloc(sizeof(char *) * Max(ds->nfiles, 1));
	foreach(lc, paths)
		ds->paths[foreach_current_index(lc)] = lfirst(lc);
	ds->union_by_name = opts->union_by_name;

	if (opts->format != PQFDW_FORMAT_PARQUET && opts->location != NULL)
		table_format_files(ds, opts);
	else
	{
		keys = pqfdw_hive_keys(paths, hive, &parsed);
		ds->nkeys = list_length(keys);
	}
	if (ds->nkeys > 0 && ds->raw == NULL)
	{
		int			f;

		ds->keys = palloc(sizeof(char *) * ds->nkeys);
		foreach(lc, keys)
			ds->keys[foreach_current_index(lc)] = lfirst(lc);
		ds->raw = palloc(sizeof(char *) * ds->nkeys * ds->nfiles);
		for (f = 0; f < ds->nfiles; f++)
			for (i = 0; i < ds->nkeys; i++)
				ds->raw[f * ds->nkeys + i] = parsed[f].values[i];
	}

	ds->natts = tupdesc->natts;
	ds->kind = palloc0(sizeof(PqfdwColumnKind) * Max(ds->natts, 1));
	ds->key_of = palloc0(sizeof(int) * Max(ds->natts, 1));
	ds->in_func = palloc0(sizeof(FmgrInfo) * Max(ds->natts, 1));
	ds->in_ioparam = palloc0(sizeof(Oid) * Max(ds->natts, 1));
	ds->in_typmod = palloc0(sizeof(int32) * Max(ds->natts, 1));
	ds->memo_file = palloc(sizeof(int) * Max(ds->natts, 1));
	ds->memo_value = palloc0(sizeof(Datum) * Max(ds->natts, 1));
	ds->memo_null = palloc0(sizeof(bool) * Max(ds->natts, 1));
	ds->att_type = palloc(sizeof(Oid) * Max(ds->natts, 1));
	ds->att_typmod = palloc(sizeof(int32) * Max(ds->natts, 1));
	for (i = 0; i < ds->natts; i++)
	{
		ds->memo_file[i] = -1;
		ds->att_type[i] = TupleDescAttr(tupdesc, i)->atttypid;
		ds->att_typmod[i] = TupleDescAttr(tupdesc, i)->atttypmod;
	}
	if (OidIsValid(relid))
		set_kinds(ds, tupdesc, opts);
	if (OidIsValid(relid) && ds->location != NULL)
		check_table_columns(ds, tupdesc, opts);
	MemoryContextSwitchTo(old);
	return ds;
}

typedef struct ValueContext
{
	const char *path;
	const char *what;
} ValueContext;

static void
value_error_context(void *arg)
{
	ValueContext *vc = arg;

	errcontext("%s of Parquet file \"%s\"", vc->what, vc->path);
}

static const char *
raw_value(PqfdwDataset *ds, int file, int att)
{
	if (ds->kind[att] == PQFDW_COLUMN_FILENAME)
		return ds->paths[file];
	return ds->raw[file * ds->nkeys + ds->key_of[att]];
}

bool
pqfdw_dataset_file_value(PqfdwDataset *ds, int file, AttrNumber attnum,
						 Datum *value)
{
	int			att = attnum - 1;
	const char *raw = raw_value(ds, file, att);
	int			memo = ds->memo_file[att];

	Assert(pqfdw_dataset_file_constant(ds, attnum));
	/* files of one partition directory come one after the other */
	if (memo != file && memo >= 0 && ds->kind[att] == PQFDW_COLUMN_PARTITION)
	{
		const char *prev = raw_value(ds, memo, att);

		if ((prev == NULL && raw == NULL) ||
			(prev != NULL && raw != NULL && strcmp(prev, raw) == 0))
			memo = ds->memo_file[att] = file;
	}
	if (memo != file)
	{
		ErrorContextCallback cb;
		ValueContext vc;
		MemoryContext old = MemoryContextSwitchTo(ds->cxt);

		vc.path = ds->paths[file];
		vc.what = ds->kind[att] == PQFDW_COLUMN_FILENAME ? "path" :
			psprintf("hive partition key \"%s\" of the path",
					 ds->keys[ds->key_of[att]]);
		cb.callback = value_error_context;
		cb.arg = &vc;
		cb.previous = error_context_stack;
		error_context_stack = &cb;
		ds->memo_null[att] = raw == NULL;
		ds->memo_value[att] = InputFunctionCall(&ds->in_func[att],
												unconstify(char *, raw),
												ds->in_ioparam[att],
												ds->in_typmod[att]);
		error_context_stack = cb.previous;
		MemoryContextSwitchTo(old);
		ds->memo_file[att] = file;
	}
	*value = ds->memo_value[att];
	return ds->memo_null[att];
}

bool
pqfdw_dataset_uses_virtual(const PqfdwDataset *ds, Node *node, Index relid)
{
	Bitmapset  *attrs = NULL;
	int			k = -1;

	if (ds == NULL || !ds->has_virtual)
		return false;
	pull_varattnos(node, relid, &attrs);
	while ((k = bms_next_member(attrs, k)) >= 0)
	{
		AttrNumber	attnum = k + FirstLowInvalidHeapAttributeNumber;

		if (attnum == 0 || pqfdw_dataset_is_virtual(ds, attnum))
			return true;
	}
	return false;
}

List *
pqfdw_dataset_field_clauses(const PqfdwDataset *ds, List *restrictinfos,
							Index relid)
{
	List	   *result = NIL;
	ListCell   *lc;

	if (ds == NULL || !ds->has_virtual)
		return restrictinfos;
	foreach(lc, restrictinfos)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (!pqfdw_dataset_uses_virtual(ds, (Node *) ri->clause, relid))
			result = lappend(result, ri);
	}
	return result;
}
