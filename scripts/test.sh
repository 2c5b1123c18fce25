#!/usr/bin/env bash
# The whole test suite (what CI runs through .ci/run), as root on Debian 12:
#
#   setup        scripts/setup.sh: apt dependencies, make && make install, npm ci
#   meta         META.json against the PGXN Meta Spec v1 JSON Schemas
#                (test/pgxn/check_meta.mjs, Ajv) and the control file
#   reference    docs/reference.md against the code: every option, COPY
#                option, setting, SQL function and EXPLAIN field the code has
#                is in it, and it names none the code lacks
#                (test/docs/check_reference.mjs)
#   unit         make unittest: format-layer unit tests (ASan + UBSan binary)
#   fuzz         scripts/fuzz.sh 15: every libFuzzer target of test/fuzz/
#                (reproducers, then 15 s of fuzzing each; FUZZ_SECONDS)
#   writer       files from the format-layer writer checked with DuckDB/arrow-rs
#   delta_checkpoints  Delta checkpoints as JSON lines
#                (test/unit/delta_checkpoint_cli) vs DuckDB's reading
#   iceberg_metadata, iceberg_manifests  Iceberg metadata files and Avro
#                manifests (test/unit/iceberg_*_cli) vs JSON.parse and avsc
#   variant      VARIANT to JSON (test/unit/variant_cli) vs an independent JS
#                decoder and the corpus's variant/ and shredded_variant/ values
#   sigv4        request signatures (test/unit/sigv4_cli) vs AWS's published
#                SigV4 test suite and the AWS SDK's signer
#   http         the HTTP transport (test/unit/http_cli) against a
#                fault-injecting object server on loopback, HTTP and HTTPS
#   s3           the S3 client (test/unit/store_cli) against s3rver behind a
#                front that checks every SigV4 signature with the AWS SDK's
#                signer
#   azure        the Azure Blob client (test/unit/store_cli) against azurite,
#                which checks every Shared Key signature
#   credentials  the AWS credential chain (test/unit/creds_cli) against fake
#                IMDSv2, container-credential and STS services on loopback,
#                with files and environments of the test's own
#   fixtures     test/js/gen_fixtures.mjs -> /tmp/parquet_fdw_test/fixtures
#                (+ test/fixtures.md formula table is up to date)
#   regress      pg_regress --temp-instance (as postgres) with test/schedule
#   postgis      pg_regress with test/schedule_postgis (PostGIS geometry and
#                geography); needs PostGIS: a failure under CI=true without
#                it, elsewhere reported as NOT RUN
#   copy         the files COPY ... TO ... (FORMAT parquet) wrote in the
#                regression run, read by DuckDB and compared with their CSV
#   copy_faults  COPY TO cancelled, failing mid-way, into a read-only
#                directory, onto a full tmpfs, racing another COPY: never a
#                partial target or a stray temporary file
#   soak         one minute of mutated files read through SQL (metadata,
#                schema, IMPORT, SELECT, COPY FROM): no backend may die or hang
#   upgrade      CREATE EXTENSION parquet_fdw VERSION '0.1' (the first
#                release), foreign tables and keys, ALTER EXTENSION UPDATE:
#                tables read, keys decrypt, objects equal a fresh install's
#   scale_out    3 parquet_fdw data nodes under a postgres_fdw coordinator
#                (partitioned table, async foreign scans, partitionwise
#                aggregates): aggregates, GROUP BY, filters, joins, COPY TO
#                equal one parquet_fdw table's and a heap table's; the plans
#                push the aggregates to every node
#   scale_out_bucket  the same with every node reading its share of one
#                S3 bucket (s3rver) instead of files of its own
#   formulas     every PostgreSQL formula of test/fixtures.md == DuckDB's value
#   conformance  parquet-testing corpus (../shared/testdata/parquet-testing or
#                $PARQUET_TESTING_DIR) through parquet_fdw vs DuckDB/arrow-rs/*_expect.csv
#                (conformance_parallel: forced parallel plans; conformance_s3:
#                every file read through an s3:// URL from s3rver)
#   interop_cases  files real writers produced (Impala's test data in
#                ../shared/testdata/interop-cases or $INTEROP_CASES_DIR): an
#                old parquet-mr's chunk sizes, 100-level nesting, chunk
#                metadata that disagrees with the pages (XX001), INT96 values
#                without a date; vs the README, DuckDB and hyparquet
#   pruning      corpus files with statistics/page index/bloom filters: every
#                pruning kind on gives the same rows as all of them off
#   nested_pruning  struct fields and list elements of a DuckDB file prune
#                row groups (statistics, Bloom filters; EXPLAIN counters),
#                same rows as DuckDB with pruning on and off; written by
#                our COPY TO, a heap table's rows and page index pruning
#   geo_pruning  GEOMETRY files of DuckDB and hyparquet-writer prune row
#                groups by GeospatialStatistics box (EXPLAIN counter):
#                parquet_fdw.bbox_intersects vs boxes computed in JS; with
#                PostGIS (else NOT RUN, a failure under CI=true) &&,
#                ST_Intersects/Contains/Within/DWithin vs a heap table;
#                same rows with pruning on and off; GEOGRAPHY never prunes;
#                GeoParquet 1.1 bbox coverings (DuckDB, hyparquet-writer):
#                X and Y for a projected CRS, Y only for CRS84/unknown (a
#                row box wrapping the antimeridian), none for spherical
#                edges or a malformed covering; counter vs JS
#   variant_pruning  jsonb key paths of a DuckDB and a hyparquet-writer file
#                (shredded VARIANT fields, structs read as jsonb) prune row
#                groups and pages (EXPLAIN counters), never a row group whose
#                residual holds the key; same rows as DuckDB/JS, pruning on/off
#   sorted_corpus  option sorted against the corpus file with sorting_columns:
#                contradicting declarations fail naming them
#   variant_shredded  every shredded_variant/ case read through parquet_fdw
#                as jsonb vs the independent JS decoding of its .variant.bin
#   encryption   COPY TO encrypted Parquet in every mode checked by the
#                independent verifier (lib/pme.mjs) and legacy readers,
#                tampered files -> XX001, no key material in logs or output
#   key-tools    files of parquet-java's key tools (KMS key material: single/
#                double wrapping, internal/external storage, per-column or
#                uniform, either footer) made from COPY TO files by
#                lib/key_tools.mjs, read back with master keys only; bad
#                material, wrong or ungranted master keys fail cleanly
#   kms          COPY TO with kms_footer_key/kms_column_keys in every key
#                material combination, unwrapped and verified in Node; the
#                kms_command interface (test KMS script): wrap, unwrap, KEK
#                cache, failures, timeout, cancel, grants, no key in logs
#   datasets     hive trees DuckDB wrote (partition columns, pruning at plan
#                and run time, parallel), filename/row-number columns,
#                union_by_name, IMPORT of datasets: rows equal DuckDB's
#   delta        Delta Lake tables (../shared's golden tables, read in place):
#                rows equal their expected/ files as DuckDB reads them;
#                the tables a reader must refuse give clean ERRORs
#   delta_s3     the same tables uploaded to s3rver (behind the SigV4-checking
#                front): rows, refusals, time travel, absolute URLs, one
#                listing of _delta_log/ per statement
#   delta_kernel the kernel-data tables (type widening, deletion vectors,
#                partitions, column mapping, void and geospatial columns)
#                against a replay of their log and files in JS (hyparquet,
#                roaring)
#   delta_generated  Delta tables written from a heap table (COPY TO files,
#                a JS-written log with statistics, deletion vectors of every
#                kind, a DuckDB-written checkpoint), read at every version,
#                serial and parallel: rows equal the heap's; bad logs refused
#   iceberg_generated  Iceberg tables (v2 and v3) written from heap tables
#                (COPY TO and field-id files, JS-written manifests, position
#                and equality deletes, deletion vectors in Puffin files,
#                schema evolution, location_map), checked on their own (avsc,
#                a reference reading, icebird), then read by snapshot id,
#                timestamp, as_of and ref, serial and parallel: rows equal
#                the heap's; file pruning by manifest bounds; bad metadata
#                refused
#   iceberg_s3   the same generated tables with s3://lake/gen/<table> paths,
#                uploaded to s3rver (behind the SigV4-checking front) and read
#                through it: the same comparisons; a metadata.json location,
#                location_map from local paths into the bucket, requests per
#                statement (a cached snapshot reads no manifest again), a
#                commit between a parallel plan's leader and its workers
#   iceberg      Iceberg tables (../shared's Impala test tables, read in place):
#                Impala's read queries (iceberg-*.test) translated to SQL, rows
#                equal its RESULTS; SELECT * at every snapshot equal icebird's
#                rows; tables with ORC/Avro data files refused (0A000)
#   object_store foreign tables over s3:// (s3rver behind a SigV4-checking
#                front), http:// and https:// (faults, a test CA): files,
#                prefixes, globs, hive, parallel, aggregates, IMPORT, COPY
#                FROM, per-role user mappings, secrets absent: rows equal the
#                local files and DuckDB
#   object_write COPY TO s3:// and az:// (multipart uploads, blocks): every
#                option family byte-equal to the local file and read by
#                DuckDB/arrow-rs; encryption verified independently; datasets
#                in a prefix; faults, cancel, terminate, SIGKILL +
#                abort_uploads(); who may write
#   copy_datasets  COPY TO a directory (partition_by, file_size_bytes,
#                row_groups_per_file, max_open_files, existing targets,
#                failures) read back by DuckDB against the heap table; folder
#                names against Hive's escaping and DuckDB's own PARTITION_BY
#   hardening    what another OS user can plant: links under COPY's
#                temporary names, as overwrite targets and inside trees,
#                links to partitions and link loops in walked trees, FIFOs
#                named *.parquet; 70,000 directories within the listing
#                cache's budget; prepared statements and PL/pgSQL over a
#                directory whose files change after planning
#   soak_concurrency  SOAK_CONCURRENCY_SECONDS (60) of sessions scanning a
#                hive dataset and a file (generic plans, parallel plans)
#                while others COPY TO them with overwrite, add and remove
#                files, and cancel each other: whole files or clean
#                ERRORs only, no temporary file left, nothing else touched
#   docs         every fenced sql block of README.md and docs/*.md run in
#                order per page over the tour's sample files: no ERROR but
#                the SQLSTATE a block names (test/js/check_docs.mjs)
#   interop      the generated fixtures through parquet_fdw vs DuckDB/arrow-rs
#                (interop_parallel, interop_s3 as for conformance)
#   pme-corpus   the independent encryption verifier (test/js/lib/pme.mjs)
#                on the corpus's encrypted files
#   deb          scripts/build-deb.sh from `make dist`'s archive; each
#                package dpkg -i'd, CREATE EXTENSION on a fresh cluster, a
#                query vs DuckDB, dpkg --purge leaves none of its files, the
#                make install files put back (test/packages/deb.sh); runs last
#
# Each stage prints "<stage>: N passed, N failed"; a stage that cannot run at
# all counts as one failure. Before the summary the tested server's version()
# is printed; the last line is the total "N passed, N failed"; the exit
# status is non-zero if anything failed.
#
# PG_MAJOR=17|18 tests against scripts/pg-build.sh's build of that major
# (built first when its cache is empty; the extension is installed into it).
# Without PG_MAJOR it is Debian 12's PostgreSQL 15 (or $PG_CONFIG). A major
# that cannot be had is an error (exit 2), never a fall-back to 15.
# TEST_ONLY="regress copy ..." runs only the stages named (setup and fixtures
# always run); .ci/run uses it for 17 and 18.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$(pwd)

