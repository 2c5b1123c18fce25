/*-------------------------------------------------------------------------
 *
 * kms.c
 *		The KMS of key tools' key material: master keys wrap and unwrap data
 *		keys and key-encryption keys (KEKs).
 *
 * Two kinds.  Without kms_command, master keys are keys of the key store
 * and wrap by AES-GCM with the master key id as AAD, as parquet-java's
 * InMemoryKMS and Arrow's TestOnlyInServerWrapKms do.  With kms_command
 * (server option, else parquet_fdw.kms_command), an external program does
 * it (kms_command.c).  Either way the current user needs the master key:
 * superuser, or a grant by parquet_fdw.grant_key(), checked before any
 * KMS call and before a cached KEK is used.
 *
 * A wrapped key of the local kind, and a key wrapped by a KEK, is base64
 * of nonce (12 bytes), ciphertext and GCM tag (16 bytes), as parquet-java's
 * KeyToolkit.encryptKeyLocally writes it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/base64.h"
#include "fdw/keys/keys.h"

char	   *pqfdw_kms_command = NULL;

static const char *
effective_command(const char *kms_command)
{
	if (kms_command == NULL)
		kms_command = pqfdw_kms_command;
	return kms_command != NULL && kms_command[0] != '\0' ? kms_command : NULL;
}

uint8 *
pqfdw_decode_base64(const char *s, int *len)
{
	int			slen = strlen(s);
	uint8	   *out = palloc(pg_b64_dec_len(slen) + 1);

	*len = pg_b64_decode(s, slen, (void *) out, pg_b64_dec_len(slen));
	return out;
}

char *
pqfdw_encode_base64(const uint8 *p, int len)
{
	char	   *out = palloc(pg_b64_enc_len(len) + 1);
	int			n = pg_b64_encode((const void *) p, len, out, pg_b64_enc_len(len));

	out[n] = '\0';
	return out;
}

char *
pqfdw_wrap_locally(const PqKey *key, const PqKey *kek, const uint8 *aad,
				   int aad_len)
{
	uint8		module[PQ_MAX_KEY_LEN + PQ_GCM_OVERHEAD];
	size_t		n = pq_crypto_encrypt(kek, true, aad, aad_len, key->bytes,
									  key->len, module);

	/* key tools store the module without its length prefix */
	return pqfdw_encode_base64(module + 4, (int) n - 4);
}

bool
pqfdw_unwrap_locally(const char *wrapped, const PqKey *kek, const uint8 *aad,
					 int aad_len, const char *what, PqKey *out)
{
	int			len;
	uint8	   *w = pqfdw_decode_base64(wrapped, &len);
	uint8	   *module;
	uint8		plain[PQ_MAX_KEY_LEN + PQ_GCM_OVERHEAD];
	size_t		n;

	if (len < PQ_NONCE_LEN + PQ_TAG_LEN + 16 ||
		len > PQ_NONCE_LEN + PQ_TAG_LEN + PQ_MAX_KEY_LEN)
		return false;
	/* as a module of the format: the length of what follows, then it */
	module = palloc(len + 4);
	module[0] = len & 0xff;
	module[1] = (len >> 8) & 0xff;
	module[2] = 0;
	module[3] = 0;
	memcpy(module + 4, w, len);
	n = pq_crypto_decrypt(kek, true, aad, aad_len, module, len + 4, plain, what);
	pfree(module);
	if (n != 16 && n != 24 && n != 32)
	{
		explicit_bzero(plain, sizeof(plain));
		return false;
	}
	memcpy(out->bytes, plain, n);
	out->len = (int) n;
	explicit_bzero(plain, sizeof(plain));
	return true;
}

/*
 * Master keys of the key store are named by key ids (file names); a KMS
 * behind kms_command may name them otherwise (an ARN, a Vault path).
 */
