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

/* The same, NULL when file has no such field. */
extern PqSchemaNode *pqfdw_find_column_opt(const PqFile *file, Oid relid,
										   AttrNumber attnum);

/* The name an attribute of relid matches fields by (remembered). */
extern const char *pqfdw_field_name(Oid relid, AttrNumber attnum);

#endif							/* PQFDW_COLUMNS_H */
