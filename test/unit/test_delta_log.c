/*
 * test_delta_log.c
 *		Delta Lake log replay (src/table/delta/): the reconciliation rules
 *		of PROTOCOL.md ("Action Reconciliation") on hand-written logs, the
 *		protocol and column mapping checks, schemaString fields, path
 *		decoding and _delta_log file names.  The expected snapshots are
 *		written out from the protocol's text, not produced by the code.
 */
#include "postgres.h"

#include "table/delta/delta_log.h"
#include "unit_test.h"

#define PROTO "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n"
#define META(parts) "{\"metaData\":{\"id\":\"t\",\"format\":{\"provider\":\"parquet\",\"options\":{}}," \
	"\"schemaString\":\"{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}\"," \
	"\"partitionColumns\":" parts ",\"configuration\":{}}}\n"
#define ADD(p) "{\"add\":{\"path\":\"" p "\",\"partitionValues\":{},\"size\":10,\"modificationTime\":1,\"dataChange\":true}}\n"
#define REMOVE(p) "{\"remove\":{\"path\":\"" p "\",\"deletionTimestamp\":2,\"dataChange\":true}}\n"
#define DV(id) ",\"deletionVector\":{\"storageType\":\"u\",\"pathOrInlineDv\":\"" id "\",\"offset\":1,\"sizeInBytes\":34,\"cardinality\":1}"
#define ADD_DV(p, id) "{\"add\":{\"path\":\"" p "\",\"partitionValues\":{},\"size\":10,\"modificationTime\":1,\"dataChange\":true" DV(id) "}}\n"
#define REMOVE_DV(p, id) "{\"remove\":{\"path\":\"" p "\",\"dataChange\":true" DV(id) "}}\n"

/* Replay the commits (versions 0, 1, ...) into s; false with why on a refusal. */
static bool
replay(const char *const *commits, int n, PqDeltaSnapshot *s, const char **why,
	   int64 *line)
{
	PqDeltaReplay *r = pq_delta_replay_create();
	int			i;

	*why = NULL;
	for (i = 0; i < n; i++)
		if (!pq_delta_replay_add(r, i, commits[i], strlen(commits[i]), line,
								 why))
			return false;
	return pq_delta_replay_finish(r, s, why);
}

static bool
has_file(const PqDeltaSnapshot *s, const char *path, bool with_dv)
{
	int			i;

	for (i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i].path, path) == 0 && s->files[i].has_dv == with_dv)
			return true;
	return false;
}

static void
test_reconcile(void)
{
	const char *log[] = {
		PROTO META("[]") ADD("a.parquet") ADD("b.parquet"),
		REMOVE("a.parquet") ADD("c.parquet"),
		/* b gets a deletion vector: its old file goes, the new one comes */
		REMOVE("b.parquet") ADD_DV("b.parquet", "vvvvvvvvvvvvvvvvvvv1"),
		/* re-added after its removal: live again */
		ADD("a.parquet"),
	};
	PqDeltaSnapshot s;
	const char *why;
	int64		line;

	CHECK(replay(log, 4, &s, &why, &line));
	CHECK_EQ_INT(s.version, 3);
	CHECK_EQ_INT(s.nfiles, 3);
	CHECK(strcmp(s.files[0].path, "a.parquet") == 0);	/* sorted by path */
	CHECK(strcmp(s.files[1].path, "b.parquet") == 0);
	CHECK(strcmp(s.files[2].path, "c.parquet") == 0);
	CHECK(has_file(&s, "b.parquet", true));
	CHECK_EQ_INT(s.files[0].version, 3);
	CHECK(s.files[1].dv.storage_type == 'u');
	CHECK_EQ_INT(s.files[1].dv.offset, 1);
	CHECK_EQ_INT(s.files[1].dv.cardinality, 1);

	/* a second update replaces the vector: (path, vector) is the file */
	{
		const char *log2[] = {
			PROTO META("[]") ADD_DV("x.parquet", "vvvvvvvvvvvvvvvvvvv1"),
			REMOVE_DV("x.parquet", "vvvvvvvvvvvvvvvvvvv1") ADD_DV("x.parquet", "vvvvvvvvvvvvvvvvvvv2"),
		};

		CHECK(replay(log2, 2, &s, &why, &line));
		CHECK_EQ_INT(s.nfiles, 1);
		CHECK(strcmp(s.files[0].dv.path_or_inline, "vvvvvvvvvvvvvvvvvvv2") == 0);
	}
	/* removed in the same commit that added it, after the add */
	{
		const char *log3[] = {PROTO META("[]") ADD("y.parquet") REMOVE("y.parquet")};

		CHECK(replay(log3, 1, &s, &why, &line));
		CHECK_EQ_INT(s.nfiles, 0);
	}
}

