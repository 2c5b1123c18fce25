/*-------------------------------------------------------------------------
 *
 * json_contains.c
 *		"v @> '{"k": value}'" on a column read as jsonb, as the key path
 *		predicate "v->>'k' = value" (json_path.c).
 *
 * jsonb containment of an object with a scalar at key k holds only when
 * the row's object has k with an equal scalar: a string equal to the
 * string, or a number numerically equal to the number (a scalar never
 * contains nor is contained by an array or object below the top level).
 * So each scalar of the constant is a necessary condition, decided by the
 * leaf of its key like "v->>'k' = 'text'" (a string) or "(v->>'k')::numeric
 * = number" (a number), with json_path.c's rules: a string needs a STRING
 * leaf, a number an integer or DECIMAL leaf; any other pairing, nested
 * objects or arrays in the constant, and true, false or null decide
 * nothing.  The first key whose leaf qualifies in the file is used.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/stratnum.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "fdw/prune/prune.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

/* The constant of "var @> constant", or NULL. */
static Jsonb *
contained(Expr *clause, Index relid, Var **var)
{
	OpExpr	   *op = (OpExpr *) clause;
	Node	   *l;
	Const	   *r;

	if (!IsA(clause, OpExpr) || list_length(op->args) != 2 ||
		get_opcode(op->opno) != F_JSONB_CONTAINS)
		return NULL;
	l = linitial(op->args);
	r = (Const *) lsecond(op->args);
	if (!IsA(l, Var) || ((Var *) l)->varno != relid ||
		((Var *) l)->varattno <= 0 || ((Var *) l)->varlevelsup != 0 ||
		!IsA(r, Const) || r->constisnull || r->consttype != JSONBOID)
		return NULL;
	*var = (Var *) l;
	return DatumGetJsonbP(r->constvalue);
}

bool
pqfdw_prune_json_contains(Expr *clause, Index relid, PqPrunePred *p)
{
	Var		   *var;
	Jsonb	   *jb = contained(clause, relid, &var);
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	v;
	char	   *key = NULL;
	int			n = 0;

	if (jb == NULL || JB_ROOT_IS_SCALAR(jb) || !JB_ROOT_IS_OBJECT(jb) ||
		JB_ROOT_COUNT(jb) == 0)
		return false;
	if (p != NULL)
		p->json_cands = palloc(sizeof(PqJsonCand) * JB_ROOT_COUNT(jb));
	it = JsonbIteratorInit(&jb->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		PqJsonCand *c;

		if (tok == WJB_KEY)
			key = pnstrdup(v.val.string.val, v.val.string.len);
		if (tok != WJB_VALUE ||
			(v.type != jbvString && v.type != jbvNumeric))
			continue;
		n++;
		if (p == NULL)
			continue;
		c = &p->json_cands[p->njson_cands++];
		c->key = key;
		c->type = v.type == jbvString ? TEXTOID : NUMERICOID;
		c->value = v.type == jbvString ?
			PointerGetDatum(cstring_to_text_with_len(v.val.string.val,
													 v.val.string.len)) :
			datumCopy(NumericGetDatum(v.val.numeric), false, -1);
		fmgr_info(v.type == jbvString ? F_BTTEXTCMP : F_NUMERIC_CMP, &c->cmp);
	}
	if (n == 0 || p == NULL)
		return n > 0;
	p->attnum = var->varattno;
	p->strategy = BTEqualStrategyNumber;
	p->json_keys = palloc(sizeof(char *));
	p->njson_keys = 1;
	p->values = palloc(sizeof(Datum));
	pqfdw_prune_json_use_candidate(p, 0);
	return true;
}

void
pqfdw_prune_json_use_candidate(PqPrunePred *p, int i)
{
	PqJsonCand *c = &p->json_cands[i];

	p->json_keys[0] = c->key;
	p->leaf_type = c->type;
	p->values[0] = c->value;
	p->nvalues = 1;
	p->cmp = c->cmp;
	/* byte order is C order; equality is the same in every deterministic one */
	p->collation = C_COLLATION_OID;
}
