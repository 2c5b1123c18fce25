/*-------------------------------------------------------------------------
 *
 * table_format.c
 *		The option format's values and names, and a table format's
 *		directory opened with the messages every format gives.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fdw/table/table_snapshot.h"

uint64		pqfdw_table_schema_generation = 0;

PqfdwTableFormat
pqfdw_table_format(const char *value)
{
	if (pg_strcasecmp(value, "parquet") == 0)
		return PQFDW_FORMAT_PARQUET;
	if (pg_strcasecmp(value, "delta") == 0)
		return PQFDW_FORMAT_DELTA;
	if (pg_strcasecmp(value, "iceberg") == 0)
		return PQFDW_FORMAT_ICEBERG;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid value for option \"format\": \"%s\"", value),
			 errhint("Give parquet, delta or iceberg.")));
	return PQFDW_FORMAT_PARQUET;	/* keep compiler quiet */
}

const char *
pqfdw_table_format_name(PqfdwTableFormat format)
{
	switch (format)
	{
		case PQFDW_FORMAT_DELTA:
			return "Delta";
		case PQFDW_FORMAT_ICEBERG:
			return "Iceberg";
		case PQFDW_FORMAT_PARQUET:
			break;
	}
	return "Parquet";
}

DIR *
pqfdw_table_dir_open(const char *dir, PqfdwTableFormat format,
					 const char *location, const char *hint)
{
	DIR		   *d = AllocateDir(dir);

	if (d != NULL)
		return d;
	if (errno == ENOENT || errno == ENOTDIR)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("%s table \"%s\" does not exist",
						pqfdw_table_format_name(format), location),
				 errdetail("Directory \"%s\" does not exist.", dir),
				 errhint("%s", hint)));
	ereport(ERROR,
			(errcode_for_file_access(),
			 errmsg("could not open directory \"%s\": %m", dir)));
	return NULL;				/* keep compiler quiet */
}
