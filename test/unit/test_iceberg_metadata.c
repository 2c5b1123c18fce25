/*
 * test_iceberg_metadata.c
 *		Iceberg table metadata files (src/table/iceberg/metadata.h) on
 *		hand-written texts: format versions 1, 2 and 3 as the spec's
 *		"Table Metadata" section and Appendices C and E describe them, the
 *		lookups (schema, spec, snapshot, ref, time travel, property), and a
 *		refusal for every rule, each saying why without quoting the text.
 *		The expected values are written out from the spec, not produced by
 *		the code.
 *
 * Texts are written with ' for " (turned by json()), so that they read as
 * JSON; a refusal is a valid text with one piece replaced (with()).
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "table/iceberg/metadata.h"
#include "unit_test.h"

/* A v2 table: two schemas, two specs, three snapshots, a tag. */
static const char *const V2 =
"{'format-version': 2, 'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',"
" 'location': 's3://bucket/SECRET/t', 'last-sequence-number': 3,"
" 'last-updated-ms': 1700000300000, 'last-column-id': 9,"
" 'current-schema-id': 1,"
" 'schemas': ["
"  {'type': 'struct', 'schema-id': 0, 'fields': ["
"    {'id': 1, 'name': 'id', 'required': true, 'type': 'long'}]},"
"  {'type': 'struct', 'schema-id': 1, 'identifier-field-ids': [1], 'fields': ["
"    {'id': 1, 'name': 'id', 'required': true, 'type': 'long'},"
"    {'id': 2, 'name': 'price', 'required': false, 'type': 'decimal(9, 2)'},"
"    {'id': 3, 'name': 'tags', 'required': false, 'type': {'type': 'list',"
"      'element-id': 4, 'element-required': true, 'element': 'string'}},"
"    {'id': 5, 'name': 'attrs', 'required': false, 'type': {'type': 'map',"
"      'key-id': 6, 'key': 'string', 'value-id': 7, 'value-required': false,"
"      'value': {'type': 'struct', 'fields': ["
"        {'id': 8, 'name': 'x', 'required': false, 'type': 'fixed[16]'}]}}},"
"    {'id': 9, 'name': 'ts', 'required': false, 'type': 'timestamptz', 'doc': 'SECRET'}]}],"
" 'default-spec-id': 1,"
" 'partition-specs': ["
"  {'spec-id': 0, 'fields': []},"
"  {'spec-id': 1, 'fields': ["
"    {'source-id': 9, 'field-id': 1000, 'name': 'ts_day', 'transform': 'day'},"
"    {'source-id': 1, 'field-id': 1001, 'name': 'id_bucket', 'transform': 'bucket[16]'}]}],"
" 'last-partition-id': 1001, 'default-sort-order-id': 0,"
" 'sort-orders': [{'order-id': 0, 'fields': []}],"
" 'properties': {'owner': 'SECRET',"
"   'schema.name-mapping.default': '[{\\'field-id\\': 1, \\'names\\': [\\'id\\']}]'},"
" 'current-snapshot-id': 3051729675574597004,"
" 'refs': {'main': {'snapshot-id': 3051729675574597004, 'type': 'branch'},"
"   'v1': {'snapshot-id': 1000, 'type': 'tag', 'max-ref-age-ms': 10}},"
" 'snapshots': ["
"  {'snapshot-id': 1000, 'sequence-number': 1, 'timestamp-ms': 1700000100000,"
"   'manifest-list': 's3://bucket/SECRET/snap-1.avro',"
"   'summary': {'operation': 'append', 'added-records': '10'}, 'schema-id': 0},"
"  {'snapshot-id': 2000, 'parent-snapshot-id': 1000, 'sequence-number': 2,"
"   'timestamp-ms': 1700000200000, 'manifest-list': 's3://bucket/SECRET/snap-2.avro',"
"   'summary': {'operation': 'overwrite'}, 'schema-id': 1},"
"  {'snapshot-id': 3051729675574597004, 'parent-snapshot-id': 2000,"
"   'sequence-number': 3, 'timestamp-ms': 1700000300000,"
"   'manifest-list': 's3://bucket/SECRET/snap-3.avro',"
"   'summary': {'operation': 'delete'}}],"
" 'snapshot-log': ["
"  {'timestamp-ms': 1700000100000, 'snapshot-id': 1000},"
"  {'timestamp-ms': 1700000200000, 'snapshot-id': 2000},"
"  {'timestamp-ms': 1700000300000, 'snapshot-id': 3051729675574597004}],"
" 'metadata-log': []}";

/* A v1 table as old writers left it: "schema", "partition-spec", "manifests". */
static const char *const V1 =
"{'format-version': 1, 'location': '/w/SECRET', 'last-updated-ms': 5,"
" 'last-column-id': 3,"
" 'schema': {'type': 'struct', 'fields': ["
"   {'id': 1, 'name': 'a', 'required': false, 'type': 'int'},"
"   {'id': 2, 'name': 'b', 'required': false, 'type': 'string'},"
"   {'id': 3, 'name': 'c', 'required': false, 'type': 'date'}]},"
" 'partition-spec': ["
"   {'source-id': 2, 'name': 'b', 'transform': 'identity'},"
"   {'source-id': 3, 'field-id': 1005, 'name': 'c_month', 'transform': 'month'},"
"   {'source-id': 1, 'name': 'a_trunc', 'transform': 'truncate[10]'}],"
" 'properties': {},"
" 'current-snapshot-id': 22,"
" 'snapshots': ["
"   {'snapshot-id': 11, 'timestamp-ms': 1, 'manifests': ['/w/m1.avro', '/w/m2.avro']},"
"   {'snapshot-id': 22, 'parent-snapshot-id': 11, 'timestamp-ms': 3,"
"    'manifest-list': '/w/snap-22.avro', 'summary': {'operation': 'append'}}]}";

