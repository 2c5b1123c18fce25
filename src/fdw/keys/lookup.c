/*-------------------------------------------------------------------------
 *
 * lookup.c
 *		Which key decrypts a file's footer or column: the footer_key and
 *		column_keys options, else the file's key_metadata (a key id, or key
 *		material of parquet-java's / Arrow's key tools, key_material.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/keys/keys.h"

typedef struct KeyConfig
{
	PqDecryptionConfig config;
	char	   *footer_key;
	List	   *column_keys;	/* (path, id) pairs */
	PqKmsContext kms;
} KeyConfig;

/* The key id that key_metadata (not key material) of file holds. */
static char *
key_id_from_metadata(const PqBytes *md, const char *file)
{
	char	   *s = pnstrdup((const char *) md->ptr, md->len);

	if (!pqfdw_key_id_valid(s))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Parquet file \"%s\" names key \"%s\" in its key metadata, which is not a valid key id",
						file, s),
				 errhint("Name the key with the footer_key or column_keys option.")));
	return s;
}

static bool
lookup_key(void *arg, const char *file, const PqBytes *key_metadata,
		   const char *column, bool required, PqKey *out)
{
	KeyConfig  *kc = (KeyConfig *) arg;
	const char *id = NULL;
	char	   *what;
	ListCell   *lc;

	/* what errors call it, one whole phrase for translators */
	if (column)
	{
		what = psprintf(_("column \"%s\" of Parquet file \"%s\""),
						column, file);
		foreach(lc, kc->column_keys)
		{
			List	   *pair = lfirst(lc);

			if (strcmp(linitial(pair), column) == 0)
				id = lsecond(pair);
		}
	}
	else
	{
		what = psprintf(_("the footer of Parquet file \"%s\""), file);
		id = kc->footer_key;
	}
	if (id == NULL && key_metadata && pqfdw_is_key_material(key_metadata))
	{
		/*
		 * A plaintext footer's signature is checked when the user has its
		 * master key (and its key material), as parquet-java does; without it
		 * the plaintext columns stay readable.
		 */
		if (!required)
		{
			char	   *master = pqfdw_key_material_master(&kc->kms, key_metadata,
														   file,
														   what);

			if (master == NULL ||
				!pqfdw_kms_master_available(kc->kms.command, master))
				return false;
		}
		pqfdw_key_from_material(key_metadata, file, what, &kc->kms, out);
		return true;
	}
	if (id == NULL && key_metadata && key_metadata->len > 0)
		id = key_id_from_metadata(key_metadata, file);
	if (id == NULL)
	{
		if (!required)
			return false;
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("no encryption key is named for %s", what),
				 errhint("The file stores no key metadata: name the key with the %s option.",
						 column ? "column_keys" : "footer_key")));
	}
	if (!required)
	{
		/*
		 * An optional key (the signature of a plaintext footer) is skipped
		 * when the user may not use it or it is not registered: the file's
		 * plaintext columns stay readable.
		 */
		if (!pqfdw_key_available(id))
			return false;
	}
	pqfdw_load_key(id, what, out);
	return true;
}

PqDecryptionConfig *
pqfdw_decryption_config(const char *footer_key, const char *column_keys,
						const char *aad_prefix, const char *kms_command)
{
	KeyConfig  *kc = palloc0(sizeof(KeyConfig));

	kc->kms.command = kms_command ? pstrdup(kms_command) : NULL;
	kc->kms.cxt = CurrentMemoryContext;
	if (footer_key)
	{
		pqfdw_check_key_id(footer_key, "footer_key");
		kc->footer_key = pstrdup(footer_key);
	}
	if (column_keys)
		kc->column_keys = pqfdw_parse_column_keys(column_keys);
	kc->config.get_key = lookup_key;
	kc->config.arg = kc;
	if (aad_prefix)
	{
		kc->config.aad_prefix = (const uint8 *) pstrdup(aad_prefix);
		kc->config.aad_prefix_len = strlen(aad_prefix);
	}
	return &kc->config;
}

const PqDecryptionConfig *
pqfdw_decryption_for_remote(const PqDecryptionConfig *base,
							const PqfdwRemoteId *id)
{
	KeyConfig  *kc = palloc(sizeof(KeyConfig));

	if (base == NULL)
		base = pqfdw_decryption_config(NULL, NULL, NULL, NULL);
	Assert(base->get_key == lookup_key);
	*kc = *(const KeyConfig *) base->arg;
	kc->config.arg = kc;
	kc->kms.remote = *id;
	/* the KMS URL remembered is the base's to free */
	kc->kms.cxt = CurrentMemoryContext;
	kc->kms.file = NULL;
	kc->kms.url = NULL;
	return &kc->config;
}
