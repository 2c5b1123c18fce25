/*-------------------------------------------------------------------------
 *
 * parquet_fdw.c
 *		Module entry points: the FDW handler and the COPY TO hook.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/adjust_options.h"
#include "fdw/common/footer_cache.h"
#include "fdw/common/spare_buffers.h"
#include "fdw/common/table_options.h"
#include "fdw/copy/copy_to.h"
#include "fdw/inspect/import.h"
#include "fdw/keys/keys.h"
#include "fdw/plan/plan.h"
#include "fdw/prune/prune.h"
#include "fdw/pushdown/pushdown.h"
#include "fdw/remote/remote.h"
#include "fdw/scan/row_former.h"
#include "fdw/scan/scan.h"
#include "fdw/scan/table_reader.h"
#include "fmgr.h"
#include "io/common/io_common.h"
#include "miscadmin.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* Waits for a store end at cancel and statement_timeout (io/). */
static void
check_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

void
_PG_init(void)
{
	pq_buffer_pool = &pqfdw_buffer_pool;
	pqfdw_column_stats_init();
	pqfdw_plan_footers_init();
	pqfdw_pruner_define_gucs();
	DefineCustomBoolVariable("parquet_fdw.enable_late_materialization",
							 "When the page index narrows a row group, decodes the filtered columns first and reads the other columns only for the rows that pass.",
							 NULL,
							 &pqfdw_enable_late_materialization,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_whole_row_forming",
							 "Forms whole-row values of foreign tables (t.*) in the scan, a chunk of rows at a time, instead of row by row in the executor.",
							 NULL,
							 &pqfdw_enable_whole_row_forming,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_grouped_scan",
							 "Computes GROUP BY and aggregates of queries over one foreign table inside the scan, on decoded batches, when PostgreSQL's results can be reproduced exactly.",
							 NULL,
							 &pqfdw_enable_grouped_scan,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_row_filter",
							 "Evaluates the quals the batch filter cannot (function calls, expressions of several columns) inside the scan on whole batches, calls on a dictionary-encoded column once per entry, instead of row by row in the executor.",
							 NULL,
							 &pqfdw_enable_row_filter,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_scan_projection",
							 "Computes the expressions a query projects from a single foreign table (function calls, arithmetic, casts, CASE) inside the scan on whole batches, calls on a dictionary-encoded column once per entry, instead of row by row in the executor.",
							 NULL,
							 &pqfdw_enable_scan_projection,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomBoolVariable("parquet_fdw.enable_top_n_scan",
							 "Computes ORDER BY ... LIMIT of queries over one foreign table inside the scan, skipping row groups whose statistics show no row can enter the result.",
							 NULL,
							 &pqfdw_enable_top_n_scan,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomStringVariable("parquet_fdw.key_directory",
							   "Directory of the encryption key files (<key id>.key, hexadecimal), relative to the data directory unless absolute.",
							   NULL,
							   &pqfdw_key_directory,
							   "parquet_fdw_keys",
							   PGC_SUSET,
							   0,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("parquet_fdw.read_files_role",
							   "Role whose members may read Parquet files on the server without pg_read_server_files.",
							   "Foreign tables over files, IMPORT FOREIGN SCHEMA, the inspection functions and COPY FROM a Parquet file; never paths in the key directory.  Empty: none.",
							   &pqfdw_read_files_role,
							   "",
							   PGC_SUSET,
							   0,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("parquet_fdw.as_of",
							   "Reads Delta Lake and Iceberg tables as of this time (a timestamp with time zone).",
							   "Each table as of its newest version (snapshot) committed at or before the time, over its options version, snapshot_id, ref and timestamp; empty: as the options say.",
							   &pqfdw_as_of,
							   "",
							   PGC_USERSET,
							   0,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("parquet_fdw.object_store_role",
							   "Role whose members may read URLs with the database server's own credentials.",
							   "The credential chain (environment, ~/.aws files, container and instance credentials) serves servers with use_credential_chain only to superusers and members of this role.",
							   &pqfdw_object_store_role,
							   "parquet_fdw_object_store",
							   PGC_SUSET,
							   0,
							   NULL, NULL, NULL);
	pq_io_check_interrupts = check_interrupts;
	DefineCustomStringVariable("parquet_fdw.kms_command",
							   "Program that wraps and unwraps keys with a KMS's master keys, for key material of key tools (the server option kms_command overrides it).",
							   "Placeholders: %o operation (wrap or unwrap), %i master key id, %u KMS instance URL, %k wrapped key; the key goes to stdin, the answer comes from stdout.  Empty: master keys are keys of the key store.",
							   &pqfdw_kms_command,
							   "",
							   PGC_SUSET,
							   0,
							   pqfdw_kms_command_check_hook, NULL, NULL);
	DefineCustomIntVariable("parquet_fdw.kms_command_timeout",
							"Time kms_command may take before it is killed.",
							NULL,
							&pqfdw_kms_command_timeout,
							30000, 1, INT_MAX,
							PGC_SUSET, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomIntVariable("parquet_fdw.kek_cache_lifetime",
							"Time an unwrapped key-encryption key of key material stays cached in a backend.",
							"0 caches none.",
							&pqfdw_kek_cache_lifetime,
							600, 0, INT_MAX / 1000,
							PGC_SUSET, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("parquet_fdw.metadata_cache_size",
							"Memory for parsed Parquet footers kept across queries in each backend.",
							"A footer is read again when its file's size, modification time or inode changes; 0 keeps none.",
							&pqfdw_metadata_cache_size,
							256 * 1024, 0, INT_MAX / 2,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	pqfdw_adjust_define_gucs();
	MarkGUCPrefixReserved("parquet_fdw");

	/* COPY ... TO ... (FORMAT parquet) */
	pqfdw_copy_hook_init();
}

/*
 * Executor callbacks go to the methods of the plan's kind: the table's
 * scan (fdw/scan/scan.c) or work pushed into it (fdw/pushdown/).
 */
static const PqExecMethods *const exec_methods[PQFDW_NPLAN_KINDS] = {
	[PQFDW_PLAN_SCAN] = &pqfdw_scan_methods,
	[PQFDW_PLAN_FOOTER] = &pqfdw_footer_methods,
	[PQFDW_PLAN_GROUPED] = &pqfdw_grouped_methods,
	[PQFDW_PLAN_TOP_N] = &pqfdw_top_n_methods,
	[PQFDW_PLAN_VECTOR_SCAN] = &pqfdw_vector_scan_methods,
};

static inline const PqExecMethods *
methods(ForeignScanState *node)
{
	return exec_methods[pqfdw_plan_kind((ForeignScan *) node->ss.ps.plan)];
}

/*
 * The scan whose row-group cursor parallel processes share; NULL for plans
 * that are never parallel and before begin.
 */
static PqScanState *
shared_scan(ForeignScanState *node)
{
	const PqExecMethods *m = methods(node);

	return m->shared_scan ? m->shared_scan(node) : NULL;
}

static void
begin_foreign_scan(ForeignScanState *node, int eflags)
{
	methods(node)->begin(node, eflags);
}

static TupleTableSlot *
iterate_foreign_scan(ForeignScanState *node)
{
	return methods(node)->next(node);
}

static void
rescan_foreign_scan(ForeignScanState *node)
{
	methods(node)->rescan(node);
}

static void
end_foreign_scan(ForeignScanState *node)
{
	if (methods(node)->end)
		methods(node)->end(node);
}

static void
explain_foreign_scan(ForeignScanState *node, struct ExplainState *es)
{
	methods(node)->explain(node, es);
}

/*
 * The bytes of shared memory a kind keeps before its scan's cursor
 * (PqExecMethods.dsm_size), aligned so that the cursor is.
 */
static Size
kind_dsm_size(ForeignScanState *node)
{
	const PqExecMethods *m = methods(node);

	return m->dsm_size ? MAXALIGN(m->dsm_size(node)) : 0;
}

static Size
estimate_dsm_foreign_scan(ForeignScanState *node, ParallelContext *pcxt)
{
	PqScanState *st = shared_scan(node);

	return st ? add_size(kind_dsm_size(node), pqfdw_scan_estimate_dsm(st)) : 0;
}

static void
initialize_dsm_foreign_scan(ForeignScanState *node, ParallelContext *pcxt,
							void *coordinate)
{
	PqScanState *st = shared_scan(node);
	Size		kind = kind_dsm_size(node);

	if (st == NULL)
		return;
	if (kind > 0)
		methods(node)->dsm_init(node, pcxt->seg, coordinate);
	pqfdw_scan_init_dsm(st, pcxt, (char *) coordinate + kind);
}

static void
reinitialize_dsm_foreign_scan(ForeignScanState *node, ParallelContext *pcxt,
							  void *coordinate)
{
	Size		kind = kind_dsm_size(node);

	if (kind > 0)
		methods(node)->dsm_reinit(node, coordinate);
	pqfdw_ReInitializeDSMForeignScan(node, pcxt, (char *) coordinate + kind);
}

static void
initialize_worker_foreign_scan(ForeignScanState *node, shm_toc *toc,
							   void *coordinate)
{
	PqScanState *st = shared_scan(node);
	Size		kind = kind_dsm_size(node);

	if (st == NULL)
		return;
	if (kind > 0)
		methods(node)->dsm_attach(node, coordinate);
	pqfdw_scan_init_worker(st, (char *) coordinate + kind);
}

static void
shutdown_foreign_scan(ForeignScanState *node)
{
	if (methods(node)->shutdown)
		methods(node)->shutdown(node);
	pqfdw_scan_shutdown(shared_scan(node));
}

PG_FUNCTION_INFO_V1(parquet_fdw_handler);

Datum
parquet_fdw_handler(PG_FUNCTION_ARGS)
{
	FdwRoutine *routine = makeNode(FdwRoutine);

	routine->GetForeignRelSize = pqfdw_GetForeignRelSize;
	routine->GetForeignPaths = pqfdw_GetForeignPaths;
	routine->GetForeignPlan = pqfdw_GetForeignPlan;
	routine->BeginForeignScan = begin_foreign_scan;
	routine->IterateForeignScan = iterate_foreign_scan;
	routine->ReScanForeignScan = rescan_foreign_scan;
	routine->EndForeignScan = end_foreign_scan;
	routine->ExplainForeignScan = explain_foreign_scan;
	routine->GetForeignUpperPaths = pqfdw_GetForeignUpperPaths;
	routine->IsForeignScanParallelSafe = pqfdw_IsForeignScanParallelSafe;
	routine->EstimateDSMForeignScan = estimate_dsm_foreign_scan;
	routine->InitializeDSMForeignScan = initialize_dsm_foreign_scan;
	routine->ReInitializeDSMForeignScan = reinitialize_dsm_foreign_scan;
	routine->InitializeWorkerForeignScan = initialize_worker_foreign_scan;
	routine->ShutdownForeignScan = shutdown_foreign_scan;
	routine->ImportForeignSchema = pqfdw_ImportForeignSchema;
	routine->AnalyzeForeignTable = pqfdw_AnalyzeForeignTable;

	PG_RETURN_POINTER(routine);
}
