/*-------------------------------------------------------------------------
 *
 * naming.c
 *		Names in a dataset COPY TO writes: hive folder segments
 *		(column=value), the text of a partition value, numbered data files.
 *
 * A folder segment escapes, as %XX with upper-case hex, exactly the
 * characters Hive's FileUtils.escapePathName() escapes: the control
 * characters 0x00-0x1F and 0x7F, and " # % ' * / : = ? \ { [ ] ^.
 * Everything else, spaces and non-ASCII UTF-8 included, is kept: Hive and
 * Spark decode each %XX as one character, so escaping UTF-8 bytes (as
 * DuckDB does) would not read back there, while every reader decodes
 * ours.  NULL is __HIVE_DEFAULT_PARTITION__; an empty string is an empty
 * value ("k="), as DuckDB writes it (Hive folds it into NULL's folder).
 *
 * Values are printed as DuckDB prints them: booleans true/false, dates
 * and timestamps in ISO form (DateStyle ISO, whatever the session says),
 * numbers by their output functions; timestamptz in the session's
 * TimeZone, as DuckDB uses its own.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fdw/copy/copy_to.h"
#include "mb/pg_wchar.h"
#include "utils/guc.h"

#define HIVE_NULL "__HIVE_DEFAULT_PARTITION__"

static bool
hive_escapes(unsigned char c)
{
	if (c < 0x20 || c == 0x7F)
		return true;
	return strchr("\"#%'*/:=?\\{[]^", c) != NULL;
}

void
pqfdw_hive_escape(StringInfo buf, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p;

	for (p = (const unsigned char *) s; *p; p++)
	{
		if (hive_escapes(*p))
		{
			appendStringInfoChar(buf, '%');
			appendStringInfoChar(buf, hex[*p >> 4]);
			appendStringInfoChar(buf, hex[*p & 0xF]);
		}
		else
			appendStringInfoChar(buf, (char) *p);
	}
}

int
pqfdw_partition_text_begin(void)
{
	int			level = NewGUCNestLevel();

	/* as postgres_fdw's set_transmission_modes(): stable text forms */
	(void) set_config_option("datestyle", "ISO", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("intervalstyle", "postgres", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	return level;
}

void
pqfdw_partition_text_end(int level)
{
	AtEOXact_GUC(true, level);
}

void
pqfdw_partition_segment(StringInfo buf, const char *column, Oid typid,
						FmgrInfo *out, Datum value, bool isnull)
{
	char	   *text;

	pqfdw_hive_escape(buf, pg_server_to_any(column, strlen(column), PG_UTF8));
	appendStringInfoChar(buf, '=');
	if (isnull)
	{
		appendStringInfoString(buf, HIVE_NULL);
		return;
	}
	if (typid == BOOLOID)
		text = DatumGetBool(value) ? "true" : "false";

	else
		text = OutputFunctionCall(out, value);

	pqfdw_hive_escape(buf, pg_server_to_any(text, strlen(text), PG_UTF8));
}

char *
pqfdw_data_file_path(const char *dir, int n)
{
	return psprintf("%s/data_%d.parquet", dir, n);
}

/* n of a name data_<n>.parquet, or -1. */
int
pqfdw_data_file_number(const char *name)
{
	const char *p = name + 5;
	long		n = 0;

	if (strncmp(name, "data_", 5) != 0 || !isdigit((unsigned char) *p))
		return -1;
	while (isdigit((unsigned char) *p))
	{
		n = n * 10 + (*p++ - '0');
		if (n > PG_INT32_MAX / 2)
			return -1;
	}
	return strcmp(p, ".parquet") == 0 ? (int) n : -1;
}
