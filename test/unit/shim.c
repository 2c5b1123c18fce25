/*
 * shim.c
 *		The few PostgreSQL backend functions the format layer uses (palloc
 *		family, ereport), implemented on malloc and siglongjmp so that the
 *		format layer links into a standalone test binary.
 */
#include "postgres.h"

#include "unit_test.h"
#include "utils/memutils.h"

sigjmp_buf *PG_exception_stack = NULL;
ErrorContextCallback *error_context_stack = NULL;
MemoryContext CurrentMemoryContext = NULL;
MemoryContext TopMemoryContext = NULL;

int			shim_last_sqlstate;
char		shim_last_message[2048];

static int	cur_elevel;
static int	cur_sqlstate;

/* Every allocation carries a header linking it into one list. */
typedef struct ShimChunk
{
	struct ShimChunk *prev;
	struct ShimChunk *next;
	size_t		size;
	size_t		pad;			/* keep the payload 16-byte aligned */
}			ShimChunk;

static ShimChunk chunks =
{
	&chunks, &chunks, 0, 0
};

/* Bytes allocated and not freed, and the most there were since a reset */
static size_t shim_live;
static size_t shim_peak;

static void
shim_count(size_t added, size_t removed)
{
	shim_live += added;
	shim_live -= removed;
	if (shim_live > shim_peak)
		shim_peak = shim_live;
}

void
shim_peak_reset(void)
{
	shim_peak = shim_live;
}

size_t
shim_peak_above(size_t base)
{
	return shim_peak > base ? shim_peak - base : 0;
}

size_t
shim_live_bytes(void)
{
	return shim_live;
}

static void *
shim_alloc(size_t size, bool zero)
{
	ShimChunk  *c = malloc(sizeof(ShimChunk) + (size ? size : 1));

	if (c == NULL)
	{
		fprintf(stderr, "shim: out of memory allocating %zu bytes\n", size);
		abort();
	}
	c->size = size;
	c->next = chunks.next;
	c->prev = &chunks;
	chunks.next->prev = c;
	chunks.next = c;
	shim_count(size, 0);
	if (zero)
		memset(c + 1, 0, size);
	return c + 1;
}

static void
shim_check_size(Size size, bool huge)
{
	if (size > (huge ? MaxAllocHugeSize : MaxAllocSize))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("invalid memory alloc request size %zu", size)));
}

void *
palloc(Size size)
{
	shim_check_size(size, false);
	return shim_alloc(size, false);
}

void *
palloc0(Size size)
{
	shim_check_size(size, false);
	return shim_alloc(size, true);
}

void *
palloc_extended(Size size, int flags)
{
	shim_check_size(size, (flags & MCXT_ALLOC_HUGE) != 0);
	return shim_alloc(size, (flags & MCXT_ALLOC_ZERO) != 0);
}

void *
MemoryContextAllocHuge(MemoryContext context, Size size)
{
	shim_check_size(size, true);
	return shim_alloc(size, false);
}

void *
MemoryContextAllocZero(MemoryContext context, Size size)
{
	shim_check_size(size, false);
	return shim_alloc(size, true);
}

void
pfree(void *pointer)
{
	ShimChunk  *c = ((ShimChunk *) pointer) - 1;

	c->prev->next = c->next;
	c->next->prev = c->prev;
	shim_count(0, c->size);
	free(c);
}

static void *
shim_realloc(void *pointer, Size size)
{
	ShimChunk  *c = ((ShimChunk *) pointer) - 1;
	ShimChunk  *n;
	size_t		old_size = c->size;

	c->prev->next = c->next;
	c->next->prev = c->prev;
	n = realloc(c, sizeof(ShimChunk) + (size ? size : 1));
	if (n == NULL)
		abort();
	n->size = size;
	shim_count(size, old_size);
	n->next = chunks.next;
	n->prev = &chunks;
	chunks.next->prev = n;
	chunks.next = n;
	return n + 1;
}

void *
repalloc(void *pointer, Size size)
{
	shim_check_size(size, false);
	return shim_realloc(pointer, size);
}

void *
repalloc_huge(void *pointer, Size size)
{
	shim_check_size(size, true);
	return shim_realloc(pointer, size);
}

char *
pstrdup(const char *in)
{
	size_t		len = strlen(in);
	char	   *out = palloc(len + 1);

	memcpy(out, in, len + 1);
	return out;
}

/* one context in the shim: per-backend state lives until the process ends */
char *
MemoryContextStrdup(MemoryContext context, const char *string)
{
	return pstrdup(string);
}

