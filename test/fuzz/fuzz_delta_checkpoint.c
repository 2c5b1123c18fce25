/*
 * fuzz_delta_checkpoint.c
 *		A Delta Lake checkpoint from memory, as the Delta reader takes it
 *		(src/table/delta/checkpoint.c): the input is the Parquet file.  A
 *		refused file must say why and leave the output as it was; a read
 *		one must give whole lines, each of which the log replay's JSON
 *		parser (table/common/json_tree.h) takes as one object of one
 *		action, and the same lines again when read a second time.
 */
#include "fuzz.h"

#include "table/common/json_tree.h"
#include "table/delta/checkpoint.h"

static const char *const actions[] = {
	"add", "remove", "metaData", "protocol", "sidecar", "checkpointMetadata"
};

static void
check_line(const char *line, size_t len)
{
	const char *why = NULL;
	PqJv	   *v = pq_jv_parse(line, len, &why);
	int			i;

	if (v == NULL)
	{
		fprintf(stderr, "fuzz_delta_checkpoint: a line is not JSON: %s\n", why);
		abort();
	}
	if (v->type != PQ_JV_OBJECT || v->len != 1 ||
		v->u.members[0].value.type != PQ_JV_OBJECT)
		abort();
	for (i = 0; i < (int) lengthof(actions); i++)
		if (strcmp(v->u.members[0].name, actions[i]) == 0)
			return;
	abort();
}

static void
one(const uint8 *data, size_t size)
{
	/* an exact-size copy: a read past the file's end is caught */
	uint8	   *file = ut_exact_copy(data, size);
	PqBuffer	out;
	PqBuffer	again;
	const char *why = NULL;
	size_t		start;
	size_t		i;

	pq_buffer_init(&out, 64);
	/* what was there before stays: the lines are appended */
	pq_buffer_append(&out, "x", 1);
	if (!pq_delta_checkpoint_json(file, size, &out, &why))
	{
		if (why == NULL || out.len != 1)
			abort();
		return;
	}
	if (out.data[0] != 'x' || (out.len > 1 && out.data[out.len - 1] != '\n'))
		abort();
	start = 1;
	for (i = 1; i < out.len; i++)
	{
		if (out.data[i] != '\n')
			continue;
		check_line((const char *) out.data + start, i - start);
		start = i + 1;
	}

	/* the same file gives the same lines */
	pq_buffer_init(&again, 64);
	if (!pq_delta_checkpoint_json(file, size, &again, &why) ||
		again.len != out.len - 1 ||
		memcmp(again.data, out.data + 1, again.len) != 0)
		abort();
}

int			LLVMFuzzerTestOneInput(const uint8 *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8 *data, size_t size)
{
	fuzz_run(one, data, size);
	return 0;
}