static void
test_latest_metadata(void)
{
	const char *log[] = {
		PROTO META("[]") ADD("p=1/a.parquet"),
		"{\"commitInfo\":{\"timestamp\":1700000000000}}\n"
		"{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\",\"columnMapping\"]}}\n"
		META("[\"p\"]"),
	};
	PqDeltaSnapshot s;
	const char *why;
	int64		line;

	CHECK(replay(log, 2, &s, &why, &line));
	CHECK_EQ_INT(s.protocol.min_reader, 3);
	CHECK_EQ_INT(s.protocol.nfeatures, 2);
	CHECK_EQ_INT(s.metadata.npartition, 1);
	CHECK(strcmp(s.metadata.partition[0], "p") == 0);
	CHECK_EQ_INT(s.timestamp, 1700000000000);
	CHECK(pq_delta_unsupported(&s.protocol) == NULL);
	CHECK(strcmp(s.metadata.provider, "parquet") == 0);
}

static void
test_refusals(void)
{
	PqDeltaSnapshot s;
	const char *why;
	int64		line;

	{
		const char *log[] = {META("[]") ADD("a.parquet")};

		CHECK(!replay(log, 1, &s, &why, &line));
		CHECK(strcmp(why, "the log has no protocol action") == 0);
	}
	{
		const char *log[] = {PROTO ADD("a.parquet")};

		CHECK(!replay(log, 1, &s, &why, &line));
		CHECK(strcmp(why, "the log has no metaData action") == 0);
	}
	{
		/* the third line is cut short: its number is told */
		const char *log[] = {PROTO META("[]") "{\"add\":{\"path\":\"a\""};

		CHECK(!replay(log, 1, &s, &why, &line));
		CHECK_EQ_INT(line, 3);
	}
	{
		const char *log[] = {PROTO META("[]") "{\"add\":{\"path\":\"a\",\"size\":-1}}\n"};

		CHECK(!replay(log, 1, &s, &why, &line));
		CHECK(strcmp(why, "an add action's size is negative") == 0);
	}
	{
		const char *log[] = {PROTO META("[]") "{\"add\":{\"path\":\"a\",\"size\":1,\"deletionVector\":{\"storageType\":\"z\",\"pathOrInlineDv\":\"x\",\"sizeInBytes\":1,\"cardinality\":1}}}\n"};

		CHECK(!replay(log, 1, &s, &why, &line));
		CHECK(strcmp(why, "a deletion vector's storageType is not u, i or p") == 0);
	}
	{
		const char *log[] = {PROTO META("[]") "[1,2]\n"};

		CHECK(!replay(log, 1, &s, &why, &line));
		CHECK(strcmp(why, "a line is not a JSON object") == 0);
	}
	/* versions must not go backwards */
	{
		PqDeltaReplay *r = pq_delta_replay_create();

		CHECK(pq_delta_replay_add(r, 5, PROTO, strlen(PROTO), &line, &why));
		CHECK(!pq_delta_replay_add(r, 4, PROTO, strlen(PROTO), &line, &why));
	}
}

static void
test_protocol(void)
{
	char	   *f1[] = {"deletionVectors", "columnMapping", "timestampNtz"};
	char	   *f2[] = {"deletionVectors", "variantType"};
	PqDeltaProtocol p = {1, 2, 0, NULL};

	CHECK(pq_delta_unsupported(&p) == NULL);
	p.min_reader = 2;
	CHECK(pq_delta_unsupported(&p) == NULL);
	p.min_reader = 4;
	CHECK(strcmp(pq_delta_unsupported(&p), "reader version 4") == 0);
	p.min_reader = 3;
	p.nfeatures = 3;
	p.features = f1;
	CHECK(pq_delta_unsupported(&p) == NULL);
	p.nfeatures = 2;
	p.features = f2;
	CHECK(strcmp(pq_delta_unsupported(&p), "reader feature \"variantType\"") == 0);
}

