/*-------------------------------------------------------------------------
 *
 * key_material_write.c
 *		Key material for COPY ... TO ... (FORMAT parquet, kms_footer_key
 *		...): random data keys, wrapped through the KMS, in the layout of
 *		parquet-java's key tools, so that Spark, parquet-java and Arrow read
 *		the files with their own KMS clients.
 *
 * Every footer and column key is a fresh 128-bit data key (DEK), as key
 * tools make them.  With double wrapping each DEK is wrapped by a KEK of
 * its master key: one KEK per master key for the whole file (and for
 * parquet_fdw.kek_cache_lifetime after it), so the KMS is asked once per
 * master key, not once per column.  With external storage the file's
 * key_metadata fields hold references ("footerKey", "columnKey<n>") into
 * "_KEY_MATERIAL_FOR_<file name>.json" beside the file.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdw/keys/keys.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/json.h"

#define DEK_LEN 16
#define KEK_LEN 16
#define KEK_ID_LEN 16

/* The KEK of a master key in this file. */
typedef struct KekUse
{
	char	   *master_id;
	char	   *kek_id;			/* base64 */
	char	   *wrapped_kek;
	PqKey		kek;
} KekUse;

PqKeyMaterialWriter *
pqfdw_key_material_writer(const char *kms_url, bool double_wrapping,
						  bool internal)
{
	PqKeyMaterialWriter *w = palloc0(sizeof(PqKeyMaterialWriter));

	w->kms_url = kms_url ? kms_url : "DEFAULT";
	w->double_wrapping = double_wrapping;
	w->internal = internal;
	initStringInfo(&w->external);
	return w;
}

static KekUse *
kek_for(PqKeyMaterialWriter *w, const char *master_id, const char *what)
{
	const char *identity = pqfdw_kms_identity(NULL);
	ListCell   *lc;
	KekUse	   *k;
	uint8		id[KEK_ID_LEN];

	foreach(lc, w->keks)
	{
		k = lfirst(lc);
		if (strcmp(k->master_id, master_id) == 0)
			return k;
	}
	k = palloc0(sizeof(KekUse));
	k->master_id = pstrdup(master_id);
	/* appended first, so that the writer's wipe covers it on error */
	w->keks = lappend(w->keks, k);
	pqfdw_check_key_usable(master_id, what);
	if (!pqfdw_kek_cache_current(identity, master_id, &k->kek_id,
								 &k->wrapped_kek, &k->kek))
	{
		pq_crypto_random(k->kek.bytes, KEK_LEN);
		k->kek.len = KEK_LEN;
		pq_crypto_random(id, KEK_ID_LEN);
		k->kek_id = pqfdw_encode_base64(id, KEK_ID_LEN);
		k->wrapped_kek = pqfdw_kms_wrap(NULL, master_id, w->kms_url, &k->kek,
										psprintf("the key-encryption key of %s", what));
		pqfdw_kek_cache_put(identity, master_id, k->kek_id, k->wrapped_kek,
							true, &k->kek);
	}
	return k;
}

static void
json_field(StringInfo s, const char *name, const char *value)
{
	if (s->len > 1)
		appendStringInfoChar(s, ',');
	escape_json(s, name);
	appendStringInfoChar(s, ':');
	escape_json(s, value);
}

static void
json_bool(StringInfo s, const char *name, bool value)
{
	if (s->len > 1)
		appendStringInfoChar(s, ',');
	escape_json(s, name);
	appendStringInfo(s, ":%s", value ? "true" : "false");
}