/* A v3 table: new types, defaults, multi-argument transforms, row lineage. */
static const char *const V3 =
"{'format-version': 3, 'table-uuid': 'AAAAAAAA-bbbb-4ccc-8ddd-eeeeeeeeeeee',"
" 'location': 'gs://b/t', 'last-sequence-number': 1, 'last-updated-ms': 9,"
" 'last-column-id': 8, 'next-row-id': 5, 'current-schema-id': 7,"
" 'schemas': [{'type': 'struct', 'schema-id': 7, 'fields': ["
"   {'id': 1, 'name': 'n', 'required': false, 'type': 'timestamp_ns',"
"    'initial-default': '2024-01-15T10:30:45.123456789', 'write-default': null},"
"   {'id': 2, 'name': 'z', 'required': false, 'type': 'timestamptz_ns'},"
"   {'id': 3, 'name': 'v', 'required': false, 'type': 'variant'},"
"   {'id': 4, 'name': 'g', 'required': false, 'type': 'Geometry( srid:4326 )'},"
"   {'id': 5, 'name': 'h', 'required': false, 'type': 'geography(srid:4269, Karney)'},"
"   {'id': 6, 'name': 'u', 'required': false, 'type': 'unknown'},"
"   {'id': 7, 'name': 'i', 'required': true, 'type': 'int',"
"    'initial-default': -1, 'write-default': 12345678901234567890},"
"   {'id': 8, 'name': 's', 'required': false, 'type': {'type': 'struct', 'fields': []},"
"    'initial-default': {}}]}],"
" 'default-spec-id': 0,"
" 'partition-specs': [{'spec-id': 0, 'fields': ["
"   {'source-ids': [1, 7], 'field-id': 1000, 'name': 'multi', 'transform': 'zorder'},"
"   {'source-id': 7, 'field-id': 1001, 'name': 'i_void', 'transform': 'VOID'}]}],"
" 'properties': {'a': 'b'}, 'current-snapshot-id': null,"
" 'refs': {'dev': {'snapshot-id': 77, 'type': 'branch'}},"
" 'snapshots': [{'snapshot-id': 77, 'sequence-number': 1, 'timestamp-ms': 8,"
"   'manifest-list': 'gs://b/t/m.avro', 'summary': {'operation': 'append'},"
"   'first-row-id': 0, 'added-rows': 5}],"
" 'snapshot-log': []}";

/* text with ' turned into " (\' into '), in an exact-size copy for ASan. */
static char *
json(const char *text, size_t *len)
{
	size_t		n = strlen(text);
	char	   *out = palloc(n + 1);
	size_t		o = 0;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		if (text[i] == '\\' && text[i + 1] == '\'')
		{
			out[o++] = '\\';
			out[o++] = '"';
			i++;
		}
		else
			out[o++] = text[i] == '\'' ? '"' : text[i];
	}
	*len = o;
	return (char *) ut_exact_copy(out, o);
}

/* base with its first "from" replaced by "to"; NULL when from is not in it. */
static char *
with(const char *base, const char *from, const char *to)
{
	const char *at = strstr(base, from);
	size_t		head;
	size_t		tail;
	char	   *out;

	if (at == NULL)
		return NULL;
	/* not psprintf: the shim's is bounded, and some texts are megabytes */
	head = at - base;
	tail = strlen(at + strlen(from));
	out = palloc(head + strlen(to) + tail + 1);
	memcpy(out, base, head);
	memcpy(out + head, to, strlen(to));
	memcpy(out + head + strlen(to), at + strlen(from), tail + 1);
	return out;
}

static bool
parse(const char *text, PqIcebergMetadata *md, const char **why)
{
	size_t		len;
	char	   *bytes = json(text, &len);

	return pq_iceberg_parse_metadata(bytes, len, md, why);
}

/*
 * Whether base with from replaced by to is refused, saying expect without
 * quoting the text; reports what it got when not.
 */
static bool
refused(const char *base, const char *from, const char *to, const char *expect)
{
	char	   *text = with(base, from, to);
	PqIcebergMetadata md;
	const char *why = NULL;

	if (text == NULL)
	{
		fprintf(stderr, "  no \"%s\" in the base text\n", from);
		return false;
	}
	if (parse(text, &md, &why))
	{
		fprintf(stderr, "  accepted: \"%s\" -> \"%s\"\n", from, to);
		return false;
	}
	if (why == NULL || strstr(why, "SECRET") != NULL ||
		(expect != NULL && strcmp(why, expect) != 0))
	{
		fprintf(stderr, "  \"%s\" -> \"%s\": why \"%s\", expected \"%s\"\n",
				from, to, why ? why : "(null)", expect ? expect : "(any)");
		return false;
	}
	/* a refusal leaves nothing to use */
	return md.nschemas == 0 && md.snapshots == NULL && md.root == NULL;
}

