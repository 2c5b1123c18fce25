/*-------------------------------------------------------------------------
 *
 * hook.c
 *		COPY ... TO ... WITH (FORMAT parquet) through a ProcessUtility hook;
 *		COPY ... FROM ... WITH (FORMAT parquet) is passed to from.c.
 *
 * PostgreSQL's COPY has no format extension point, so a ProcessUtility
 * hook takes every CopyStmt whose options say FORMAT parquet and passes
 * everything else to the previous hook (or standard_ProcessUtility)
 * untouched.  It follows PostgreSQL's DoCopy()/BeginCopyTo():
 *
 *	- a server file needs superuser or pg_write_server_files and an
 *	  absolute path; STDOUT needs nothing;
 *	- COPY table [(cols)] becomes SELECT cols FROM ONLY table and COPY
 *	  (query) runs the query, both through the planner and the executor,
 *	  so SELECT privileges and row-level security apply exactly as for a
 *	  query.  A partitioned table is read without ONLY, i.e. with all its
 *	  partitions (PostgreSQL 15's own COPY refuses partitioned tables);
 *	- without a column list, generated columns are left out.
 *
 * The executor hands rows to a DestReceiver that collects a batch
 * column-major (by-reference Datums copied into the batch context) and
 * converts it column by column (write_column.c) into the file writer.
 * Batches end where row groups end, so row groups hold exactly
 * row_group_size rows (unless row_group_size_bytes ends them first).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_authid.h"
#include "commands/progress.h"
#include "executor/executor.h"
#include "fdw/common/file_list.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/table_options.h"
#include "fdw/copy/copy_from.h"
#include "fdw/copy/copy_to.h"
#include "fdw/copy/write_convert.h"
#include "fdw/keys/keys.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parser.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"
#include "tcop/utility.h"
#include "utils/acl.h"
#include "utils/backend_progress.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

/* rows per batch, and bytes of copied values that end a batch earlier */
#define BATCH_ROWS 4096
#define BATCH_BYTES (16 * 1024 * 1024)

typedef struct CopyState
{
	DestReceiver pub;			/* first: the executor's view */
	PqCopyOptions opts;
	const bool *required;		/* per output column, NULL: none */
	int			ncols;
	PqWriteColumn *cols;
	int		   *first_leaf;		/* per output column: its first leaf */
	PqFileWriter *writer;		/* one file; NULL for a dataset */
	PqCopySink	sink;
	PqPartitionWriter *partitions;	/* a dataset's files, or NULL */
	PqCopyDataset dataset;
	PqCopyPrefix *prefix;		/* a dataset below a URL, or NULL */
	PqfdwRemoteId remote;		/* a URL target's: server and role */
	PqWriterFieldList fields;
	PqKeyMaterialWriter *key_material;	/* kms_footer_key's, or NULL */
	MemoryContext batch_cxt;
	char	   *arena;			/* free space for the batch's values */
	Size		arena_free;
	int			nrows;			/* rows in the batch */
	int			batch_limit;	/* rows that end this batch */
	Size		batch_bytes;
	uint64		processed;
} CopyState;

static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/* The batch's rows are written: count them, start the next batch. */
static void
batch_written(CopyState *st)
{
	MemoryContextReset(st->batch_cxt);
	st->arena_free = 0;
	st->processed += st->nrows;
	pgstat_progress_update_param(PROGRESS_COPY_TUPLES_PROCESSED,
								 (int64) st->processed);
	st->nrows = 0;
	st->batch_bytes = 0;
}

static void
flush_batch(CopyState *st)
{
	MemoryContext old;

	if (st->nrows == 0)
		return;
	CHECK_FOR_INTERRUPTS();
	old = MemoryContextSwitchTo(st->batch_cxt);
	if (st->partitions != NULL)
	{
		pqfdw_partition_write(st->partitions, st->nrows, (int64) st->processed);
		MemoryContextSwitchTo(old);
		batch_written(st);
		return;
	}
	pqfdw_write_rows(st->cols, st->ncols, st->first_leaf, st->writer,
					 st->nrows, (int64) st->processed, NULL);
	MemoryContextSwitchTo(old);
	batch_written(st);
	st->batch_limit = (int) Min((int64) BATCH_ROWS,
								pq_file_writer_row_group_room(st->writer));
	if (st->batch_limit <= 0)
		st->batch_limit = BATCH_ROWS;
}

