/*-------------------------------------------------------------------------
 *
 * keys.h
 *		Encryption keys named by id: the server-side key store, access
 *		checks and the key lookup the format layer's decryption calls.
 *
 * Key material lives only in files of the key directory
 * (parquet_fdw.key_directory, 0600, owned by the server): SQL names key
 * ids, never keys, so no statement text, log line, plan or error message
 * can carry key material.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQFDW_KEYS_H
#define PQFDW_KEYS_H

#include "fdw/remote/remote.h"
#include "format/read/file_crypto.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/guc.h"

extern char *pqfdw_key_directory;

/*
 * Key ids for a table or a COPY: the footer key and per-column keys
 * ("path:id, path:id"; dotted Parquet paths), an AAD prefix, and the
 * kms_command for key material (NULL: parquet_fdw.kms_command).  Any may
 * be NULL.  Returns the decryption config for the format layer.
 */
extern PqDecryptionConfig *pqfdw_decryption_config(const char *footer_key,
												   const char *column_keys,
												   const char *aad_prefix,
												   const char *kms_command);

/*
 * base (NULL: keys only from key metadata) for files behind URLs reached
 * as id: external key material is read from beside the object.
 */
extern const PqDecryptionConfig *pqfdw_decryption_for_remote(const PqDecryptionConfig *base,
															 const PqfdwRemoteId *id);

/* Parse "path:id, ..." into a List of two-element string Lists. */
extern List *pqfdw_parse_column_keys(const char *column_keys);

/*
 * Parse kms_column_keys "master_id: col, col; master_id2: col" (parquet-java's
 * parquet.encryption.column.keys) into (column, master key id) Lists.
 */
extern List *pqfdw_parse_master_column_keys(const char *value);

/* Is id a valid key id (a file name in the key directory)? */
extern bool pqfdw_key_id_valid(const char *id);

/*
 * ERROR unless id is a valid key id; option names the option that gave it,
 * or is NULL for a function's argument.
 */
extern void pqfdw_check_key_id(const char *id, const char *option);

/*
 * Load key id into out for use by the current user (superuser, or granted
 * with parquet_fdw.grant_key()).  purpose names what it is for in errors.
 */
extern void pqfdw_load_key(const char *id, const char *purpose, PqKey *out);

/*
 * Whether key id is registered and the current user may use it (no error
 * either way; for keys that are only optional).
 */
extern bool pqfdw_key_available(const char *id);

/* Whether the current user may use key id (registered or not). */
extern bool pqfdw_key_usable(const char *id);

/* ERROR unless the current user may use key id; purpose as above. */
extern void pqfdw_check_key_usable(const char *id, const char *purpose);

/*
 * ERROR unless the current user is a superuser or path, with
 * symlinks and ".." resolved, is outside the key directory: COPY's check,
 * for roles with pg_read_server_files or pg_write_server_files.
 */
extern void pqfdw_check_not_key_directory(const char *path, bool is_from);

/* Whether path, resolved (links, "..", relative to PGDATA), is in it. */
extern bool pqfdw_in_key_directory(const char *path);

/* kms.c, kms_command.c, kek_cache.c: the KMS of key tools' key material */

extern char *pqfdw_kms_command;
extern int	pqfdw_kms_command_timeout;
extern int	pqfdw_kek_cache_lifetime;

/* One run of kms_command (see kms_command.c for its interface). */
typedef struct PqKmsCall
{
	const char *command;
	bool		wrap;			/* else unwrap */
	const char *master_id;
	const char *kms_url;
	const char *input;			/* the wrapped key, or the key in base64 */
} PqKmsCall;

/*
 * Characters a value substituted into kms_command may hold: letters,
 * digits and these, which the shell treats as ordinary characters whether
 * quoted or not.  Enough for key ids, ARNs, Vault paths, URLs and base64.
 */
#define PQFDW_KMS_SAFE_PUNCTUATION "._-:/@+=,~"
extern bool pqfdw_kms_value_safe(const char *v);

/*
 * An ERROR when kms_command has a placeholder (%o, %i, %u, %k) inside
 * quotes or after a backslash, where the shell would interpret the value
 * parquet_fdw quoted; the check hook of parquet_fdw.kms_command.
 */
extern void pqfdw_check_kms_command(const char *command);
extern bool pqfdw_kms_command_check_hook(char **newval, void **extra,
										 GucSource source);

/* The command's stdout without its final newline (palloc'd). */
extern char *pqfdw_run_kms_command(const PqKmsCall *call);

/*
 * Unwrap wrapped (as stored in key material) or wrap key with master key
 * master_id of the KMS: kms_command's (NULL: parquet_fdw.kms_command), or
 * the key store's when neither is set.  kms_url is %u of the command; what
 * names what the key is for in errors.
 */
extern void pqfdw_kms_unwrap(const char *kms_command, const char *master_id,
							 const char *kms_url, const char *wrapped,
							 const char *what, PqKey *out);