static bool
streq(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static void
test_v2(void)
{
	PqIcebergMetadata md;
	const PqIcebergSchema *sc;
	const PqIcebergSpec *sp;
	const PqIcebergSnapshot *s;
	const PqJv *t;
	const char *why;

	CHECK(parse(V2, &md, &why));
	CHECK(why == NULL);
	CHECK_EQ_INT(md.format_version, 2);
	CHECK(streq(md.table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1"));
	CHECK(streq(md.location, "s3://bucket/SECRET/t"));
	CHECK_EQ_INT(md.last_sequence_number, 3);
	CHECK_EQ_INT(md.last_updated_ms, INT64CONST(1700000300000));
	CHECK_EQ_INT(md.current_snapshot_id, INT64CONST(3051729675574597004));
	CHECK_EQ_INT(md.current_schema_id, 1);
	CHECK_EQ_INT(md.nschemas, 2);

	sc = pq_iceberg_schema(&md, 1);
	CHECK(sc != NULL && sc == &md.schemas[1]);
	CHECK(pq_iceberg_schema(&md, 2) == NULL);
	CHECK_EQ_INT(sc->nfields, 5);
	CHECK_EQ_INT(sc->nidentifiers, 1);
	CHECK_EQ_INT(sc->identifier_ids[0], 1);
	CHECK(sc->fields[0].id == 1 && streq(sc->fields[0].name, "id") &&
		  sc->fields[0].required && streq(sc->fields[0].type, "long"));
	/* Appendix C's "decimal(9, 2)" is decimal(9,2) */
	CHECK(streq(sc->fields[1].type, "decimal(9,2)") && !sc->fields[1].required);
	CHECK(streq(sc->fields[2].type, "list"));
	t = sc->fields[2].type_tree;
	CHECK(t->type == PQ_JV_OBJECT);
	CHECK(streq(pq_jv_str(pq_jv_get(t, "element")), "string"));
	CHECK(streq(sc->fields[3].type, "map"));
	t = pq_jv_get(pq_jv_get(sc->fields[3].type_tree, "value"), "fields");
	CHECK(t != NULL && t->len == 1);
	CHECK(streq(pq_jv_str(pq_jv_get(&t->u.items[0], "type")), "fixed[16]"));
	CHECK(streq(sc->fields[4].type, "timestamptz"));
	CHECK(sc->fields[4].type_tree->type == PQ_JV_STRING);
	CHECK(sc->fields[4].initial_default == NULL &&
		  sc->fields[4].write_default == NULL);

	CHECK_EQ_INT(md.default_spec_id, 1);
	CHECK_EQ_INT(md.nspecs, 2);
	sp = pq_iceberg_spec(&md, 1);
	CHECK(sp != NULL && sp->nfields == 2);
	CHECK(pq_iceberg_spec(&md, 0)->nfields == 0);
	CHECK(pq_iceberg_spec(&md, 7) == NULL);
	CHECK(sp->fields[0].source_id == 9 && sp->fields[0].nsource_ids == 1 &&
		  sp->fields[0].source_ids[0] == 9 && sp->fields[0].field_id == 1000 &&
		  streq(sp->fields[0].name, "ts_day") &&
		  streq(sp->fields[0].transform, "day"));
	CHECK(sp->fields[1].field_id == 1001 &&
		  streq(sp->fields[1].transform, "bucket[16]"));

	CHECK_EQ_INT(md.nsnapshots, 3);
	s = pq_iceberg_snapshot(&md, 2000);
	CHECK(s == &md.snapshots[1]);
	CHECK(s->parent_id == 1000 && s->sequence_number == 2 &&
		  s->timestamp_ms == INT64CONST(1700000200000) && s->schema_id == 1 &&
		  streq(s->manifest_list, "s3://bucket/SECRET/snap-2.avro") &&
		  s->nmanifests == 0 && streq(s->operation, "overwrite") &&
		  s->first_row_id == -1 && s->added_rows == -1);
	CHECK(md.snapshots[0].parent_id == -1);
	CHECK(md.snapshots[2].schema_id == -1);
	CHECK(pq_iceberg_snapshot(&md, 1) == NULL);
	CHECK(pq_iceberg_snapshot(&md, -1) == NULL);

	CHECK_EQ_INT(md.nrefs, 2);
	CHECK(streq(md.refs[1].name, "v1") && md.refs[1].is_tag &&
		  md.refs[1].snapshot_id == 1000);
	CHECK(!md.refs[0].is_tag);
	CHECK(pq_iceberg_snapshot_by_ref(&md, "main") == &md.snapshots[2]);
	CHECK(pq_iceberg_snapshot_by_ref(&md, "v1") == &md.snapshots[0]);
	CHECK(pq_iceberg_snapshot_by_ref(&md, "v2") == NULL);

	CHECK_EQ_INT(md.nlog, 3);
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1700000099999)) == NULL);
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1700000100000)) == &md.snapshots[0]);
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1700000250000)) == &md.snapshots[1]);
	CHECK(pq_iceberg_snapshot_as_of(&md, PG_INT64_MAX) == &md.snapshots[2]);

	CHECK_EQ_INT(md.nproperties, 2);
	CHECK(streq(pq_iceberg_property(&md, "owner"), "SECRET"));
	CHECK(streq(pq_iceberg_property(&md, "schema.name-mapping.default"),
				"[{\"field-id\": 1, \"names\": [\"id\"]}]"));
	CHECK(pq_iceberg_property(&md, "absent") == NULL);
	CHECK(md.root != NULL && md.root->type == PQ_JV_OBJECT);
}

