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

#include "format/read/file_crypto.h"
#include "nodes/pg_list.h"

extern char *pqfdw_key_directory;

/*
 * Key ids for a table or a COPY: the footer key and per-column keys
 * ("path:id, path:id"; dotted Parquet paths), and an AAD prefix.  Any may
 * be NULL.  Returns the decryption config for the format layer.
 */
extern PqDecryptionConfig *pqfdw_decryption_config(const char *footer_key,
												   const char *column_keys,
												   const char *aad_prefix);

/* Parse "path:id, ..." into a List of two-element string Lists. */
extern List *pqfdw_parse_column_keys(const char *column_keys);

/* Check that s is a valid key id (an ERROR naming what otherwise). */
extern void pqfdw_check_key_id(const char *id, const char *what);

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

/* key_material.c: keys of files written with parquet-java/Arrow key tools */

/* Whether key_metadata holds key material (JSON) rather than a key id. */
extern bool pqfdw_is_key_material(const PqBytes *key_metadata);

/*
 * The data key that key material unwraps (from key_metadata, or the key
 * material file beside Parquet file file), with master keys of the key
 * store; what names the footer or column in errors.
 */
extern void pqfdw_key_from_material(const PqBytes *key_metadata,
									const char *file, const char *what,
									PqKey *out);

#endif							/* PQFDW_KEYS_H */
