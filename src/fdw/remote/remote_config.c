/*-------------------------------------------------------------------------
 *
 * remote_config.c
 *		The store settings a role reaches URLs with: a foreign server's
 *		options and the credentials of the role's user mapping, as
 *		postgres_fdw finds a connection's.
 *
 * A role without a user mapping on the server (its own or PUBLIC's) may
 * not reach URLs through it, so that one role never uses another's
 * credentials.  A mapping without keys or tokens means anonymous requests
 * (public buckets), unless the server's use_credential_chain is on: then
 * the server process's own credentials are used, for members of
 * parquet_fdw.object_store_role (and superusers) only.  Anonymous requests
 * never look at the environment, so unrelated AWS variables of the server
 * cannot break reading a public bucket.
 *
 * Settings are cached per (server, role) and dropped when any server or
 * user mapping changes; a stale entry is freed at the next lookup, never
 * in the invalidation callback, which may run while a caller holds it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "access/htup_details.h"
#include "access/reloptions.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "fdw/remote/remote.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

char	   *pqfdw_object_store_role = NULL;

#define CHAIN_RENEW_SECONDS 300

typedef struct ConfigEntry
{
	PqfdwRemoteId key;
	PqStoreConfig config;
	int			listing_ttl_ms;
	MemoryContext cxt;			/* the strings of config */
	bool		chain;			/* with the server process's credentials */
	int64		expires_at;		/* theirs (Unix seconds); 0: never */
	bool		stale;
} ConfigEntry;

static HTAB *configs = NULL;
static bool any_stale = false;

static void
invalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS seq;
	ConfigEntry *e;

	hash_seq_init(&seq, configs);
	while ((e = hash_seq_search(&seq)) != NULL)
		e->stale = true;
	any_stale = true;
}

static void
drop_stale(void)
{
	HASH_SEQ_STATUS seq;
	ConfigEntry *e;

	if (!any_stale)
		return;
	hash_seq_init(&seq, configs);
	while ((e = hash_seq_search(&seq)) != NULL)
		if (e->stale)
		{
			MemoryContextDelete(e->cxt);
			hash_search(configs, &e->key, HASH_REMOVE, NULL);
		}
	any_stale = false;
}

static void
init_cache(void)
{
	HASHCTL		ctl;

	ctl.keysize = sizeof(PqfdwRemoteId);
	ctl.entrysize = sizeof(ConfigEntry);
	configs = hash_create("parquet_fdw store settings", 16, &ctl,
						  HASH_ELEM | HASH_BLOBS);
	CacheRegisterSyscacheCallback(FOREIGNSERVEROID, invalidate, (Datum) 0);
	CacheRegisterSyscacheCallback(USERMAPPINGOID, invalidate, (Datum) 0);
}

/* The options of userid's user mapping on serverid, else PUBLIC's; NIL. */
static List *
mapping_options(Oid userid, Oid serverid, bool *found)
{
	HeapTuple	tp;
	Datum		datum;
	bool		isnull;
	List	   *options = NIL;

	tp = SearchSysCache2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(userid),
						 ObjectIdGetDatum(serverid));
	if (!HeapTupleIsValid(tp))
		tp = SearchSysCache2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(InvalidOid),
							 ObjectIdGetDatum(serverid));
	*found = HeapTupleIsValid(tp);
	if (!*found)
		return NIL;
	datum = SysCacheGetAttr(USERMAPPINGUSERSERVER, tp,
							Anum_pg_user_mapping_umoptions, &isnull);
	if (!isnull)
		options = untransformRelOptions(datum);
	ReleaseSysCache(tp);
	return options;
}

static int
duration_ms(DefElem *def)
{
	int			ms = 0;

	(void) parse_int(defGetString(def), &ms, GUC_UNIT_MS, NULL);
	return ms;
}

/* May the current role use the server process's own credentials? */
static void
check_chain_permission(Oid serverid, Oid userid)
{
	Oid			role = pqfdw_object_store_role && pqfdw_object_store_role[0] ?
	get_role_oid(pqfdw_object_store_role, true) : InvalidOid;

	if (superuser_arg(userid) ||
		(OidIsValid(role) && has_privs_of_role(userid, role)))
		return;
	if (!OidIsValid(serverid))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to use the credentials of the database server"),
				 errdetail("A URL named without a foreign server is reached with the server process's own credentials."),
				 errhint("Name a parquet_fdw foreign server whose options and your user mapping reach the store (COPY's option server, the functions' argument server), or make the role a member of the role named by parquet_fdw.object_store_role (\"%s\").",
						 pqfdw_object_store_role ? pqfdw_object_store_role : "")));
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to use the credentials of the database server through server \"%s\"",
					GetForeignServer(serverid)->servername),
			 errhint("Give the role a user mapping with its own keys, or make it a member of the role named by parquet_fdw.object_store_role (\"%s\").",
					 pqfdw_object_store_role ? pqfdw_object_store_role : "")));
}

