/*-------------------------------------------------------------------------
 *
 * from.c
 *		COPY table [(cols)] FROM 'file' | STDIN WITH (FORMAT parquet)
 *		[WHERE ...].
 *
 * The rows are inserted by PostgreSQL's own COPY FROM (BeginCopyFrom() and
 * CopyFrom()), so triggers, constraints, defaults, generated columns,
 * partition routing, foreign partitions, batching, WHERE and FREEZE
 * behave exactly as for any COPY FROM.  CopyFrom() reads a binary COPY
 * stream from a data_source_cb; the stream made here carries no values,
 * only, per field, the position of its row in the table reader's current
 * batch (or -1 for NULL).  Each listed column's binary input function is
 * replaced by one that returns the Datum the reader (fdw/scan/table_reader.c,
 * the foreign scan's reader, driven by the table's TupleDesc) has already
 * converted, so values are converted exactly once and as a foreign table
 * would read them.  Domain columns are read as their base type and then
 * checked with domain_check(), as their receive function would.
 *
 * The callback only ever returns whole rows, so it is called exactly when
 * CopyFrom() has finished the previous row (its input buffer is empty;
 * checked): only then is the next batch decoded, which frees the previous
 * one's Datums.  A row that CopyFrom() keeps (multi-insert buffers) is
 * materialized by CopyFrom() itself, as it must for its own per-row memory.
 *
 * The binary COPY header, CopyFromStateData and its in_functions array
 * come from PostgreSQL 15's installed commands/copyfrom_internal.h.
 * pg_stat_progress_copy shows the Parquet bytes read (bytes_processed)
 * of the file's size (bytes_total); CopyFrom() reports tuples.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "access/table.h"
#include "catalog/pg_authid.h"
#include "commands/copy.h"
#include "commands/copyfrom_internal.h"
#include "commands/defrem.h"
#include "commands/progress.h"
#include "executor/executor.h"
#include "fdw/common/pg_compat.h"
#include "fdw/common/source.h"
#include "fdw/copy/copy_from.h"
#include "fdw/copy/copy_to.h"
#include "fdw/keys/keys.h"
#include "fdw/scan/table_reader.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_collate.h"
#include "parser/parse_expr.h"
#include "parser/parse_relation.h"
#include "pgstat.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/backend_progress.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"

#define VALID_FROM_OPTIONS "format, freeze, footer_key, column_keys, aad_prefix, server"

/* signature, flags, header extension length */
static const char binary_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

typedef struct PqCopyFrom PqCopyFrom;

/* One column of the stream: the fn_extra of its input function. */
typedef struct PqCopyFromField
{
	PqCopyFrom *st;
	int			att;			/* 0-based attribute number */
	Oid			domain;			/* domain type to check, or InvalidOid */
	void	   *domain_extra;	/* domain_check()'s cache */
} PqCopyFromField;

struct PqCopyFrom
{
	MemoryContext cxt;
	CopyFromState cstate;		/* once BeginCopyFrom() has returned */
	PqTableReader *reader;
	int			nfields;
	PqCopyFromField *fields;
	bool		header_sent;
	bool		eof;
	const PqBatch *batch;		/* the reader's batch, NULL before one */
	int			batch_rows;		/* rows in it */
	int			next_row;		/* first batch row not yet in the stream */
	int64		rows_decoded;	/* before the batch */
	const char *path;
};

/* The COPY being read; COPY FROM in a trigger nests (saved and restored). */
static PqCopyFrom *current_copy = NULL;

typedef struct FromOptions
{
	DefElem    *freeze;
	char	   *footer_key;
	char	   *column_keys;
	char	   *aad_prefix;
	char	   *server;			/* reaches a URL: its options, our mapping */
} FromOptions;

static void
parse_from_options(List *options, FromOptions *opts)
{
	List	   *seen = NIL;
	ListCell   *lc;

	memset(opts, 0, sizeof(*opts));
	foreach(lc, options)
	{
		DefElem    *def = lfirst_node(DefElem, lc);
		const char *name = def->defname;

		pqfdw_copy_option_once(&seen, name);

		if (strcmp(name, "format") == 0)
			continue;
		else if (strcmp(name, "freeze") == 0)
			opts->freeze = def;
		else if (strcmp(name, "footer_key") == 0)
			opts->footer_key = defGetString(def);
		else if (strcmp(name, "column_keys") == 0)
			opts->column_keys = defGetString(def);
		else if (strcmp(name, "aad_prefix") == 0)
			opts->aad_prefix = defGetString(def);
		else if (strcmp(name, "server") == 0)
			opts->server = defGetString(def);
		else
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("COPY FROM option \"%s\" not recognized with FORMAT parquet",
							name),
					 errhint("Valid options are %s.", VALID_FROM_OPTIONS)));
	}
}

