/*
 * iceberg_metadata_cli.c
 *		An Iceberg table metadata file as src/table/iceberg/metadata.h
 *		reads it, printed as JSON for test/js/check_iceberg_metadata.mjs.
 *		Built with the unit-test shim (ASan + UBSan): `make
 *		iceberg_metadata_cli`.
 *
 *		iceberg_metadata_cli FILE
 *			one JSON object: every member of PqIcebergMetadata (64-bit
 *			integers exactly, a field's type_tree and defaults as the JSON
 *			they point at), then "lookups": the snapshot of each ref and of
 *			"main" (pq_iceberg_snapshot_by_ref), and the snapshot as of
 *			each snapshot-log and snapshot timestamp, a millisecond before
 *			and after (pq_iceberg_snapshot_as_of); a snapshot is given by
 *			its id, none as null.
 *
 *		A refused file prints {"refused": "<why>"}, an ERROR "ERROR
 *		<SQLSTATE> <message>"; both exit with status 1.
 */
#include "postgres.h"

#include "table/iceberg/metadata.h"
#include "unit_test.h"

/* s as a JSON string (null for NULL); the parser left it valid UTF-8. */
static void
put_str(const char *s)
{
	if (s == NULL)
	{
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s != '\0'; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void
put_int(int64 v)
{
	printf(INT64_FORMAT, v);
}

/* A parsed JSON value as JSON text, numbers as written. */
static void
put_jv(const PqJv *v)
{
	uint32		i;

	if (v == NULL)
	{
		fputs("null", stdout);
		return;
	}
	switch (v->type)
	{
		case PQ_JV_NULL:
			fputs("null", stdout);
			break;
		case PQ_JV_TRUE:
			fputs("true", stdout);
			break;
		case PQ_JV_FALSE:
			fputs("false", stdout);
			break;
		case PQ_JV_NUMBER:
			fputs(v->u.str, stdout);
			break;
		case PQ_JV_STRING:
			put_str(v->u.str);
			break;
		case PQ_JV_ARRAY:
			putchar('[');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					putchar(',');
				put_jv(&v->u.items[i]);
			}
			putchar(']');
			break;
		case PQ_JV_OBJECT:
			putchar('{');
			for (i = 0; i < v->len; i++)
			{
				if (i > 0)
					putchar(',');
				put_str(v->u.members[i].name);
				putchar(':');
				put_jv(&v->u.members[i].value);
			}
			putchar('}');
			break;
	}
}

/* A snapshot by its id, or null. */
static void
put_snapshot_id(const PqIcebergSnapshot *s)
{
	if (s == NULL)
		fputs("null", stdout);
	else
		put_int(s->snapshot_id);
}

static void
put_schema(const PqIcebergSchema *sc)
{
	int			i;

	printf("{\"schema_id\":%d,\"identifier_field_ids\":[", sc->schema_id);
	for (i = 0; i < sc->nidentifiers; i++)
		printf("%s%d", i > 0 ? "," : "", sc->identifier_ids[i]);
	fputs("],\"fields\":[", stdout);
	for (i = 0; i < sc->nfields; i++)
	{
		const PqIcebergField *f = &sc->fields[i];

		printf("%s{\"id\":%d,\"name\":", i > 0 ? "," : "", f->id);
		put_str(f->name);
		printf(",\"required\":%s,\"type\":", f->required ? "true" : "false");
		put_str(f->type);
		fputs(",\"type_tree\":", stdout);
		put_jv(f->type_tree);
		fputs(",\"initial_default\":", stdout);
		put_jv(f->initial_default);
		fputs(",\"write_default\":", stdout);
		put_jv(f->write_default);
		putchar('}');
	}
	fputs("]}", stdout);
}

static void
put_spec(const PqIcebergSpec *sp)
{
	int			i;
	int			k;

	printf("{\"spec_id\":%d,\"fields\":[", sp->spec_id);
	for (i = 0; i < sp->nfields; i++)
	{
		const PqIcebergPartitionField *pf = &sp->fields[i];

		printf("%s{\"source_id\":%d,\"source_ids\":[", i > 0 ? "," : "",
			   pf->source_id);
		for (k = 0; k < pf->nsource_ids; k++)
			printf("%s%d", k > 0 ? "," : "", pf->source_ids[k]);
		printf("],\"field_id\":%d,\"name\":", pf->field_id);
		put_str(pf->name);
		fputs(",\"transform\":", stdout);
		put_str(pf->transform);
		putchar('}');
	}
	fputs("]}", stdout);
}

static void
put_snapshot(const PqIcebergSnapshot *s)
{
	int			k;

	fputs("{\"snapshot_id\":", stdout);
	put_int(s->snapshot_id);
	fputs(",\"parent_id\":", stdout);
	put_int(s->parent_id);
	fputs(",\"sequence_number\":", stdout);
	put_int(s->sequence_number);
	fputs(",\"timestamp_ms\":", stdout);
	put_int(s->timestamp_ms);
	fputs(",\"manifest_list\":", stdout);
	put_str(s->manifest_list);
	fputs(",\"manifests\":[", stdout);
	for (k = 0; k < s->nmanifests; k++)
	{
		if (k > 0)
			putchar(',');
		put_str(s->manifests[k]);
	}
	printf("],\"schema_id\":%d,\"operation\":", s->schema_id);
	put_str(s->operation);
	fputs(",\"first_row_id\":", stdout);
	put_int(s->first_row_id);
	fputs(",\"added_rows\":", stdout);
	put_int(s->added_rows);
	putchar('}');
}

/* pq_iceberg_snapshot_as_of at ms + d, as [ms + d, id or null]. */
static void
put_as_of(const PqIcebergMetadata *md, int64 ms, int d, bool *first)
{
	if ((d < 0 && ms == PG_INT64_MIN) || (d > 0 && ms == PG_INT64_MAX))
		return;
	ms += d;
	fputs(*first ? "[" : ",[", stdout);
	*first = false;
	put_int(ms);
	putchar(',');
	put_snapshot_id(pq_iceberg_snapshot_as_of(md, ms));
	putchar(']');
}

static void
put_lookups(const PqIcebergMetadata *md)
{
	bool		first = true;
	int			i;
	int			d;

	fputs("\"lookups\":{\"main\":", stdout);
	put_snapshot_id(pq_iceberg_snapshot_by_ref(md, "main"));
	fputs(",\"refs\":{", stdout);
	for (i = 0; i < md->nrefs; i++)
	{
		if (i > 0)
			putchar(',');
		put_str(md->refs[i].name);
		putchar(':');
		put_snapshot_id(pq_iceberg_snapshot_by_ref(md, md->refs[i].name));
	}
	fputs("},\"as_of\":[", stdout);
	for (d = -1; d <= 1; d++)
	{
		for (i = 0; i < md->nlog; i++)
			put_as_of(md, md->log[i].timestamp_ms, d, &first);
		for (i = 0; i < md->nsnapshots; i++)
			put_as_of(md, md->snapshots[i].timestamp_ms, d, &first);
	}
	fputs("]}", stdout);
}

static void
put_metadata(const PqIcebergMetadata *md)
{
	int			i;

	printf("{\"format_version\":%d,\"table_uuid\":", md->format_version);
	put_str(md->table_uuid);
	fputs(",\"location\":", stdout);
	put_str(md->location);
	fputs(",\"last_sequence_number\":", stdout);
	put_int(md->last_sequence_number);
	fputs(",\"last_updated_ms\":", stdout);
	put_int(md->last_updated_ms);
	fputs(",\"current_snapshot_id\":", stdout);
	put_int(md->current_snapshot_id);
	printf(",\"current_schema_id\":%d,\"schemas\":[", md->current_schema_id);
	for (i = 0; i < md->nschemas; i++)
	{
		if (i > 0)
			putchar(',');
		put_schema(&md->schemas[i]);
	}
	printf("],\"default_spec_id\":%d,\"specs\":[", md->default_spec_id);
	for (i = 0; i < md->nspecs; i++)
	{
		if (i > 0)
			putchar(',');
		put_spec(&md->specs[i]);
	}
	fputs("],\"snapshots\":[", stdout);
	for (i = 0; i < md->nsnapshots; i++)
	{
		if (i > 0)
			putchar(',');
		put_snapshot(&md->snapshots[i]);
	}
	fputs("],\"snapshot_log\":[", stdout);
	for (i = 0; i < md->nlog; i++)
	{
		fputs(i > 0 ? ",[" : "[", stdout);
		put_int(md->log[i].timestamp_ms);
		putchar(',');
		put_int(md->log[i].snapshot_id);
		putchar(']');
	}
	fputs("],\"refs\":[", stdout);
	for (i = 0; i < md->nrefs; i++)
	{
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", stdout);
		put_str(md->refs[i].name);
		fputs(",\"snapshot_id\":", stdout);
		put_int(md->refs[i].snapshot_id);
		printf(",\"is_tag\":%s}", md->refs[i].is_tag ? "true" : "false");
	}
	fputs("],\"properties\":{", stdout);
	for (i = 0; i < md->nproperties; i++)
	{
		if (i > 0)
			putchar(',');
		put_str(md->property_keys[i]);
		putchar(':');
		put_str(pq_iceberg_property(md, md->property_keys[i]));
	}
	fputs("},", stdout);
	put_lookups(md);
	fputs("}\n", stdout);
}

static int
run(const char *data, size_t len)
{
	volatile int status = 0;

	PG_TRY();
	{
		PqIcebergMetadata md;
		const char *why = NULL;

		if (pq_iceberg_parse_metadata(data, len, &md, &why))
			put_metadata(&md);
		else
		{
			fputs("{\"refused\":", stdout);
			put_str(why);
			fputs("}\n", stdout);
			status = 1;
		}
	}
	PG_CATCH();
	{
		ut_print_error();
		status = 1;
	}
	PG_END_TRY();
	shim_free_all();
	return status;
}

int
main(int argc, char **argv)
{
	size_t		len;
	char	   *data;
	int			status;

	if (argc != 2)
	{
		fprintf(stderr, "usage: iceberg_metadata_cli FILE\n");
		return 2;
	}
	data = (char *) ut_read_file(argv[1], &len);
	status = run(data, len);
	free(data);
	return status;
}