static void
test_v1(void)
{
	PqIcebergMetadata md;
	const PqIcebergSpec *sp;
	const char *why;
	char	   *text;

	CHECK(parse(V1, &md, &why));
	CHECK(md.format_version == 1 && md.table_uuid == NULL);
	CHECK_EQ_INT(md.last_sequence_number, 0);
	/* "schema" alone: the current schema, its id 0 */
	CHECK(md.nschemas == 1 && md.current_schema_id == 0 &&
		  md.schemas[0].schema_id == 0 && md.schemas[0].nfields == 3);
	/* "partition-spec" alone: spec 0, ids from 1000 past the highest */
	CHECK(md.nspecs == 1 && md.default_spec_id == 0);
	sp = pq_iceberg_spec(&md, 0);
	CHECK(sp != NULL && sp->nfields == 3);
	CHECK_EQ_INT(sp->fields[0].field_id, 1000);
	CHECK_EQ_INT(sp->fields[1].field_id, 1005);
	CHECK_EQ_INT(sp->fields[2].field_id, 1006);
	CHECK(streq(sp->fields[2].transform, "truncate[10]"));
	/* sequence numbers default to 0; "manifests" instead of a list */
	CHECK(md.snapshots[0].sequence_number == 0 &&
		  md.snapshots[0].manifest_list == NULL &&
		  md.snapshots[0].nmanifests == 2 &&
		  streq(md.snapshots[0].manifests[1], "/w/m2.avro") &&
		  md.snapshots[0].operation == NULL);
	CHECK(streq(md.snapshots[1].manifest_list, "/w/snap-22.avro"));
	/* no refs: "main" is the current snapshot */
	CHECK(md.nrefs == 0);
	CHECK(pq_iceberg_snapshot_by_ref(&md, "main") == &md.snapshots[1]);
	/* no snapshot log: the current snapshot's ancestors */
	CHECK(md.nlog == 0);
	CHECK(pq_iceberg_snapshot_as_of(&md, 0) == NULL);
	CHECK(pq_iceberg_snapshot_as_of(&md, 2) == &md.snapshots[0]);
	CHECK(pq_iceberg_snapshot_as_of(&md, 3) == &md.snapshots[1]);

	/* "schemas" win over "schema" (Impala's files disagree on a name's case) */
	text = with(V1, "'partition-spec'",
				"'current-schema-id': 1, 'schemas': ["
				"{'type': 'struct', 'fields': [{'id': 1, 'name': 'A', 'required': false, 'type': 'int'}]},"
				"{'type': 'struct', 'fields': [{'id': 1, 'name': 'B', 'required': false, 'type': 'int'}]}],"
				"'partition-spec'");
	CHECK(text != NULL && parse(text, &md, &why));
	/* without schema-ids, schemas are numbered by their place */
	CHECK(md.nschemas == 2 && md.current_schema_id == 1);
	CHECK(streq(pq_iceberg_schema(&md, 1)->fields[0].name, "B"));

	/* -1 says "none"; without a current snapshot "main" is none */
	text = with(V1, "'current-snapshot-id': 22", "'current-snapshot-id': -1");
	CHECK(text != NULL && parse(text, &md, &why));
	CHECK(md.current_snapshot_id == -1);
	CHECK(pq_iceberg_snapshot_by_ref(&md, "main") == NULL);
	CHECK(pq_iceberg_snapshot_as_of(&md, 100) == NULL);

	/* neither spec form: one unpartitioned spec 0 */
	text = with(V1, "'partition-spec'", "'ignored'");
	CHECK(text != NULL && parse(text, &md, &why));
	CHECK(md.nspecs == 1 && md.specs[0].nfields == 0);
	/* with both forms, Java reads the manifest list */
	text = with(V1, "'manifests': [", "'manifest-list': 'l', 'manifests': [");
	CHECK(text != NULL && parse(text, &md, &why));
	CHECK(streq(md.snapshots[0].manifest_list, "l") &&
		  md.snapshots[0].nmanifests == 0);
}

