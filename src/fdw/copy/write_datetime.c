/*-------------------------------------------------------------------------
 *
 * write_datetime.c
 *		date, time, timetz, timestamp[tz] and interval -> Parquet DATE,
 *		TIME(MICROS), TIMESTAMP(MICROS) and INTERVAL.
 *
 * PostgreSQL counts from 2000-01-01, Parquet from 1970-01-01.  Infinite
 * dates and timestamps have no Parquet value and are errors (a sentinel
 * such as INT64_MAX would read back as a real, far-future value).
 * Parquet's INTERVAL is three unsigned 32-bit counts (months, days,
 * milliseconds), so negative parts are errors, and so are sub-millisecond
 * parts unless the interval_truncate option drops them (toward zero).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "datatype/timestamp.h"
#include "fdw/copy/write_convert.h"
#include "utils/date.h"
#include "utils/timestamp.h"

#define UNIX_EPOCH_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)

static void
write_dates(PqWriteColumn *col, int n, int64 row_base)
{
	int32	   *out = (int32 *) col->fixed;
	int			k = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		DateADT		d;

		if (col->nulls[i])
			continue;
		d = DatumGetDateADT(col->values[i]);
		if (unlikely(DATE_NOT_FINITE(d) ||
					 pg_add_s32_overflow(d, UNIX_EPOCH_DAYS, &out[k])))
			pqfdw_write_value_error(col, row_base, i,
									ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
									"Infinite dates cannot be written as a Parquet DATE.",
									"COPY from a query that replaces them (for example nullif(col, 'infinity')).");
		k++;
	}
}

static void
write_timestamps(PqWriteColumn *col, int n, int64 row_base)
{
	int64	   *out = (int64 *) col->fixed;
	int			k = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		Timestamp	ts;

		if (col->nulls[i])
			continue;
		ts = DatumGetTimestamp(col->values[i]);
		if (unlikely(TIMESTAMP_NOT_FINITE(ts)))
			pqfdw_write_value_error(col, row_base, i,
									ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
									"Infinite timestamps cannot be written as a Parquet TIMESTAMP.",
									"COPY from a query that replaces them (for example nullif(col, 'infinity')).");
		/* the last ~30000 years of PostgreSQL's range exceed int64 since 1970 */
		if (unlikely(pg_add_s64_overflow(ts, (int64) UNIX_EPOCH_DAYS * USECS_PER_DAY,
										 &out[k])))
			pqfdw_write_value_error(col, row_base, i,
									ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
									"The timestamp is out of the range of microseconds since 1970 in 64 bits.",
									"COPY from a query that writes the column as text (col::text).");
		k++;
	}
}

static void
write_timetz(PqWriteColumn *col, int n, int64 row_base)
{
	int64	   *out = (int64 *) col->fixed;
	int			k = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		TimeTzADT  *t;
		int64		utc;

		if (col->nulls[i])
			continue;
		t = DatumGetTimeTzADTP(col->values[i]);
		/* zone is seconds west of UTC: local + zone = UTC, wrapped to a day */
		utc = t->time + (int64) t->zone * USECS_PER_SEC;
		if (utc < 0)
			utc += USECS_PER_DAY;
		else if (utc > USECS_PER_DAY)
			utc -= USECS_PER_DAY;
		out[k++] = utc;
	}
}

static void
write_intervals(PqWriteColumn *col, int n, int64 row_base)
{
	int			k = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		Interval   *iv;
		uint8	   *out;

		if (col->nulls[i])
			continue;
		iv = DatumGetIntervalP(col->values[i]);
		if (unlikely(iv->month < 0 || iv->day < 0 || iv->time < 0))
			pqfdw_write_value_error(col, row_base, i,
									ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
									"Parquet INTERVAL holds unsigned months, days and milliseconds; the interval has a negative part.",
									"COPY from a query that writes the column as text (col::text) or as seconds (extract(epoch from col)).");
		if (unlikely(iv->time % 1000 != 0) && !col->interval_truncate)
			pqfdw_write_value_error(col, row_base, i,
									ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
									"Parquet INTERVAL holds milliseconds; the interval has a sub-millisecond part.",
									"The option interval_truncate drops sub-millisecond parts.");
		if (unlikely(iv->time / 1000 > PG_UINT32_MAX))
			pqfdw_write_value_error(col, row_base, i,
									ERRCODE_DATETIME_VALUE_OUT_OF_RANGE,
									"The time part of the interval exceeds 2^32 - 1 milliseconds.",
									"COPY from a query that moves whole days into the day part (justify_hours(col)).");
		out = col->fixed + (size_t) k * 12;
		pq_store_le32(out, (uint32) iv->month);
		pq_store_le32(out + 4, (uint32) iv->day);
		pq_store_le32(out + 8, (uint32) (iv->time / 1000));
		k++;
	}
}

void
pqfdw_write_datetime(PqWriteColumn *col, int n, int64 row_base)
{
	const Datum *v = col->values;
	const bool *nulls = col->nulls;
	int			k = 0;
	int			i;

	switch (col->kind)
	{
		case PQW_DATE:
			write_dates(col, n, row_base);
			break;
		case PQW_TIME:
			for (i = 0; i < n; i++)
				if (!nulls[i])
					((int64 *) col->fixed)[k++] = DatumGetTimeADT(v[i]);
			break;
		case PQW_TIMETZ:
			write_timetz(col, n, row_base);
			break;
		case PQW_TIMESTAMP:
			write_timestamps(col, n, row_base);
			break;
		case PQW_INTERVAL:
			write_intervals(col, n, row_base);
			break;
		default:
			elog(ERROR, "unexpected write kind %d", (int) col->kind);
	}
}