static void
build(ConfigEntry *e)
{
	ForeignServer *server = GetForeignServer(e->key.serverid);
	PqStoreConfig *c = &e->config;
	bool		found;
	bool		chain = false;
	const char *profile = NULL;
	bool		has_key = false;
	List	   *um;
	ListCell   *lc;

	pq_store_config_init(c);
	e->listing_ttl_ms = 0;
	foreach(lc, server->options)
	{
		DefElem    *def = lfirst(lc);
		const char *name = def->defname;

		if (strcmp(name, "endpoint") == 0)
			c->s3.endpoint = c->azure.endpoint = pstrdup(defGetString(def));
		else if (strcmp(name, "region") == 0)
			c->s3.region = pstrdup(defGetString(def));
		else if (strcmp(name, "url_style") == 0)
			c->s3.path_style = strcmp(defGetString(def), "path") == 0;
		else if (strcmp(name, "ca_file") == 0)
			c->http.ca_file = pstrdup(defGetString(def));
		else if (strcmp(name, "connect_timeout") == 0)
			c->http.connect_timeout_ms = duration_ms(def);
		else if (strcmp(name, "request_timeout") == 0)
			c->http.idle_timeout_ms = duration_ms(def);
		else if (strcmp(name, "max_connections") == 0)
			c->http.max_in_flight = pg_strtoint32(defGetString(def));
		else if (strcmp(name, "max_retries") == 0)
			c->http.max_retries = pg_strtoint32(defGetString(def));
		else if (strcmp(name, "listing_cache_ttl") == 0)
			e->listing_ttl_ms = duration_ms(def);
		else if (strcmp(name, "use_credential_chain") == 0)
			chain = defGetBoolean(def);
		else if (strcmp(name, "profile") == 0)
			profile = pstrdup(defGetString(def));
		else if (strcmp(name, "allow_link_local") == 0)
			c->http.allow_link_local = defGetBoolean(def);
		else if (strcmp(name, "account") == 0)
			c->azure.account = pstrdup(defGetString(def));
	}

	um = mapping_options(e->key.userid, e->key.serverid, &found);
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("user mapping not found for role \"%s\" on server \"%s\"",
						GetUserNameFromId(e->key.userid, false),
						server->servername),
				 errdetail("Files behind URLs are read with the credentials of the role's user mapping."),
				 errhint("Create one with CREATE USER MAPPING FOR ... SERVER %s OPTIONS (key_id '...', secret '...'), or without options for public objects.",
						 quote_identifier(server->servername))));
	foreach(lc, um)
	{
		DefElem    *def = lfirst(lc);
		const char *name = def->defname;
		char	   *value = pstrdup(defGetString(def));

		if (strcmp(name, "key_id") == 0)
			c->s3.key_id = value;
		else if (strcmp(name, "secret") == 0)
			c->s3.secret = value;
		else if (strcmp(name, "session_token") == 0)
			c->s3.session_token = value;
		else if (strcmp(name, "account_key") == 0)
			c->azure.account_key = value;
		else if (strcmp(name, "sas_token") == 0)
			c->azure.sas_token = value;
		else
			continue;
		has_key = true;
	}
	e->chain = !has_key && chain;
	e->expires_at = 0;
	if (e->chain)
	{
		check_chain_permission(e->key.serverid, e->key.userid);
		e->expires_at = pqfdw_remote_chain_credentials(c, profile);
	}
}

/*
 * No server: the server process's own credentials and endpoint, as the AWS
 * SDKs find them, for the roles that may use them.
 */
static void
build_serverless(ConfigEntry *e)
{
	pq_store_config_init(&e->config);
	e->listing_ttl_ms = 0;
	check_chain_permission(InvalidOid, e->key.userid);
	e->chain = true;
	e->expires_at = pqfdw_remote_chain_credentials(&e->config, NULL);
	pqfdw_remote_chain_endpoint(&e->config);
}

static ConfigEntry *
lookup(const PqfdwRemoteId *id)
{
	ConfigEntry *e;
	bool		found;

	if (configs == NULL)
		init_cache();
	drop_stale();
	e = hash_search(configs, id, HASH_FIND, NULL);
	/* temporary credentials are found again five minutes before they end */
	if (e != NULL && e->expires_at != 0 &&
		(int64) time(NULL) >= e->expires_at - CHAIN_RENEW_SECONDS)
	{
		MemoryContextDelete(e->cxt);
		hash_search(configs, id, HASH_REMOVE, NULL);
	}
	e = hash_search(configs, id, HASH_ENTER, &found);
	if (!found)
	{
		MemoryContext old;

		e->cxt = AllocSetContextCreate(CacheMemoryContext,
									   "parquet_fdw store settings",
									   ALLOCSET_SMALL_SIZES);
		e->stale = false;
		old = MemoryContextSwitchTo(e->cxt);
		PG_TRY();
		{
			if (OidIsValid(id->serverid))
				build(e);
			else
				build_serverless(e);
		}
		PG_CATCH();
		{
			MemoryContextSwitchTo(old);
			MemoryContextDelete(e->cxt);
			hash_search(configs, id, HASH_REMOVE, NULL);
			PG_RE_THROW();
		}
		PG_END_TRY();
		MemoryContextSwitchTo(old);
	}
	else if (e->chain)
		check_chain_permission(id->serverid, id->userid);
	return e;
}

const PqStoreConfig *
pqfdw_remote_config(const PqfdwRemoteId *id)
{
	return &lookup(id)->config;
}

int
pqfdw_remote_listing_ttl(const PqfdwRemoteId *id)
{
	return lookup(id)->listing_ttl_ms;
}
