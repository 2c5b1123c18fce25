/*-------------------------------------------------------------------------
 *
 * protocol.c
 *		What a Delta table asks of its readers (protocol versions and
 *		reader features) and its table properties: whether this reader
 *		may read it, and how its columns are named in the files.
 *
 * A reader that reads a table whose features it does not know returns
 * wrong rows (rows a deletion vector removed, columns a mapping renamed),
 * so anything not listed here is refused by name.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/delta/delta_log.h"

/* Reader features (PROTOCOL.md, "Table Features") this reader implements. */
static const char *const supported[] = {
	"columnMapping",
	"deletionVectors",
	"timestampNtz",
	"typeWidening",
	"typeWidening-preview",
	"v2Checkpoint",
	"vacuumProtocolCheck",
};

const char *
pq_delta_unsupported(const PqDeltaProtocol *protocol)
{
	int			i;

	if (protocol->min_reader > PQ_DELTA_MAX_READER_VERSION)
		return psprintf("reader version %d", protocol->min_reader);
	if (protocol->min_reader < 3)
		return NULL;
	for (i = 0; i < protocol->nfeatures; i++)
	{
		bool		known = false;
		int			k;

		for (k = 0; k < (int) lengthof(supported); k++)
			if (strcmp(protocol->features[i], supported[k]) == 0)
				known = true;
		if (!known)
			return psprintf("reader feature \"%.64s\"", protocol->features[i]);
	}
	return NULL;
}

const char *
pq_delta_config(const PqDeltaMetadata *md, const char *key)
{
	int			i;

	for (i = md->nconfig - 1; i >= 0; i--)
		if (strcmp(md->config_keys[i], key) == 0)
			return md->config_values[i];
	return NULL;
}

bool
pq_delta_mapping(const PqDeltaMetadata *md, PqDeltaMapping *mode,
				 const char **why)
{
	const char *m = pq_delta_config(md, "delta.columnMapping.mode");

	*mode = PQ_DELTA_MAPPING_NONE;
	if (m == NULL || strcmp(m, "none") == 0)
		return true;
	if (strcmp(m, "name") == 0)
		*mode = PQ_DELTA_MAPPING_NAME;
	else if (strcmp(m, "id") == 0)
		*mode = PQ_DELTA_MAPPING_ID;
	else
	{
		*why = "its delta.columnMapping.mode is none of none, name and id";
		return false;
	}
	return true;
}

const char *
pq_delta_physical_name(const PqDeltaField *f, PqDeltaMapping mode)
{
	if (mode != PQ_DELTA_MAPPING_NONE && f->physical != NULL)
		return f->physical;
	return f->name;
}
