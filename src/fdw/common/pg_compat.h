/*-------------------------------------------------------------------------
 *
 * pg_compat.h
 *		What differs between the PostgreSQL majors parquet_fdw builds
 *		against (15, 17, 18): one spelling for the code, PG_VERSION_NUM
 *		guards here.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PG_COMPAT_H
#define PG_COMPAT_H

#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_foreign_server.h"
#include "commands/explain.h"
#include "common/jsonapi.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "foreign/foreign.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"

/* 18 moved ExplainState and ExplainProperty*() out of commands/explain.h */
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#include "commands/explain_state.h"
#endif

/*
 * 18 added an RTE_GROUP entry to the range table of a grouped query; EXPLAIN
 * counts the relations without it (rtable_size) to decide whether to
 * qualify column names.
 */
#if PG_VERSION_NUM >= 180000
#define PQFDW_EXPLAIN_RTABLE_SIZE(es) ((es)->rtable_size)
#else
#define PQFDW_EXPLAIN_RTABLE_SIZE(es) list_length((es)->rtable)
#endif

/*
 * 16 moved the permissions a range table entry asks for into its own
 * RTEPermissionInfo, checked by ExecCheckPermissions(); before, the RTE held
 * them and ExecCheckRTPerms() checked the range table.
 */
#if PG_VERSION_NUM >= 160000
typedef RTEPermissionInfo PqPermInfo;
#define PQFDW_NSITEM_PERMINFO(nsitem) ((nsitem)->p_perminfo)
#define pqfdw_check_permissions(rtable, perminfo) \
	ExecCheckPermissions(rtable, list_make1(perminfo), true)
#else
typedef RangeTblEntry PqPermInfo;
#define PQFDW_NSITEM_PERMINFO(nsitem) ((nsitem)->p_rte)
#define pqfdw_check_permissions(rtable, perminfo) ExecCheckRTPerms(rtable, true)
#endif

/* 16 replaced the per-catalog ACL checks with object_aclcheck() */
static inline void
pqfdw_check_server_usage(const ForeignServer *server)
{
	AclResult	r;

#if PG_VERSION_NUM >= 160000
	r = object_aclcheck(ForeignServerRelationId, server->serverid, GetUserId(),
						ACL_USAGE);
#else
	r = pg_foreign_server_aclcheck(server->serverid, GetUserId(), ACL_USAGE);
#endif
	if (r != ACLCHECK_OK)
		aclcheck_error(r, OBJECT_FOREIGN_SERVER, server->servername);
}

/*
 * 16 added stringToQualifiedNameList()'s escontext, and object_aclcheck()
 * for pg_proc_aclcheck()
 */
#if PG_VERSION_NUM >= 160000
#define pqfdw_qualified_name_list(s) stringToQualifiedNameList((s), NULL)
#define pqfdw_function_aclcheck(f, role) \
	object_aclcheck(ProcedureRelationId, (f), (role), ACL_EXECUTE)
#else
#define pqfdw_qualified_name_list(s) stringToQualifiedNameList(s)
#define pqfdw_function_aclcheck(f, role) \
	pg_proc_aclcheck((f), (role), ACL_EXECUTE)
#endif

/*
 * 17 added fdw_restrictinfo (before fdw_private), 18 disabled_nodes (after
 * rows) to create_foreignscan_path() and create_foreign_upper_path().
 */
#if PG_VERSION_NUM >= 180000
#define pqfdw_create_foreignscan_path(root, rel, target, rows, startup, total, \
									  pathkeys, required_outer, outerpath, priv) \
	create_foreignscan_path(root, rel, target, rows, 0, startup, total, \
							pathkeys, required_outer, outerpath, NIL, priv)
#define pqfdw_create_foreign_upper_path(root, rel, target, rows, startup, total, \
										pathkeys, outerpath, priv) \
	create_foreign_upper_path(root, rel, target, rows, 0, startup, total, \
							  pathkeys, outerpath, NIL, priv)