static void
test_v3(void)
{
	PqIcebergMetadata md;
	const PqIcebergSchema *sc;
	const PqIcebergPartitionField *pf;
	const char *why;

	CHECK(parse(V3, &md, &why));
	CHECK(md.format_version == 3 && md.current_snapshot_id == -1);
	sc = pq_iceberg_schema(&md, 7);
	CHECK(sc != NULL && sc->nfields == 8);
	CHECK(streq(sc->fields[0].type, "timestamp_ns"));
	CHECK(sc->fields[0].initial_default->type == PQ_JV_STRING);
	CHECK(streq(sc->fields[0].initial_default->u.str,
				"2024-01-15T10:30:45.123456789"));
	CHECK(sc->fields[0].write_default == NULL); /* null: none */
	CHECK(streq(sc->fields[1].type, "timestamptz_ns"));
	CHECK(streq(sc->fields[2].type, "variant"));
	CHECK(streq(sc->fields[3].type, "geometry(srid:4326)"));
	CHECK(streq(sc->fields[4].type, "geography(srid:4269,karney)"));
	CHECK(streq(sc->fields[5].type, "unknown"));
	/* defaults as written: a number keeps its text, past int64 too */
	CHECK(sc->fields[6].initial_default->type == PQ_JV_NUMBER &&
		  streq(sc->fields[6].initial_default->u.str, "-1"));
	CHECK(streq(sc->fields[6].write_default->u.str, "12345678901234567890"));
	CHECK(streq(sc->fields[7].type, "struct") &&
		  sc->fields[7].initial_default->type == PQ_JV_OBJECT);
	/* multi-argument and unknown transforms are kept, to be ignored */
	pf = &pq_iceberg_spec(&md, 0)->fields[0];
	CHECK(pf->source_id == -1 && pf->nsource_ids == 2 &&
		  pf->source_ids[0] == 1 && pf->source_ids[1] == 7 &&
		  streq(pf->transform, "zorder"));
	CHECK(streq(md.specs[0].fields[1].transform, "void"));
	CHECK(md.snapshots[0].first_row_id == 0 && md.snapshots[0].added_rows == 5);
	/* a branch other than main; main is the (absent) current snapshot */
	CHECK(pq_iceberg_snapshot_by_ref(&md, "dev") == &md.snapshots[0]);
	CHECK(pq_iceberg_snapshot_by_ref(&md, "main") == NULL);
	/* an empty log and no current snapshot: nothing to travel to */
	CHECK(pq_iceberg_snapshot_as_of(&md, 100) == NULL);
}

static void
test_types(void)
{
	static const char *const good[][2] = {
		{"boolean", "boolean"}, {"LONG", "long"}, {"Float", "float"},
		{"double", "double"}, {"date", "date"}, {"time", "time"},
		{"timestamp", "timestamp"}, {"string", "string"}, {"uuid", "uuid"},
		{"binary", "binary"}, {"decimal(38,0)", "decimal(38,0)"},
		{"decimal( 5 ,5 )", "decimal(5,5)"}, {"fixed[1]", "fixed[1]"},
		{"geometry", "geometry"}, {"geometry()", "geometry"},
		{"geography", "geography"}, {"geography(srid:4326)", "geography(srid:4326)"},
		{"geography(OGC:CRS84,spherical)", "geography(OGC:CRS84,spherical)"},
	};
	static const char *const bad[] = {
		"", "long ", "integer", "timestamp_ms", "decimal", "decimal(9)",
		"decimal(0,0)", "decimal(39,0)", "decimal(5,6)", "decimal(9,-1)",
		"decimal(9,2)x", "decimal(99999999999,2)", "fixed[0]", "fixed(16)",
		"fixed[16", "fixed[]", "geometry(a,b)", "geometry(a)x",
		"geography(c,flat)", "geography(,spherical)", "geometry((a))",
		"struct", "list",
	};
	PqIcebergMetadata md;
	const char *why;
	int			i;

	for (i = 0; i < (int) lengthof(good); i++)
	{
		char	   *text = with(V3, "'timestamptz_ns'",
								psprintf("'%s'", good[i][0]));

		if (!parse(text, &md, &why) ||
			!streq(md.schemas[0].fields[1].type, good[i][1]))
		{
			fprintf(stderr, "  type \"%s\" not read as \"%s\"\n", good[i][0],
					good[i][1]);
			CHECK(false);
		}
	}
	for (i = 0; i < (int) lengthof(bad); i++)
		CHECK(refused(V3, "'timestamptz_ns'", psprintf("'%s'", bad[i]),
					  "a schema field's type is unknown or malformed"));
}

static void
test_transforms(void)
{
	static const char *const good[][2] = {
		{"identity", "identity"}, {"Bucket[16]", "bucket[16]"},
		{"truncate[2147483647]", "truncate[2147483647]"}, {"year", "year"},
		{"MONTH", "month"}, {"hour", "hour"}, {"day", "day"},
		{"bucket", "bucket"}, {"custom[x]", "custom[x]"},
	};
	static const char *const bad[] = {
		"bucket[0]", "bucket[-1]", "bucket[x]", "truncate[2147483648]",
		"bucket[16]x", "truncate[]",
	};
	PqIcebergMetadata md;
	const char *why;
	int			i;

	for (i = 0; i < (int) lengthof(good); i++)
	{
		char	   *text = with(V2, "'bucket[16]'", psprintf("'%s'", good[i][0]));

		if (!parse(text, &md, &why) ||
			!streq(md.specs[1].fields[1].transform, good[i][1]))
		{
			fprintf(stderr, "  transform \"%s\" not read as \"%s\"\n",
					good[i][0], good[i][1]);
			CHECK(false);
		}
	}
	for (i = 0; i < (int) lengthof(bad); i++)
		CHECK(refused(V2, "'bucket[16]'", psprintf("'%s'", bad[i]),
					  "a partition field's bucket or truncate width is not a positive integer"));
	CHECK(refused(V2, "'bucket[16]'", "''",
				  "a partition field's transform is empty or too long"));
}