if [ -n "${PG_MAJOR:-}" ]; then
	if ! PG_CONFIG=$(bash scripts/pg-build.sh "$PG_MAJOR"); then
		echo "test: PostgreSQL $PG_MAJOR is not available (scripts/pg-build.sh $PG_MAJOR failed, see above): nothing tested" >&2
		exit 2
	fi
	if ! "$PG_CONFIG" --version | grep -Eq "^PostgreSQL $PG_MAJOR([.]|beta|rc)"; then
		echo "test: $PG_CONFIG reports '$("$PG_CONFIG" --version)', not PostgreSQL $PG_MAJOR: nothing tested" >&2
		exit 2
	fi
fi
# setup.sh, cluster.sh, fuzz.sh and the stage scripts build and run with it
export PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PG_MAJOR_TESTED=$("$PG_CONFIG" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
TEST_ONLY=${TEST_ONLY:-}

# want STAGE: the stage is to run (TEST_ONLY empty, or it names the stage)
want() {
	[ -z "$TEST_ONLY" ] || [[ " $TEST_ONLY " == *" $1 "* ]]
}
FIXTURES=/tmp/parquet_fdw_test/fixtures # fixed: expected outputs name these paths
LOGDIR=$(mktemp -d /tmp/parquet_fdw_testlog.XXXXXX)
export PGFDW_NO_TRAP=1
# shellcheck source=scripts/cluster.sh
source "$REPO/scripts/cluster.sh"

REGRESS_DIR=
CORPUS_COPY=
cleanup() {
	pgfdw_cluster_stop >/dev/null 2>&1 || true
	[ -n "$REGRESS_DIR" ] && rm -rf "$REGRESS_DIR"
	[ -n "$CORPUS_COPY" ] && rm -rf "$CORPUS_COPY"
	[ -n "${AWS_TEST_DIR:-}" ] && rm -rf "$AWS_TEST_DIR"
	rm -rf "$LOGDIR"
}
trap cleanup EXIT

TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY=()

banner() { printf '\n========== %s ==========\n' "$1"; }

# record STAGE PASSED FAILED [NOTE]
record() {
	TOTAL_PASSED=$((TOTAL_PASSED + $2))
	TOTAL_FAILED=$((TOTAL_FAILED + $3))
	SUMMARY+=("$(printf '%-12s %5d passed, %5d failed%s' "$1" "$2" "$3" "${4:+  ($4)}")")
	echo "$1: $2 passed, $3 failed${4:+ ($4)}"
}

# Stage that could not run at all: one failure.
could_not_run() {
	record "$1" 0 1 "COULD NOT RUN: $2"
}

# parse_counts STAGE LOGFILE PREFIX: read the last "PREFIX: N passed, N failed".
parse_counts() {
	local line
	line=$(grep -E "^$3: [0-9]+ passed, [0-9]+ failed" "$2" | tail -n 1 || true)
	if [ -z "$line" ]; then
		return 1
	fi
	PARSED_PASSED=$(sed -E 's/^[^:]+: ([0-9]+) passed.*/\1/' <<<"$line")
	PARSED_FAILED=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
}

# regress_counts LOGFILE: pg_regress's tests passed (ok) and failed (bad), in
# 15's "test x ... ok" lines or the TAP lines ("ok 3 - x", "not ok 4 - y")
# pg_regress prints from 16 on
regress_counts() {
	ok=$(grep -cE '^\s*(test\s+)?\S+\s+\.\.\.\s+(ok|failed \(ignored\))|^ok [0-9]+\s' "$1" || true)
	bad=$(grep -cE '^\s*(test\s+)?\S+\s+\.\.\.\s+FAILED|^not ok [0-9]+\s' "$1" || true)
}

# run_script_stage STAGE COMMAND...: a stage whose command prints its own
# "STAGE: N passed, N failed" line.
run_script_stage() {
	local stage=$1 rc
	shift
	want "$stage" || return 0
	banner "$stage"
	if [ $SETUP_OK != 1 ]; then
		could_not_run "$stage" "setup failed"
		return
	fi
	set +e
	"$@" 2>&1 | tee "$LOGDIR/$stage.log"
	rc=${PIPESTATUS[0]}
	set -e
	if parse_counts "$stage" "$LOGDIR/$stage.log" "$stage"; then
		[ "$rc" != 0 ] && [ "$PARSED_FAILED" = 0 ] && PARSED_FAILED=1
		record "$stage" "$PARSED_PASSED" "$PARSED_FAILED"
	else
		could_not_run "$stage" "$* exited $rc without a summary line"
	fi
}

# ---------------------------------------------------------------- setup
banner setup
SETUP_OK=1
if ! bash scripts/setup.sh 2>&1 | tee "$LOGDIR/setup.log"; then
	SETUP_OK=0
	could_not_run setup "scripts/setup.sh failed (see above)"
fi

# --------------------------------------------------------------- layout
# The tree's rules (docs/ARCHITECTURE.md): includes run one way between the
# folders, no circle between files (nm on the objects setup built), every
# file named and its job said at its top, none over 1,000 lines.
run_script_stage layout node test/layout/check_layout.mjs

# -------------------------------------------------------------- format
# PostgreSQL's formatting (pgindent's options, pg_bsd_indent) of every C
# file, and typedefs.list as the built tree makes it.
run_script_stage format bash scripts/pgindent.sh --check

# ----------------------------------------------------------------- meta
# PGXN: META.json against pgxn/meta's v1 JSON Schemas, and the control file.
run_script_stage meta bash -c 'cd test/pgxn && npm ci --no-audit --no-fund --loglevel=error >/dev/null && node check_meta.mjs'

# ------------------------------------------------------------ reference
# docs/reference.md against the option tables, validators, GUCs, the install
# script's functions and the EXPLAIN labels of the code.
run_script_stage reference node test/docs/check_reference.mjs

# ----------------------------------------------------------------- unit
if want unit; then
	banner unit
	if [ $SETUP_OK = 1 ]; then
		set +e
		make unittest PG_CONFIG="$PG_CONFIG" 2>&1 | tee "$LOGDIR/unit.log"
		rc=${PIPESTATUS[0]}
		set -e
		if parse_counts unit "$LOGDIR/unit.log" unit; then
			[ "$rc" != 0 ] && [ "$PARSED_FAILED" = 0 ] && PARSED_FAILED=1 # crashed after its summary
			record unit "$PARSED_PASSED" "$PARSED_FAILED"
		else
			could_not_run unit "make unittest exited $rc without a 'unit: N passed, N failed' line"
		fi
	else
		could_not_run unit "setup failed"
	fi
fi

# --------------------------------------------------------------- fuzz
# The libFuzzer targets (test/fuzz/, docs/FUZZING.md): kept reproducers,
# then 15 seconds of fuzzing each; a crash fails the stage.
run_script_stage fuzz bash scripts/fuzz.sh "${FUZZ_SECONDS:-15}"

# ------------------------------------------------------------- writer
# The format-layer writer: files written by test/unit/writer_cli, read back
# and checked by DuckDB, arrow-rs and a raw Thrift walk (check_writer.mjs).
if want writer; then
	banner writer
	if [ $SETUP_OK = 1 ]; then
		WRITER_DIR=$(mktemp -d /tmp/parquet_fdw_writer.XXXXXX)
		set +e
		{ make writer_cli PG_CONFIG="$PG_CONFIG" && test/unit/writer_cli "$WRITER_DIR" >/dev/null &&
			node test/js/check_writer.mjs "$WRITER_DIR"; } 2>&1 | tee "$LOGDIR/writer.log"
		rc=${PIPESTATUS[0]}
		set -e
		rm -rf "$WRITER_DIR"
		if parse_counts writer "$LOGDIR/writer.log" writer; then
			[ "$rc" != 0 ] && [ "$PARSED_FAILED" = 0 ] && PARSED_FAILED=1
			record writer "$PARSED_PASSED" "$PARSED_FAILED"
		else
			could_not_run writer "writer_cli/check_writer.mjs exited $rc without a summary line"
		fi
	else
		could_not_run writer "setup failed"
	fi
fi

# ------------------------------------------------------------- sigv4
# The SigV4 signer of the object-store transport: test/unit/sigv4_cli against
# AWS's published test suite and @smithy/signature-v4 (check_sigv4.mjs).
run_script_stage sigv4 bash -c "make -s sigv4_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_sigv4.mjs"

# ------------------------------------------------------------- http
# The HTTP transport: test/unit/http_cli against lib/fault_server.mjs
# (ranges, retries, faults, cancel, link-local refusal, TLS; check_http.mjs).
run_script_stage http bash -c "make -s http_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_http.mjs"

# ------------------------------------------------------------- s3
# The S3 client: test/unit/store_cli against s3rver behind lib/sigv4_front.mjs
# (HEAD, ranges, listings over pages, credentials; check_s3.mjs).
run_script_stage s3 bash -c "make -s store_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_s3.mjs"

# ------------------------------------------------------------- azure
# The Azure Blob client: test/unit/store_cli against azurite (properties,
# ranges, listings over pages, keys; check_azure.mjs).
run_script_stage azure bash -c "make -s store_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_azure.mjs"

# ------------------------------------------------------------- credentials
# The AWS credential chain: test/unit/creds_cli in environments made from
# nothing, against fake IMDSv2, container-credential and STS services
# (precedence, profiles, malformed files and answers, no secret in any
# message; check_credentials.mjs).
run_script_stage credentials bash -c "make -s creds_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_credentials.mjs"

# ---------------------------------------------------- delta_checkpoints
# Delta checkpoints (test/unit/delta_checkpoint_cli's JSON lines) against
# DuckDB's reading of the same Parquet files (../shared's Delta tables).
run_script_stage delta_checkpoints bash -c "make -s delta_checkpoint_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_delta_checkpoints.mjs"

# --------------------------------------------- iceberg_metadata, _manifests
# Iceberg metadata files and Avro manifests (../shared's Impala tables) as
# the table layer reads them, against JSON.parse and avsc's readings.
run_script_stage iceberg_metadata bash -c "make -s iceberg_metadata_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_iceberg_metadata.mjs"
run_script_stage iceberg_manifests bash -c "make -s iceberg_manifest_cli PG_CONFIG=\"\$PG_CONFIG\" && node test/js/check_iceberg_manifests.mjs"

# ------------------------------------------------------------- variant
# The VARIANT decoder: test/unit/variant_cli's JSON against an independent
# JS decoder and the corpus's documented values (check_variant.mjs).
if want variant; then
	banner variant
	if [ $SETUP_OK = 1 ]; then
		set +e
		{ make variant_cli PG_CONFIG="$PG_CONFIG" && node test/js/check_variant.mjs; } 2>&1 | tee "$LOGDIR/variant.log"
		rc=${PIPESTATUS[0]}
		set -e
		if parse_counts variant "$LOGDIR/variant.log" variant; then
			[ "$rc" != 0 ] && [ "$PARSED_FAILED" = 0 ] && PARSED_FAILED=1
			record variant "$PARSED_PASSED" "$PARSED_FAILED"
		else
			could_not_run variant "variant_cli/check_variant.mjs exited $rc without a summary line"
		fi
	else
		could_not_run variant "setup failed"
	fi
fi

# ------------------------------------------------------------- fixtures
banner fixtures
FIXTURES_OK=0
if [ $SETUP_OK = 1 ]; then
	mkdir -p "$(dirname "$FIXTURES")"
	chmod 755 "$(dirname "$FIXTURES")"
	if node test/js/gen_fixtures.mjs "$FIXTURES" 2>&1 | tee "$LOGDIR/fixtures.log"; then
		FIXTURES_OK=1
		# The formula table in test/fixtures.md must match lib/types_table.mjs.
		node test/js/gen_fixtures.mjs --doc >"$LOGDIR/doc_table.md"
		sed -n '/<!-- BEGIN types table -->/,/<!-- END types table -->/p' test/fixtures.md |
			sed '1d;$d' >"$LOGDIR/doc_in_md.md"
		if diff -u "$LOGDIR/doc_in_md.md" "$LOGDIR/doc_table.md"; then
			record fixtures 1 0 "generated; test/fixtures.md table up to date"
		else
			record fixtures 0 1 "test/fixtures.md types table differs from 'node test/js/gen_fixtures.mjs --doc'"
		fi
		if ! runuser -u postgres -- test -r "$FIXTURES/manifest.json"; then
			echo "fixtures: $FIXTURES is not readable by the postgres user" >&2
			record fixtures-perm 0 1 "fixtures not readable by postgres"
		fi
	else
		could_not_run fixtures "gen_fixtures.mjs failed"
	fi
else
	could_not_run fixtures "setup failed"
fi

# -------------------------------------------------------------- regress
# COPY TO parquet files of the regression run land here (outside the
# temp instance) for the copy stage to check with DuckDB.
COPY_OUT=/tmp/parquet_fdw_test/out
mkdir -p "$COPY_OUT" && chmod 777 "$COPY_OUT"
find "$COPY_OUT" -mindepth 1 -delete
# The Delta tables the delta test writes (as the server's user).
DELTA_DIR=/tmp/parquet_fdw_test/delta
rm -rf "$DELTA_DIR" && mkdir -p "$DELTA_DIR" && chmod 777 "$DELTA_DIR"
# The Iceberg tables the iceberg_generated stage writes (as the server's user too).
ICEBERG_DIR=/tmp/parquet_fdw_test/iceberg
rm -rf "$ICEBERG_DIR" && mkdir -p "$ICEBERG_DIR" && chmod 777 "$ICEBERG_DIR"
# The key store of the encryption test (parquet_fdw.key_directory): the
# server's user owns it, nobody else may enter it.
KEY_DIR=/tmp/parquet_fdw_test/keys
rm -rf "$KEY_DIR" && mkdir -p "$KEY_DIR" && chown postgres:postgres "$KEY_DIR" && chmod 700 "$KEY_DIR"

if want regress; then
	banner regress
	if [ $SETUP_OK = 1 ] && [ $FIXTURES_OK = 1 ] && [ -f test/schedule ]; then
		REGRESS_DIR=$(mktemp -d /tmp/parquet_fdw_regress.XXXXXX)
		# pg_regress runs as postgres (PostgreSQL refuses root): give it a copy of
		# the inputs in a directory it owns, wherever the repository lives.
		mkdir -p "$REGRESS_DIR/in/test"
		for d in sql expected input output data; do
			[ -d "$d" ] && cp -r "$d" "$REGRESS_DIR/in/"
		done
		cp test/schedule "$REGRESS_DIR/in/test/schedule"
		{
			echo "# scripts/test.sh"
			echo "fsync = off"
			[ -f test/regress.conf ] && cat test/regress.conf
		} >"$REGRESS_DIR/temp.conf"
		chown -R postgres:postgres "$REGRESS_DIR"
		PGXS_DIR=$(dirname "$("$PG_CONFIG" --pgxs)")
		PG_REGRESS="$PGXS_DIR/../test/regress/pg_regress"
		set +e
		pgfdw_as_postgres "$PG_REGRESS" \
			--temp-instance="$REGRESS_DIR/instance" \
			--bindir="$("$PG_CONFIG" --bindir)" \
			--inputdir="$REGRESS_DIR/in" \
			--outputdir="$REGRESS_DIR/out" \
			--schedule="$REGRESS_DIR/in/test/schedule" \
			--temp-config="$REGRESS_DIR/temp.conf" \
			--encoding=UTF8 --no-locale 2>&1 | tee "$LOGDIR/regress.log"
		rc=${PIPESTATUS[0]}
		set -e
		regress_counts "$LOGDIR/regress.log"
		if [ "$rc" = 2 ] || [ $((ok + bad)) = 0 ]; then
			could_not_run regress "pg_regress exited $rc, ran no test"
		else
			[ "$rc" != 0 ] && [ "$bad" = 0 ] && bad=1
			record regress "$ok" "$bad"
		fi
		# REGRESS_RESULTS=dir keeps pg_regress's results there (to review an
		# intended change of output against the expected files)
		if [ -n "${REGRESS_RESULTS:-}" ] && [ -d "$REGRESS_DIR/out/results" ]; then
			rm -rf "$REGRESS_RESULTS" && cp -r "$REGRESS_DIR/out/results" "$REGRESS_RESULTS"
		fi
		if [ -s "$REGRESS_DIR/out/regression.diffs" ]; then
			echo "---- regression.diffs (first 300 lines) ----"
			head -n 300 "$REGRESS_DIR/out/regression.diffs"
		fi
	elif [ ! -f test/schedule ]; then
		could_not_run regress "test/schedule is missing"
	else
		could_not_run regress "setup or fixtures failed"
	fi
fi

# -------------------------------------------------------------- postgis
if want postgis; then
	banner postgis
	if [ ! -f "$("$PG_CONFIG" --sharedir)/extension/postgis.control" ]; then
		if [ "$PG_MAJOR_TESTED" != 15 ]; then
			# Debian 12 packages PostGIS only for its own PostgreSQL 15
			echo "!!!!!!!! postgis: no PostGIS for PostgreSQL $PG_MAJOR_TESTED here: the PostGIS tests did NOT RUN !!!!!!!!"
			record postgis 0 0 "NOT RUN: Debian 12 has no PostGIS for PostgreSQL $PG_MAJOR_TESTED"
		elif [ "${CI:-}" = true ]; then
			could_not_run postgis "PostGIS is not installed (scripts/setup.sh installs postgresql-15-postgis-3)"
		else
			echo "!!!!!!!! postgis: PostGIS is not installed: the PostGIS tests did NOT RUN !!!!!!!!"
			record postgis 0 0 "NOT RUN: PostGIS not installed"
		fi
	elif [ $SETUP_OK = 1 ] && [ $FIXTURES_OK = 1 ]; then
		POSTGIS_DIR=$(mktemp -d /tmp/parquet_fdw_postgis.XXXXXX)
		mkdir -p "$POSTGIS_DIR/in/test"
		cp -r sql expected "$POSTGIS_DIR/in/"
		cp test/schedule_postgis "$POSTGIS_DIR/in/test/schedule"
		{
			echo "fsync = off"
			[ -f test/regress.conf ] && cat test/regress.conf
		} >"$POSTGIS_DIR/temp.conf"
		chown -R postgres:postgres "$POSTGIS_DIR"
		set +e
		pgfdw_as_postgres "$(dirname "$("$PG_CONFIG" --pgxs)")/../test/regress/pg_regress" \
			--temp-instance="$POSTGIS_DIR/instance" --bindir="$("$PG_CONFIG" --bindir)" \
			--inputdir="$POSTGIS_DIR/in" --outputdir="$POSTGIS_DIR/out" \
			--schedule="$POSTGIS_DIR/in/test/schedule" --temp-config="$POSTGIS_DIR/temp.conf" \
			--encoding=UTF8 --no-locale 2>&1 | tee "$LOGDIR/postgis.log"
		rc=${PIPESTATUS[0]}
		set -e
		regress_counts "$LOGDIR/postgis.log"
		if [ "$rc" = 2 ] || [ $((ok + bad)) = 0 ]; then
			could_not_run postgis "pg_regress exited $rc, ran no test"
		else
			[ "$rc" != 0 ] && [ "$bad" = 0 ] && bad=1
			record postgis "$ok" "$bad"
		fi
		if [ -s "$POSTGIS_DIR/out/regression.diffs" ]; then
			head -n 200 "$POSTGIS_DIR/out/regression.diffs"
		fi
		rm -rf "$POSTGIS_DIR"
	else
		could_not_run postgis "setup or fixtures failed"
	fi
fi

# ------------------------------------------------------------- copy
if want copy; then
	banner copy
	if [ $SETUP_OK = 1 ] && [ -f "$COPY_OUT/copy_all.csv" ]; then
		set +e
		node test/js/check_copy.mjs "$COPY_OUT" 2>&1 | tee "$LOGDIR/copy.log"
		set -e
		if parse_counts copy "$LOGDIR/copy.log" copy; then
			record copy "$PARSED_PASSED" "$PARSED_FAILED"
		else
			could_not_run copy "check_copy.mjs printed no counts"
		fi
	else
		could_not_run copy "the regression run wrote no COPY files"
	fi
fi

# ---------------------------------------------------------- copy_faults
# COPY TO cancelled, failing, into a read-only directory, onto a full disk
# (a tmpfs it mounts) and racing another COPY (test/faults/copy_faults.sh).
run_script_stage copy_faults bash test/faults/copy_faults.sh

# ----------------------------------------------------------------- soak
# Mutants of the corpus, the fixtures and files COPY TO writes, read through
# SQL for a minute with a fixed seed (test/soak/soak.sh; the long run is
# the same command with more minutes).
run_script_stage soak bash test/soak/soak.sh "${SOAK_MINUTES:-1}" 20261124

# -------------------------------------------------------------- upgrade
# From 0.1, the first release, to the current version over existing foreign
# tables and keys; the updated catalog equals a fresh install's
# (test/upgrade/upgrade.sh, test/upgrade/catalog.sql).
run_script_stage upgrade bash test/upgrade/upgrade.sh

# ------------------------------------------------------------ scale_out
# Data nodes and a coordinator as scripts/scale-out-demo.sh builds them
# (scripts/scale_out_cluster.sh), checked by test/js/check_scale_out.mjs.
run_script_stage scale_out bash test/scale_out/scale_out.sh 3
run_script_stage scale_out_bucket bash test/scale_out/scale_out.sh 3 --bucket

# --------------------------------- formulas, conformance, interop (one cluster)
# The server reads the corpus in place. If a private parent directory keeps
# the postgres user out, read a temporary copy instead (never in the repo).
CORPUS=${PARQUET_TESTING_DIR:-$REPO/../shared/testdata/parquet-testing}
if [ -d "$CORPUS/data" ] && ! pgfdw_as_postgres test -r "$CORPUS/data/alltypes_plain.parquet"; then
	echo "!!!!!!!! corpus $CORPUS is not readable by the postgres user; using a temporary copy in /tmp !!!!!!!!"
	CORPUS_COPY=$(mktemp -d /tmp/parquet_fdw_corpus.XXXXXX)
	cp -r "$CORPUS/data" "$CORPUS/bad_data" "$CORPUS/variant" "$CORPUS/shredded_variant" "$CORPUS_COPY/"
	chmod -R a+rX "$CORPUS_COPY"
	export PARQUET_TESTING_DIR=$CORPUS_COPY
fi

CLUSTER_STAGES=(formulas conformance conformance_parallel conformance_s3 interop_cases pruning nested_pruning
	geo_pruning variant_pruning sorted_corpus variant_shredded encryption key-tools
	kms datasets delta delta_s3 delta_generated iceberg_generated iceberg_s3 delta_kernel iceberg object_store object_write copy_datasets hardening soak_concurrency differential docs interop
	interop_parallel interop_s3)
CLUSTER_OK=0
# The server the stages ran against, printed before the summary: the cluster
# starts even when TEST_ONLY names none of its stages, to ask it.
SERVER_VERSION="no server (the cluster did not start)"
# The cluster's own AWS credentials, for object_store's credential chain
# tests: keys in its environment, a profile in a credentials file the stage
# writes, no instance metadata; only this server process sees them.
AWS_TEST_DIR=$(mktemp -d /tmp/parquet_fdw_aws.XXXXXX)
chmod 755 "$AWS_TEST_DIR"
unset AWS_SESSION_TOKEN AWS_PROFILE
if [ $SETUP_OK = 1 ]; then
	banner cluster
	if AWS_ACCESS_KEY_ID=AKIACHAINENV000001 AWS_SECRET_ACCESS_KEY='chain/env+Secret=1' \
		AWS_SHARED_CREDENTIALS_FILE=$AWS_TEST_DIR/credentials AWS_CONFIG_FILE=$AWS_TEST_DIR/config \
		AWS_EC2_METADATA_DISABLED=true pgfdw_cluster_start; then
		CLUSTER_OK=1
		SERVER_VERSION=$("$("$PG_CONFIG" --bindir)/psql" -X -A -t -c 'SELECT version()' 2>&1 || true)
	fi
fi

run_js_stage() { # STAGE SCRIPT ARGS...
	local stage=$1 script=$2 rc
	shift 2
	want "$stage" || return 0
	banner "$stage"
	set +e
	node "test/js/$script" "$@" 2>&1 | tee "$LOGDIR/$stage.log"
	rc=${PIPESTATUS[0]}
	set -e
	if parse_counts "$stage" "$LOGDIR/$stage.log" "$stage"; then
		if [ "$rc" != 0 ] && [ "$PARSED_FAILED" = 0 ]; then
			if [ "$PARSED_PASSED" = 0 ]; then
				could_not_run "$stage" "nothing ran (exit $rc)"
				return
			fi
			PARSED_FAILED=1
		fi
		record "$stage" "$PARSED_PASSED" "$PARSED_FAILED"
	else
		could_not_run "$stage" "$script exited $rc without a summary line"
	fi
}

if [ $CLUSTER_OK = 1 ]; then
	run_js_stage formulas compare.mjs formulas
	run_js_stage conformance compare.mjs conformance
	# the same files through parallel plans (forced): same rows as DuckDB's
	run_js_stage conformance_parallel compare.mjs conformance --parallel
	# the same files read through s3:// URLs (s3rver): same rows as DuckDB's
	run_js_stage conformance_s3 compare.mjs conformance --s3
	run_js_stage interop_cases check_interop_cases.mjs
	run_js_stage pruning check_pruning.mjs
	run_js_stage nested_pruning check_nested_pruning.mjs
	run_js_stage geo_pruning check_geo_pruning.mjs
	run_js_stage variant_pruning check_variant_pruning.mjs
	run_js_stage sorted_corpus check_sorted.mjs
	run_js_stage variant_shredded check_variant.mjs --shredded
	run_js_stage encryption check_encryption.mjs --log "$PGFDW_CLUSTER_DIR/server.log"
	run_js_stage key-tools check_key_tools.mjs --log "$PGFDW_CLUSTER_DIR/server.log"
	run_js_stage kms check_kms.mjs --log "$PGFDW_CLUSTER_DIR/server.log"
	run_js_stage datasets check_datasets.mjs
	# Delta Lake tables (../shared's golden tables): rows equal to expected/
	run_js_stage delta check_delta.mjs
	# the same tables in a bucket (s3rver behind a SigV4-checking front)
	run_js_stage delta_s3 check_delta.mjs --s3
	# Delta tables generated from a heap table (deletion vectors, versions,
	# checkpoints, parallel plans): rows equal the heap's
	run_js_stage delta_generated check_delta_generated.mjs
	# Iceberg tables generated from heap tables (position and equality
	# deletes, deletion vectors, snapshots, schema evolution): rows equal the heap's
	run_js_stage iceberg_generated check_iceberg_generated.mjs
	# the same tables in a bucket (s3rver behind a SigV4-checking front)
	run_js_stage iceberg_s3 check_iceberg_generated.mjs --s3
	# ../shared's kernel-data tables against their log and files read in JS
	run_js_stage delta_kernel check_delta_kernel.mjs
	# Impala's Iceberg tables: its expected results, and icebird's rows
	run_js_stage iceberg check_iceberg.mjs
	run_js_stage object_store check_object_store.mjs --log "$PGFDW_CLUSTER_DIR/server.log" --aws-dir "$AWS_TEST_DIR"
	run_js_stage object_write check_object_write.mjs
	run_js_stage copy_datasets check_copy_datasets.mjs
	run_js_stage hardening check_hardening.mjs
	run_js_stage soak_concurrency soak_concurrency.mjs "${SOAK_CONCURRENCY_SECONDS:-60}"
	# random aggregate queries, heap table against foreign tables (grouped
	# scans); the full run (--queries 10000) is reported with issue 16
	run_js_stage differential differential.mjs --queries "${DIFFERENTIAL_QUERIES:-300}"
	# every fenced sql block of README.md and docs/, in order per page, over
	# the tour's sample files (scripts/tour-data.sh)
	run_js_stage docs check_docs.mjs
	if [ $FIXTURES_OK = 1 ]; then
		run_js_stage interop compare.mjs interop --dir "$FIXTURES"
		run_js_stage interop_parallel compare.mjs interop --dir "$FIXTURES" --parallel
		run_js_stage interop_s3 compare.mjs interop --dir "$FIXTURES" --s3
	else
		want interop && could_not_run interop "fixtures failed"
		want interop_parallel && could_not_run interop_parallel "fixtures failed"
		want interop_s3 && could_not_run interop_s3 "fixtures failed"
	fi
	if grep -qE 'PANIC|server process .* was terminated by signal' "$PGFDW_CLUSTER_DIR/server.log"; then
		echo "---- server log: crashes ----"
		grep -E -B2 -A5 'PANIC|terminated by signal' "$PGFDW_CLUSTER_DIR/server.log" | head -n 100
	fi
	pgfdw_cluster_stop
else
	reason="setup failed"
	[ $SETUP_OK = 1 ] && reason="could not start a PostgreSQL cluster"
	for st in "${CLUSTER_STAGES[@]}"; do
		want "$st" && could_not_run "$st" "$reason"
	done
fi

# The independent Parquet Modular Encryption verifier (Node crypto, no
# project code) proves itself on the corpus's encrypted files.
if [ $SETUP_OK = 1 ]; then
	run_js_stage pme-corpus check_pme_corpus.mjs
elif want pme-corpus; then
	could_not_run pme-corpus "setup failed"
fi

# ------------------------------------------------------------------ deb
# The Debian packages, installed into the system and purged again.  Last:
# dpkg -i replaces the files `make install` put in the PostgreSQL
# directories and --purge deletes them; test/packages/deb.sh puts them back
# and checks them byte for byte, but running after every other stage means
# no stage can run against the package's build instead of the checkout's.
run_script_stage deb bash test/packages/deb.sh

banner summary
echo "server: $SERVER_VERSION"
printf '%s\n' "${SUMMARY[@]}"
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" = 0 ] && [ "$TOTAL_PASSED" -gt 0 ]