#define ARENA_BLOCK (64 * 1024)

/*
 * A copy of a by-reference value in the batch's memory.  Values are
 * carved out of large blocks: a palloc per value (datumCopy) was 4% of a
 * COPY.  Expanded objects are flattened by datumCopy as before.
 */
static Datum
copy_value(CopyState *st, PqWriteColumn *col, Datum v)
{
	Pointer		src = DatumGetPointer(v);
	Size		size = datumGetSize(v, false, col->typlen);
	Size		room;
	char	   *dst;

	st->batch_bytes += size;
	if (col->typlen == -1 && VARATT_IS_EXTERNAL_EXPANDED(src))
		return datumCopy(v, false, col->typlen);
	room = MAXALIGN(size);
	if (st->arena_free < room)
	{
		Size		block = Max(room, ARENA_BLOCK);

		st->arena = MemoryContextAlloc(st->batch_cxt, block);
		st->arena_free = block;
	}
	dst = st->arena;
	st->arena += room;
	st->arena_free -= room;
	memcpy(dst, src, size);
	return PointerGetDatum(dst);
}

static bool
copy_receive(TupleTableSlot *slot, DestReceiver *self)
{
	CopyState  *st = (CopyState *) self;
	MemoryContext old;
	int			r = st->nrows;
	int			c;

	slot_getallattrs(slot);
	old = MemoryContextSwitchTo(st->batch_cxt);
	for (c = 0; c < st->ncols; c++)
	{
		PqWriteColumn *col = &st->cols[c];
		Datum		v = slot->tts_values[c];
		bool		isnull = slot->tts_isnull[c];

		/* the slot's values die with the next row */
		if (!isnull && !col->typbyval)
			v = copy_value(st, col, v);
		col->values[r] = v;
		col->nulls[r] = isnull;
	}
	MemoryContextSwitchTo(old);
	st->nrows++;
	if (st->nrows >= st->batch_limit || st->batch_bytes >= BATCH_BYTES)
		flush_batch(st);
	return true;
}

static void
copy_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
}

static void
copy_shutdown(DestReceiver *self)
{
}

static void
copy_destroy(DestReceiver *self)
{
}

/*
 * partition_by: the output columns it names, in its order, marked in
 * in_folder[] when they are left out of the files.
 */
static int *
partition_columns(CopyState *st, TupleDesc tupdesc, bool *in_folder)
{
	const PqCopyDatasetOptions *o = &st->opts.dataset;
	int		   *part = palloc(sizeof(int) * Max(list_length(o->partition_by), 1));
	ListCell   *lc;
	int			c;

	foreach(lc, o->partition_by)
	{
		const char *name = lfirst(lc);
		Oid			base;
		int			k;

		for (c = 0; c < tupdesc->natts; c++)
			if (strcmp(NameStr(TupleDescAttr(tupdesc, c)->attname), name) == 0)
				break;
		if (c == tupdesc->natts)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("partition_by column \"%s\" is not a column of the COPY output",
							name)));
		for (k = 0; k < foreach_current_index(lc); k++)
			if (part[k] == c)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_COLUMN),
						 errmsg("partition_by column \"%s\" specified more than once",
								name)));
		/* a folder readers skip would lose its rows when read back */
		if (pqfdw_hidden_name(psprintf("%s=", name)))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_NAME),
					 errmsg("partition_by column \"%s\" would name folders that readers skip",
							name),
					 errdetail("Readers of hive datasets skip folders whose names start with \".\"."),
					 errhint("Rename the column in a query, as in COPY (SELECT \"%s\" AS x, ...) TO ....",
							 name)));
		base = getBaseType(TupleDescAttr(tupdesc, c)->atttypid);
		if (type_is_array(base) || type_is_rowtype(base))
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("partition_by column \"%s\" is of type %s",
							name, format_type_be(base)),
					 errhint("Partition columns must be of scalar types.")));
		part[foreach_current_index(lc)] = c;
		in_folder[c] = !o->write_partition_columns;
	}
	return part;
}

