/*-------------------------------------------------------------------------
 *
 * datetime.c
 *		DATE, TIME, TIMESTAMP (MILLIS/MICROS/NANOS), INT96 and INTERVAL to
 *		Datums.  Nanoseconds truncate to microseconds (toward minus
 *		infinity, so the printed value drops its last three digits); a value
 *		outside PostgreSQL's range is an error, never a wrap.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/int.h"
#include "datatype/timestamp.h"
#include "fdw/convert/convert.h"
#include "utils/date.h"
#include "utils/timestamp.h"

/* Microseconds between 1970-01-01 and 2000-01-01 */
#define UNIX_TO_PG_USECS \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

static inline int64
floor_div(int64 a, int64 b)
{
	int64		q = a / b;

	if ((a % b) != 0 && (a < 0))
		q--;
	return q;
}

static void
conv_date(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		  Datum *out)
{
	const int32 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
	{
		int32		d;

		if (unlikely(pg_sub_s32_overflow(v[i], POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE, &d) ||
					 !IS_VALID_DATE(d)))
		{
			/* in a dictionary or statistic: just outside the range */
			pqfdw_value_out_of_range_deferred(cv, i, "date");
			d = v[i] < 0 ? DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE - 1 :
				DATE_END_JULIAN - POSTGRES_EPOCH_JDATE;
		}
		out[i] = DateADTGetDatum(d);
	}
}

static void
conv_time(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		  Datum *out)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		int64		us;

		if (cv->time_unit == PQ_UNIT_MILLIS)
			us = (int64) ((const int32 *) fixed)[i] * 1000;
		else if (cv->time_unit == PQ_UNIT_MICROS)
			us = ((const int64 *) fixed)[i];
		else
			us = floor_div(((const int64 *) fixed)[i], 1000);
		if (unlikely(us < 0 || us > USECS_PER_DAY))
		{
			pqfdw_value_out_of_range_deferred(cv, i, "time of day");
			us = us < 0 ? -1 : USECS_PER_DAY + 1;
		}
		out[i] = TimeADTGetDatum(us);
	}
}

/* TIME(isAdjustedToUTC) read into timetz: the UTC time at offset zero. */
static void
conv_timetz_utc(PqConverter *cv, const void *fixed, const PqByteArray *ba,
				int n, Datum *out)
{
	TimeTzADT  *t = palloc(sizeof(TimeTzADT) * Max(n, 1));
	int			i;

	conv_time(cv, fixed, ba, n, out);
	for (i = 0; i < n; i++)
	{
		t[i].time = DatumGetTimeADT(out[i]);
		t[i].zone = 0;
		out[i] = TimeTzADTPGetDatum(&t[i]);
	}
}

/* Unix-epoch microseconds to a PostgreSQL timestamp, range-checked. */
static inline bool
unix_usecs_to_timestamp(int64 us, Timestamp *ts)
{
	if (pg_sub_s64_overflow(us, UNIX_TO_PG_USECS, ts))
		return false;
	return IS_VALID_TIMESTAMP(*ts);
}

/*
 * A timestamp of Unix-epoch microseconds us that is out of range: an ERROR
 * for a row, in a dictionary or statistic the value just outside the range
 * on its side (not an infinity), which compares with every timestamp as
 * the value itself does.
 */
static Timestamp
timestamp_out_of_range(PqConverter *cv, int i, int64 us, const char *what)
{
	pqfdw_value_out_of_range_deferred(cv, i, what);
	return us < 0 ? MIN_TIMESTAMP - 1 : END_TIMESTAMP;
}

