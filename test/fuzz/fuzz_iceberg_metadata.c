/*
 * fuzz_iceberg_metadata.c
 *		An Iceberg table metadata file as src/table/iceberg/metadata.h
 *		reads it: the input is the file.  A refusal must say why and leave
 *		nothing to use; a file read must keep every promise of metadata.h,
 *		checked through every lookup: ids unique (each lookup finds its
 *		own), what the current schema, default spec, current snapshot and
 *		refs name is there, nested types walkable without checks, time
 *		travel answering a snapshot of the file at or before the time.
 */
#include "fuzz.h"

#include "table/iceberg/metadata.h"

/* Walk a checked type as a caller would, trusting metadata.h's promise. */
static void
walk_type(const PqJv *t, int depth)
{
	const char *kind;
	const PqJv *fields;
	uint32		i;

	if (t == NULL || depth > PQ_ICEBERG_MAX_TYPE_DEPTH)
		abort();
	if (t->type == PQ_JV_STRING)
		return;
	kind = pq_jv_str(pq_jv_get(t, "type"));
	if (t->type != PQ_JV_OBJECT || kind == NULL)
		abort();
	if (strcmp(kind, "struct") == 0)
	{
		fields = pq_jv_get(t, "fields");
		if (fields == NULL || fields->type != PQ_JV_ARRAY)
			abort();
		for (i = 0; i < fields->len; i++)
		{
			int64		id;

			if (!pq_jv_int64(pq_jv_get(&fields->u.items[i], "id"), &id) ||
				id < 0 || id > PQ_ICEBERG_MAX_FIELD_ID ||
				pq_jv_str(pq_jv_get(&fields->u.items[i], "name")) == NULL)
				abort();
			walk_type(pq_jv_get(&fields->u.items[i], "type"), depth + 1);
		}
	}
	else if (strcmp(kind, "list") == 0)
	{
		int64		id;
		bool		b;

		if (!pq_jv_int64(pq_jv_get(t, "element-id"), &id) ||
			!pq_jv_bool(pq_jv_get(t, "element-required"), &b))
			abort();
		walk_type(pq_jv_get(t, "element"), depth + 1);
	}
	else if (strcmp(kind, "map") == 0)
	{
		int64		id;
		bool		b;

		if (!pq_jv_int64(pq_jv_get(t, "key-id"), &id) ||
			!pq_jv_int64(pq_jv_get(t, "value-id"), &id) ||
			!pq_jv_bool(pq_jv_get(t, "value-required"), &b))
			abort();
		walk_type(pq_jv_get(t, "key"), depth + 1);
		walk_type(pq_jv_get(t, "value"), depth + 1);
	}
	else
		abort();
}

static void
check_schemas(const PqIcebergMetadata *md)
{
	int			i;
	int			k;

	if (md->nschemas < 1 || pq_iceberg_schema(md, md->current_schema_id) == NULL)
		abort();
	for (i = 0; i < md->nschemas; i++)
	{
		const PqIcebergSchema *sc = &md->schemas[i];

		if (pq_iceberg_schema(md, sc->schema_id) != sc)
			abort();
		for (k = 0; k < sc->nfields; k++)
		{
			const PqIcebergField *f = &sc->fields[k];
			bool		nested = strcmp(f->type, "struct") == 0 ||
				strcmp(f->type, "list") == 0 || strcmp(f->type, "map") == 0;

			if (f->id < 0 || f->id > PQ_ICEBERG_MAX_FIELD_ID ||
				f->name[0] == '\0' ||
				(f->type_tree->type == PQ_JV_OBJECT) != nested ||
				(f->initial_default != NULL &&
				 f->initial_default->type == PQ_JV_NULL))
				abort();
			walk_type(f->type_tree, 0);
		}
		for (k = 0; k < sc->nidentifiers; k++)
			if (sc->identifier_ids[k] < 0)
				abort();
	}
}

