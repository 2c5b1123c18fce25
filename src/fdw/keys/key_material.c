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
 * come from the key store, under their ids and its grants; unwrapped keys
 * stay in memory and are wiped after use.  docs/ENCRYPTION.md lists the
 * fields.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base64.h"
#include "fdw/keys/keys.h"
#include "storage/fd.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

/* An external key material file larger than this is not read. */
#define MAX_KEY_MATERIAL_FILE (64 * 1024 * 1024)

/*
 * what, in the functions below: the footer or column and its Parquet file,
 * as errors name them.
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
		bad_material(what, "It is not valid JSON.");
	}
	PG_END_TRY();
	if (!JB_ROOT_IS_OBJECT(j))
		bad_material(what, "It is not a JSON object.");
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
string_field(Jsonb *j, const char *name, bool required, const char *what)
{
	JsonbValue *v = field(j, name);

	if (v == NULL || v->type != jbvString)
	{
		if (required)
			bad_material(what, psprintf("It has no string field \"%s\".", name));
		return NULL;
	}
	return pnstrdup(v->val.string.val, v->val.string.len);
}

static bool
bool_field(Jsonb *j, const char *name, bool dflt, const char *what)
{
	JsonbValue *v = field(j, name);

	if (v == NULL)
		return dflt;
	if (v->type != jbvBool)
		bad_material(what, psprintf("Field \"%s\" is not a boolean.", name));
	return v->val.boolean;
}

static uint8 *
decode_base64(const char *s, int *len, const char *name, const char *what)
{
	int			slen = strlen(s);
	uint8	   *out = palloc(pg_b64_dec_len(slen) + 1);

	*len = pg_b64_decode(s, slen, (char *) out, pg_b64_dec_len(slen));
	if (*len < 0)
		bad_material(what, psprintf("Field \"%s\" is not base64.", name));
	return out;
}

/*
 * Unwrap the base64 wrapped key s with wrapping key kek and AAD aad into
 * out: a GCM tag that does not verify means the wrong key or damaged
 * material.
 */
static void
unwrap(const char *s, const char *name, const PqKey *kek, const uint8 *aad,
	   int aad_len, const char *what, PqKey *out)
{
	int			len;
	uint8	   *wrapped = decode_base64(s, &len, name, what);
	uint8	   *module;
	uint8		plain[PQ_MAX_KEY_LEN + PQ_GCM_OVERHEAD];
	size_t		n;

	if (len < PQ_NONCE_LEN + PQ_TAG_LEN + 16 ||
		len > PQ_NONCE_LEN + PQ_TAG_LEN + PQ_MAX_KEY_LEN)
		bad_material(what, psprintf("Field \"%s\" holds %d bytes, not a wrapped key of 16, 24 or 32 bytes.",
									name, len));
	/* a module of the Parquet format: the length of what follows, then it */
	module = palloc(len + 4);
	module[0] = len & 0xff;
	module[1] = (len >> 8) & 0xff;
	module[2] = 0;
	module[3] = 0;
	memcpy(module + 4, wrapped, len);
	n = pq_crypto_decrypt(kek, true, aad, aad_len, module, len + 4, plain,
						  psprintf("the wrapped key in \"%s\" of the key material for %s",
								   name, what));
	if (n != 16 && n != 24 && n != 32)
		bad_material(what, psprintf("Field \"%s\" unwraps to %zu bytes, not a key of 16, 24 or 32 bytes.",
									name, n));
	memcpy(out->bytes, plain, n);
	out->len = (int) n;
	explicit_bzero(plain, sizeof(plain));
	pfree(module);
}

/* The external key material file's entry ref, as key material. */
static Jsonb *
external_material(const char *file, const char *ref, const char *what)
{
	const char *slash = strrchr(file, '/');
	char	   *path;
	struct stat st;
	int			fd;
	char	   *buf;
	ssize_t		n;
	Jsonb	   *all;
	char	   *entry;

	path = slash ? psprintf("%.*s/_KEY_MATERIAL_FOR_%s.json",
							(int) (slash - file), file, slash + 1) :
		psprintf("_KEY_MATERIAL_FOR_%s.json", file);
	fd = OpenTransientFile(path, O_RDONLY | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open key material file \"%s\" for %s: %m",
						path, what),
				 errhint("Key tools with external key material keep it in this file beside the Parquet file.")));
	if (fstat(fd, &st) != 0 || st.st_size > MAX_KEY_MATERIAL_FILE)
	{
		CloseTransientFile(fd);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("key material file \"%s\" is larger than %d bytes or cannot be read",
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
	all = parse_object(buf, what);
	entry = string_field(all, ref, false, what);
	if (entry == NULL)
		bad_material(what, psprintf("The key material file \"%s\" has no entry \"%s\".",
									path, ref));
	return parse_object(entry, what);
}

bool
pqfdw_is_key_material(const PqBytes *key_metadata)
{
	return key_metadata->len > 0 && key_metadata->ptr[0] == '{';
}

void
pqfdw_key_from_material(const PqBytes *key_metadata, const char *file,
						const char *what, PqKey *out)
{
	char	   *where = psprintf("%s of Parquet file \"%s\"", what, file);
	Jsonb	   *m = parse_object(pnstrdup((const char *) key_metadata->ptr,
										  key_metadata->len), where);
	char	   *type = string_field(m, "keyMaterialType", true, where);
	char	   *master_id;
	PqKey		master;

	if (strcmp(type, "PKMT1") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("key material type \"%s\" for %s is not supported",
						type, where),
				 errdetail("parquet_fdw reads key material of type \"PKMT1\".")));
	if (!bool_field(m, "internalStorage", true, where))
		m = external_material(file, string_field(m, "keyReference", true, where),
							  where);
	master_id = string_field(m, "masterKeyID", true, where);
	pqfdw_check_key_id(master_id, "master key id in key material");
	pqfdw_load_key(master_id, psprintf("%s (master key)", where), &master);
	if (bool_field(m, "doubleWrapping", true, where))
	{
		PqKey		kek;
		int			kek_id_len;
		uint8	   *kek_id = decode_base64(string_field(m, "keyEncryptionKeyID",
														true, where),
										   &kek_id_len, "keyEncryptionKeyID",
										   where);

		unwrap(string_field(m, "wrappedKEK", true, where), "wrappedKEK",
			   &master, (const uint8 *) master_id, strlen(master_id), where,
			   &kek);
		unwrap(string_field(m, "wrappedDEK", true, where), "wrappedDEK",
			   &kek, kek_id, kek_id_len, where, out);
		explicit_bzero(&kek, sizeof(kek));
	}
	else
		unwrap(string_field(m, "wrappedDEK", true, where), "wrappedDEK",
			   &master, (const uint8 *) master_id, strlen(master_id), where,
			   out);
	explicit_bzero(&master, sizeof(master));
}