static void
check_master_id(const char *command, const char *master_id)
{
	const char *p;

	if (command == NULL)
	{
		pqfdw_check_key_id(master_id, NULL);
		return;
	}
	for (p = master_id; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			break;
	if (*p != '\0' || master_id[0] == '\0' || p - master_id > 1024)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("master key id \"%s\" is not 1 to 1024 printable ASCII characters",
						master_id)));
}

static void
bad_wrapped(const char *what, const char *master_id)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("the key wrapped with master key \"%s\" for %s is not a wrapped key of 16, 24 or 32 bytes",
					master_id, what)));
}

void
pqfdw_kms_unwrap(const char *kms_command, const char *master_id,
				 const char *kms_url, const char *wrapped, const char *what,
				 PqKey *out)
{
	const char *command = effective_command(kms_command);

	check_master_id(command, master_id);
	if (command == NULL)
	{
		PqKey		master;
		bool		ok;

		/* pqfdw_load_key checks the grant before it looks at the key */
		pqfdw_load_key(master_id, psprintf("%s (master key)", what), &master);
		ok = pqfdw_unwrap_locally(wrapped, &master, (const uint8 *) master_id,
								  strlen(master_id),
								  psprintf("the key wrapped with master key \"%s\" for %s",
										   master_id, what),
								  out);
		explicit_bzero(&master, sizeof(master));
		if (!ok)
			bad_wrapped(what, master_id);
	}
	else
	{
		PqKmsCall	call = {command, false, master_id, kms_url, wrapped};
		char	   *answer;
		int			len;
		uint8	   *key;

		pqfdw_check_key_usable(master_id, what);
		answer = pqfdw_run_kms_command(&call);
		key = pqfdw_decode_base64(answer, &len);
		explicit_bzero(answer, strlen(answer));
		if (len != 16 && len != 24 && len != 32)
		{
			if (len > 0)
				explicit_bzero(key, len);
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("kms_command did not answer a key of 16, 24 or 32 bytes in base64 for master key \"%s\"",
							master_id),
					 errdetail("The key was needed for %s.", what)));
		}
		memcpy(out->bytes, key, len);
		out->len = len;
		explicit_bzero(key, len);
	}
}

char *
pqfdw_kms_wrap(const char *kms_command, const char *master_id,
			   const char *kms_url, const PqKey *key, const char *what)
{
	const char *command = effective_command(kms_command);
	char	   *wrapped;

	check_master_id(command, master_id);
	if (command == NULL)
	{
		PqKey		master;

		/* pqfdw_load_key checks the grant before it looks at the key */
		pqfdw_load_key(master_id, psprintf("%s (master key)", what), &master);
		wrapped = pqfdw_wrap_locally(key, &master, (const uint8 *) master_id,
									 strlen(master_id));
		explicit_bzero(&master, sizeof(master));
	}
	else
	{
		char	   *plain = pqfdw_encode_base64(key->bytes, key->len);
		PqKmsCall	call = {command, true, master_id, kms_url, plain};
		const char *p;

		pqfdw_check_key_usable(master_id, what);
		wrapped = pqfdw_run_kms_command(&call);
		explicit_bzero(plain, strlen(plain));
		/* stored in JSON key material: printable, and never empty */
		for (p = wrapped; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				break;
		if (*p != '\0' || wrapped[0] == '\0')
			ereport(ERROR,
					(errcode(ERRCODE_EXTERNAL_ROUTINE_EXCEPTION),
					 errmsg("kms_command did not answer a wrapped key of printable characters for master key \"%s\"",
							master_id),
					 errdetail("The key was wrapped for %s.", what)));
	}
	return wrapped;
}

bool
pqfdw_kms_master_available(const char *kms_command, const char *master_id)
{
	const char *command = effective_command(kms_command);

	check_master_id(command, master_id);
	return command ? pqfdw_key_usable(master_id) :
		pqfdw_key_available(master_id);
}

const char *
pqfdw_kms_identity(const char *kms_command)
{
	const char *command = effective_command(kms_command);

	return command ? psprintf("command:%s", command) :
		psprintf("store:%s", pqfdw_key_directory ? pqfdw_key_directory : "");
}