char *
pnstrdup(const char *in, Size size)
{
	size_t		len = strnlen(in, size);
	char	   *out = palloc(len + 1);

	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

/*
 * StringInfo (format/metadata/schema.c) formats through pvsnprintf();
 * libpgcommon's would bring its psprintf(), which the shim has.
 */
size_t
pvsnprintf(char *buf, size_t len, const char *fmt, va_list args)
{
	int			n = vsnprintf(buf, len, fmt, args);

	if (n < 0)
		elog(ERROR, "vsnprintf failed");
	return (size_t) n < len ? (size_t) n : (size_t) n + 1;
}

char *
psprintf(const char *fmt,...)
{
	va_list		args;
	char		buf[8192];

	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	return pstrdup(buf);
}

/*
 * The shim has one memory context, freed by shim_free_all() (after each
 * fuzz input, after each test): a context made is a name for it, and
 * resetting or deleting one frees nothing early.
 */
MemoryContext
AllocSetContextCreateInternal(MemoryContext parent, const char *name,
							  Size minContextSize, Size initBlockSize,
							  Size maxBlockSize)
{
	MemoryContext c = palloc0(sizeof(MemoryContextData));

	c->type = T_AllocSetContext;
	c->parent = parent;
	c->name = name;
	return c;
}

void
MemoryContextReset(MemoryContext context)
{
}

void
MemoryContextDelete(MemoryContext context)
{
}

void *
MemoryContextAlloc(MemoryContext context, Size size)
{
	return palloc(size);
}

/*
 * Reset callbacks of "the" memory context: the shim has one, freed by
 * shim_free_all(), which runs them first.
 */
static MemoryContextCallback *shim_callbacks = NULL;

void
MemoryContextRegisterResetCallback(MemoryContext context,
								   MemoryContextCallback *cb)
{
	cb->next = shim_callbacks;
	shim_callbacks = cb;
}

void
shim_run_reset_callbacks(void)
{
	while (shim_callbacks != NULL)
	{
		MemoryContextCallback *cb = shim_callbacks;

		shim_callbacks = cb->next;
		cb->func(cb->arg);
	}
}

void
shim_free_all(void)
{
	shim_run_reset_callbacks();
	while (chunks.next != &chunks)
	{
		ShimChunk  *c = chunks.next;

		chunks.next = c->next;
		free(c);
	}
	chunks.prev = &chunks;
	shim_live = 0;
	shim_peak = 0;
}

bool
errstart(int elevel, const char *domain)
{
	cur_elevel = elevel;
	cur_sqlstate = ERRCODE_INTERNAL_ERROR;
	shim_last_message[0] = '\0';
	return elevel >= ERROR;
}

bool
errstart_cold(int elevel, const char *domain)
{
	return errstart(elevel, domain);
}

int
errcode(int sqlerrcode)
{
	cur_sqlstate = sqlerrcode;
	return 0;
}

/* errno as the backend's elog.c maps it (the cases of reading a file) */
int
errcode_for_file_access(void)
{
	switch (errno)
	{
		case EPERM:
		case EACCES:
		case EROFS:
			cur_sqlstate = ERRCODE_INSUFFICIENT_PRIVILEGE;
			break;
		case ENOENT:
			cur_sqlstate = ERRCODE_UNDEFINED_FILE;
			break;
		case ENOTDIR:
		case EISDIR:
			cur_sqlstate = ERRCODE_WRONG_OBJECT_TYPE;
			break;
		case EIO:
			cur_sqlstate = ERRCODE_IO_ERROR;
			break;
		default:
			cur_sqlstate = ERRCODE_INTERNAL_ERROR;
			break;
	}
	return 0;
}

static int
shim_message(const char *fmt, va_list args)
{
	size_t		used = strlen(shim_last_message);

	if (used < sizeof(shim_last_message) - 2)
	{
		if (used > 0)
		{
			shim_last_message[used++] = '|';
			shim_last_message[used] = '\0';
		}
		vsnprintf(shim_last_message + used,
				  sizeof(shim_last_message) - used, fmt, args);
	}
	return 0;
}

#define SHIM_MESSAGE_FN(name) \
int \
name(const char *fmt,...) \
{ \
	va_list		args; \
	va_start(args, fmt); \
	shim_message(fmt, args); \
	va_end(args); \
	return 0; \
}

SHIM_MESSAGE_FN(errmsg)
SHIM_MESSAGE_FN(errmsg_internal)
SHIM_MESSAGE_FN(errdetail)
SHIM_MESSAGE_FN(errdetail_internal)
SHIM_MESSAGE_FN(errhint)

int
errmsg_plural(const char *fmt_singular, const char *fmt_plural,
			  unsigned long n,...)
{
	va_list		args;

	va_start(args, n);
	shim_message(n == 1 ? fmt_singular : fmt_plural, args);
	va_end(args);
	return 0;
}

void
errfinish(const char *filename, int lineno, const char *funcname)
{
	if (cur_elevel < ERROR)
		return;
	shim_last_sqlstate = cur_sqlstate;
	if (PG_exception_stack == NULL)
	{
		fprintf(stderr, "unexpected ERROR at %s:%d: %s\n",
				filename, lineno, shim_last_message);
		abort();
	}
	siglongjmp(*PG_exception_stack, 1);
}

void
pg_re_throw(void)
{
	if (PG_exception_stack == NULL)
		abort();
	siglongjmp(*PG_exception_stack, 1);
}

/*
 * Which suites run: all by default.  A developer working on one part can
 * build a smaller binary with e.g. -D'UNIT_SUITES=suite_codec()'.
 */
#ifndef UNIT_SUITES
#define UNIT_SUITES \
	suite_thrift(), suite_metadata(), suite_bitpack_rle(), suite_plain(), \
	suite_delta(), suite_decode_limits(), suite_byte_stream_split(), \
	suite_codec(), suite_bloom(), suite_writer(), suite_json_render(), \
	suite_variant_encode(), suite_variant(), suite_nested(), suite_encrypt(), \
	suite_segment_select(), suite_row_ranges(), suite_error_location(), suite_url(), \
	suite_response(), suite_s3_list(), suite_json_scan(), suite_ini(), \
	suite_credential_answers(), suite_json_tree(), suite_deletion_vector(), \
	suite_delta_log(), suite_iceberg_metadata(), suite_iceberg_manifest(), \
	suite_iceberg_values(), suite_iceberg_deletes()
#endif

uint8 *
ut_exact_copy(const void *src, size_t len)
{
	uint8	   *p = palloc(len > 0 ? len : 1);

	if (len > 0)
		memcpy(p, src, len);
	return p;
}

static uint64 ut_rng_state = UINT64CONST(88172645463325252);

void
ut_rng_seed(uint64 seed)
{
	ut_rng_state = seed ? seed : UINT64CONST(88172645463325252);
}

uint64
ut_rng_next(void)
{
	ut_rng_state ^= ut_rng_state >> 12;
	ut_rng_state ^= ut_rng_state << 25;
	ut_rng_state ^= ut_rng_state >> 27;
	return ut_rng_state * UINT64CONST(0x2545F4914F6CDD1D);
}

/* Test runner */
int			ut_failures_in_test;
static int	ut_passed;
static int	ut_failed;

void
ut_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "  FAIL %s:%d: %s\n", file, line, what);
	ut_failures_in_test++;
}