#elif PG_VERSION_NUM >= 170000
#define pqfdw_create_foreignscan_path(root, rel, target, rows, startup, total, \
									  pathkeys, required_outer, outerpath, priv) \
	create_foreignscan_path(root, rel, target, rows, startup, total, \
							pathkeys, required_outer, outerpath, NIL, priv)
#define pqfdw_create_foreign_upper_path(root, rel, target, rows, startup, total, \
										pathkeys, outerpath, priv) \
	create_foreign_upper_path(root, rel, target, rows, startup, total, \
							  pathkeys, outerpath, NIL, priv)
#else
#define pqfdw_create_foreignscan_path create_foreignscan_path
#define pqfdw_create_foreign_upper_path create_foreign_upper_path
#endif

/* 16 dropped get_eclass_for_sort_expr()'s nullable_relids (3rd argument) */
#if PG_VERSION_NUM >= 160000
#define pqfdw_get_eclass_for_sort_expr(root, expr, opfamilies, opcintype, \
									   collation, sortref, rel, create_it) \
	get_eclass_for_sort_expr(root, expr, opfamilies, opcintype, collation, \
							 sortref, rel, create_it)
#else
#define pqfdw_get_eclass_for_sort_expr(root, expr, opfamilies, opcintype, \
									   collation, sortref, rel, create_it) \
	get_eclass_for_sort_expr(root, expr, NULL, opfamilies, opcintype, \
							 collation, sortref, rel, create_it)
#endif

/*
 * 18 generalised btree strategies to CompareType: get_op_btree_interpretation
 * became get_op_index_interpretation (amcanorder families: still only btree
 * among the built-in AMs), OpBtreeInterpretation.strategy became
 * OpIndexInterpretation.cmptype, ROWCOMPARE_NE COMPARE_NE, and
 * get_ordering_op_properties() returns a CompareType. COMPARE_LT..COMPARE_GT
 * equal BTLessStrategyNumber..BTGreaterStrategyNumber, COMPARE_NE
 * ROWCOMPARE_NE (6).
 */
#if PG_VERSION_NUM >= 180000
typedef OpIndexInterpretation PqBtreeInterp;
typedef CompareType PqOrderingStrategy;
#define pqfdw_op_btree_interpretation(opno) get_op_index_interpretation(opno)
#define PQFDW_INTERP_STRATEGY(bi) ((int) (bi)->cmptype)
#define PQFDW_STRATEGY_NE COMPARE_NE
#else
typedef OpBtreeInterpretation PqBtreeInterp;
typedef int16 PqOrderingStrategy;
#define pqfdw_op_btree_interpretation(opno) get_op_btree_interpretation(opno)
#define PQFDW_INTERP_STRATEGY(bi) ((int) (bi)->strategy)
#define PQFDW_STRATEGY_NE ROWCOMPARE_NE
#endif

/*
 * 18 removed lc_collate_is_c()/lc_ctype_is_c(): the pg_locale_t of the
 * collation says it. Both returned false for InvalidOid.
 */
static inline bool
pqfdw_collate_is_c(Oid collation)
{
#if PG_VERSION_NUM >= 180000
	return OidIsValid(collation) &&
		pg_newlocale_from_collation(collation)->collate_is_c;
#else
	return lc_collate_is_c(collation);
#endif
}

static inline bool
pqfdw_ctype_is_c(Oid collation)
{
#if PG_VERSION_NUM >= 180000
	return OidIsValid(collation) &&
		pg_newlocale_from_collation(collation)->ctype_is_c;
#else
	return lc_ctype_is_c(collation);
#endif
}

/* 17 moved PGPROC.lxid into PGPROC.vxid */
#if PG_VERSION_NUM >= 170000
#define PQFDW_MY_LXID (MyProc->vxid.lxid)
#else
#define PQFDW_MY_LXID (MyProc->lxid)
#endif

