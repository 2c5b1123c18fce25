/*
 * fuzz.h
 *		Glue for the libFuzzer targets of the format layer (test/fuzz/):
 *		each target's LLVMFuzzerTestOneInput hands its work to fuzz_run(),
 *		which turns the ERRORs a bad file may raise into a normal outcome
 *		and anything else into a crash the fuzzer reports.
 */
#ifndef PQ_FUZZ_H
#define PQ_FUZZ_H

#include "postgres.h"

#include "unit_test.h"

typedef void (*FuzzFn) (const uint8 *data, size_t size);

/*
 * Run fn on the input, then free everything it allocated.  An ERROR with a
 * SQLSTATE that bad input may cause (data corrupted, not supported, limit
 * exceeded, out of range, missing key) is the expected end of a bad input;
 * any other ERROR (an internal error: elog) aborts, so the fuzzer keeps
 * the input.
 */
extern void fuzz_run(FuzzFn fn, const uint8 *data, size_t size);

/* Reads input bytes front to back; past the end it yields zeros. */
typedef struct FuzzInput
{
	const uint8 *p;
	size_t		left;
} FuzzInput;

extern uint8 fuzz_byte(FuzzInput *in);
extern uint32 fuzz_u32(FuzzInput *in);
/* up to n bytes (fewer at the end), in an exact-size copy for ASan */
extern uint8 *fuzz_bytes(FuzzInput *in, size_t n, size_t *got);

/*
 * A schema of one top-level field, given as its elements in depth-first
 * order (the flattened form of FileMetaData.schema), built as a footer
 * would be.
 */
typedef struct FuzzElem
{
	const char *name;
	int			repetition;
	int			children;		/* -1: a leaf */
	int			converted;		/* ConvertedType, -1: none */
	int			ptype;			/* leaves */
	int			logical;		/* PqLogicalTypeId, 0: none */
} FuzzElem;

#define FUZZ_LEAF(n, r, t, lt) {n, r, -1, -1, t, lt}
#define FUZZ_GROUP(n, r, k, ct, lt) {n, r, k, ct, 0, lt}

struct PqSchema;
extern struct PqSchema *fuzz_schema(const FuzzElem *e, int n);

#endif							/* PQ_FUZZ_H */