/* The binary input function of every streamed column. */
static Datum
batch_value(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	PqCopyFromField *f = (PqCopyFromField *) fcinfo->flinfo->fn_extra;
	PqCopyFrom *st = f->st;
	uint32		row;
	Datum		d;

	if (buf == NULL)
	{
		/* NULL: a domain may forbid it */
		if (OidIsValid(f->domain))
			domain_check((Datum) 0, true, f->domain, &f->domain_extra, st->cxt);
		PG_RETURN_NULL();
	}
	if (buf->len - buf->cursor != (int) sizeof(uint32))
		elog(ERROR, "parquet COPY FROM: unexpected field in the row stream");
	memcpy(&row, buf->data + buf->cursor, sizeof(uint32));
	buf->cursor += sizeof(uint32);
	if (row >= (uint32) st->batch_rows)
		elog(ERROR, "parquet COPY FROM: row %u is not in the current batch", row);
	d = st->batch->values[pqfdw_batch_index(st->batch, f->att, (int) row)];
	if (OidIsValid(f->domain))
		domain_check(d, false, f->domain, &f->domain_extra, st->cxt);
	return d;
}

static inline char *
put_int32(char *p, int32 v)
{
	uint32		n = pg_hton32((uint32) v);

	memcpy(p, &n, 4);
	return p + 4;
}

/*
 * CopyLoadRawBuf() adds the bytes returned to bytes_processed and reports
 * the sum: make it the Parquet bytes read so far instead (modulo 2^64).
 */
static void
report_bytes(PqCopyFrom *st, int returned)
{
	if (st->cstate != NULL)
		st->cstate->bytes_processed =
			(uint64) pqfdw_table_reader_bytes_read(st->reader) - (uint64) returned;
}

/* Conversion errors happen a batch ahead of the row COPY reports. */
static void
batch_error_context(void *arg)
{
	PqCopyFrom *st = arg;

	errcontext("decoding Parquet rows from row " INT64_FORMAT " of file \"%s\"",
			   st->rows_decoded + 1, st->path);
}

/* copy_data_source_cb: the header, then whole rows of one batch. */
static int
row_stream(void *outbuf, int minread, int maxread)
{
	PqCopyFrom *st = current_copy;
	PqTableReader *tr;
	char	   *out = outbuf;
	int			n = 0;

	if (st == NULL)
		elog(ERROR, "parquet COPY FROM: no COPY is being read");
	tr = st->reader;
	if (st->cstate != NULL && st->cstate->raw_buf_len != 0)
		elog(ERROR, "parquet COPY FROM: stream read before the previous row ended");

	if (!st->header_sent)
	{
		st->header_sent = true;
		memcpy(out, binary_header, sizeof(binary_header));
		return sizeof(binary_header);
	}
	if (st->next_row >= st->batch_rows)
	{
		ErrorContextCallback errcb;

		if (st->eof)
			return 0;
		st->rows_decoded += st->batch_rows;
		errcb.callback = batch_error_context;
		errcb.arg = st;
		errcb.previous = error_context_stack;
		error_context_stack = &errcb;
		/* CopyFrom() holds no Datum of the previous batch now */
		st->batch = pqfdw_table_reader_next(tr);
		st->batch_rows = st->batch ? st->batch->nrows : 0;
		error_context_stack = errcb.previous;
		st->next_row = 0;
		if (st->batch_rows == 0)
		{
			st->eof = true;
			report_bytes(st, 0);
			return 0;
		}
	}

	while (st->next_row < st->batch_rows)
	{
		int			row = st->next_row;
		int			size = 2;
		char	   *p;
		int			i;

		for (i = 0; i < st->nfields; i++)
			size += st->batch->nulls[pqfdw_batch_index(st->batch, st->fields[i].att, row)] ? 4 : 8;
		if (n + size > maxread)
			break;
		p = out + n;
		p[0] = (char) (st->nfields >> 8);
		p[1] = (char) (st->nfields & 0xff);
		p += 2;
		for (i = 0; i < st->nfields; i++)
		{
			if (st->batch->nulls[pqfdw_batch_index(st->batch, st->fields[i].att, row)])
				p = put_int32(p, -1);
			else
			{
				uint32		r = (uint32) row;

				p = put_int32(p, (int32) sizeof(uint32));
				memcpy(p, &r, sizeof(uint32));
				p += sizeof(uint32);
			}
		}
		n += size;
		st->next_row++;
	}
	if (n == 0)
		elog(ERROR, "parquet COPY FROM: a row does not fit the COPY buffer");
	report_bytes(st, n);
	return n;
}

