/*-------------------------------------------------------------------------
 *
 * log_names.c
 *		Names in a Delta table: the files of _delta_log by kind and
 *		version, and the percent-encoded paths of add actions.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "table/delta/delta_log.h"

/* 20 digits, exactly: the version, in range. */
static bool
version_digits(const char *s, int64 *version)
{
	int64		v = 0;
	int			i;

	for (i = 0; i < 20; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (PG_INT64_MAX - (s[i] - '0')) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*version = v;
	return true;
}

/* n digits exactly as a positive int */
static bool
part_digits(const char *s, int n, int *out)
{
	int			v = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9' || v > (PG_INT32_MAX - 9) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return v > 0;
}

PqDeltaLogFile
pq_delta_log_file(const char *name, int64 *version, int *part, int *parts)
{
	const char *rest = name + 20;
	size_t		len = strlen(name);

	*part = *parts = 0;
	if (len < 25 || !version_digits(name, version))
		return PQ_DELTA_LOG_OTHER;
	if (strcmp(rest, ".json") == 0)
		return PQ_DELTA_LOG_COMMIT;
	if (strncmp(rest, ".checkpoint.", 12) != 0)
	{
		if (strcmp(rest, ".checkpoint.parquet") == 0)
			return PQ_DELTA_LOG_CHECKPOINT;
		return PQ_DELTA_LOG_OTHER;
	}
	rest += 12;
	if (strcmp(rest, "parquet") == 0)
		return PQ_DELTA_LOG_CHECKPOINT;
	/* 0000000001.0000000003.parquet */
	if (strlen(rest) == 29 && rest[10] == '.' &&
		strcmp(rest + 21, ".parquet") == 0 &&
		part_digits(rest, 10, part) && part_digits(rest + 11, 10, parts) &&
		*part <= *parts)
		return PQ_DELTA_LOG_CHECKPOINT_PART;
	*part = *parts = 0;
	/* <uuid>.json or <uuid>.parquet */
	if (strlen(rest) == 36 + 5 && strcmp(rest + 36, ".json") == 0)
		return PQ_DELTA_LOG_CHECKPOINT_V2_JSON;
	if (strlen(rest) == 36 + 8 && strcmp(rest + 36, ".parquet") == 0)
		return PQ_DELTA_LOG_CHECKPOINT_V2_PARQUET;
	return PQ_DELTA_LOG_OTHER;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *
pq_delta_decode_path(const char *path)
{
	size_t		len = strlen(path);
	char	   *out = palloc(len + 1);
	size_t		i;
	size_t		n = 0;

	for (i = 0; i < len; i++)
	{
		if (path[i] == '%')
		{
			int			hi,
						lo;

			if (i + 2 >= len ||
				(hi = hex_digit(path[i + 1])) < 0 ||
				(lo = hex_digit(path[i + 2])) < 0 ||
				(hi == 0 && lo == 0))
				return NULL;
			out[n++] = (char) (hi * 16 + lo);
			i += 2;
		}
		else
			out[n++] = path[i];
	}
	out[n] = '\0';
	return out;
}
