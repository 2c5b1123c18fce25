/*-------------------------------------------------------------------------
 *
 * render.h
 *		Render Parquet values as JSON text, by the rules documented in
 *		docs/JSON.md: exact integers and decimals, shortest round-trip
 *		floats (PostgreSQL's float8out/float4out text), NaN/Infinity as
 *		strings, dates, times and timestamps as PostgreSQL's to_json()
 *		prints them (UTC-adjusted ones with "+00:00", years before 1 AD with
 *		" BC"), binary as base64, UUID as its string, INTERVAL as an ISO
 *		8601 duration.
 *
 * Used wherever a Parquet value becomes jsonb: nested columns mapped to
 * jsonb and VARIANT values.  Output is appended to a PqBuffer (not NUL
 * terminated).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PQ_JSON_RENDER_H
#define PQ_JSON_RENDER_H

#include "format/metadata/nested_value.h"

/* A JSON string literal (quoted, escaped) of len bytes of UTF-8. */
extern void pq_json_string(PqBuffer *buf, const char *s, size_t len);

extern void pq_json_int64(PqBuffer *buf, int64 v);
extern void pq_json_uint64(PqBuffer *buf, uint64 v);

/* Shortest text that reads back as the same value; NaN, Infinity as strings */
extern void pq_json_double(PqBuffer *buf, double v);
extern void pq_json_float(PqBuffer *buf, float v);

/*
 * Exact decimal from a big-endian two's-complement unscaled value of len
 * bytes (1..32) and scale: a JSON number with every digit.
 */
extern void pq_json_decimal_be(PqBuffer *buf, const uint8 *be, size_t len,
							   int scale);

/* Exact decimal from an unscaled integer and scale: every digit. */
extern void pq_json_decimal_int64(PqBuffer *buf, int64 unscaled, int scale);

/* days since 1970-01-01 -> "YYYY-MM-DD" (string; "0044-03-15 BC" style) */
extern void pq_json_date(PqBuffer *buf, int32 days);

/* time of day in units of 10^-digits seconds (3, 6 or 9) -> "HH:MM:SS[.f]" */
extern void pq_json_time(PqBuffer *buf, int64 v, int digits, bool utc);

/*
 * v units of 10^-digits seconds since the epoch -> ISO 8601 string with
 * exactly the fractional digits needed (none when whole seconds); "+00:00"
 * appended when utc.
 */
extern void pq_json_timestamp(PqBuffer *buf, int64 v, int digits, bool utc);

/* base64 (RFC 4648, with padding) as a JSON string */
extern void pq_json_base64(PqBuffer *buf, const uint8 *p, size_t len);

/* 16 bytes -> "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
extern void pq_json_uuid(PqBuffer *buf, const uint8 *p);

/* Parquet INTERVAL (12 bytes: months, days, millis, LE) -> "P...": string */
extern void pq_json_interval(PqBuffer *buf, const uint8 *p);

/* Strict UTF-8: no overlong forms, surrogates or code points > U+10FFFF. */
extern bool pq_utf8_valid(const uint8 *p, size_t len);

/* The length of the strict UTF-8 sequence at p (avail bytes); 0: none. */
extern int	pq_utf8_sequence(const uint8 *p, size_t avail);

/* Exactly one RFC 8259 JSON value (whitespace around it allowed), UTF-8. */
extern bool pq_json_valid(const uint8 *p, size_t len);

/*
 * A leaf value of node (its physical and resolved logical type) as JSON.
 * Errors (pq_corrupt) on values the type cannot hold, e.g. a decimal whose
 * byte length is out of range.
 */
extern void pq_json_scalar(PqBuffer *buf, const PqSchemaNode *node,
						   const PqValue *v);

#endif							/* PQ_JSON_RENDER_H */
