/*-------------------------------------------------------------------------
 *
 * table_inspect.c
 *		SQL functions that describe a Delta Lake table:
 *		parquet_fdw.table_versions(), table_files() and table_schema().
 *
 * Like the file inspection functions they read server files, so they need
 * what reading a table's files needs (superuser, pg_read_server_files or
 * parquet_fdw.read_files_role).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/table_options.h"
#include "fdw/inspect/delta_ddl.h"
#include "fdw/inspect/iceberg_ddl.h"
#include "fdw/table/table_snapshot.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

PG_FUNCTION_INFO_V1(parquet_fdw_table_versions);
PG_FUNCTION_INFO_V1(parquet_fdw_table_files);
PG_FUNCTION_INFO_V1(parquet_fdw_table_schema);

/*
 * Argument 0, a Delta table's directory the caller may read, or a URL read
 * through the server of argument server_arg with the caller's user mapping
 * (*remote; NULL for a directory).
 */
static char *
table_location(FunctionCallInfo fcinfo, int server_arg,
			   const PqfdwRemoteId **remote)
{
	char	   *location;
	bool		member_only;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("location must not be NULL")));
	location = text_to_cstring(PG_GETARG_TEXT_PP(0));
	*remote = NULL;
	if (pq_url_is_remote(location))
	{
		PqfdwRemoteId *r = palloc(sizeof(PqfdwRemoteId));

		r->serverid = pqfdw_url_server(PG_NARGS() > server_arg &&
									   !PG_ARGISNULL(server_arg) ?
									   NameStr(*PG_GETARG_NAME(server_arg)) :
									   NULL);
		r->userid = GetUserId();
		*remote = r;
		while (strlen(location) > 1 && location[strlen(location) - 1] == '/')
			location[strlen(location) - 1] = '\0';
		return location;
	}
	member_only = pqfdw_check_read_permission();

	if (!is_absolute_path(location))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("relative path not allowed: \"%s\"", location),
				 errhint("Give the table's directory as an absolute path.")));
	if (member_only)
		pqfdw_check_readable_paths(list_make1(location));
	return location;
}

/* The snapshot of argument 0 as of argument 1 (NULL: the latest). */
static const PqfdwTableSnapshot *
table_snapshot(FunctionCallInfo fcinfo)
{
	PqfdwTableVersion at = {-1, false, 0, NULL, -1};
	const PqfdwRemoteId *remote;
	char	   *location = table_location(fcinfo, 2, &remote);

	/* an Iceberg table: argument 1 is a snapshot id */
	if (pqfdw_is_iceberg_table(location, remote))
	{
		PqfdwTableRef ref;

		memset(&ref, 0, sizeof(ref));
		ref.format = PQFDW_FORMAT_ICEBERG;
		ref.location = location;
		ref.at = at;
		ref.remote = remote;
		if (PG_NARGS() > 1 && !PG_ARGISNULL(1))
			ref.at.version = PG_GETARG_INT64(1);
		return pqfdw_table_snapshot(&ref);
	}
	if (PG_NARGS() > 1 && !PG_ARGISNULL(1))
	{
		at.version = PG_GETARG_INT64(1);
		if (at.version < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("a table version is 0 or more, not " INT64_FORMAT,
							at.version)));
	}
	return pqfdw_delta_snapshot(location, &at, remote);
}

/* ms since the Unix epoch as a timestamptz */
static Datum
ms_timestamptz(int64 ms)
{
	return TimestampTzGetDatum((ms - (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) *
								SECS_PER_DAY * 1000) * 1000);
}