/* rel's TupleDesc with domains replaced by their base types. */
static TupleDesc
reader_desc(Relation rel)
{
	TupleDesc	desc = CreateTupleDescCopy(RelationGetDescr(rel));
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		int32		typmod = att->atttypmod;
		Oid			base;

		if (att->attisdropped)
			continue;
		base = getBaseTypeAndTypmod(att->atttypid, &typmod);
		if (base != att->atttypid)
			TupleDescInitEntry(desc, i + 1, NameStr(att->attname), base,
							   typmod, 0);
	}
	return desc;
}

/* Point the input function of every streamed column at batch_value(). */
static void
install_value_functions(PqCopyFrom *st, Relation rel, List *attnums)
{
	CopyFromState cstate = st->cstate;
	ListCell   *lc;
	int			i = 0;

	if (!equal(cstate->attnumlist, attnums))
		elog(ERROR, "parquet COPY FROM: COPY chose other columns than the reader");
	st->nfields = list_length(attnums);
	st->fields = palloc0(sizeof(PqCopyFromField) * Max(st->nfields, 1));
	foreach(lc, attnums)
	{
		int			attnum = lfirst_int(lc);
		Oid			typid = TupleDescAttr(RelationGetDescr(rel), attnum - 1)->atttypid;
		PqCopyFromField *f = &st->fields[i++];
		FmgrInfo   *fi = &cstate->in_functions[attnum - 1];

		f->st = st;
		f->att = attnum - 1;
		f->domain = get_typtype(typid) == TYPTYPE_DOMAIN ? typid : InvalidOid;
		memset(fi, 0, sizeof(FmgrInfo));
		fi->fn_addr = batch_value;
		fi->fn_oid = InvalidOid;
		fi->fn_nargs = 3;
		fi->fn_strict = false;	/* called for NULLs too, for domains */
		fi->fn_extra = f;
		fi->fn_mcxt = st->cxt;
	}
}

/*
 * COPY FROM's WHERE clause, as DoCopy() prepares it: a boolean expression
 * over the table's columns (not generated ones, which are computed after
 * it), as an implicit-AND list.
 */
static Node *
transform_where(ParseState *pstate, ParseNamespaceItem *nsitem,
				Relation rel, Node *where)
{
	Bitmapset  *attrs = NULL;
	int			k = -1;

	addNSItemToQuery(pstate, nsitem, false, true, true);
	where = transformExpr(pstate, where, EXPR_KIND_COPY_WHERE);
	where = coerce_to_boolean(pstate, where, "WHERE");
	assign_expr_collations(pstate, where);

	pull_varattnos(where, 1, &attrs);
	while ((k = bms_next_member(attrs, k)) >= 0)
	{
		AttrNumber	attno = k + FirstLowInvalidHeapAttributeNumber;

		if (attno > 0 && TupleDescAttr(RelationGetDescr(rel), attno - 1)->attgenerated)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
					 errmsg("generated columns are not supported in COPY FROM WHERE conditions"),
					 errdetail("Column \"%s\" is a generated column.",
							   get_attname(RelationGetRelid(rel), attno, false))));
	}

	where = eval_const_expressions(NULL, where);
	where = (Node *) canonicalize_qual((Expr *) where, false);
	return (Node *) make_ands_implicit((Expr *) where);
}

