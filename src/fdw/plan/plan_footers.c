/*-------------------------------------------------------------------------
 *
 * plan_footers.c
 *		Where the planner keeps the footers it estimates with: a memory
 *		context that lives as long as the planning.
 *
 * The footers of a table's files pin their footer cache entries while
 * views of them live (fdw/common/footer_cache.c).  The planner needs the
 * footers of every file it plans for, but nothing after planning holds
 * them, while the planner's own memory lives until the statement ends.
 * So they are made in a context of their own, deleted when planning
 * returns (planner_hook), and the cache trims itself then: a plan over
 * 100,000 files does not keep their footers while it runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/parquet_fdw.h"
#include "fdw/plan/plan.h"
#include "optimizer/planner.h"
#include "utils/memutils.h"

static planner_hook_type prev_planner_hook = NULL;
static int	planning_depth = 0;
static MemoryContext footer_cxt = NULL; /* of the innermost planning */

MemoryContext
pqfdw_plan_footer_context(void)
{
	if (planning_depth == 0)
		return CurrentMemoryContext;
	if (footer_cxt == NULL)
		footer_cxt = AllocSetContextCreate(CurrentMemoryContext,
										   "parquet_fdw plan footers",
										   ALLOCSET_DEFAULT_SIZES);
	return footer_cxt;
}

static PlannedStmt *
plan_footers_planner(Query *parse, const char *query_string,
					 int cursorOptions, ParamListInfo boundParams)
{
	MemoryContext outer = footer_cxt;
	PlannedStmt *result;

	footer_cxt = NULL;
	planning_depth++;
	PG_TRY();
	{
		result = prev_planner_hook ?
			prev_planner_hook(parse, query_string, cursorOptions, boundParams) :
			standard_planner(parse, query_string, cursorOptions, boundParams);
	}
	PG_FINALLY();
	{
		planning_depth--;
		if (footer_cxt != NULL)
		{
			MemoryContextDelete(footer_cxt);
			pqfdw_footer_cache_trim();
		}
		footer_cxt = outer;
	}
	PG_END_TRY();
	return result;
}

void
pqfdw_plan_footers_init(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = plan_footers_planner;
}