/* An Iceberg table's snapshots, oldest first: id, time, operation. */
static void
iceberg_versions(FunctionCallInfo fcinfo, const PqfdwTableSnapshot *snap)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const PqIcebergMetadata *md = snap->ice_md;
	int			i;

	for (i = 0; i < md->nsnapshots; i++)
	{
		const PqIcebergSnapshot *sn = &md->snapshots[i];
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = Int64GetDatum(sn->snapshot_id);
		values[1] = ms_timestamptz(sn->timestamp_ms);
		nulls[2] = sn->operation == NULL;
		values[2] = nulls[2] ? (Datum) 0 : CStringGetTextDatum(sn->operation);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

Datum
parquet_fdw_table_versions(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const PqfdwRemoteId *remote;
	char	   *location = table_location(fcinfo, 1, &remote);
	List	   *versions;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	if (pqfdw_is_iceberg_table(location, remote))
	{
		iceberg_versions(fcinfo, table_snapshot(fcinfo));
		return (Datum) 0;
	}
	versions = pqfdw_delta_versions(location, remote);
	foreach(lc, versions)
	{
		PqfdwDeltaVersion *v = lfirst(lc);
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = Int64GetDatum(v->version);
		nulls[1] = v->ms < 0;
		values[1] = nulls[1] ? (Datum) 0 : ms_timestamptz(v->ms);
		nulls[2] = v->operation == NULL;
		values[2] = nulls[2] ? (Datum) 0 : CStringGetTextDatum(v->operation);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* JSON text as jsonb; NULL for NULL */
static Datum
jsonb_of(const char *json, bool *isnull)
{
	*isnull = json == NULL;
	return json ? DirectFunctionCall1(jsonb_in, CStringGetDatum(json)) : 0;
}

/* {"key": "value", ...} as jsonb: partition values (NULL values as null) */
static Datum
jsonb_object_of(int n, char *const *keys, char *const *values, bool *isnull)
{
	StringInfoData buf;
	int			k;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (k = 0; k < n; k++)
	{
		escape_json(&buf, keys[k]);
		appendStringInfoString(&buf, ": ");
		if (values[k])
			escape_json(&buf, values[k]);
		else
			appendStringInfoString(&buf, "null");
		if (k + 1 < n)
			appendStringInfoString(&buf, ", ");
	}
	appendStringInfoChar(&buf, '}');
	return jsonb_of(buf.data, isnull);
}

/*
 * An Iceberg table's data files: identity partition values by column
 * name, record counts; deleted rows are known only once read (NULL), and
 * bounds are binary (not shown).
 */
static void
iceberg_files(FunctionCallInfo fcinfo, const PqfdwTableSnapshot *snap)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int			i;

	for (i = 0; i < snap->nfiles; i++)
	{
		const PqfdwIcebergFile *f = snap->ice[i];
		Datum		values[6];
		bool		nulls[6] = {false, false, false, false, true, true};
		char	  **names;
		int			k;

		values[0] = CStringGetTextDatum(snap->paths[i]);
		values[1] = Int64GetDatum(f->df->file_size_in_bytes);
		names = palloc(sizeof(char *) * Max(f->nidentity, 1));
		for (k = 0; k < f->nidentity; k++)
		{
			const PqIcebergField *src =
			pqfdw_iceberg_schema_field(snap->ice_schema, f->identity_ids[k]);

			names[k] = src ? src->name : "?";
		}
		values[2] = jsonb_object_of(f->nidentity, names, f->identity_text,
									&nulls[2]);
		values[3] = Int64GetDatum(f->df->record_count);
		values[4] = values[5] = (Datum) 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

Datum
parquet_fdw_table_files(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const PqfdwTableSnapshot *snap = table_snapshot(fcinfo);
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	if (snap->ice != NULL)
	{
		iceberg_files(fcinfo, snap);
		return (Datum) 0;
	}
	for (i = 0; i < snap->nfiles; i++)
	{
		const PqDeltaFile *f = snap->files[i];
		Datum		values[6];
		bool		nulls[6] = {false};
		PqDeltaStats st;
		const char *why;

		values[0] = CStringGetTextDatum(snap->paths[i]);
		values[1] = Int64GetDatum(f->size);
		values[2] = jsonb_object_of(f->npv, f->pv_keys, f->pv_values, &nulls[2]);
		nulls[3] = f->stats == NULL ||
			!pq_delta_stats_parse(f->stats, &st, &why) || st.num_records < 0;
		values[3] = nulls[3] ? (Datum) 0 : Int64GetDatum(st.num_records);
		nulls[4] = !f->has_dv;
		values[4] = nulls[4] ? (Datum) 0 : Int64GetDatum(f->dv.cardinality);
		values[5] = jsonb_of(f->stats, &nulls[5]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* An Iceberg table's columns; partition: the default spec's identity ones. */
static void
iceberg_schema(FunctionCallInfo fcinfo, const PqfdwTableSnapshot *snap)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const PqIcebergSpec *spec = pq_iceberg_spec(snap->ice_md,
												snap->ice_md->default_spec_id);
	int			i;

	for (i = 0; i < snap->ice_schema->nfields; i++)
	{
		const PqIcebergField *f = &snap->ice_schema->fields[i];
		Datum		values[8];
		bool		nulls[8] = {false};
		bool		partition = false;
		int			k;

		for (k = 0; spec != NULL && k < spec->nfields; k++)
			if (spec->fields[k].source_id == f->id &&
				strcmp(spec->fields[k].transform, "identity") == 0)
				partition = true;
		values[0] = Int32GetDatum(i + 1);
		values[1] = CStringGetTextDatum(f->name);
		values[2] = CStringGetTextDatum(f->type);
		values[3] = CStringGetTextDatum(pqfdw_iceberg_column_type(f));
		values[4] = CStringGetTextDatum(f->name);
		values[5] = Int64GetDatum(f->id);
		values[6] = BoolGetDatum(!f->required);
		values[7] = BoolGetDatum(partition);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
}

Datum
parquet_fdw_table_schema(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const PqfdwTableSnapshot *snap = table_snapshot(fcinfo);
	int			i;

	InitMaterializedSRF(fcinfo, 0);
	if (snap->ice_schema != NULL)
	{
		iceberg_schema(fcinfo, snap);
		return (Datum) 0;
	}
	for (i = 0; i < snap->schema.nfields; i++)
	{
		const PqDeltaField *f = &snap->schema.fields[i];
		Datum		values[8];
		bool		nulls[8] = {false};
		bool		partition = false;
		int			k;

		for (k = 0; k < snap->nkeys; k++)
			if (strcmp(snap->keys[k], pq_delta_physical_name(f, snap->mapping)) == 0)
				partition = true;
		values[0] = Int32GetDatum(i + 1);
		values[1] = CStringGetTextDatum(f->name);
		values[2] = CStringGetTextDatum(f->type);
		values[3] = CStringGetTextDatum(pqfdw_delta_column_type(f->type_tree));
		values[4] = CStringGetTextDatum(pq_delta_physical_name(f, snap->mapping));
		nulls[5] = f->id < 0;
		values[5] = nulls[5] ? (Datum) 0 : Int64GetDatum(f->id);
		values[6] = BoolGetDatum(f->nullable);
		values[7] = BoolGetDatum(partition);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
