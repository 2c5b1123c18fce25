/*-------------------------------------------------------------------------
 *
 * abort_uploads.c
 *		parquet_fdw.abort_uploads(): the multipart uploads a store still
 *		holds below a prefix, aborted.
 *
 * COPY TO a URL aborts its own uploads on an ERROR, a cancel and a
 * backend's exit; only a backend killed outright (SIGKILL, a crash) leaves
 * one behind, invisible but stored.  This function removes such leftovers
 * older than older_than, so that a COPY still running is not disturbed
 * (its uploads are younger), as a bucket lifecycle rule
 * (AbortIncompleteMultipartUpload) does by age.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/common/table_options.h"
#include "fdw/copy/copy_to.h"
#include "fmgr.h"
#include "funcapi.h"
#include "io/aws/credential_answers.h"
#include "io/common/url.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

PG_FUNCTION_INFO_V1(parquet_fdw_abort_uploads);

/* An ISO 8601 time from the store, or 0 (the epoch) when it is not one. */
static TimestampTz
initiated_at(const char *s)
{
	int64		unix_seconds;
	const char *why;

	if (s == NULL || !pq_aws_parse_time(s, &unix_seconds, &why))
		return 0;
	return time_t_to_timestamptz((pg_time_t) unix_seconds);
}

/*
 * A URL as text of the database's encoding: a key not valid in it (another
 * writer's bytes) shown with its bytes above ASCII as \xNN.
 */
static text *
url_text(const char *url)
{
	StringInfoData b;
	const unsigned char *c;

	if (pg_verifymbstr(url, strlen(url), true))
		return cstring_to_text(url);
	initStringInfo(&b);
	for (c = (const unsigned char *) url; *c; c++)
		if (*c >= 0x80)
			appendStringInfo(&b, "\\x%02X", *c);
		else
			appendStringInfoChar(&b, (char) *c);
	return cstring_to_text(b.data);
}

Datum
parquet_fdw_abort_uploads(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *prefix;
	PqfdwRemoteId id;
	PqUrl	   *u;
	Interval   *older_than;
	TimestampTz now = GetCurrentTimestamp();
	TimestampTz cutoff;
	PqS3UploadPage uploads;
	int			i;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	prefix = text_to_cstring(PG_GETARG_TEXT_PP(0));
	older_than = PG_GETARG_INTERVAL_P(2);
	if (!pq_url_is_remote(prefix))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not an s3:// or gs:// URL", prefix)));
	u = pq_url_parse(prefix);
	id.serverid = pqfdw_url_server(PG_ARGISNULL(1) ? NULL :
								   NameStr(*PG_GETARG_NAME(1)));
	id.userid = GetUserId();
	cutoff = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_mi_interval,
													 TimestampTzGetDatum(now),
													 IntervalPGetDatum(older_than)));
	InitMaterializedSRF(fcinfo, 0);
	pqfdw_remote_list_uploads(&id, prefix, &uploads);
	for (i = 0; i < uploads.n; i++)
	{
		PqS3Upload *up = &uploads.uploads[i];
		TimestampTz at = initiated_at(up->initiated);
		char	   *url = pqfdw_remote_key_url(u, up->key);
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		CHECK_FOR_INTERRUPTS();
		/* an upload of unknown age only when every age is asked for */
		if (at == 0 ? cutoff < now : at > cutoff)
			continue;
		pqfdw_remote_abort_upload(&id, url, up->upload_id);
		values[0] = PointerGetDatum(url_text(pq_url_parse(url)->display));
		values[1] = CStringGetTextDatum(up->upload_id);
		values[2] = TimestampTzGetDatum(at);
		nulls[2] = at == 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
