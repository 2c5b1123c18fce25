/*
 * fuzz_delta_log.c
 *		A Delta Lake log as the replay reads it (src/table/delta/): the
 *		input is split at 0x00 bytes into commits of ascending versions,
 *		each replayed as JSON lines; then the snapshot, the schema of its
 *		metaData, the protocol check, each live file's path decoded, its
 *		statistics parsed and its deletion vector's file and span; and
 *		each commit's commitInfo.  A snapshot must keep what
 *		delta_log.h promises: files sorted by path, no two alike.
 */
#include "fuzz.h"

#include "table/delta/delta_log.h"
#include "utils/memutils.h"

static void
check_snapshot(const PqDeltaSnapshot *s)
{
	PqDeltaSchema schema;
	PqDeltaMapping mode;
	const char *why = NULL;
	int			i;

	(void) pq_delta_unsupported(&s->protocol);
	if (pq_delta_mapping(&s->metadata, &mode, &why) &&
		pq_delta_parse_schema(s->metadata.schema_string, &schema, &why))
	{
		for (i = 0; i < schema.nfields; i++)
			if (pq_delta_physical_name(&schema.fields[i], mode) == NULL)
				abort();
	}
	for (i = 0; i < s->nfiles; i++)
	{
		const PqDeltaFile *f = &s->files[i];

		if (i > 0 && strcmp(s->files[i - 1].path, f->path) > 0)
			abort();
		if (f->size < 0 || f->path[0] == '\0')
			abort();
		(void) pq_delta_decode_path(f->path);
		if (f->stats != NULL)
		{
			PqDeltaStats st;

			if (pq_delta_stats_parse(f->stats, &st, &why) &&
				st.num_records < -1)
				abort();
		}
		if (f->has_dv && f->dv.storage_type != 'i')
		{
			int64		off,
						len;

			(void) pq_delta_dv_file(&f->dv, &why);
			if (pq_delta_dv_stored_span(&f->dv, &off, &len, &why) &&
				(off < 0 || len < 0))
				abort();
		}
	}
}

static void
run(const uint8 *data, size_t size)
{
	PqDeltaReplay *r = pq_delta_replay_create();
	PqDeltaSnapshot snap;
	size_t		start = 0;
	int64		version = 0;
	int64		line;
	const char *why = NULL;

	while (start <= size)
	{
		const uint8 *nul = memchr(data + start, 0, size - start);
		size_t		end = nul ? (size_t) (nul - data) : size;
		int			n;

		{
			int64		ms;
			char	   *op;

			(void) pq_delta_commit_info((const char *) data + start,
										end - start, &ms, &op);
		}
		if (!pq_delta_replay_add(r, version++, (const char *) data + start,
								 end - start, &line, &why))
		{
			if (why == NULL || line < 1)
				abort();
			MemoryContextDelete(pq_delta_replay_context(r));
			return;
		}
		(void) pq_delta_replay_sidecars(r, &n);
		start = end + 1;
	}
	if (pq_delta_replay_finish(r, &snap, &why))
		check_snapshot(&snap);
	else if (why == NULL)
		abort();
	MemoryContextDelete(pq_delta_replay_context(r));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_run(run, data, size);
	return 0;
}