/* Every rule of the file, on the v2, v1 and v3 texts. */
static void
test_refusals(void)
{
	static const char *const cases[][4] = {
		/* the file */
		{"V2", "{'format-version'", "[{'format-version'", NULL},
		{"V2", "'metadata-log': []}", "'metadata-log': []}]", NULL},
		{"V2", "'format-version': 2", "'format-version': 4", "format version 4 is not supported"},
		{"V2", "'format-version': 2", "'format-version': 0", "format version 0 is not supported"},
		{"V2", "'format-version': 2", "'format-version': '2'", "the metadata's format-version is not an integer"},
		{"V2", "'format-version': 2", "'format-version': 2.5", "the metadata's format-version is not an integer"},
		{"V2", "'format-version': 2,", "", "the metadata lacks its format-version"},
		{"V2", "'table-uuid': '9c12d441-03fe-4693-9a96-a0705ddf69c1',", "", "the metadata lacks its table-uuid"},
		{"V2", "9c12d441-03fe", "9c12d441x03fe", "the metadata's table-uuid is not a UUID"},
		{"V2", "-a0705ddf69c1'", "-a0705ddf69c'", "the metadata's table-uuid is not a UUID"},
		{"V2", "-a0705ddf69c1'", "-a0705ddf69cg'", "the metadata's table-uuid is not a UUID"},
		{"V2", "'location': 's3://bucket/SECRET/t',", "", "the metadata lacks its location"},
		{"V2", "'location': 's3://bucket/SECRET/t'", "'location': 7", "the metadata's location is not a string"},
		{"V2", "'last-sequence-number': 3,", "", "the metadata lacks its last-sequence-number"},
		{"V2", "'last-sequence-number': 3", "'last-sequence-number': -1", "the metadata's last-sequence-number is out of range"},
		{"V2", "'last-updated-ms': 1700000300000,", "", "the metadata lacks its last-updated-ms"},
		{"V2", "'current-snapshot-id': 3051729675574597004", "'current-snapshot-id': 7", "the current snapshot is not among the snapshots"},
		{"V2", "'current-snapshot-id': 3051729675574597004", "'current-snapshot-id': 9223372036854775808", "the metadata's current-snapshot-id is not an integer"},
		/* schemas */
		{"V2", "'schemas': [", "'schemata': [", "the metadata lacks its schemas"},
		{"V2", "'schemas': [", "'schemas': {}, 'x': [", "the metadata's schemas is not an array"},
		{"V2", "'schemas': [", "'schemas': [], 'old': [", "the metadata's schemas are empty"},
		{"V2", "'current-schema-id': 1,", "", "the metadata lacks its current-schema-id"},
		{"V2", "'current-schema-id': 1,", "'current-schema-id': 2,", "the current schema is not among the schemas"},
		{"V2", "'current-schema-id': 1,", "'current-schema-id': 2147483648,", "the metadata's current-schema-id is out of range"},
		{"V2", "'schema-id': 0,", "'schema-id': 1,", "the metadata gives a schema id twice"},
		{"V2", "'schema-id': 0,", "", "a schema lacks its schema-id"},
		{"V2", "{'type': 'struct', 'schema-id': 0", "{'type': 'list', 'schema-id': 0", "a schema is not a struct type"},
		{"V2", "'schema-id': 0, 'fields': [", "'schema-id': 0, 'felds': [", "a struct type lacks its fields"},
		{"V2", "{'id': 1, 'name': 'id', 'required': true, 'type': 'long'}]}", "7]}", "a schema field is not an object"},
		{"V2", "{'id': 1, 'name': 'id'", "{'name': 'id'", "a schema field lacks its id"},
		{"V2", "{'id': 1, 'name': 'id'", "{'id': -1, 'name': 'id'", "a schema field's id is out of range"},
		{"V2", "{'id': 1, 'name': 'id'", "{'id': 2147483448, 'name': 'id'", "a schema field's id is reserved for metadata columns"},
		{"V2", "{'id': 1, 'name': 'id'", "{'id': 1, 'nam': 'id'", "a schema field lacks its name"},
		{"V2", "{'id': 1, 'name': 'id'", "{'id': 1, 'name': ''", "a schema field's name is empty or too long"},
		{"V2", "'required': true, 'type': 'long'}]", "'required': 1, 'type': 'long'}]", "a schema field's required is not true or false"},
		{"V2", "'required': true, 'type': 'long'}]", "'type': 'long'}]", "a schema field lacks its required"},
		{"V2", "'required': true, 'type': 'long'}]", "'required': true}]", "a schema field lacks its type"},
		{"V2", "'required': true, 'type': 'long'}]", "'required': true, 'type': 5}]", "a schema field's type is neither a string nor an object"},
		{"V2", "'name': 'price'", "'name': 'id'", "a struct type names a field twice"},
		{"V2", "'element-id': 4", "'element-id': 2", "a schema gives a field id twice"},
		{"V2", "'key-id': 6", "'key-id': 8", "a schema gives a field id twice"},
		{"V2", "'element-id': 4,", "", "a list type lacks its element-id"},
		{"V2", "'element-required': true,", "", "a list type lacks its element-required"},
		{"V2", "'element': 'string'", "'elements': 'string'", "a list type lacks its element"},
		{"V2", "'element': 'string'", "'element': 'strong'", "a schema field's type is unknown or malformed"},
		{"V2", "'value-id': 7,", "", "a map type lacks its value-id"},
		{"V2", "'value-required': false,", "", "a map type lacks its value-required"},
		{"V2", "'key': 'string',", "", "a map type lacks its key or value"},
		{"V2", "{'type': 'list',", "{'type': 'set',", "a nested type is not a struct, list or map"},
		{"V2", "{'type': 'list',", "{'typ': 'list',", "a nested type lacks its type"},
		{"V2", "'identifier-field-ids': [1]", "'identifier-field-ids': [10]", "an identifier field is not a field of its schema"},
		{"V2", "'identifier-field-ids': [1]", "'identifier-field-ids': ['1']", "a schema's identifier-field-ids are not field ids"},
		{"V2", "'identifier-field-ids': [1]", "'identifier-field-ids': 1", "a schema's identifier-field-ids is not an array"},
		{"V1", "'schema': {'type': 'struct', 'fields': [", "'schema': {'identifier-field-ids': [1], 'fields': [], 'old': [", "an identifier field is not a field of its schema"},
		/* partition specs */
		{"V2", "'partition-specs': [", "'partition-spec': [", "the metadata lacks its partition-specs"},
		{"V2", "'partition-specs': [", "'partition-specs': [], 'old': [", "the metadata's partition-specs are empty"},
		{"V2", "'default-spec-id': 1,", "", "the metadata lacks its default-spec-id"},
		{"V2", "'default-spec-id': 1,", "'default-spec-id': 2,", "the default partition spec is not among the specs"},
		{"V2", "{'spec-id': 0,", "{'spec-id': 1,", "the metadata gives a partition spec id twice"},
		{"V2", "{'spec-id': 0,", "{", "a partition spec lacks its spec-id"},
		{"V2", "{'spec-id': 0, 'fields': []}", "{'spec-id': 0}", "a partition spec lacks its fields"},
		{"V2", "{'source-id': 9,", "{", "a partition field lacks its source-id"},
		{"V2", "'field-id': 1000,", "", "a partition field lacks its field-id"},
		{"V2", "'field-id': 1000,", "'field-id': 1001,", "a partition spec gives a field id twice"},
		{"V2", "'name': 'ts_day'", "'name': 'id_bucket'", "a partition spec names a field twice"},
		{"V2", "'name': 'ts_day'", "'name': ''", "a partition field's name is empty or too long"},
		{"V2", "'transform': 'day'", "'transform': 1", "a partition field's transform is not a string"},
		{"V3", "'source-ids': [1, 7]", "'source-ids': [1, -7]", "a partition field's source-ids are not field ids"},
		/* snapshots */
		{"V2", "{'snapshot-id': 2000,", "{", "a snapshot lacks its snapshot-id"},
		{"V2", "{'snapshot-id': 2000,", "{'snapshot-id': 1000,", "the metadata gives a snapshot id twice"},
		{"V2", "{'snapshot-id': 2000,", "{'snapshot-id': -1,", "a snapshot's snapshot-id is -1"},
		{"V2", "'sequence-number': 2,", "", "a snapshot lacks its sequence-number"},
		{"V2", "'sequence-number': 2,", "'sequence-number': 4,", "a snapshot's sequence-number is above the last-sequence-number"},
		{"V2", "'timestamp-ms': 1700000200000, 'manifest-list'", "'manifest-list'", "a snapshot lacks its timestamp-ms"},
		{"V2", "'manifest-list': 's3://bucket/SECRET/snap-2.avro',", "", "a snapshot lacks its manifest-list"},
		{"V2", "'manifest-list': 's3://bucket/SECRET/snap-2.avro',", "'manifests': ['m'],", "a snapshot lacks its manifest-list"},
		{"V2", "'summary': {'operation': 'overwrite'},", "", "a snapshot lacks its summary"},
		{"V2", "'summary': {'operation': 'overwrite'},", "'summary': {'op': 'overwrite'},", "a snapshot summary lacks its operation"},
		{"V2", "'snapshots': [", "'snapshots': [7, ", "a snapshot is not an object"},
		{"V2", "'snapshots': [", "'snapshots': 7, 'x': [", "the metadata's snapshots is not an array"},
		{"V1", "{'snapshot-id': 11, 'timestamp-ms': 1, 'manifests': ['/w/m1.avro', '/w/m2.avro']}", "{'snapshot-id': 11, 'timestamp-ms': 1}", "a snapshot lacks its manifest-list"},
		{"V1", "'manifests': ['/w/m1.avro',", "'manifests': [1,", "a snapshot's manifests are not strings"},
		{"V2", "{'timestamp-ms': 1700000200000, 'snapshot-id': 2000}", "{'timestamp-ms': 1700000200000}", "a snapshot-log entry lacks its snapshot-id"},
		{"V2", "{'timestamp-ms': 1700000200000, 'snapshot-id': 2000}", "[]", "a snapshot-log entry is not an object"},
		/* refs */
		{"V2", "'type': 'tag'", "'type': 'label'", "a ref's type is neither branch nor tag"},
		{"V2", "'type': 'tag'", "'kind': 'tag'", "a ref lacks its type"},
		{"V2", "{'snapshot-id': 1000, 'type': 'tag'", "{'snapshot-id': 1001, 'type': 'tag'", "a ref's snapshot is not among the snapshots"},
		{"V2", "'main': {'snapshot-id': 3051729675574597004, 'type': 'branch'}", "'main': {'snapshot-id': 3051729675574597004, 'type': 'tag'}", "the main ref is a tag, not a branch"},
		{"V2", "'main': {'snapshot-id': 3051729675574597004", "'main': {'snapshot-id': 2000", "the main branch is not the current snapshot"},
		{"V3", "'refs': {", "'refs': {'main': {'snapshot-id': 77, 'type': 'branch'}, ", "the main branch is not the current snapshot"},
		{"V2", "'refs': {", "'refs': [], 'x': {", "the metadata's refs is not an object"},
		/* properties */
		{"V2", "'owner': 'SECRET'", "'owner': 5", "a table property's value is not a string"},
		{"V2", "'owner': 'SECRET'", "'owner': null", "a table property's value is not a string"},
		{"V2", "'properties': {", "'properties': ['SECRET'], 'x': {", "the metadata's properties is not an object"},
	};
	int			i;

	for (i = 0; i < (int) lengthof(cases); i++)
	{
		const char *base = cases[i][0][1] == '1' ? V1 :
			cases[i][0][1] == '2' ? V2 : V3;

		if (!refused(base, cases[i][1], cases[i][2], cases[i][3]))
		{
			fprintf(stderr, "  refusal case %d\n", i);
			CHECK(false);
		}
	}
	/* malformed JSON: the parser's reason (a byte position, no text) */
	CHECK(refused(V2, "'SECRET'}", "'SECRET'", NULL));
}

