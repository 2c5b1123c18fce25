/*-------------------------------------------------------------------------
 *
 * variant_fields.c
 *		Which object fields of a jsonb column the query uses, when it uses
 *		the column only as v -> 'key' or v ->> 'key': the scan then reads
 *		only those fields' shredded VARIANT columns.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/plan/plan.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"

typedef struct FieldUses
{
	Index		relid;
	AttrNumber	attno;
	int			sublevels_up;
	bool		whole;			/* used other than through -> / ->> */
	List	   *keys;			/* String */
} FieldUses;

static bool
is_column(Node *node, FieldUses *u)
{
	Var		   *v = (Var *) node;

	return node && IsA(node, Var) && v->varno == u->relid &&
		(int) v->varlevelsup == u->sublevels_up &&
		(v->varattno == u->attno || v->varattno == InvalidAttrNumber);
}

static bool
field_uses_walker(Node *node, FieldUses *u)
{
	if (node == NULL || u->whole)
		return false;
	if (IsA(node, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) node;

		if ((op->opfuncid == F_JSONB_OBJECT_FIELD ||
			 op->opfuncid == F_JSONB_OBJECT_FIELD_TEXT) &&
			list_length(op->args) == 2 &&
			is_column(linitial(op->args), u) &&
			((Var *) linitial(op->args))->varattno == u->attno)
		{
			Const	   *key = lsecond(op->args);

			if (!IsA(key, Const) || key->constisnull ||
				key->consttype != TEXTOID)
			{
				u->whole = true;
				return false;
			}
			u->keys = list_append_unique(u->keys,
										 makeString(TextDatumGetCString(key->constvalue)));
			return false;
		}
	}
	if (is_column(node, u))
	{
		u->whole = true;
		return false;
	}
	if (IsA(node, Query))
	{
		bool		result;

		u->sublevels_up++;
		result = query_tree_walker((Query *) node, field_uses_walker, u, 0);
		u->sublevels_up--;
		return result;
	}
	return expression_tree_walker(node, field_uses_walker, u);
}

List *
pqfdw_variant_field_uses(PlannerInfo *root, Index relid, AttrNumber attno)
{
	FieldUses	u;

	u.relid = relid;
	u.attno = attno;
	u.sublevels_up = 0;
	u.whole = false;
	u.keys = NIL;
	query_tree_walker(root->parse, field_uses_walker, &u, 0);

	/* no use found (e.g. an inheritance child's Vars): read it all */
	if (u.whole || u.keys == NIL)
		return NIL;
	return u.keys;
}