static void
conv_timestamp(PqConverter *cv, const void *fixed, const PqByteArray *ba,
			   int n, Datum *out)
{
	const int64 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
	{
		int64		us;
		Timestamp	ts;

		if (cv->time_unit == PQ_UNIT_MICROS)
			us = v[i];
		else if (cv->time_unit == PQ_UNIT_NANOS)
			us = floor_div(v[i], 1000);
		else if (pg_mul_s64_overflow(v[i], 1000, &us))
			us = v[i] < 0 ? PG_INT64_MIN : PG_INT64_MAX;
		if (unlikely(!unix_usecs_to_timestamp(us, &ts)))
			ts = timestamp_out_of_range(cv, i, us, "timestamp");
		out[i] = TimestampGetDatum(ts);
	}
}

/*
 * INT96 (Impala/Spark): 8 bytes nanoseconds of the day, then 4 bytes Julian
 * day number, both little-endian.  Spark computes
 * (day - epoch day) * 86400000000 + nanos / 1000 in wrapping 64-bit
 * arithmetic, both when writing and reading, so timestamps beyond the
 * nanosecond range (e.g. year 290000) are stored with a wrapped day number;
 * the same wrapping arithmetic recovers the microseconds Spark meant.
 * Impala wrote a time of day without a date (its "dateless" timestamps,
 * gone since Impala 3.x) with day number 0xFFFFFFFE, boost's
 * not_a_date_time: a time 4714 years BC, out of PostgreSQL's range like
 * any day before Julian day 0, and named for what it is in the ERROR.
 */
#define INT96_NO_DATE (-2)

static void
conv_int96(PqConverter *cv, const void *fixed, const PqByteArray *ba, int n,
		   Datum *out)
{
	const uint8 *v = fixed;
	int			i;

	for (i = 0; i < n; i++)
	{
		const uint8 *p = v + (size_t) i * 12;
		int64		nanos = (int64) pq_load_le64(p);
		int64		jday = (int32) pq_load_le32(p + 8);
		int64		us;
		Timestamp	ts;

		us = (int64) ((uint64) (jday - UNIX_EPOCH_JDATE) * (uint64) USECS_PER_DAY +
					  (uint64) (nanos / 1000));
		if (unlikely(!unix_usecs_to_timestamp(us, &ts)))
			ts = timestamp_out_of_range(cv, i, us, jday == INT96_NO_DATE ?
										"INT96 timestamp without a date (day number -2, Impala's dateless value)" :
										"INT96 timestamp");
		out[i] = TimestampGetDatum(ts);
	}
}

/* INTERVAL: FIXED_LEN_BYTE_ARRAY(12) of unsigned months, days, millis (LE). */
static void
conv_interval(PqConverter *cv, const void *fixed, const PqByteArray *ba,
			  int n, Datum *out)
{
	const uint8 *v = fixed;
	Interval   *iv = palloc(sizeof(Interval) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
	{
		const uint8 *p = v + (size_t) i * 12;
		uint32		months = pq_load_le32(p);
		uint32		days = pq_load_le32(p + 4);
		uint32		millis = pq_load_le32(p + 8);

		if (unlikely(months > PG_INT32_MAX || days > PG_INT32_MAX))
		{
			/* unsigned fields: always above the range */
			pqfdw_value_out_of_range_deferred(cv, i, "interval");
			months = Min(months, PG_INT32_MAX);
			days = Min(days, PG_INT32_MAX);
		}
		iv[i].month = (int32) months;
		iv[i].day = (int32) days;
		iv[i].time = (int64) millis * 1000;
		out[i] = IntervalPGetDatum(&iv[i]);
	}
}

PqConvertFn
pqfdw_datetime_converter(PqConverter *cv)
{
	switch (cv->node->logical.id)
	{
		case PQ_LT_DATE:
			return conv_date;
		case PQ_LT_TIME:
			return cv->natural_type == TIMETZOID ? conv_timetz_utc : conv_time;
		case PQ_LT_TIMESTAMP:
			return conv_timestamp;
		case PQ_LT_INTERVAL:
			return conv_interval;
		case PQ_LT_NONE:
			if (cv->physical_type == PQ_INT96)
				return conv_int96;
			break;
	}
	return NULL;
}
