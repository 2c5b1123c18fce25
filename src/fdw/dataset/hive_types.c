/*-------------------------------------------------------------------------
 *
 * hive_types.c
 *		The types IMPORT FOREIGN SCHEMA and create_table_sql declare hive
 *		partition columns with, from the values in the paths: bigint when
 *		every value is an integer, else date, else timestamp, else text (as
 *		DuckDB's hive_types_autocast).  The default partition (NULL) fits
 *		any type.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/dataset/dataset.h"

static bool
digits(const char *s, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static int
number(const char *s, int n)
{
	int			v = 0;
	int			i;

	for (i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* YYYY-MM-DD naming a day of the proleptic Gregorian calendar. */
static bool
is_date(const char *s)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			y;
	int			m;
	int			d;

	if (strlen(s) < 10 || !digits(s, 4) || s[4] != '-' || !digits(s + 5, 2) ||
		s[7] != '-' || !digits(s + 8, 2))
		return false;
	y = number(s, 4);
	m = number(s + 5, 2);
	d = number(s + 8, 2);
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	return m != 2 || d < 29 || (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

/* A date, then ' ' or 'T', HH:MM[:SS[.fraction]]. */
static bool
is_timestamp(const char *s)
{
	const char *t = s + 10;
	int			len;

	if (!is_date(s) || (*t != ' ' && *t != 'T'))
		return false;
	t++;
	len = strlen(t);
	if (len < 5 || !digits(t, 2) || t[2] != ':' || !digits(t + 3, 2) ||
		number(t, 2) > 23 || number(t + 3, 2) > 59)
		return false;
	t += 5;
	if (*t == '\0')
		return true;
	if (*t != ':' || !digits(t + 1, 2) || number(t + 1, 2) > 59)
		return false;
	t += 3;
	if (*t == '.')
	{
		t++;
		if (*t == '\0')
			return false;
		while (*t >= '0' && *t <= '9')
			t++;
	}
	return *t == '\0';
}

Oid
pqfdw_hive_key_type(const PqfdwHivePath *parsed, int nfiles, int key)
{
	bool		ints = true;
	bool		dates = true;
	bool		stamps = true;
	int			f;

	for (f = 0; f < nfiles; f++)
	{
		const char *v = parsed[f].values[key];
		int64		n;

		if (v == NULL)
			continue;
		ints = ints && pqfdw_parse_int64(v, PG_INT64_MIN, PG_INT64_MAX, &n);
		dates = dates && strlen(v) == 10 && is_date(v);
		stamps = stamps && is_timestamp(v);
	}
	if (ints)
		return INT8OID;
	if (dates)
		return DATEOID;
	if (stamps)
		return TIMESTAMPOID;
	return TEXTOID;
}