/* The Parquet schema of the query's result and the writer for it. */
static void
start_writer(CopyState *st, TupleDesc tupdesc)
{
	PqWriterFieldList fields = {0};
	int		   *field_of;		/* per output column: its schema node */
	const char **names;
	bool	   *in_folder;		/* per output column: only in folder names */
	int		   *part_cols = NULL;
	int			nnames = 0;
	ListCell   *lc;
	int			leaves = 0;
	int			c;

	st->ncols = tupdesc->natts;
	st->cols = palloc0(sizeof(PqWriteColumn) * Max(st->ncols, 1));
	st->first_leaf = palloc0(sizeof(int) * Max(st->ncols, 1));
	field_of = palloc0(sizeof(int) * Max(st->ncols, 1));
	in_folder = palloc0(sizeof(bool) * Max(st->ncols, 1));
	if (st->opts.dataset.enabled)
		part_cols = partition_columns(st, tupdesc, in_folder);
	for (c = 0; c < st->ncols; c++)
	{
		Form_pg_attribute attr = TupleDescAttr(tupdesc, c);

		if (in_folder[c])
		{
			/* only its values, for the folder names */
			PqWriteColumn *col = &st->cols[c];

			col->name = pstrdup(NameStr(attr->attname));
			col->typid = getBaseType(attr->atttypid);
			get_typlenbyval(attr->atttypid, &col->typlen, &col->typbyval);
			col->values = palloc(sizeof(Datum) * BATCH_ROWS);
			col->nulls = palloc(sizeof(bool) * BATCH_ROWS);
			st->first_leaf[c] = -1;
			field_of[c] = -1;
			continue;
		}
		field_of[c] = fields.n;
		st->first_leaf[c] = leaves;
		pqfdw_write_column_init(&st->cols[c], &fields,
								pstrdup(NameStr(attr->attname)),
								attr->atttypid, attr->atttypmod,
								st->required != NULL && st->required[c],
								&st->opts.types, BATCH_ROWS);
		leaves += pqfdw_write_column_leaves(&st->cols[c]);
	}

	foreach(lc, st->opts.bloom_columns)
	{
		PqCopyBloomColumn *bc = lfirst(lc);
		PqWriterField *f;

		for (c = 0; c < st->ncols; c++)
			if (strcmp(st->cols[c].name, bc->name) == 0)
				break;
		if (c == st->ncols)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("bloom_filter column \"%s\" is not a column of the COPY output",
							bc->name)));
		if (st->cols[c].nested != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("bloom_filter column \"%s\" is written as a Parquet group",
							bc->name),
					 errhint("Bloom filters can be written for columns of scalar types.")));
		if (field_of[c] < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("bloom_filter column \"%s\" is a partition column, which the files leave out",
							bc->name),
					 errhint("Use write_partition_columns true to keep it in the files.")));
		f = &fields.items[field_of[c]];
		f->bloom_filter = true;
		f->bloom_fpp = bc->fpp > 0 ? bc->fpp : st->opts.bloom_fpp;
		f->bloom_ndv = bc->ndv > 0 ? bc->ndv : st->opts.bloom_ndv;
	}

	names = palloc(sizeof(char *) * Max(st->ncols, 1));
	for (c = 0; c < st->ncols; c++)
		if (!in_folder[c])
			names[nnames++] = st->cols[c].name;
	if (nnames == 0 && st->opts.dataset.partition_by != NIL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("every column of the COPY output is a partition column"),
				 errhint("Use write_partition_columns true to keep them in the files.")));
	st->opts.writer.encryption = pqfdw_copy_encryption(&st->opts.encryption,
													   names, nnames,
													   &st->key_material);
	if (st->key_material && !st->key_material->internal &&
		st->sink.target == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY TO STDOUT cannot keep key material in an external file"),
				 errhint("Use key_material 'internal', or COPY to a file.")));

	if (st->opts.dataset.enabled)
	{
		st->fields = fields;
		st->partitions =
			pqfdw_partition_writer_create(st->prefix ? st->prefix->url :
										  st->dataset.tmp_dir,
										  &st->opts.dataset, st->cols,
										  st->ncols, st->first_leaf, part_cols,
										  list_length(st->opts.dataset.partition_by),
										  st->fields.items, st->fields.n,
										  &st->opts.writer);
		if (st->prefix)
			pqfdw_partition_writer_set_prefix(st->partitions, st->prefix);
		st->batch_limit = BATCH_ROWS;
		return;
	}
	st->writer = pq_file_writer_create(&st->sink.sink, fields.items, fields.n,
									   &st->opts.writer);
	/* the shredder's levels are the writer's */
	for (c = 0; c < st->ncols; c++)
	{
		int			k;

		for (k = 0; st->cols[c].nested != NULL &&
			 k < pqfdw_write_column_leaves(&st->cols[c]); k++)
		{
			int			def,
						rep,
						wdef,
						wrep;

			pqfdw_nested_leaf_levels(st->cols[c].nested, k, &def, &rep);
			pq_file_writer_column_levels(st->writer, st->first_leaf[c] + k,
										 &wdef, &wrep);
			if (def != wdef || rep != wrep)
				elog(ERROR, "levels of column \"%s\" disagree with the Parquet schema",
					 st->cols[c].name);
		}
	}
	st->batch_limit = (int) Min((int64) BATCH_ROWS,
								pq_file_writer_row_group_room(st->writer));
}

