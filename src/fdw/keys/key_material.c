/*-------------------------------------------------------------------------
 *
 * key_material.c
 *		Keys of files written with the key tools of parquet-java and Arrow
 *		(PropertiesDrivenCryptoFactory, CryptoFactory): key material.
 *
 * Such a file's key_metadata holds key material, a JSON object (type
 * "PKMT1"), or, with external storage, a reference to an entry of the
 * JSON object in "_KEY_MATERIAL_FOR_<file name>.json" beside the file,
 * whose value is the key material as a JSON string.  The material names a
 * master key ("masterKeyID") and holds the data key wrapped with it
 * ("wrappedDEK"), or, with double wrapping, wrapped with a key-encryption
 * key ("wrappedDEK", whose AAD is the KEK's id, "keyEncryptionKeyID") that
 * the master key wraps ("wrappedKEK").  A wrapped key is base64 of an
 * AES-GCM nonce (12 bytes), ciphertext and tag (16 bytes); the master
 * key's AAD is its id's bytes, as parquet-java's KeyToolkit and its
 * in-memory KMS (Arrow's TestOnlyInServerWrapKms) wrap them.  Master keys
 * are the KMS's (kms.c: the key store, or kms_command), under the key
 * store's grants; unwrapped KEKs are cached (kek_cache.c), other unwrapped
 * keys stay in memory and are wiped after use.  docs/ENCRYPTION.md lists
 * the fields.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdw/keys/keys.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

/* An external key material file larger than this is not read. */
#define MAX_KEY_MATERIAL_FILE (64 * 1024 * 1024)

/*
 * A field of key material longer than this is refused: a real KMS's
 * wrapped key is at most a few kilobytes, and a wrapped key goes to
 * kms_command's stdin.  An entry of the external file holds one material.
 */
#define MAX_KEY_MATERIAL_FIELD (64 * 1024)
#define MAX_KEY_MATERIAL_ENTRY (4 * MAX_KEY_MATERIAL_FIELD)

/*
 * what, in the functions below: the footer or column and its Parquet file,
 * as errors name them.  Details come translated.
 */
static void bad_material(const char *what, const char *detail) pg_attribute_noreturn();

static void
bad_material(const char *what, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid key material for %s", what),
			 errdetail_internal("%s", detail)));
}

static Jsonb *
parse_object(const char *s, const char *what)
{
	MemoryContext cxt = CurrentMemoryContext;
	Jsonb	   *j;

	PG_TRY();
	{
		j = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(s)));
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		bad_material(what, _("It is not valid JSON."));
	}
	PG_END_TRY();
	if (!JB_ROOT_IS_OBJECT(j))
		bad_material(what, _("It is not a JSON object."));
	return j;
}

/* Field name of j, or NULL. */
static JsonbValue *
field(Jsonb *j, const char *name)
{
	JsonbValue	key;

	key.type = jbvString;
	key.val.string.val = (char *) name;
	key.val.string.len = strlen(name);
	return findJsonbValueFromContainer(&j->root, JB_FOBJECT, &key);
}

static char *
string_field_max(Jsonb *j, const char *name, bool required, const char *what,
				 int max)
{
	JsonbValue *v = field(j, name);

	if (v == NULL || v->type != jbvString)
	{
		if (required)
			bad_material(what, psprintf(_("It has no string field \"%s\"."), name));
		return NULL;
	}
	if (v->val.string.len > max)
		bad_material(what, psprintf(_("Field \"%s\" is longer than %d bytes."),
									name, max));
	return pnstrdup(v->val.string.val, v->val.string.len);
}

static char *
string_field(Jsonb *j, const char *name, bool required, const char *what)
{
	return string_field_max(j, name, required, what, MAX_KEY_MATERIAL_FIELD);
}

/* parquet-java writes every boolean field and rejects material without */
static bool
bool_field(Jsonb *j, const char *name, const char *what)
{
	JsonbValue *v = field(j, name);

	if (v == NULL || v->type != jbvBool)
		bad_material(what, psprintf(_("It has no boolean field \"%s\"."), name));
	return v->val.boolean;
}

static void
check_type(Jsonb *m, const char *where)
{
	char	   *type = string_field(m, "keyMaterialType", true, where);

	if (strcmp(type, "PKMT1") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("key material type \"%s\" for %s is not supported",
						type, where),
				 errdetail("parquet_fdw reads key material of type \"PKMT1\".")));
}

/* A local key material file's text; NULL when missing_ok and absent. */
static char *
local_material(const char *path, const char *what, bool missing_ok)
{
	struct stat st;
	int			fd;
	char	   *buf;
	ssize_t		n;

	/* a FIFO planted there must not hang the backend: never wait on open */
	fd = OpenTransientFile(path, O_RDONLY | O_NONBLOCK | PG_BINARY);
	if (fd < 0 && errno == ENOENT && missing_ok)
		return NULL;
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open key material file \"%s\" for %s: %m",
						path, what),
				 errhint("Key tools with external key material keep it in this file beside the Parquet file.")));
	if (fstat(fd, &st) != 0)
	{
		int			save_errno = errno;

		CloseTransientFile(fd);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat key material file \"%s\": %m", path)));
	}
	if (!S_ISREG(st.st_mode))
	{
		CloseTransientFile(fd);
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("key material file \"%s\" for %s is not a regular file",
						path, what)));
	}
	if (st.st_size > MAX_KEY_MATERIAL_FILE)
	{
		CloseTransientFile(fd);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("key material file \"%s\" is larger than %d bytes",
						path, MAX_KEY_MATERIAL_FILE)));
	}
	buf = palloc(st.st_size + 1);
	n = read(fd, buf, st.st_size);
	CloseTransientFile(fd);
	if (n != st.st_size)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read key material file \"%s\": %m", path)));
	buf[n] = '\0';
	return buf;
}

