/*-------------------------------------------------------------------------
 *
 * footer_count.c
 *		Execution of the count(*) the footers answer (fdw/plan/upper.c): one
 *		row whose every column is the sum of the row groups' row counts.
 *
 * The footers are read at the first fetch, not at plan start, so EXPLAIN
 * without ANALYZE reads nothing; with several files their schemas must
 * agree, as for a scan.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/explain.h"
#include "executor/executor.h"
#include "fdw/common/parquet_fdw.h"
#include "fdw/scan/scan.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

typedef struct PqFooterCount
{
	List	   *paths;			/* char * */
	Oid			relid;
	bool		done;			/* the row was returned */
	bool		counted;
	int64		rows;
	int64		row_groups;
} PqFooterCount;

void
pqfdw_footer_count_begin(ForeignScanState *node, int eflags)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
	PqFooterCount *fc = palloc0(sizeof(PqFooterCount));
	ListCell   *lc;

	foreach(lc, (List *) linitial(plan->fdw_private))
		fc->paths = lappend(fc->paths, strVal(lfirst(lc)));
	fc->relid = intVal(lsecond(plan->fdw_private));
	node->fdw_state = fc;
}

static void
count_rows(PqFooterCount *fc)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "parquet_fdw footer count",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	List	   *files = pqfdw_open_footers(fc->paths,
										   pqfdw_table_decryption(fc->relid));
	ListCell   *lc;

	fc->rows = 0;
	fc->row_groups = 0;
	foreach(lc, files)
	{
		PqFile	   *f = lfirst(lc);
		int			rg;

		for (rg = 0; rg < f->md.n_row_groups; rg++)
			fc->rows += f->md.row_groups[rg].num_rows;
		fc->row_groups += f->md.n_row_groups;
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	fc->counted = true;
}

TupleTableSlot *
pqfdw_footer_count_next(ForeignScanState *node)
{
	PqFooterCount *fc = node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	int			i;

	ExecClearTuple(slot);
	if (fc->done)
		return slot;
	if (!fc->counted)
		count_rows(fc);
	for (i = 0; i < slot->tts_tupleDescriptor->natts; i++)
	{
		slot->tts_values[i] = Int64GetDatum(fc->rows);
		slot->tts_isnull[i] = false;
	}
	fc->done = true;
	return ExecStoreVirtualTuple(slot);
}

void
pqfdw_footer_count_rescan(ForeignScanState *node)
{
	((PqFooterCount *) node->fdw_state)->done = false;
}

void
pqfdw_footer_count_explain(ForeignScanState *node, ExplainState *es)
{
	PqFooterCount *fc = node->fdw_state;
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, fc->paths)
		appendStringInfo(&buf, "%s%s", buf.len ? ", " : "",
						 (const char *) lfirst(lc));
	ExplainPropertyText("Relations",
						psprintf("Aggregate on (%s)",
								 quote_identifier(get_rel_name(fc->relid))),
						es);
	ExplainPropertyText(list_length(fc->paths) == 1 ? "Parquet File" :
						"Parquet Files", buf.data, es);
	ExplainPropertyText("Parquet Aggregate", "count(*) from the footers", es);
	if (es->analyze && fc->counted)
	{
		ExplainPropertyInteger("Row Groups Counted", NULL, fc->row_groups, es);
		ExplainPropertyInteger("Data Pages Read", NULL, 0, es);
		/* as for scans: bytes of data pages, Bloom filters, dictionaries */
		ExplainPropertyInteger("Bytes Read", "bytes", 0, es);
	}
}