/*
 * COPY table [(cols)]: SELECT cols FROM [ONLY] table, naming the relation
 * by schema and name so that it cannot resolve to another one.  Fills
 * required[] with the NOT NULL flags of the chosen columns.
 */
static RawStmt *
table_query(CopyStmt *stmt, Relation rel, bool **required)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	SelectStmt *select = makeNode(SelectStmt);
	RangeVar   *from;
	RawStmt    *raw = makeNode(RawStmt);
	List	   *names = NIL;
	ListCell   *lc;
	int			i;

	if (stmt->attlist == NIL)
	{
		for (i = 0; i < tupdesc->natts; i++)
		{
			Form_pg_attribute attr = TupleDescAttr(tupdesc, i);

			if (attr->attisdropped || attr->attgenerated)
				continue;
			names = lappend(names, NameStr(attr->attname));
		}
	}
	else
	{
		foreach(lc, stmt->attlist)
		{
			char	   *name = strVal(lfirst(lc));
			AttrNumber	attnum = InvalidAttrNumber;
			ListCell   *lc2;

			for (i = 0; i < tupdesc->natts; i++)
			{
				Form_pg_attribute attr = TupleDescAttr(tupdesc, i);

				if (!attr->attisdropped && namestrcmp(&attr->attname, name) == 0)
				{
					if (attr->attgenerated)
						ereport(ERROR,
								(errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
								 errmsg("column \"%s\" is a generated column", name),
								 errdetail("Generated columns cannot be used in COPY.")));
					attnum = attr->attnum;
					break;
				}
			}
			if (attnum == InvalidAttrNumber)
				ereport(ERROR,
						(errcode(ERRCODE_UNDEFINED_COLUMN),
						 errmsg("column \"%s\" of relation \"%s\" does not exist",
								name, RelationGetRelationName(rel))));
			foreach(lc2, names)
				if (strcmp((char *) lfirst(lc2), name) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_DUPLICATE_COLUMN),
						 errmsg("column \"%s\" specified more than once",
								name)));
			names = lappend(names, name);
		}
	}

	*required = palloc0(sizeof(bool) * Max(list_length(names), 1));
	foreach(lc, names)
	{
		char	   *name = lfirst(lc);
		ColumnRef  *cref = makeNode(ColumnRef);
		ResTarget  *target = makeNode(ResTarget);

		for (i = 0; i < tupdesc->natts; i++)
		{
			Form_pg_attribute attr = TupleDescAttr(tupdesc, i);

			if (!attr->attisdropped && namestrcmp(&attr->attname, name) == 0)
				(*required)[foreach_current_index(lc)] = attr->attnotnull;
		}
		cref->fields = list_make1(makeString(name));
		cref->location = -1;
		target->val = (Node *) cref;
		target->location = -1;
		select->targetList = lappend(select->targetList, target);
	}

	from = makeRangeVar(get_namespace_name(RelationGetNamespace(rel)),
						pstrdup(RelationGetRelationName(rel)), -1);
	from->inh = rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE;
	select->fromClause = list_make1(from);
	raw->stmt = (Node *) select;
	raw->stmt_location = -1;
	return raw;
}

