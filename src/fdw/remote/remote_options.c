/*-------------------------------------------------------------------------
 *
 * remote_options.c
 *		Validation of the server and user mapping options that reach object
 *		stores.
 *
 * Secrets (secret, session_token, account_key, sas_token) are checked for
 * shape only, and no message ever shows their values: a mistyped option
 * ends in the server log with the statement, but never with our help.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_authid.h"
#include "catalog/pg_foreign_server.h"
#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "common/base64.h"
#include "fdw/remote/remote.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"

typedef enum RemoteOptionKind
{
	OPT_ENDPOINT,
	OPT_REGION,
	OPT_URL_STYLE,
	OPT_CA_FILE,
	OPT_DURATION,
	OPT_COUNT,
	OPT_BOOL,
	OPT_LINK_LOCAL,
	OPT_ACCOUNT,
	OPT_PROFILE,
	OPT_KEY_ID,
	OPT_SECRET,
	OPT_ACCOUNT_KEY
} RemoteOptionKind;

typedef struct RemoteOption
{
	const char *name;
	Oid			catalog;
	RemoteOptionKind kind;
	int			min;			/* OPT_DURATION (ms) and OPT_COUNT */
	int			max;
} RemoteOption;

static const RemoteOption remote_options[] = {
	{"endpoint", ForeignServerRelationId, OPT_ENDPOINT},
	{"region", ForeignServerRelationId, OPT_REGION},
	{"url_style", ForeignServerRelationId, OPT_URL_STYLE},
	{"ca_file", ForeignServerRelationId, OPT_CA_FILE},
	{"connect_timeout", ForeignServerRelationId, OPT_DURATION, 1, 3600 * 1000},
	{"request_timeout", ForeignServerRelationId, OPT_DURATION, 1, 3600 * 1000},
	{"max_connections", ForeignServerRelationId, OPT_COUNT, 1, 64},
	{"max_retries", ForeignServerRelationId, OPT_COUNT, 0, 20},
	{"listing_cache_ttl", ForeignServerRelationId, OPT_DURATION, 0, 86400 * 1000},
	{"use_credential_chain", ForeignServerRelationId, OPT_BOOL},
	{"profile", ForeignServerRelationId, OPT_PROFILE},
	{"allow_link_local", ForeignServerRelationId, OPT_LINK_LOCAL},
	{"account", ForeignServerRelationId, OPT_ACCOUNT},
	{"key_id", UserMappingRelationId, OPT_KEY_ID},
	{"secret", UserMappingRelationId, OPT_SECRET},
	{"session_token", UserMappingRelationId, OPT_SECRET},
	{"account_key", UserMappingRelationId, OPT_ACCOUNT_KEY},
	{"sas_token", UserMappingRelationId, OPT_SECRET},
	{NULL}
};

static const RemoteOption *
find_option(const char *name, Oid catalog)
{
	const RemoteOption *o;

	for (o = remote_options; o->name; o++)
		if (o->catalog == catalog && strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

bool
pqfdw_remote_option(const char *name, Oid catalog)
{
	return find_option(name, catalog) != NULL;
}

void
pqfdw_remote_option_names(Oid catalog, StringInfo buf)
{
	const RemoteOption *o;

	for (o = remote_options; o->name; o++)
		if (o->catalog == catalog)
			appendStringInfo(buf, "%s%s", buf->len > 0 ? ", " : "", o->name);
}

static void
invalid_value(const char *name, const char *value, const char *hint)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for option \"%s\": \"%s\"", name, value),
			 errhint("%s", hint)));
}

/* A secret's value is never shown, even when it is wrong. */
static void
invalid_secret(const char *name, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for option \"%s\"", name),
			 errdetail("%s", why)));
}

/* Printable ASCII only: values go into request headers and URLs. */
static bool
printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s < 0x21 || (unsigned char) *s > 0x7e)
			return false;
	return true;
}

static void
check_endpoint(const char *value)
{
	PqUrl	   *u;

	if (!printable(value) ||
		(strncmp(value, "http://", 7) != 0 && strncmp(value, "https://", 8) != 0))
		invalid_value("endpoint", value,
					  "Give an http:// or https:// URL such as https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000.");
	u = pq_url_parse(value);
	if (u->query != NULL || strchr(value, '#') != NULL || strchr(u->host, '@') != NULL)
		invalid_value("endpoint", value,
					  "Give the scheme, host, port and path of the store only: no query, fragment or user name.");
}

