/*
 * fuzz_iceberg_manifest.c
 *		Iceberg manifest lists and manifests from memory (src/table/
 *		iceberg/manifest.c over avro_file.c, avro_guard.c, avro_codec.c
 *		and libavro): the input is the Avro file, read as a manifest list
 *		(its own format version, then as v2), as a manifest (alone, then
 *		inheriting from the list's first entry or a made-up one), and
 *		record by record through the generic accessors.
 *
 * Checks: a refused file says why; a read one keeps what manifest.h
 * promises (contents, statuses and types in range, maps ascending by
 * field id without repeats, an ADDED entry inheriting its list's sequence
 * numbers, a content offset only with its size); the same file reads the
 * same twice.  libavro's own memory is freed on every path (LeakSanitizer
 * sees it: it is malloc'd outside the shim).
 */
#include "fuzz.h"

#include "table/iceberg/avro_file.h"
#include "table/iceberg/manifest.h"

static void
check_counts(const PqIcebergCount *c, int n)
{
	int			i;

	for (i = 1; i < n; i++)
		if (c[i - 1].field_id >= c[i].field_id)
			abort();
}

static void
check_bounds(const PqIcebergBound *b, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if ((i > 0 && b[i - 1].field_id >= b[i].field_id) ||
			b[i].bytes == NULL || b[i].len < 0 || b[i].bytes[b[i].len] != '\0')
			abort();
}

static void
check_entries(const PqIcebergEntry *e, int n, const PqIcebergManifestFile *list)
{
	int			i,
				j;

	for (i = 0; i < n; i++)
	{
		const PqIcebergDataFile *d = &e[i].file;

		if (e[i].status < 0 || e[i].status > 2 || d->content < 0 ||
			d->content > 2 || d->file_path == NULL || d->file_format == NULL ||
			d->record_count < 0 || d->file_size_in_bytes < 0)
			abort();
		if (list != NULL &&
			(!e[i].has_snapshot_id ||
			 (e[i].status == PQ_ICEBERG_STATUS_ADDED &&
			  (!e[i].has_sequence_number || !e[i].has_file_sequence_number)) ||
			 (list->content == PQ_ICEBERG_MANIFEST_DATA) !=
			 (d->content == PQ_ICEBERG_CONTENT_DATA)))
			abort();
		for (j = 0; j < d->npartition; j++)
		{
			const PqIcebergValue *v = &d->partition[j].value;

			if (v->type < PQ_ICEBERG_NULL || v->type > PQ_ICEBERG_FIXED ||
				d->partition[j].name == NULL ||
				(v->type >= PQ_ICEBERG_STRING && v->bytes == NULL))
				abort();
			if (v->type == PQ_ICEBERG_STRING &&
				strlen((const char *) v->bytes) != (size_t) v->len)
				abort();
		}
		check_counts(d->value_counts, d->nvalue_counts);
		check_counts(d->null_value_counts, d->nnull_value_counts);
		check_counts(d->nan_value_counts, d->nnan_value_counts);
		check_bounds(d->lower_bounds, d->nlower_bounds);
		check_bounds(d->upper_bounds, d->nupper_bounds);
		if (d->has_content_offset &&
			(d->content_offset < 0 || d->content_size_in_bytes < 0))
			abort();
	}
}

static void
check_list(const PqIcebergManifestFile *m, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (m[i].manifest_path == NULL || m[i].manifest_length < 0 ||
			(m[i].content != 0 && m[i].content != 1) ||
			(m[i].npartitions > 0 && m[i].partitions == NULL))
			abort();
}

/* Every field of a record, through the accessors, within a budget. */
static void
walk_value(const avro_value_t *rec, int depth, int64 *budget)
{
	int			n = pq_avro_record_size(rec);
	int			i;

	for (i = 0; i < n && depth < 8 && --(*budget) > 0; i++)
	{
		const char *name;
		avro_value_t v;
		PqAvroScalar s;
		avro_value_t array;
		int			items;
		int64		l;
		PqAvroIntEntry *map;
		int			nmap;

		if (pq_avro_record_field(rec, i, &name, &v) != PQ_AVRO_VALUE)
			continue;
		(void) pq_avro_scalar(&v, &s);
		(void) pq_avro_get_long(rec, name, &l);
		(void) pq_avro_get_int_map(rec, name, i % 2 == 0, &map, &nmap);
		if (pq_avro_get_array(rec, name, &array, &items) == PQ_AVRO_VALUE)
		{
			int			k;

			for (k = 0; k < items && --(*budget) > 0; k++)
			{
				avro_value_t item;

				if (pq_avro_array_item(&array, k, &item) == PQ_AVRO_VALUE)
				{
					(void) pq_avro_scalar(&item, &s);
					walk_value(&item, depth + 1, budget);
				}
			}
		}
		else if (avro_value_get_type(&v) == AVRO_RECORD)
			walk_value(&v, depth + 1, budget);
	}
}

static bool
walk(void *arg, int64 index, const avro_value_t *rec, const char **why)
{
	int64		budget = 10000;

	(*(int64 *) arg)++;
	walk_value(rec, 0, &budget);
	return true;
}

static void
one(const uint8 *data, size_t size)
{
	/* an exact-size copy: a read past the file's end is caught */
	uint8	   *file = ut_exact_copy(data, size);
	PqIcebergManifestFile *m = NULL;
	PqIcebergManifestFile made;
	PqIcebergEntry *e;
	PqIcebergEntry *again;
	int			nm = 0;
	int			n,
				n2;
	const char *why = NULL;
	PqAvroFile	f;

	if (pq_iceberg_read_manifest_list(file, size, 0, &m, &nm, &why))
		check_list(m, nm);
	else if (why == NULL)
		abort();
	why = NULL;
	if (pq_iceberg_read_manifest_list(file, size, 2, &m, &nm, &why))
		check_list(m, nm);
	else if (why == NULL)
		abort();

	why = NULL;
	if (!pq_iceberg_read_manifest(file, size, NULL, &e, &n, &why))
	{
		if (why == NULL)
			abort();
	}
	else
	{
		check_entries(e, n, NULL);
		if (!pq_iceberg_read_manifest(file, size, NULL, &again, &n2, &why) ||
			n2 != n)
			abort();
	}

	/* inheriting: the list's first entry, else one made up */
	memset(&made, 0, sizeof(made));
	made.manifest_path = "m.avro";
	made.sequence_number = size % 3;
	made.added_snapshot_id = 7;
	made.content = size % 2;
	why = NULL;
	if (pq_iceberg_read_manifest(file, size, nm > 0 ? &m[0] : &made, &e, &n, &why))
		check_entries(e, n, nm > 0 ? &m[0] : &made);
	else if (why == NULL)
		abort();

	why = NULL;
	if (pq_avro_open(file, size, &f, &why))
	{
		int64		calls = 0;
		int64		records;

		why = NULL;
		if (pq_avro_read(&f, 1000, walk, &calls, &records, &why))
		{
			if (calls < records)
				abort();
		}
		else if (why == NULL)
			abort();
	}
	else if (why == NULL)
		abort();
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
