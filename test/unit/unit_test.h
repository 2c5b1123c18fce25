/*
 * unit_test.h
 *		Minimal test framework for the format-layer unit tests.  Built as a
 *		standalone binary with -fsanitize=address,undefined and the
 *		palloc/ereport shim in shim.c.
 */
#ifndef UNIT_TEST_H
#define UNIT_TEST_H

#include "postgres.h"

/* Last error raised through ereport(ERROR) in the shim. */
extern int	shim_last_sqlstate;
extern char shim_last_message[2048];

/* Frees every allocation made through palloc since the last call. */
extern void shim_free_all(void);

/*
 * Allocation accounting: the bytes palloc'd and not freed, and the peak
 * since shim_peak_reset() beyond base (a shim_live_bytes() value), so a
 * test can show that a hostile input failed without a large allocation.
 */
extern size_t shim_live_bytes(void);
extern void shim_peak_reset(void);
extern size_t shim_peak_above(size_t base);

/*
 * Runs the memory context reset callbacks registered so far (as deleting
 * the context would), keeping the memory for inspection.
 */
extern void shim_run_reset_callbacks(void);

/*
 * For the CLIs: the whole file at path in an exact-size malloc'd buffer (so
 * ASan catches any read past its end), exit 2 when it cannot be read; the
 * last ERROR as "ERROR <SQLSTATE> <message>" on stdout.
 */
extern uint8 *ut_read_file(const char *path, size_t *len);
extern void ut_print_error(void);

/* Copy into an exact-size palloc'd buffer so ASan catches overreads. */
extern uint8 *ut_exact_copy(const void *src, size_t len);

/* Deterministic pseudo-random numbers (xorshift64*). */
extern void ut_rng_seed(uint64 seed);
extern uint64 ut_rng_next(void);

/* Test bookkeeping */
extern int	ut_failures_in_test;
extern void ut_fail(const char *file, int line, const char *what);
extern void ut_run(const char *name, void (*fn) (void));

#define CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			ut_fail(__FILE__, __LINE__, #cond); \
			return; \
		} \
	} while (0)

#define CHECK_EQ_INT(a, b) \
	do { \
		long long _a = (long long) (a), _b = (long long) (b); \
		if (_a != _b) \
		{ \
			char _m[256]; \
			snprintf(_m, sizeof(_m), "%s == %s (%lld != %lld)", #a, #b, _a, _b); \
			ut_fail(__FILE__, __LINE__, _m); \
			return; \
		} \
	} while (0)

/*
 * Run stmt and require that it raises ERROR with the given SQLSTATE
 * (e.g. ERRCODE_DATA_CORRUPTED).
 */
#define CHECK_ERROR(stmt, sqlstate) \
	do { \
		volatile bool _raised = false; \
		shim_last_sqlstate = 0; \
		PG_TRY(); \
		{ \
			stmt; \
		} \
		PG_CATCH(); \
		{ \
			_raised = true; \
		} \
		PG_END_TRY(); \
		if (!_raised) \
		{ \
			ut_fail(__FILE__, __LINE__, "expected an error from: " #stmt); \
			return; \
		} \
		if (shim_last_sqlstate != (sqlstate)) \
		{ \
			ut_fail(__FILE__, __LINE__, "wrong SQLSTATE from: " #stmt); \
			return; \
		} \
	} while (0)

/* Suites, one per test file. */
extern void suite_thrift(void);
extern void suite_metadata(void);
extern void suite_bitpack_rle(void);
extern void suite_plain(void);
extern void suite_delta(void);
extern void suite_decode_limits(void);
extern void suite_byte_stream_split(void);
extern void suite_codec(void);
extern void suite_bloom(void);
extern void suite_writer(void);
extern void suite_json_render(void);
extern void suite_variant_encode(void);
extern void suite_variant(void);
extern void suite_nested(void);
extern void suite_encrypt(void);
extern void suite_segment_select(void);
extern void suite_row_ranges(void);
extern void suite_error_location(void);
extern void suite_url(void);
extern void suite_response(void);
extern void suite_s3_list(void);
extern void suite_json_scan(void);
extern void suite_ini(void);
extern void suite_credential_answers(void);
extern void suite_json_tree(void);
extern void suite_deletion_vector(void);
extern void suite_delta_log(void);
extern void suite_iceberg_manifest(void);
extern void suite_iceberg_metadata(void);
extern void suite_iceberg_values(void);
extern void suite_iceberg_deletes(void);

#endif							/* UNIT_TEST_H */