static void
check_specs(const PqIcebergMetadata *md)
{
	int			i;
	int			k;
	int			j;

	if (md->nspecs < 1 || pq_iceberg_spec(md, md->default_spec_id) == NULL)
		abort();
	for (i = 0; i < md->nspecs; i++)
	{
		const PqIcebergSpec *sp = &md->specs[i];

		if (pq_iceberg_spec(md, sp->spec_id) != sp)
			abort();
		for (k = 0; k < sp->nfields; k++)
		{
			const PqIcebergPartitionField *pf = &sp->fields[k];

			if (pf->nsource_ids < 1 || pf->name[0] == '\0' ||
				pf->transform[0] == '\0' ||
				pf->source_id != (pf->nsource_ids == 1 ? pf->source_ids[0] : -1))
				abort();
			for (j = 0; j < k; j++)
				if (sp->fields[j].field_id == pf->field_id ||
					strcmp(sp->fields[j].name, pf->name) == 0)
					abort();
		}
	}
}

/* ms, and the snapshot as of it: NULL, or one at or before it. */
static void
check_as_of(const PqIcebergMetadata *md, int64 ms)
{
	const PqIcebergSnapshot *s = pq_iceberg_snapshot_as_of(md, ms);
	int			i;
	bool		logged = false;

	if (s == NULL)
		return;
	if (s < md->snapshots || s >= md->snapshots + md->nsnapshots)
		abort();
	if (md->nlog == 0)
	{
		if (s->timestamp_ms > ms)
			abort();
		return;
	}
	for (i = 0; i < md->nlog; i++)
		if (md->log[i].snapshot_id == s->snapshot_id &&
			md->log[i].timestamp_ms <= ms)
			logged = true;
	if (!logged)
		abort();
}

static void
check_snapshots(const PqIcebergMetadata *md)
{
	const PqIcebergSnapshot *head = pq_iceberg_snapshot_by_ref(md, "main");
	int			i;

	if (md->current_snapshot_id != -1 &&
		(head == NULL || head->snapshot_id != md->current_snapshot_id))
		abort();
	if (md->current_snapshot_id == -1 && head != NULL)
		abort();
	for (i = 0; i < md->nsnapshots; i++)
	{
		const PqIcebergSnapshot *s = &md->snapshots[i];

		if (pq_iceberg_snapshot(md, s->snapshot_id) != s ||
			s->snapshot_id == -1 || s->sequence_number < 0 ||
			(md->format_version >= 2 &&
			 (s->manifest_list == NULL || s->operation == NULL ||
			  s->sequence_number > md->last_sequence_number)) ||
			(s->manifest_list == NULL && md->format_version >= 2) ||
			(s->manifest_list != NULL && s->nmanifests != 0))
			abort();
		check_as_of(md, s->timestamp_ms);
	}
	for (i = 0; i < md->nrefs; i++)
		if (pq_iceberg_snapshot_by_ref(md, md->refs[i].name) == NULL ||
			pq_iceberg_snapshot_by_ref(md, md->refs[i].name)->snapshot_id !=
			md->refs[i].snapshot_id)
			abort();
	for (i = 0; i < md->nlog; i++)
		check_as_of(md, md->log[i].timestamp_ms);
	check_as_of(md, PG_INT64_MIN);
	check_as_of(md, PG_INT64_MAX);
	if (pq_iceberg_snapshot(md, -1) != NULL)
		abort();
}

static void
run(const uint8 *data, size_t size)
{
	PqIcebergMetadata md;
	const char *why = NULL;
	int			i;

	if (!pq_iceberg_parse_metadata((const char *) data, size, &md, &why))
	{
		if (why == NULL || md.nschemas != 0 || md.root != NULL ||
			pq_iceberg_snapshot_by_ref(&md, "main") != NULL ||
			pq_iceberg_snapshot_as_of(&md, 0) != NULL)
			abort();
		return;
	}
	if (why != NULL || md.format_version < 1 ||
		md.format_version > PQ_ICEBERG_MAX_FORMAT_VERSION ||
		md.location == NULL || md.root == NULL ||
		(md.format_version >= 2 && md.table_uuid == NULL))
		abort();
	check_schemas(&md);
	check_specs(&md);
	check_snapshots(&md);
	for (i = 0; i < md.nproperties; i++)
		if (pq_iceberg_property(&md, md.property_keys[i]) !=
			md.property_values[i])
			abort();
	(void) pq_iceberg_property(&md, "schema.name-mapping.default");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run(run, data, size);
	return 0;
}
