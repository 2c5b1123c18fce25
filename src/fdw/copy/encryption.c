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
 * With kms_footer_key and kms_column_keys the options name master keys
 * instead: the footer and each column get fresh data keys, and key_metadata
 * holds their key material (fdw/keys/key_material_write.c), as parquet-java's
 * key tools write it.
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
	PqKeyMaterialWriter *material;
} KeyHolder;

/* Memory context callback: zero every key of the options. */
static void
forget_keys(void *arg)
{
	KeyHolder  *h = (KeyHolder *) arg;

	explicit_bzero(&h->opts.footer_key, sizeof(PqKey));
	if (h->columns != NULL)
		explicit_bzero(h->columns, sizeof(PqColumnEncryption) * h->opts.n_columns);
	if (h->material != NULL)
		pqfdw_key_material_writer_forget(h->material);
}

static PqBytes
text_bytes(const char *s)
{
	PqBytes		b;

	b.ptr = (const uint8 *) s;
	b.len = (int32) strlen(s);
	return b;
}

/*
 * kms_footer_key, kms_column_keys: fresh data keys, their key material in
 * key_metadata (or in the external file), one key per column as key tools
 * make them.
 */
static void
kms_keys(KeyHolder *h, const PqCopyEncryption *ce)
{
	ListCell   *lc;
	int			n = 0;

	h->material = pqfdw_key_material_writer(ce->kms_url, ce->double_wrapping,
											!ce->external_material);
	h->opts.footer_key_metadata =
		text_bytes(pqfdw_new_key_material(h->material, ce->kms_footer_key, true,
										  "the footer of the COPY output",
										  &h->opts.footer_key));
	foreach(lc, ce->kms_column_keys)
	{
		List	   *pair = lfirst(lc);
		const char *col = linitial(pair);
		PqColumnEncryption *e = &h->columns[n++];

		h->opts.n_columns = n;
		e->path = col;
		e->key_metadata =
			text_bytes(pqfdw_new_key_material(h->material, lsecond(pair), false,
											  psprintf("column \"%s\" of the COPY output", col),
											  &e->key));
	}
}

const PqEncryptionOptions *
pqfdw_copy_encryption(const PqCopyEncryption *ce, const char *const *names,
					  int ncols, PqKeyMaterialWriter **material)
{
	List	   *column_keys = ce->kms_footer_key ? ce->kms_column_keys :
	ce->column_keys;
	KeyHolder  *h;
	MemoryContextCallback *cb;
	ListCell   *lc;
	int			n = 0;

	*material = NULL;
	if (ce->footer_key == NULL && ce->kms_footer_key == NULL)
		return NULL;

	/*
	 * Before any key is loaded: each entry must be an output column, or a
	 * dotted path inside one (the leaves of a nested column; the writer
	 * checks that the path exists).
	 */
	foreach(lc, column_keys)
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
					 errmsg("%s column \"%s\" is not a column of the COPY output",
							ce->kms_footer_key ? "kms_column_keys" : "column_keys",
							col)));
	}

	h = palloc0(sizeof(KeyHolder));
	h->columns = palloc0(sizeof(PqColumnEncryption) *
						 Max(list_length(column_keys), 1));
	cb = palloc0(sizeof(MemoryContextCallback));
	cb->func = forget_keys;
	cb->arg = h;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);

	h->opts.algorithm = ce->algorithm;
	h->opts.plaintext_footer = ce->plaintext_footer;
	h->opts.columns = h->columns;
	if (ce->aad_prefix != NULL)
	{
		h->opts.aad_prefix = text_bytes(ce->aad_prefix);
		h->opts.store_aad_prefix = ce->store_aad_prefix;
	}
	if (ce->kms_footer_key != NULL)
	{
		kms_keys(h, ce);
		*material = h->material;
		return &h->opts;
	}
	pqfdw_load_key(ce->footer_key, "the footer of the COPY output",
				   &h->opts.footer_key);
	h->opts.footer_key_metadata = text_bytes(ce->footer_key);

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
			e->key_metadata = text_bytes(id);
		}
	}
	return &h->opts;
}
