/*-------------------------------------------------------------------------
 *
 * encryption.c
 *		COPY ... TO ... (FORMAT parquet) encryption options -> the format
 *		layer's encryption options, with the keys loaded from the key store.
 *
 * Each key's id becomes its key_metadata in the file, so that a reader
 * (this one, with the same key store) finds the key without being told.
 * A column whose key id is the footer key's is encrypted "with the footer
 * key": in an encrypted footer its metadata stays in the footer.  A nested
 * column (a Parquet group) named in column_keys has every leaf encrypted
 * with the key; a dotted path names one leaf or group inside it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/copy/copy_to.h"
#include "fdw/keys/keys.h"
#include "utils/memutils.h"

typedef struct KeyHolder
{
	PqEncryptionOptions opts;
	PqColumnEncryption *columns;
} KeyHolder;

/* Memory context callback: zero every key of the options. */
static void
forget_keys(void *arg)
{
	KeyHolder  *h = (KeyHolder *) arg;

	explicit_bzero(&h->opts.footer_key, sizeof(PqKey));
	if (h->columns != NULL)
		explicit_bzero(h->columns, sizeof(PqColumnEncryption) * h->opts.n_columns);
}

static PqBytes
id_bytes(const char *id)
{
	PqBytes		b;

	b.ptr = (const uint8 *) id;
	b.len = (int32) strlen(id);
	return b;
}

const PqEncryptionOptions *
pqfdw_copy_encryption(const PqCopyEncryption *ce, const char *const *names,
					  int ncols)
{
	KeyHolder  *h;
	MemoryContextCallback *cb;
	ListCell   *lc;
	int			n = 0;

	if (ce->footer_key == NULL)
		return NULL;

	/*
	 * Before any key is loaded: each entry must be an output column, or a
	 * dotted path inside one (the leaves of a nested column; the writer
	 * checks that the path exists).
	 */
	foreach(lc, ce->column_keys)
	{
		const char *col = linitial((List *) lfirst(lc));
		int			c;

		for (c = 0; c < ncols; c++)
		{
			size_t		len = strlen(names[c]);

			if (strncmp(col, names[c], len) == 0 &&
				(col[len] == '\0' || col[len] == '.'))
				break;
		}
		if (c == ncols)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column_keys column \"%s\" is not a column of the COPY output",
							col)));
	}

	h = palloc0(sizeof(KeyHolder));
	h->columns = palloc0(sizeof(PqColumnEncryption) *
						 Max(list_length(ce->column_keys), 1));
	cb = palloc0(sizeof(MemoryContextCallback));
	cb->func = forget_keys;
	cb->arg = h;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);

	h->opts.algorithm = ce->algorithm;
	h->opts.plaintext_footer = ce->plaintext_footer;
	pqfdw_load_key(ce->footer_key, "the footer of the COPY output",
				   &h->opts.footer_key);
	h->opts.footer_key_metadata = id_bytes(ce->footer_key);
	if (ce->aad_prefix != NULL)
	{
		h->opts.aad_prefix = id_bytes(ce->aad_prefix);
		h->opts.store_aad_prefix = ce->store_aad_prefix;
	}

	foreach(lc, ce->column_keys)
	{
		List	   *pair = lfirst(lc);
		const char *col = linitial(pair);
		const char *id = lsecond(pair);
		PqColumnEncryption *e = &h->columns[n++];

		/* counted before the key is loaded, so that it is zeroed on error */
		h->opts.n_columns = n;
		e->path = col;
		if (strcmp(id, ce->footer_key) == 0)
			e->footer_key = true;
		else
		{
			pqfdw_load_key(id, psprintf("column \"%s\" of the COPY output", col),
						   &e->key);
			e->key_metadata = id_bytes(id);
		}
	}
	h->opts.columns = h->columns;
	return &h->opts;
}