extern char *pqfdw_kms_wrap(const char *kms_command, const char *master_id,
							const char *kms_url, const PqKey *key,
							const char *what);

/*
 * Whether the user may use master key master_id and, for the key store,
 * whether it is registered (no error either way; for optional keys).
 */
extern bool pqfdw_kms_master_available(const char *kms_command,
									   const char *master_id);

/* Which KMS kms_command means, as the KEK cache tells KMSs apart. */
extern const char *pqfdw_kms_identity(const char *kms_command);

/*
 * AES-GCM key wrapping of key tools (KeyToolkit.encryptKeyLocally): base64
 * of nonce, ciphertext and tag.  Unwrapping returns false when wrapped is
 * not such a key of 16, 24 or 32 bytes; a tag that does not verify is an
 * ERROR naming what.
 */
extern char *pqfdw_wrap_locally(const PqKey *key, const PqKey *kek,
								const uint8 *aad, int aad_len);
extern bool pqfdw_unwrap_locally(const char *wrapped, const PqKey *kek,
								 const uint8 *aad, int aad_len,
								 const char *what, PqKey *out);
extern uint8 *pqfdw_decode_base64(const char *s, int *len);
extern char *pqfdw_encode_base64(const uint8 *p, int len);

/*
 * Unwrapped KEKs by (KMS, master key id, KEK id, wrapped KEK), for
 * parquet_fdw.kek_cache_lifetime seconds.  _current finds the KEK this
 * backend made for writing with a master key (put with own), and its
 * wrapped form.
 */
extern bool pqfdw_kek_cache_get(const char *kms, const char *master_id,
								const char *kek_id, const char *wrapped_kek,
								PqKey *out);
extern bool pqfdw_kek_cache_current(const char *kms, const char *master_id,
									char **kek_id, char **wrapped_kek,
									PqKey *out);
extern void pqfdw_kek_cache_put(const char *kms, const char *master_id,
								const char *kek_id, const char *wrapped_kek,
								bool own, const PqKey *kek);

/* key_material.c: keys of files written with parquet-java/Arrow key tools */

/*
 * The KMS of a table or COPY, and the KMS instance URL the footer key
 * material of the file read last named (column key material has none).
 */
typedef struct PqKmsContext
{
	PqfdwRemoteId remote;		/* reaches key material beside objects */
	const char *command;		/* kms_command; NULL: parquet_fdw.kms_command */
	MemoryContext cxt;			/* holds file and url */
	char	   *file;
	char	   *url;
} PqKmsContext;

/* Whether key_metadata holds key material (JSON) rather than a key id. */
extern bool pqfdw_is_key_material(const PqBytes *key_metadata);

/*
 * The master key id of key material (an ERROR if it is malformed), or NULL
 * when its external key material file is missing.  where names the footer
 * or column and its file in errors ("column "a" of Parquet file "f"").
 */
extern char *pqfdw_key_material_master(const PqKmsContext *kms,
									   const PqBytes *key_metadata,
									   const char *file, const char *where);

/*
 * The data key that key material unwraps (from key_metadata, or the key
 * material file beside Parquet file file) with the KMS's master keys.
 */
extern void pqfdw_key_from_material(const PqBytes *key_metadata,
									const char *file, const char *where,
									PqKmsContext *kms, PqKey *out);

/* key_material_write.c: key material of the files COPY TO writes */

typedef struct PqKeyMaterialWriter
{
	const char *kms_url;		/* kmsInstanceURL, %u of kms_command */
	bool		double_wrapping;
	bool		internal;		/* else _KEY_MATERIAL_FOR_<file>.json */
	List	   *keks;			/* the file's KEK per master key */
	StringInfoData external;	/* the external file's JSON so far */
	int			n_columns;		/* column keys stored externally */
} PqKeyMaterialWriter;

extern PqKeyMaterialWriter *pqfdw_key_material_writer(const char *kms_url,
													  bool double_wrapping,
													  bool internal);

/*
 * A fresh data key in dek, wrapped with master key master_id; returns the
 * key_metadata to store (the material, or a reference to it).  what names
 * the footer or column in errors.
 */
extern char *pqfdw_new_key_material(PqKeyMaterialWriter *w,
									const char *master_id, bool footer,
									const char *what, PqKey *dek);

/* Wipe the KEKs the writer holds. */
extern void pqfdw_key_material_writer_forget(PqKeyMaterialWriter *w);

/* "_KEY_MATERIAL_FOR_<name>.json" beside Parquet file file. */
extern char *pqfdw_key_material_path(const char *file);

/* Write the external key material of Parquet file file (if any). */
extern void pqfdw_write_key_material_file(PqKeyMaterialWriter *w,
										  const char *file);

/*
 * The same beside the object at url, written as id's role in one request
 * (before the object, which must never appear without it).
 */
extern void pqfdw_write_key_material_object(PqKeyMaterialWriter *w,
											const PqfdwRemoteId *id,
											const char *url);

#endif							/* PQFDW_KEYS_H */