char *
pqfdw_new_key_material(PqKeyMaterialWriter *w, const char *master_id,
					   bool footer, const char *what, PqKey *dek)
{
	StringInfoData m;
	StringInfoData md;
	char	   *ref;

	pq_crypto_random(dek->bytes, DEK_LEN);
	dek->len = DEK_LEN;

	initStringInfo(&m);
	appendStringInfoChar(&m, '{');
	json_field(&m, "keyMaterialType", "PKMT1");
	if (w->internal)
		json_bool(&m, "internalStorage", true);
	json_bool(&m, "isFooterKey", footer);
	if (footer)
	{
		json_field(&m, "kmsInstanceID", "DEFAULT");
		json_field(&m, "kmsInstanceURL", w->kms_url);
	}
	json_field(&m, "masterKeyID", master_id);
	if (w->double_wrapping)
	{
		KekUse	   *k = kek_for(w, master_id, what);
		int			id_len;
		uint8	   *id = pqfdw_decode_base64(k->kek_id, &id_len);

		json_field(&m, "wrappedDEK", pqfdw_wrap_locally(dek, &k->kek, id, id_len));
		json_bool(&m, "doubleWrapping", true);
		json_field(&m, "keyEncryptionKeyID", k->kek_id);
		json_field(&m, "wrappedKEK", k->wrapped_kek);
	}
	else
	{
		json_field(&m, "wrappedDEK", pqfdw_kms_wrap(NULL, master_id, w->kms_url,
													dek, what));
		json_bool(&m, "doubleWrapping", false);
	}
	appendStringInfoChar(&m, '}');
	if (w->internal)
		return m.data;

	/* external: the material goes to the file, a reference to the column */
	ref = footer ? pstrdup("footerKey") : psprintf("columnKey%d", w->n_columns++);
	appendStringInfoChar(&w->external, w->external.len == 0 ? '{' : ',');
	escape_json(&w->external, ref);
	appendStringInfoChar(&w->external, ':');
	escape_json(&w->external, m.data);
	initStringInfo(&md);
	appendStringInfoChar(&md, '{');
	json_field(&md, "keyMaterialType", "PKMT1");
	json_bool(&md, "internalStorage", false);
	json_field(&md, "keyReference", ref);
	appendStringInfoChar(&md, '}');
	return md.data;
}

void
pqfdw_key_material_writer_forget(PqKeyMaterialWriter *w)
{
	ListCell   *lc;

	foreach(lc, w->keks)
		explicit_bzero(&((KekUse *) lfirst(lc))->kek, sizeof(PqKey));
}

char *
pqfdw_key_material_path(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? psprintf("%.*s/_KEY_MATERIAL_FOR_%s.json",
							(int) (slash - file), file, slash + 1) :
		psprintf("_KEY_MATERIAL_FOR_%s.json", file);
}

void
pqfdw_write_key_material_file(PqKeyMaterialWriter *w, const char *file)
{
	char	   *path;
	char	   *dir;
	char	   *tmp;
	int			fd;
	mode_t		oumask;

	if (w->internal)
		return;
	path = pqfdw_key_material_path(file);
	tmp = psprintf("%s.%d.tmp", path, MyProcPid);
	appendStringInfoChar(&w->external, '}');

	/*
	 * The directory may be writable by others, who can see our pid: a name
	 * planted there (a symlink to a file the server may write) must make this
	 * fail, never be written through.  A leftover of a crashed backend with
	 * our pid is ours to remove.
	 */
	(void) unlink(tmp);
	/* as COPY TO writes files: readable by all; the keys in it are wrapped */
	oumask = umask(S_IWGRP | S_IWOTH);
	fd = OpenTransientFilePerm(tmp,
							   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | PG_BINARY,
							   S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
	umask(oumask);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create key material file \"%s\": %m", tmp)));
	errno = 0;
	if (write(fd, w->external.data, w->external.len) != w->external.len ||
		pg_fsync(fd) != 0)
	{
		int			save_errno = errno ? errno : ENOSPC;

		CloseTransientFile(fd);
		(void) unlink(tmp);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not write key material file \"%s\": %m", tmp)));
	}
	if (CloseTransientFile(fd) != 0)
	{
		(void) unlink(tmp);
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not close key material file \"%s\": %m", tmp)));
	}

	/*
	 * Synced through our own descriptor above: durable_rename() would open
	 * the temporary file again by name, which another user may have replaced
	 * by then.  rename() replaces a symlink at path, never its target.
	 */
	if (rename(tmp, path) != 0)
	{
		int			save_errno = errno;

		(void) unlink(tmp);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not rename key material file \"%s\" to \"%s\": %m",
						tmp, path)));
	}
	dir = pstrdup(path);
	get_parent_directory(dir);
	fsync_fname(dir[0] != '\0' ? dir : ".", true);
}

void
pqfdw_write_key_material_object(PqKeyMaterialWriter *w,
								const PqfdwRemoteId *id, const char *url)
{
	char	   *path;

	if (w->internal)
		return;
	path = pqfdw_key_material_path(url);
	appendStringInfoChar(&w->external, '}');
	/* one request: the object appears whole, or not at all */
	pqfdw_remote_put(id, path, w->external.data, w->external.len);
}
