/*-------------------------------------------------------------------------
 *
 * columns.h
 *		Foreign table columns -> Parquet fields (columns.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_COLUMNS_H
#define PQFDW_COLUMNS_H

#include "access/attnum.h"
#include "format/metadata/schema.h"
#include "format/read/file_reader.h"

/* Map each attribute of relid to a top-level field of file's schema. */
extern PqSchemaNode *pqfdw_find_column(const PqFile *file, Oid relid,
									   AttrNumber attnum, const char *filename);

/*
 * The top-level field of schema whose field id is id.  In a schema without
 * ids (written before the table had them, or by a writer that leaves them
 * out) the field named one of names (NULL-terminated; may be NULL), else
 * the field named name (NULL: none).  NULL when there is none: a schema
 * with ids that lacks this one lacks the field, whatever names it has (a
 * dropped column may have left its name to a new one).
 */
extern PqSchemaNode *pqfdw_field_by_id(const PqSchema *schema, int32 id,
									   const char *const *names,
									   const char *name);

/* The same, NULL when file has no such field. */
extern PqSchemaNode *pqfdw_find_column_opt(const PqFile *file, Oid relid,
										   AttrNumber attnum);

/* The name an attribute of relid matches fields by (remembered). */
extern const char *pqfdw_field_name(Oid relid, AttrNumber attnum);

/*
 * The field id a table format's column is matched by, as cached with its
 * name; false when it is matched by name.
 */
extern bool pqfdw_field_id(Oid relid, AttrNumber attnum, int32 *id);

#endif							/* PQFDW_COLUMNS_H */