/* Analyze, rewrite and plan as BeginCopyTo() does for COPY (query). */
static PlannedStmt *
plan_copy_query(RawStmt *raw, const char *queryString)
{
	List	   *rewritten;
	Query	   *query;

	rewritten = pg_analyze_and_rewrite_fixedparams(raw, queryString,
												   NULL, 0, NULL);
	if (rewritten == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("DO INSTEAD NOTHING rules are not supported for COPY")));
	if (list_length(rewritten) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("multi-statement DO INSTEAD rules are not supported for COPY")));
	query = linitial_node(Query, rewritten);
	if (query->utilityStmt != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY (SELECT INTO) is not supported")));
	if (query->commandType != CMD_SELECT && query->returningList == NIL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY query must have a RETURNING clause")));
	return pg_plan_query(query, queryString, CURSOR_OPT_PARALLEL_OK, NULL);
}

static uint64
copy_to_parquet(CopyStmt *stmt, const char *queryString)
{
	MemoryContext cxt;
	MemoryContext old;
	CopyState  *st;
	Relation	rel = NULL;
	RawStmt    *raw;
	bool	   *required = NULL;
	PlannedStmt *plan;
	QueryDesc  *qd;
	uint64		processed;
	const int	progress_index[] = {PROGRESS_COPY_COMMAND, PROGRESS_COPY_TYPE};
	int64		progress_vals[2];

	if (stmt->is_program)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY TO PROGRAM with FORMAT parquet is not supported")));
	if (stmt->whereClause != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("WHERE clause not allowed with COPY TO")));

	cxt = AllocSetContextCreate(CurrentMemoryContext, "parquet COPY TO",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	st = palloc0(sizeof(CopyState));
	pqfdw_copy_parse_options(stmt->options, &st->opts);

	if (st->opts.dataset.enabled && stmt->filename == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY TO STDOUT cannot write a directory of files"),
				 errhint("partition_by, file_size_bytes and row_groups_per_file need a target directory.")));
	if (stmt->filename != NULL && pq_url_is_remote(stmt->filename))
	{
		/* not a server file: the role's user mapping decides */
		st->remote.serverid = pqfdw_url_server(st->opts.remote.server);
		st->remote.userid = GetUserId();
	}
	else if (st->opts.remote.server != NULL || st->opts.remote.given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY option \"%s\" applies only to URLs",
						st->opts.remote.server != NULL ? "server" : "part_size"),
				 errhint("server, part_size and parts_in_flight are for COPY TO an s3://, gs://, az:// or abfss:// URL.")));
	else if (stmt->filename != NULL)
	{
		if (!has_privs_of_role(GetUserId(), ROLE_PG_WRITE_SERVER_FILES))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("must be superuser or have privileges of the pg_write_server_files role to COPY to a file"),
					 errhint("Anyone can COPY to stdout or from stdin. "
							 "psql's \\copy command also works for anyone.")));
		if (!is_absolute_path(stmt->filename))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_NAME),
					 errmsg("relative path not allowed for COPY to file")));
	}

	if (stmt->relation != NULL)
	{
		/* held to the end of the transaction, as COPY holds it */
		rel = table_openrv(stmt->relation, AccessShareLock);
		raw = table_query(stmt, rel, &required);
	}
	else
	{
		raw = makeNode(RawStmt);
		raw->stmt = stmt->query;
		raw->stmt_location = -1;
	}
	st->required = required;

	plan = plan_copy_query(raw, queryString);

	progress_vals[0] = PROGRESS_COPY_COMMAND_TO;
	progress_vals[1] = stmt->filename != NULL ? PROGRESS_COPY_TYPE_FILE :
		PROGRESS_COPY_TYPE_PIPE;
	pgstat_progress_start_command(PROGRESS_COMMAND_COPY,
								  rel != NULL ? RelationGetRelid(rel) : InvalidOid);
	pgstat_progress_update_multi_param(2, progress_index, progress_vals);

	st->pub.receiveSlot = copy_receive;
	st->pub.rStartup = copy_startup;
	st->pub.rShutdown = copy_shutdown;
	st->pub.rDestroy = copy_destroy;
	st->pub.mydest = DestNone;
	st->batch_cxt = AllocSetContextCreate(cxt, "parquet COPY TO batch",
										  ALLOCSET_DEFAULT_SIZES);

	/* the query sees the data as of now, and what this command did before */
	PushCopiedSnapshot(GetActiveSnapshot());
	UpdateActiveSnapshotCommandId();
	qd = CreateQueryDesc(plan, queryString, GetActiveSnapshot(),
						 InvalidSnapshot, (DestReceiver *) st, NULL, NULL, 0);
	ExecutorStart(qd, 0);

	if (st->opts.dataset.enabled && pq_url_is_remote(stmt->filename))
	{
		st->prefix = palloc0(sizeof(PqCopyPrefix));
		pqfdw_prefix_open(st->prefix, &st->remote, stmt->filename,
						  &st->opts.dataset, &st->opts.remote);
	}
	else if (st->opts.dataset.enabled)
		pqfdw_dataset_open(&st->dataset, stmt->filename, &st->opts.dataset);
	else if (stmt->filename != NULL && pq_url_is_remote(stmt->filename))
		pqfdw_copy_sink_open_url(&st->sink, &st->remote, stmt->filename,
								 &st->opts.remote);
	else
		pqfdw_copy_sink_open(&st->sink, stmt->filename);
	PG_TRY();
	{
		start_writer(st, qd->tupDesc);
		pqfdw_ExecutorRun(qd, ForwardScanDirection, 0);
		ExecutorFinish(qd);
		flush_batch(st);
		if (st->partitions != NULL)
		{
			pqfdw_partition_finish(st->partitions);
			if (st->prefix)
				pqfdw_prefix_finish(st->prefix);
			else
			{
				pqfdw_dataset_finish(&st->dataset);
				if (st->opts.dataset.success_marker)
					pqfdw_dataset_write_marker(&st->dataset);
			}
		}
		else
		{
			pq_file_writer_finish(st->writer);
			/* the material first: the file never appears without it */
			if (st->key_material && st->sink.upload)
				pqfdw_write_key_material_object(st->key_material, &st->remote,
												st->sink.target);
			else if (st->key_material)
				pqfdw_write_key_material_file(st->key_material, st->sink.target);
			pqfdw_copy_sink_finish(&st->sink);
		}
	}
	PG_CATCH();
	{
		if (st->opts.dataset.enabled)
		{
			if (st->partitions != NULL)
				pqfdw_partition_abort(st->partitions);
			if (st->prefix)
				pqfdw_prefix_abort(st->prefix);
			else
				pqfdw_dataset_abort(&st->dataset);
		}
		else
			pqfdw_copy_sink_abort(&st->sink);
		PG_RE_THROW();
	}
	PG_END_TRY();

	ExecutorEnd(qd);
	FreeQueryDesc(qd);
	PopActiveSnapshot();
	pgstat_progress_end_command();

	processed = st->processed;
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	if (rel != NULL)
		table_close(rel, NoLock);
	return processed;
}

