/*-------------------------------------------------------------------------
 *
 * metadata_read_int.h
 *		Helpers shared by the Parquet Thrift decoders (compact protocol),
 *		defined in metadata_read_util.c.  Only metadata_read_*.c include
 *		this; other layers use metadata.h.
 *
 * The decoders are split by where the structures live: metadata_read_file.c
 * decodes the footer (FileMetaData, ColumnMetaData, FileCryptoMetaData),
 * metadata_read_page.c the structures read apart from it (page headers,
 * the page index, bloom filter headers).
 *
 * Unknown fields of any wire type are skipped, as Thrift requires for
 * forward compatibility.  So is a known field id with an unexpected wire
 * type, as Thrift's generated readers do: forks have used field ids for
 * their own extensions (Dremio's parquet-mr wrote a list as ColumnMetaData
 * field 15, see dict-page-offset-zero.parquet).  A missing required field,
 * or a negative count, size or offset, is a corrupt file.
 *
 * Enum values are passed through unchecked: the layers that act on them
 * know which values they support.  Statistics counts are not checked
 * either; pruning treats implausible statistics as absent rather than
 * failing the whole file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_METADATA_READ_INT_H
#define PQ_METADATA_READ_INT_H

#include "metadata.h"
#include "thrift.h"

/* bit for field id in a "fields seen" mask */
#define FIELD_BIT(id) ((uint32) 1 << (id))

/* corrupt-file error for a required field st.field that is absent */
extern void pq_md_missing_field(const char *st,
								const char *field) pg_attribute_noreturn();

/*
 * Next known field of a struct; types[] holds the wire type of each field
 * id.  NEXT_FIELD takes the length from the array.
 */
extern bool pq_md_next_field(PqThriftReader *r, const uint8 *types,
							 int ntypes, int16 *id, int *type);

#define NEXT_FIELD(r, types, id, type) \
	pq_md_next_field(r, types, lengthof(types), id, type)

/* i32/i64 fields that cannot be negative */
extern int32 pq_md_rd_size32(PqThriftReader *r, const char *st,
							 const char *field);
extern int64 pq_md_rd_size64(PqThriftReader *r, const char *st,
							 const char *field);

/* list header; the caller reads the elements and calls list_end */
extern int32 pq_md_rd_list(PqThriftReader *r, int elem_type, const char *st,
						   const char *field);

/* whole lists of scalars, palloc'd; the element count goes to *n */
extern int32 *pq_md_rd_i32_list(PqThriftReader *r, const char *st,
								const char *field, int *n);
extern int64 *pq_md_rd_i64_list(PqThriftReader *r, const char *st,
								const char *field, int *n);
extern PqBytes *pq_md_rd_binary_list(PqThriftReader *r, const char *st,
									 const char *field, int *n);
extern char **pq_md_rd_string_list(PqThriftReader *r, const char *st,
								   const char *field, int *n);

/* room for element i of a list of count structs */
extern void *pq_md_grow_list(void *arr, int *cap, int i, int32 count,
							 size_t elem_size);

/* field id of a union's single member (0 if not a struct) */
extern bool pq_md_rd_union_id(PqThriftReader *r, const char *st, int *id);

/* Statistics (column metadata and data page headers) */
extern void pq_md_read_statistics(PqThriftReader *r, PqStatistics *out);

/* list<KeyValue> (file and column metadata) */
extern PqKeyValue *pq_md_rd_key_value_list(PqThriftReader *r, const char *st,
										   int *n);

#endif							/* PQ_METADATA_READ_INT_H */