static void
check_duration(const RemoteOption *o, const char *value)
{
	int			ms;
	const char *hint = NULL;

	if (!parse_int(value, &ms, GUC_UNIT_MS, &hint) || ms < o->min || ms > o->max)
		invalid_value(o->name, value,
					  psprintf("Give a time from %d ms to %d s, such as 500ms or 30s (a number alone is milliseconds).",
							   o->min, o->max / 1000));
}

static void
check_count(const RemoteOption *o, const char *value)
{
	int			n;

	if (!parse_int(value, &n, 0, NULL) || n < o->min || n > o->max)
		invalid_value(o->name, value,
					  psprintf("Give a whole number from %d to %d.", o->min, o->max));
}

static void
check_region(const char *value)
{
	const char *p;

	for (p = value; *p; p++)
		if (!(islower((unsigned char) *p) || isdigit((unsigned char) *p) || *p == '-'))
			break;
	if (*p != '\0' || p == value || p - value > 64)
		invalid_value("region", value,
					  "Give a region name such as eu-west-1 (lower-case letters, digits and hyphens).");
}

static void
check_account(const char *value)
{
	const char *p;

	for (p = value; *p; p++)
		if (!(islower((unsigned char) *p) || isdigit((unsigned char) *p)))
			break;
	if (*p != '\0' || p - value < 3 || p - value > 24)
		invalid_value("account", value,
					  "Azure storage account names are 3 to 24 lower-case letters and digits.");
}

void
pqfdw_remote_check_option(DefElem *def, Oid catalog)
{
	const RemoteOption *o = find_option(def->defname, catalog);
	char	   *value = defGetString(def);

	Assert(o != NULL);
	switch (o->kind)
	{
		case OPT_ENDPOINT:
			check_endpoint(value);
			break;
		case OPT_REGION:
			check_region(value);
			break;
		case OPT_URL_STYLE:
			if (strcmp(value, "path") != 0 && strcmp(value, "vhost") != 0)
				invalid_value(o->name, value,
							  "Give path (endpoint/bucket/key, as MinIO and most local stores want) or vhost (bucket.endpoint/key, as AWS prefers).");
			break;
		case OPT_CA_FILE:
			if (!is_absolute_path(value))
				invalid_value(o->name, value, "Give the absolute path of a PEM file of CA certificates.");
			if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("permission denied to set option \"ca_file\""),
						 errhint("Only superusers and roles with privileges of the pg_read_server_files role may name files on the server.")));
			break;
		case OPT_DURATION:
			check_duration(o, value);
			break;
		case OPT_COUNT:
			check_count(o, value);
			break;
		case OPT_BOOL:
			(void) defGetBoolean(def);
			break;
		case OPT_LINK_LOCAL:
			if (defGetBoolean(def) && !superuser())
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("permission denied to set option \"allow_link_local\""),
						 errdetail("Link-local addresses such as 169.254.169.254 serve the machine's own credentials."),
						 errhint("Only superusers may let URLs reach link-local addresses.")));
			break;
		case OPT_ACCOUNT:
			check_account(value);
			break;
		case OPT_PROFILE:
			if (!printable(value) || strlen(value) > 64 || strpbrk(value, "[]") != NULL)
				invalid_value(o->name, value, "Give the name of a profile of the server's AWS shared credentials or config file.");
			break;
		case OPT_KEY_ID:
			if (!printable(value) || strlen(value) > 256 || value[0] == '\0')
				invalid_value(o->name, value, "Give the access key id as the store shows it.");
			break;
		case OPT_SECRET:
			if (value[0] == '\0' || strlen(value) > 8192 ||
				!printable(value))
				invalid_secret(o->name, "It must be 1 to 8192 printable ASCII characters.");
			break;
		case OPT_ACCOUNT_KEY:
			{
				int			len = strlen(value);
				int			n = pg_b64_dec_len(len);
				char	   *dst = palloc(n + 1);

				if (len == 0 || len > 1024 ||
					pg_b64_decode(value, len, (void *) dst, n) <= 0)
					invalid_secret(o->name, "It must be the base64 key the Azure portal shows.");
			}
			break;
	}
}

void
pqfdw_remote_check_options(List *options, Oid catalog)
{
	bool		key_id = false;
	bool		secret = false;
	bool		token = false;
	ListCell   *lc;

	if (catalog != UserMappingRelationId)
		return;
	foreach(lc, options)
	{
		DefElem    *def = lfirst(lc);

		key_id |= strcmp(def->defname, "key_id") == 0;
		secret |= strcmp(def->defname, "secret") == 0;
		token |= strcmp(def->defname, "session_token") == 0;
	}
	if (key_id != secret)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("options \"key_id\" and \"secret\" must be given together")));
	if (token && !key_id)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("option \"session_token\" needs \"key_id\" and \"secret\"")));
}