static void
pqfdw_ProcessUtility(PlannedStmt *pstmt, const char *queryString,
					 bool readOnlyTree, ProcessUtilityContext context,
					 ParamListInfo params, QueryEnvironment *queryEnv,
					 DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;

	/* any format: key files are not for roles with pg_*_server_files */
	if (IsA(parsetree, CopyStmt) && ((CopyStmt *) parsetree)->filename &&
		!((CopyStmt *) parsetree)->is_program)
		pqfdw_check_not_key_directory(((CopyStmt *) parsetree)->filename,
									  ((CopyStmt *) parsetree)->is_from);

	if (IsA(parsetree, CopyStmt) &&
		pqfdw_copy_is_parquet(((CopyStmt *) parsetree)->options))
	{
		CopyStmt   *stmt = (CopyStmt *) parsetree;
		uint64		processed;

		/*
		 * parse analysis scribbles on the query; a cached plan must not
		 * change
		 */
		if (readOnlyTree)
			stmt = copyObject(stmt);
		processed = stmt->is_from ?
			pqfdw_copy_from_parquet(stmt, queryString) :
			copy_to_parquet(stmt, queryString);
		if (qc != NULL)
			SetQueryCompletion(qc, CMDTAG_COPY, processed);
		return;
	}

	if (prev_ProcessUtility != NULL)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context,
							params, queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
}

void
pqfdw_copy_hook_init(void)
{
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = pqfdw_ProcessUtility;
}