void
ut_run(const char *name, void (*fn) (void))
{
	volatile bool crashed = false;

	ut_failures_in_test = 0;
	PG_TRY();
	{
		fn();
	}
	PG_CATCH();
	{
		crashed = true;
	}
	PG_END_TRY();
	if (crashed)
		fprintf(stderr, "  FAIL %s: unexpected ERROR: %s\n", name,
				shim_last_message);
	if (crashed || ut_failures_in_test > 0)
	{
		ut_failed++;
		printf("not ok %s\n", name);
	}
	else
	{
		ut_passed++;
		printf("ok %s\n", name);
	}
	shim_free_all();
}

int
main(int argc, char **argv)
{
	UNIT_SUITES;
	printf("unit: %d passed, %d failed\n", ut_passed, ut_failed);
	return ut_failed == 0 ? 0 : 1;
}

uint8 *
ut_read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8	   *data;
	long		size;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
		fseek(f, 0, SEEK_SET) != 0)
	{
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	data = malloc(size > 0 ? size : 1);
	if (data == NULL || fread(data, 1, size, f) != (size_t) size)
	{
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*len = size;
	return data;
}

void
ut_print_error(void)
{
	char		state[6];
	int			code = shim_last_sqlstate;
	int			i;

	for (i = 0; i < 5; i++)
	{
		state[i] = PGUNSIXBIT(code);
		code >>= 6;
	}
	state[5] = '\0';
	printf("ERROR %s %s\n", state, shim_last_message);
}