/* Nested types to 64 levels, not 65; counts to a million, not more. */
static void
test_bounds(void)
{
	StringInfoData buf;
	PqIcebergMetadata md;
	const char *why;
	int			depth;

	for (depth = 64; depth <= 65; depth++)
	{
		char	   *type = "'int'";
		int			i;

		for (i = 0; i < depth; i++)
			type = psprintf("{'type': 'list', 'element-id': %d, "
							"'element-required': false, 'element': %s}",
							100 + i, type);
		if (depth == 64)
			CHECK(parse(with(V3, "'timestamptz_ns'", type), &md, &why));
		else
			CHECK(refused(V3, "'timestamptz_ns'", type,
						  "types are nested deeper than 64 levels"));
	}
	initStringInfo(&buf);
	appendStringInfoString(&buf, "'snapshots': [");
	for (depth = 0; depth <= PQ_ICEBERG_MAX_COUNT; depth++)
		appendStringInfoString(&buf, "0,");
	appendStringInfoString(&buf, "0], 'x': [");
	CHECK(refused(V2, "'snapshots': [", buf.data,
				  "the metadata's snapshots holds more than a million values"));
}

/* Time travel through the log, with expired snapshots; parent loops. */
static void
test_as_of(void)
{
	PqIcebergMetadata md;
	const char *why;
	char	   *text;

	/* the log names snapshot 500, since expired: its time is unknown */
	text = with(V2, "'snapshot-log': [",
				"'snapshot-log': [{'timestamp-ms': 1600000000000, 'snapshot-id': 500},");
	CHECK(text != NULL && parse(text, &md, &why));
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1600000000000)) == NULL);
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1700000100000)) == &md.snapshots[0]);

	/* without the log, ancestors; a parent loop ends */
	text = with(V2, "'snapshot-log'", "'snapshot-lag'");
	text = with(text, "{'snapshot-id': 1000,",
				"{'snapshot-id': 1000, 'parent-snapshot-id': 3051729675574597004,");
	CHECK(text != NULL && parse(text, &md, &why));
	CHECK(md.nlog == 0);
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1700000200001)) == &md.snapshots[1]);
	CHECK(pq_iceberg_snapshot_as_of(&md, INT64CONST(1000)) == NULL);
	/* a tag's snapshot is found by its name, not in time travel */
	CHECK(pq_iceberg_snapshot_by_ref(&md, "v1") == &md.snapshots[0]);
}

void
suite_iceberg_metadata(void)
{
	ut_run("iceberg_metadata: a v2 file, every member and lookup", test_v2);
	ut_run("iceberg_metadata: v1 files as Appendix E reads them", test_v1);
	ut_run("iceberg_metadata: v3 types, defaults, transforms, row lineage", test_v3);
	ut_run("iceberg_metadata: primitive types canonical or refused", test_types);
	ut_run("iceberg_metadata: partition transforms", test_transforms);
	ut_run("iceberg_metadata: every rule refused, saying why", test_refusals);
	ut_run("iceberg_metadata: nesting and counts bounded", test_bounds);
	ut_run("iceberg_metadata: time travel, expired snapshots", test_as_of);
}
