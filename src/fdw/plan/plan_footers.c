/*-------------------------------------------------------------------------
 *
 * plan_footers.c
 *		The planner_hook that tells the footer cache when a planning starts
 *		and ends.
 *
 * The planner needs the footers of every file it plans for, but nothing
 * after planning holds them, while the planner's own memory lives until
 * the statement ends.  So they are made in a context of the footer
 * cache's, deleted when planning returns, and the cache trims itself then
 * (fdw/common/footer_cache.c): a plan over 100,000 files does not keep
 * their footers while it runs.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/footer_cache.h"
#include "fdw/plan/plan.h"
#include "optimizer/planner.h"

static planner_hook_type prev_planner_hook = NULL;

static PlannedStmt *
plan_footers_planner(Query *parse, const char *query_string,
					 int cursorOptions, ParamListInfo boundParams)
{
	MemoryContext outer = pqfdw_footer_cache_planning_begin();
	PlannedStmt *result;

	PG_TRY();
	{
		result = prev_planner_hook ?
			prev_planner_hook(parse, query_string, cursorOptions, boundParams) :
			standard_planner(parse, query_string, cursorOptions, boundParams);
	}
	PG_FINALLY();
	{
		pqfdw_footer_cache_planning_end(outer);
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