/*
 * The external key material file's entry ref, as key material: beside the
 * Parquet file, or beside its object when it is behind a URL.
 */
static Jsonb *
external_material(const PqKmsContext *kms, const char *file, const char *ref,
				  const char *what, bool missing_ok)
{
	char	   *path = pqfdw_key_material_path(file);
	char	   *buf;
	Jsonb	   *all;
	char	   *entry;

	buf = pq_url_is_remote(path) ?
		pqfdw_remote_read_object(&kms->remote, path, MAX_KEY_MATERIAL_FILE,
								 missing_ok) :
		local_material(path, what, missing_ok);
	if (buf == NULL)
		return NULL;
	all = parse_object(buf, what);
	entry = string_field_max(all, ref, false, what, MAX_KEY_MATERIAL_ENTRY);
	if (entry == NULL)
		bad_material(what, psprintf(_("The key material file \"%s\" has no entry \"%s\"."),
									path, ref));
	return parse_object(entry, what);
}

bool
pqfdw_is_key_material(const PqBytes *key_metadata)
{
	return key_metadata->len > 0 && key_metadata->ptr[0] == '{';
}

/*
 * The KMS instance URL for %u of kms_command: the footer key material's,
 * which the column keys' material does not repeat (parquet-java reads the
 * footer's first, as the format layer does), else "DEFAULT".
 */
static const char *
kms_url(Jsonb *m, const char *file, PqKmsContext *kms, const char *where)
{
	char	   *url = string_field(m, "kmsInstanceURL", false, where);
	MemoryContext old;

	if (url == NULL)
		return kms->file && strcmp(kms->file, file) == 0 ? kms->url : "DEFAULT";
	old = MemoryContextSwitchTo(kms->cxt);
	if (kms->file)
	{
		pfree(kms->file);
		pfree(kms->url);
	}
	kms->file = pstrdup(file);
	kms->url = pstrdup(url);
	MemoryContextSwitchTo(old);
	return url;
}

/* The key material of key_metadata: itself, or the external file's entry. */
/* (NULL when missing_ok and the external key material file is missing) */
static Jsonb *
open_material(const PqKmsContext *kms, const PqBytes *key_metadata,
			  const char *file, const char *where, bool missing_ok)
{
	Jsonb	   *m = parse_object(pnstrdup((const char *) key_metadata->ptr,
										  key_metadata->len), where);

	check_type(m, where);
	if (!bool_field(m, "internalStorage", where))
	{
		m = external_material(kms, file,
							  string_field(m, "keyReference", true, where),
							  where, missing_ok);
		if (m != NULL)
			check_type(m, where);
	}
	return m;
}

char *
pqfdw_key_material_master(const PqKmsContext *kms,
						  const PqBytes *key_metadata, const char *file,
						  const char *where)
{
	Jsonb	   *m = open_material(kms, key_metadata, file, where, true);

	return m ? string_field(m, "masterKeyID", true, where) : NULL;
}

void
pqfdw_key_from_material(const PqBytes *key_metadata, const char *file,
						const char *where, PqKmsContext *kms, PqKey *out)
{
	Jsonb	   *m = open_material(kms, key_metadata, file, where, false);
	char	   *master_id = string_field(m, "masterKeyID", true, where);
	const char *url = kms_url(m, file, kms, where);

	if (bool_field(m, "doubleWrapping", where))
	{
		const char *identity = pqfdw_kms_identity(kms->command);
		char	   *kek_id = string_field(m, "keyEncryptionKeyID", true, where);
		char	   *wrapped_kek = string_field(m, "wrappedKEK", true, where);
		int			kek_id_len;
		uint8	   *kek_id_bytes = pqfdw_decode_base64(kek_id, &kek_id_len);
		PqKey		kek;

		if (kek_id_len <= 0)
			bad_material(where, _("Field \"keyEncryptionKeyID\" is not base64."));
		/* the grant first: a cached KEK is no way around it */
		pqfdw_check_key_usable(master_id, where);
		if (!pqfdw_kek_cache_get(identity, master_id, kek_id, wrapped_kek,
								 &kek))
		{
			pqfdw_kms_unwrap(kms->command, master_id, url, wrapped_kek,
							 psprintf("the key-encryption key of %s", where),
							 &kek);
			pqfdw_kek_cache_put(identity, master_id, kek_id, wrapped_kek,
								false, &kek);
		}
		if (!pqfdw_unwrap_locally(string_field(m, "wrappedDEK", true, where),
								  &kek, kek_id_bytes, kek_id_len,
								  psprintf("the wrapped key in \"wrappedDEK\" of the key material for %s",
										   where),
								  out))
		{
			explicit_bzero(&kek, sizeof(kek));
			bad_material(where, _("Field \"wrappedDEK\" is not a wrapped key of 16, 24 or 32 bytes in base64."));
		}
		explicit_bzero(&kek, sizeof(kek));
	}
	else
		pqfdw_kms_unwrap(kms->command, master_id, url,
						 string_field(m, "wrappedDEK", true, where), where, out);
}
