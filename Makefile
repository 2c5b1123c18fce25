# parquet_fdw: PGXS build.
#
#   make && make install        build and install the extension
#   make unittest               format-layer unit tests (ASan + UBSan)
#   scripts/test.sh             everything CI runs (see README.md)
#   make dist                   PGXN release archive of HEAD (META.json)

MODULE_big = parquet_fdw
EXTENSION = parquet_fdw
DATA = $(wildcard sql/parquet_fdw--*.sql)
PGFILEDESC = "parquet_fdw - foreign data wrapper and COPY for Apache Parquet"

# src/format/<job>/, src/table/<job>/, src/io/<job>/ and src/fdw/<job>/
# (docs/ARCHITECTURE.md)
FORMAT_SRCS = $(sort $(wildcard src/format/*/*.c))
TABLE_SRCS = $(sort $(wildcard src/table/*/*.c))
FDW_SRCS = $(sort $(wildcard src/fdw/*.c src/fdw/*/*.c))
IO_SRCS = $(sort $(wildcard src/io/*/*.c))
FORMAT_HDRS = $(wildcard src/format/*/*.h) $(wildcard src/table/*/*.h)
FDW_HDRS = $(wildcard src/fdw/*/*.h)
IO_HDRS = $(wildcard src/io/*/*.h)
OBJS = $(FORMAT_SRCS:.c=.o) $(TABLE_SRCS:.c=.o) $(IO_SRCS:.c=.o) $(FDW_SRCS:.c=.o)

REGRESS_SCHEDULE = test/schedule

# Warnings are errors: the build must stay clean under PGXS's flags.
WERROR ?= 1
ifeq ($(WERROR),1)
PG_CFLAGS += -Werror
endif
# created_by of the files COPY TO writes: the extension's version
EXT_VERSION = $(shell sed -n "s/^default_version = '\(.*\)'$$/\1/p" $(srcdir)/parquet_fdw.control)
PG_CPPFLAGS = -I$(srcdir)/src -DPQFDW_VERSION='"$(EXT_VERSION)"'

SHLIB_LINK = -lz -lsnappy -lzstd -llz4 -lbrotlienc -lbrotlidec -lxxhash -lcrypto -lcurl -lroaring -lavro

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# One checkout builds against several majors (scripts/pg-build.sh): the stamp
# names the PostgreSQL of the last build and changes with it, so that nothing
# compiled against another major's headers is linked.
PG_BUILD_STAMP = .pg_build_stamp
PG_BUILD_ID := $(PG_CONFIG) $(shell $(PG_CONFIG) --version)
ifneq ($(PG_BUILD_ID),$(shell cat $(PG_BUILD_STAMP) 2>/dev/null))
$(shell echo '$(PG_BUILD_ID)' >$(PG_BUILD_STAMP))
endif

# PGXS tracks no header dependencies: rebuild everything when a header changes.
$(OBJS): $(FORMAT_HDRS) $(IO_HDRS) $(FDW_HDRS) $(PG_BUILD_STAMP)

# ---- format-layer unit tests: standalone binary with sanitizers ----
UNIT_FORMAT_SRCS = $(filter-out src/format/read/chunk_fetch.c src/format/read/column_reader.c src/format/read/dictionary_reader.c src/format/read/file_reader.c,$(FORMAT_SRCS))
# the transport's parts that need no network: URLs, signing, answers, files
UNIT_IO_SRCS = src/io/common/url.c src/io/common/xml_scan.c src/io/common/listing.c \
	src/io/common/json_scan.c src/io/common/ini.c src/io/common/utf8.c \
	src/io/aws/sigv4.c src/io/aws/credential_answers.c \
	src/io/aws/s3_list.c src/io/azure/blob_list.c src/io/http/response.c
# the readers a Delta checkpoint is read with (src/table/delta/checkpoint.c),
# from memory: they link against the shim alone
UNIT_READ_SRCS = src/format/read/column_reader.c \
	src/format/read/dictionary_reader.c src/format/read/file_reader.c
UNIT_SRCS = $(UNIT_FORMAT_SRCS) $(UNIT_READ_SRCS) $(TABLE_SRCS) $(UNIT_IO_SRCS) $(filter-out test/unit/writer_cli.c test/unit/variant_cli.c test/unit/sigv4_cli.c test/unit/http_cli.c test/unit/store_cli.c test/unit/creds_cli.c test/unit/delta_checkpoint_cli.c test/unit/iceberg_metadata_cli.c test/unit/iceberg_manifest_cli.c,$(sort $(wildcard test/unit/*.c)))
UNIT_BIN = test/unit/unit_tests
PG_INCLUDEDIR_SERVER := $(shell $(PG_CONFIG) --includedir-server)
UNIT_CFLAGS = -std=gnu99 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -Wall -Werror -Wno-unused-function \
	-I src -I test/unit -I $(PG_INCLUDEDIR_SERVER)
# libpgcommon.a/libpgport.a: in pkglibdir on Debian, in libdir in a source install
PG_STATIC_LIBDIR := $(firstword $(foreach d,$(shell $(PG_CONFIG) --pkglibdir) \
	$(shell $(PG_CONFIG) --libdir),$(if $(wildcard $(d)/libpgcommon.a),$(d))))
UNIT_LIBS = $(PG_STATIC_LIBDIR)/libpgcommon.a \
	$(PG_STATIC_LIBDIR)/libpgport.a $(SHLIB_LINK) -lm

$(UNIT_BIN): $(UNIT_SRCS) $(FORMAT_HDRS) $(IO_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -o $@ $(UNIT_SRCS) $(UNIT_LIBS)

unittest: $(UNIT_BIN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./$(UNIT_BIN)

# ---- writer_cli DIR: files for test/js/check_writer.mjs (same shim) ----
WRITER_CLI = test/unit/writer_cli

$(WRITER_CLI): $(UNIT_FORMAT_SRCS) test/unit/shim.c test/unit/writer_cli.c \
		$(FORMAT_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/writer_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(UNIT_FORMAT_SRCS) test/unit/writer_cli.c \
		test/unit/writer_cli_shim.o $(UNIT_LIBS)

writer_cli: $(WRITER_CLI)

# ---- variant_cli: VARIANT JSON for test/js/check_variant.mjs (same shim) ----
VARIANT_CLI = test/unit/variant_cli

$(VARIANT_CLI): $(UNIT_FORMAT_SRCS) test/unit/shim.c test/unit/variant_cli.c \
		$(FORMAT_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/variant_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(UNIT_FORMAT_SRCS) test/unit/variant_cli.c \
		test/unit/variant_cli_shim.o $(UNIT_LIBS)

variant_cli: $(VARIANT_CLI)

# ---- delta_checkpoint_cli: checkpoint JSON for check_delta_checkpoints.mjs ----
DELTA_CHECKPOINT_CLI = test/unit/delta_checkpoint_cli

$(DELTA_CHECKPOINT_CLI): $(UNIT_FORMAT_SRCS) $(UNIT_READ_SRCS) $(TABLE_SRCS) \
		test/unit/shim.c test/unit/delta_checkpoint_cli.c \
		$(FORMAT_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/delta_checkpoint_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(UNIT_FORMAT_SRCS) $(UNIT_READ_SRCS) \
		$(TABLE_SRCS) test/unit/delta_checkpoint_cli.c \
		test/unit/delta_checkpoint_cli_shim.o $(UNIT_LIBS)

delta_checkpoint_cli: $(DELTA_CHECKPOINT_CLI)

# ---- iceberg_manifest_cli: manifests as JSON for check_iceberg_manifests.mjs ----
ICEBERG_MANIFEST_CLI = test/unit/iceberg_manifest_cli
ICEBERG_MANIFEST_SRCS = src/table/common/json_tree.c src/format/json/validate.c \
	$(wildcard src/table/iceberg/avro_*.c) src/table/iceberg/manifest.c

$(ICEBERG_MANIFEST_CLI): $(ICEBERG_MANIFEST_SRCS) test/unit/shim.c \
		test/unit/iceberg_manifest_cli.c $(FORMAT_HDRS) test/unit/unit_test.h \
		$(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/iceberg_manifest_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(ICEBERG_MANIFEST_SRCS) \
		test/unit/iceberg_manifest_cli.c \
		test/unit/iceberg_manifest_cli_shim.o $(UNIT_LIBS)

iceberg_manifest_cli: $(ICEBERG_MANIFEST_CLI)

# ---- iceberg_metadata_cli: metadata JSON for check_iceberg_metadata.mjs ----
ICEBERG_METADATA_CLI = test/unit/iceberg_metadata_cli
ICEBERG_METADATA_SRCS = src/table/common/json_tree.c src/format/json/validate.c \
	$(wildcard src/table/iceberg/metadata*.c)

$(ICEBERG_METADATA_CLI): $(ICEBERG_METADATA_SRCS) test/unit/shim.c \
		test/unit/iceberg_metadata_cli.c $(FORMAT_HDRS) test/unit/unit_test.h \
		$(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/iceberg_metadata_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(ICEBERG_METADATA_SRCS) \
		test/unit/iceberg_metadata_cli.c \
		test/unit/iceberg_metadata_cli_shim.o $(UNIT_LIBS)

iceberg_metadata_cli: $(ICEBERG_METADATA_CLI)

# ---- sigv4_cli: request signatures for test/js/check_sigv4.mjs (same shim) ----
SIGV4_CLI = test/unit/sigv4_cli

$(SIGV4_CLI): src/io/aws/sigv4.c src/io/common/url.c src/io/http/response.c test/unit/shim.c test/unit/sigv4_cli.c \
		$(IO_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/sigv4_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ src/io/aws/sigv4.c src/io/common/url.c src/io/http/response.c test/unit/sigv4_cli.c \
		test/unit/sigv4_cli_shim.o $(UNIT_LIBS)

sigv4_cli: $(SIGV4_CLI)

# ---- http_cli: the HTTP transport for test/js/check_http.mjs (same shim) ----
HTTP_CLI = test/unit/http_cli

$(HTTP_CLI): $(IO_SRCS) test/unit/shim.c test/unit/http_cli.c \
		$(IO_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/http_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(IO_SRCS) test/unit/http_cli.c \
		test/unit/http_cli_shim.o $(UNIT_LIBS)

http_cli: $(HTTP_CLI)

# ---- store_cli: object-store requests for check_s3.mjs, check_azure.mjs ----
STORE_CLI = test/unit/store_cli

$(STORE_CLI): $(IO_SRCS) test/unit/shim.c test/unit/store_cli.c \
		$(IO_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/store_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(IO_SRCS) test/unit/store_cli.c \
		test/unit/store_cli_shim.o $(UNIT_LIBS)

store_cli: $(STORE_CLI)

# ---- creds_cli: the AWS credential chain for check_credentials.mjs ----
CREDS_CLI = test/unit/creds_cli

$(CREDS_CLI): $(IO_SRCS) test/unit/shim.c test/unit/creds_cli.c \
		$(IO_HDRS) test/unit/unit_test.h $(PG_BUILD_STAMP)
	$(CC) $(UNIT_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' \
		-c -o test/unit/creds_cli_shim.o test/unit/shim.c
	$(CC) $(UNIT_CFLAGS) -o $@ $(IO_SRCS) test/unit/creds_cli.c \
		test/unit/creds_cli_shim.o $(UNIT_LIBS)

creds_cli: $(CREDS_CLI)

.PHONY: unittest writer_cli variant_cli delta_checkpoint_cli iceberg_metadata_cli iceberg_manifest_cli sigv4_cli http_cli store_cli creds_cli
EXTRA_CLEAN = $(UNIT_BIN) $(WRITER_CLI) test/unit/writer_cli_shim.o \
	$(VARIANT_CLI) test/unit/variant_cli_shim.o \
	$(DELTA_CHECKPOINT_CLI) test/unit/delta_checkpoint_cli_shim.o \
	$(ICEBERG_MANIFEST_CLI) test/unit/iceberg_manifest_cli_shim.o \
	$(ICEBERG_METADATA_CLI) test/unit/iceberg_metadata_cli_shim.o \
	$(SIGV4_CLI) test/unit/sigv4_cli_shim.o \
	$(HTTP_CLI) test/unit/http_cli_shim.o \
	$(STORE_CLI) test/unit/store_cli_shim.o \
	$(CREDS_CLI) test/unit/creds_cli_shim.o $(PG_BUILD_STAMP)

# ---- libFuzzer targets (test/fuzz/, see docs/FUZZING.md): clang, ASan + UBSan ----
FUZZ_TARGETS = thrift file page assemble variant decrypt http json delta_log dv delta_checkpoint iceberg_metadata iceberg_manifest iceberg_deletes
FUZZ_BUILD = test/fuzz/build
FUZZ_CC = clang
FUZZ_CFLAGS = -std=gnu99 -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	-Wall -Werror -Wno-unused-function \
	-Wno-ignored-attributes \
	-I src -I test/unit -I test/fuzz -I $(PG_INCLUDEDIR_SERVER)
FUZZ_OBJS = $(patsubst src/format/%.c,$(FUZZ_BUILD)/%.o,$(FORMAT_SRCS)) \
	$(patsubst src/table/%.c,$(FUZZ_BUILD)/table/%.o,$(TABLE_SRCS)) \
	$(FUZZ_BUILD)/io/http/response.o $(FUZZ_BUILD)/io/aws/s3_list.o \
	$(FUZZ_BUILD)/io/common/xml_scan.o $(FUZZ_BUILD)/io/common/url.o \
	$(FUZZ_BUILD)/io/common/listing.o $(FUZZ_BUILD)/io/azure/blob_list.o \
	$(FUZZ_BUILD)/io/common/json_scan.o $(FUZZ_BUILD)/io/common/ini.o \
	$(FUZZ_BUILD)/io/common/utf8.o \
	$(FUZZ_BUILD)/io/aws/credential_answers.o \
	$(FUZZ_BUILD)/shim.o $(FUZZ_BUILD)/fuzz_run.o
FUZZ_BINS = $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))

$(FUZZ_BUILD)/io/%.o: src/io/%.c $(IO_HDRS) $(PG_BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/table/%.o: src/table/%.c $(FORMAT_HDRS) $(PG_BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/%.o: src/format/%.c $(FORMAT_HDRS) $(PG_BUILD_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/shim.o: test/unit/shim.c test/unit/unit_test.h $(PG_BUILD_STAMP)
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Dmain=shim_unit_main '-DUNIT_SUITES=(void) 0' -c -o $@ $<

$(FUZZ_BUILD)/fuzz_run.o: test/fuzz/fuzz_run.c test/fuzz/fuzz.h $(PG_BUILD_STAMP)
	@mkdir -p $(FUZZ_BUILD)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(UNIT_LIBS)

fuzz: $(FUZZ_BINS)

.PHONY: fuzz
EXTRA_CLEAN += $(FUZZ_BUILD)

# ---- make dist: the PGXN release archive parquet_fdw-<version>.zip ----
# META.json's version, files of the committed HEAD (git archive: what is not
# committed is not released).
DIST_VERSION = $(shell sed -n 's/^   "version": "\([^"]*\)",$$/\1/p' $(srcdir)/META.json)
DIST = $(EXTENSION)-$(DIST_VERSION)

dist:
	@test -n "$(DIST_VERSION)" || { echo "make dist: no version in META.json" >&2; exit 1; }
	git archive --format=zip --prefix=$(DIST)/ -o $(DIST).zip HEAD

.PHONY: dist
EXTRA_CLEAN += $(EXTENSION)-*.zip