/* 16: JSON semantic-action callbacks return a JsonParseErrorType */
#if PG_VERSION_NUM >= 160000
typedef JsonParseErrorType PqJsonCbResult;
#define PQFDW_JSON_CB_OK JSON_SUCCESS
#else
typedef void PqJsonCbResult;
#define PQFDW_JSON_CB_OK
#endif

/* 17: makeJsonLexContextCstringLen() takes the context to fill (NULL: palloc) */
#if PG_VERSION_NUM >= 170000
#define pqfdw_json_lex_cstring(json, len, encoding, need_escapes) \
	makeJsonLexContextCstringLen(NULL, json, len, encoding, need_escapes)
#else
#define pqfdw_json_lex_cstring(json, len, encoding, need_escapes) \
	makeJsonLexContextCstringLen(json, len, encoding, need_escapes)
#endif

/*
 * Run sem over the JSON text json; false when it is not valid in the
 * database encoding (which the lexer assumes) or not JSON.  Never an error.
 */
static inline bool
pqfdw_json_parse_text(const char *json, JsonSemAction *sem)
{
	int			len = strlen(json);

	return pg_verifymbstr(json, len, true) &&
		pg_parse_json(pqfdw_json_lex_cstring(pstrdup(json), len,
											 GetDatabaseEncoding(), true),
					  sem) == JSON_SUCCESS;
}

/* 18 dropped ExecutorRun()'s execute_once */
#if PG_VERSION_NUM >= 180000
#define pqfdw_ExecutorRun(qd, dir, count) ExecutorRun(qd, dir, count)
#else
#define pqfdw_ExecutorRun(qd, dir, count) ExecutorRun(qd, dir, count, true)
#endif

/*
 * The minors that mark composite datums (HEAP_IS_DATUM: 15.20 and 17.12
 * here, not 18.6) form them with heap_tuple_set_datum() and made
 * DatumGetHeapTupleHeader() a function that marks older ones.  A module
 * built against such headers may be loaded by an earlier minor of its
 * major, which has neither (the prebuilt 17 of scripts/pg-prebuilt.sh:
 * headers 17.12, server 17.10), so both are referenced weakly; without
 * them the datum is formed and read as that server does it.
 */
#ifdef HEAP_IS_DATUM
#pragma weak heap_tuple_set_datum
#pragma weak DatumGetHeapTupleHeader
#endif

/* Length, type and row type version of a composite datum being formed */
static inline void
pqfdw_set_datum_fields(HeapTupleHeader td, TupleDesc desc, Size len)
{
#ifdef HEAP_IS_DATUM
	if (heap_tuple_set_datum != NULL)
	{
		heap_tuple_set_datum(td, desc, len);
		return;
	}
#endif
	HeapTupleHeaderSetDatumLength(td, len);
	HeapTupleHeaderSetTypeId(td, desc->tdtypeid);
	HeapTupleHeaderSetTypMod(td, desc->tdtypmod);
	ItemPointerSetInvalid(&td->t_ctid);
}

/* A composite datum's tuple header, detoasted */
static inline HeapTupleHeader
pqfdw_datum_get_heap_tuple_header(Datum d)
{
#ifdef HEAP_IS_DATUM
	if (DatumGetHeapTupleHeader != NULL)
		return DatumGetHeapTupleHeader(d);
#endif
	return (HeapTupleHeader) PG_DETOAST_DATUM(d);
}

/*
 * The role a foreign scan reads as (InvalidOid: the current one): a view's
 * owner for a table read through it.  16 put it in the plan
 * (ForeignScan.checkAsUser); before, the range table entry held it (for a
 * scan of an upper relation, that of its first base relation).
 */
static inline Oid
pqfdw_scan_check_as_user(ForeignScanState *node)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;
#if PG_VERSION_NUM >= 160000
	return plan->checkAsUser;
#else
	Index		rti = plan->scan.scanrelid > 0 ? plan->scan.scanrelid :
	(Index) bms_next_member(plan->fs_relids, -1);

	return exec_rt_fetch(rti, node->ss.ps.state)->checkAsUser;
#endif
}

#endif							/* PG_COMPAT_H */
