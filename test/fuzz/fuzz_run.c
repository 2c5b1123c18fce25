/*
 * fuzz_run.c
 *		fuzz_run() and the memory context functions the readers need beyond
 *		the unit tests' shim (test/unit/shim.c): contexts are names only,
 *		every allocation lives until fuzz_run() frees them all.
 */
#include "fuzz.h"

#include "format/metadata/schema.h"
#include "utils/memutils.h"

/* SQLSTATEs a malformed or unsupported file may end in */
static bool
expected_error(int sqlstate)
{
	return sqlstate == ERRCODE_DATA_CORRUPTED ||
		sqlstate == ERRCODE_FEATURE_NOT_SUPPORTED ||
		sqlstate == ERRCODE_PROGRAM_LIMIT_EXCEEDED ||
		sqlstate == ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE ||
		sqlstate == ERRCODE_UNDEFINED_OBJECT ||
		sqlstate == ERRCODE_INVALID_PARAMETER_VALUE;
}

void
fuzz_run(FuzzFn fn, const uint8 *data, size_t size)
{
	PG_TRY();
	{
		fn(data, size);
	}
	PG_CATCH();
	{
		if (!expected_error(shim_last_sqlstate))
		{
			fprintf(stderr, "fuzz: unexpected ERROR %c%c%c%c%c: %s\n",
					PGUNSIXBIT(shim_last_sqlstate),
					PGUNSIXBIT(shim_last_sqlstate >> 6),
					PGUNSIXBIT(shim_last_sqlstate >> 12),
					PGUNSIXBIT(shim_last_sqlstate >> 18),
					PGUNSIXBIT(shim_last_sqlstate >> 24), shim_last_message);
			abort();
		}
	}
	PG_END_TRY();
	shim_free_all();
}

uint8
fuzz_byte(FuzzInput * in)
{
	if (in->left == 0)
		return 0;
	in->left--;
	return *in->p++;
}

uint32
fuzz_u32(FuzzInput * in)
{
	uint32		v = 0;
	int			i;

	for (i = 0; i < 4; i++)
		v |= (uint32) fuzz_byte(in) << (8 * i);
	return v;
}

uint8 *
fuzz_bytes(FuzzInput * in, size_t n, size_t *got)
{
	uint8	   *p;

	n = Min(n, in->left);
	p = ut_exact_copy(in->p, n);
	in->p += n;
	in->left -= n;
	*got = n;
	return p;
}

PqSchema *
fuzz_schema(const FuzzElem * e, int n)
{
	PqFileMetaData md;
	int			i;

	memset(&md, 0, sizeof(md));
	md.n_schema = n + 1;
	md.schema = palloc0(sizeof(PqSchemaElement) * md.n_schema);
	md.schema[0].name = "schema";
	md.schema[0].has_num_children = true;
	md.schema[0].num_children = 1;
	for (i = 0; i < n; i++)
	{
		PqSchemaElement *se = &md.schema[i + 1];

		se->name = (char *) e[i].name;
		se->has_repetition_type = true;
		se->repetition_type = e[i].repetition;
		if (e[i].children < 0)
		{
			se->has_type = true;
			se->type = e[i].ptype;
		}
		else
		{
			se->has_num_children = true;
			se->num_children = e[i].children;
		}
		if (e[i].converted >= 0)
		{
			se->has_converted_type = true;
			se->converted_type = e[i].converted;
		}
		se->logical_type.id = e[i].logical;
	}
	return pq_schema_build(&md);
}