/* Size of the file to load, or an ERROR as COPY FROM a file gives. */
static int64
source_size(const char *path, const PqfdwAccess *access)
{
	struct stat stb;

	if (pq_url_is_remote(path))
	{
		int64		size;
		char	   *etag;

		pqfdw_remote_stat(&access->remote, path, &size, &etag);
		return size;
	}

	if (stat(path, &stb) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for reading: %m", path)));
	if (S_ISDIR(stb.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is a directory", path)));
	return (int64) stb.st_size;
}

uint64
pqfdw_copy_from_parquet(CopyStmt *stmt, const char *queryString)
{
	FromOptions opts;
	PqfdwAccess access;
	ParseState *pstate;
	ParseNamespaceItem *nsitem;
	RangeTblEntry *rte;
	PqPermInfo *perminfo;
	Relation	rel;
	Node	   *where = NULL;
	List	   *attnums;
	List	   *copy_options;
	ListCell   *lc;
	MemoryContext cxt;
	MemoryContext old;
	PqCopyFrom *st;
	PqCopyFrom *prev = current_copy;
	File		stdin_file = -1;
	const char *path;
	int64		size;
	uint64		processed = 0;

	if (stmt->is_program)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY FROM PROGRAM with FORMAT parquet is not supported")));
	parse_from_options(stmt->options, &opts);

	/*
	 * DoCopy()'s checks, in its order; members of read_files_role may read
	 * Parquet files too (the file must be Parquet: this is FORMAT parquet)
	 */
	pqfdw_access_local(&access, NULL);
	if (stmt->filename != NULL && pq_url_is_remote(stmt->filename))
	{
		/* not a server file: the role's user mapping decides */
		access.remote.serverid = pqfdw_url_server(opts.server);
		access.remote.userid = GetUserId();
	}
	else if (opts.server != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("COPY FROM option \"server\" applies only to URLs")));
	else if (stmt->filename != NULL &&
			 !has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES) &&
			 !pqfdw_read_files_member())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("must be superuser or have privileges of the pg_read_server_files role to COPY from a file"),
				 errhint("Anyone can COPY to stdout or from stdin. "
						 "psql's \\copy command also works for anyone.")));

	pstate = make_parsestate(NULL);
	pstate->p_sourcetext = queryString;
	rel = table_openrv(stmt->relation, RowExclusiveLock);
	nsitem = addRangeTableEntryForRelation(pstate, rel, RowExclusiveLock,
										   NULL, false, false);
	rte = nsitem->p_rte;
	perminfo = PQFDW_NSITEM_PERMINFO(nsitem);
	perminfo->requiredPerms = ACL_INSERT;
	if (stmt->whereClause != NULL)
		where = transform_where(pstate, nsitem, rel, stmt->whereClause);
	attnums = CopyGetAttnums(RelationGetDescr(rel), rel, stmt->attlist);
	foreach(lc, attnums)
		perminfo->insertedCols = bms_add_member(perminfo->insertedCols,
												lfirst_int(lc) - FirstLowInvalidHeapAttributeNumber);
	pqfdw_check_permissions(pstate->p_rtable, perminfo);
	if (check_enable_rls(rte->relid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("COPY FROM not supported with row-level security"),
				 errhint("Use INSERT statements instead.")));
	/* what standard_ProcessUtility() and DoCopy() check for COPY FROM */
	PreventCommandIfParallelMode("COPY FROM");
	PreventCommandDuringRecovery("COPY FROM");
	if (XactReadOnly && !rel->rd_islocaltemp)
		PreventCommandIfReadOnly("COPY FROM");

	cxt = AllocSetContextCreate(CurrentMemoryContext, "parquet COPY FROM",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	st = palloc0(sizeof(PqCopyFrom));
	st->cxt = cxt;

	if (stmt->filename != NULL)
		path = stmt->filename;
	else
	{
		const int	index[] = {PROGRESS_COPY_COMMAND, PROGRESS_COPY_TYPE};
		const int64 vals[] = {PROGRESS_COPY_COMMAND_FROM, PROGRESS_COPY_TYPE_PIPE};

		/* the upload shows as bytes processed; BeginCopyFrom() restarts */
		pgstat_progress_start_command(PROGRESS_COMMAND_COPY, RelationGetRelid(rel));
		pgstat_progress_update_multi_param(2, index, vals);
		stdin_file = pqfdw_copy_receive_stdin();
		path = FilePathName(stdin_file);
	}
	size = source_size(path, &access);
	access.decrypt = pqfdw_decryption_config(opts.footer_key, opts.column_keys,
											 opts.aad_prefix, NULL);
	st->path = stmt->filename != NULL ? path : "STDIN";

	st->reader = pqfdw_table_reader_create_desc(reader_desc(rel),
												RelationGetRelationName(rel),
												list_make1(pstrdup(path)),
												attnums, &access, cxt);
	/* messages name the client's stream, not its temporary file */
	if (stdin_file >= 0)
		pqfdw_table_reader_set_name(st->reader, st->path);
	copy_options = list_make1(makeDefElem("format",
										  (Node *) makeString("binary"), -1));
	if (opts.freeze != NULL)
		copy_options = lappend(copy_options, opts.freeze);
	MemoryContextSwitchTo(old);

	current_copy = st;
	PG_TRY();
	{
		CopyFromState cstate;

		cstate = BeginCopyFrom(pstate, rel, where, NULL, false, row_stream,
							   stmt->attlist, copy_options);
		st->cstate = cstate;
		install_value_functions(st, rel, attnums);
		pgstat_progress_update_param(PROGRESS_COPY_TYPE,
									 stmt->filename != NULL ?
									 PROGRESS_COPY_TYPE_FILE :
									 PROGRESS_COPY_TYPE_PIPE);
		pgstat_progress_update_param(PROGRESS_COPY_BYTES_TOTAL, size);
		processed = CopyFrom(cstate);
		EndCopyFrom(cstate);
	}
	PG_FINALLY();
	{
		current_copy = prev;
	}
	PG_END_TRY();

	pqfdw_table_reader_end(st->reader);
	if (stdin_file >= 0)
	{
		/* the next stream is another file: keep no footer under its name */
		pqfdw_footer_cache_forget(st->path);
		FileClose(stdin_file);
	}
	MemoryContextDelete(cxt);
	table_close(rel, NoLock);
	free_parsestate(pstate);
	return processed;
}