static void
test_schema(void)
{
	PqDeltaSchema sc;
	PqDeltaMetadata md;
	PqDeltaMapping mode;
	char	   *keys[] = {"delta.columnMapping.mode"};
	char	   *name[] = {"name"};
	char	   *bad[] = {"uuid"};
	const char *why;

	CHECK(pq_delta_parse_schema("{\"type\":\"struct\",\"fields\":["
								"{\"name\":\"a\",\"type\":\"long\",\"nullable\":false,\"metadata\":{\"delta.columnMapping.id\":1,\"delta.columnMapping.physicalName\":\"col-1\"}},"
								"{\"name\":\"s\",\"type\":{\"type\":\"struct\",\"fields\":[]},\"nullable\":true,\"metadata\":{}},"
								"{\"name\":\"d\",\"type\":\"decimal(10,2)\",\"nullable\":true,\"metadata\":{}}]}",
								&sc, &why));
	CHECK_EQ_INT(sc.nfields, 3);
	CHECK(strcmp(sc.fields[0].physical, "col-1") == 0);
	CHECK_EQ_INT(sc.fields[0].id, 1);
	CHECK(!sc.fields[0].nullable);
	CHECK(strcmp(sc.fields[1].type, "struct") == 0);
	CHECK(strcmp(sc.fields[2].type, "decimal(10,2)") == 0);
	CHECK(sc.fields[2].physical == NULL);

	memset(&md, 0, sizeof(md));
	CHECK(pq_delta_mapping(&md, &mode, &why) && mode == PQ_DELTA_MAPPING_NONE);
	CHECK(strcmp(pq_delta_physical_name(&sc.fields[0], mode), "a") == 0);
	md.nconfig = 1;
	md.config_keys = keys;
	md.config_values = name;
	CHECK(pq_delta_mapping(&md, &mode, &why) && mode == PQ_DELTA_MAPPING_NAME);
	CHECK(strcmp(pq_delta_physical_name(&sc.fields[0], mode), "col-1") == 0);
	CHECK(strcmp(pq_delta_physical_name(&sc.fields[2], mode), "d") == 0);
	md.config_values = bad;
	CHECK(!pq_delta_mapping(&md, &mode, &why));

	CHECK(!pq_delta_parse_schema("{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"},{\"name\":\"a\",\"type\":\"int\"}]}",
								 &sc, &why));
	CHECK(!pq_delta_parse_schema("{\"type\":\"array\"}", &sc, &why));
	CHECK(!pq_delta_parse_schema("{\"type\":\"struct\",\"fields\":[{\"type\":\"long\"}]}", &sc, &why));
}

static void
test_names(void)
{
	int64		v;
	int			part,
				parts;

	CHECK(strcmp(pq_delta_decode_path("a%20b%3Dc/d%25e.parquet"), "a b=c/d%e.parquet") == 0);
	CHECK(strcmp(pq_delta_decode_path("plain"), "plain") == 0);
	CHECK(pq_delta_decode_path("bad%2") == NULL);
	CHECK(pq_delta_decode_path("bad%zz") == NULL);
	CHECK(pq_delta_decode_path("nul%00") == NULL);

	CHECK(pq_delta_log_file("00000000000000000012.json", &v, &part, &parts) == PQ_DELTA_LOG_COMMIT);
	CHECK_EQ_INT(v, 12);
	CHECK(pq_delta_log_file("00000000000000000010.checkpoint.parquet", &v, &part, &parts) == PQ_DELTA_LOG_CHECKPOINT);
	CHECK_EQ_INT(v, 10);
	CHECK(pq_delta_log_file("00000000000000000010.checkpoint.0000000002.0000000003.parquet", &v, &part, &parts) == PQ_DELTA_LOG_CHECKPOINT_PART);
	CHECK_EQ_INT(part, 2);
	CHECK_EQ_INT(parts, 3);
	CHECK(pq_delta_log_file("00000000000000000010.checkpoint.0000000004.0000000003.parquet", &v, &part, &parts) == PQ_DELTA_LOG_OTHER);
	CHECK(pq_delta_log_file("00000000000000000002.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json", &v, &part, &parts) == PQ_DELTA_LOG_CHECKPOINT_V2_JSON);
	CHECK(pq_delta_log_file("00000000000000000002.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.parquet", &v, &part, &parts) == PQ_DELTA_LOG_CHECKPOINT_V2_PARQUET);
	CHECK(pq_delta_log_file("_last_checkpoint", &v, &part, &parts) == PQ_DELTA_LOG_OTHER);
	CHECK(pq_delta_log_file("0000000000000000001.json", &v, &part, &parts) == PQ_DELTA_LOG_OTHER);
	CHECK(pq_delta_log_file("00000000000000000001.crc", &v, &part, &parts) == PQ_DELTA_LOG_OTHER);
	CHECK(pq_delta_log_file("99999999999999999999.json", &v, &part, &parts) == PQ_DELTA_LOG_OTHER);
}

void
suite_delta_log(void)
{
	ut_run("delta_log: adds and removes reconciled by path and deletion vector", test_reconcile);
	ut_run("delta_log: the newest protocol and metadata win", test_latest_metadata);
	ut_run("delta_log: logs without protocol or metadata, bad lines refused", test_refusals);
	ut_run("delta_log: reader versions and features", test_protocol);
	ut_run("delta_log: schemaString fields, column mapping modes", test_schema);
	ut_run("delta_log: paths decoded, _delta_log file names", test_names);
}
