// The "types" fixture table: one source of truth for
//   * gen_fixtures.mjs (DuckDB writes the table with these formulas),
//   * test/fixtures.md (the table of formulas, generated: node gen_fixtures.mjs --doc),
//   * compare.mjs --formulas (checks that each PostgreSQL formula yields
//     exactly the DuckDB value, on a live server, without the extension).
//
// Row variable: `i`, 0..4999, BIGINT in both systems
//   DuckDB:      FROM range(5000) AS t(i)
//   PostgreSQL:  FROM generate_series(0::bigint, 4999) AS g(i)
// Null rule: columns with nulls = true are NULL where i % 7 = 3, i.e.
//   CASE WHEN i % 7 = 3 THEN NULL ELSE <formula> END
// Every formula already carries its final type.

export const N_ROWS = 5000;

export const COLUMNS = [
  { name: 'id', duckType: 'BIGINT', pgType: 'bigint', nulls: false,
    duck: 'i', pg: 'i' },
  { name: 'c_bool', duckType: 'BOOLEAN', pgType: 'boolean', nulls: true,
    duck: 'i % 3 = 0', pg: 'i % 3 = 0' },
  { name: 'c_int1', duckType: 'TINYINT', pgType: 'smallint', nulls: true,
    duck: '(i % 256 - 128)::TINYINT', pg: '(i % 256 - 128)::int2' },
  { name: 'c_int2', duckType: 'SMALLINT', pgType: 'smallint', nulls: true,
    duck: '(i * 37 % 65536 - 32768)::SMALLINT', pg: '(i * 37 % 65536 - 32768)::int2' },
  { name: 'c_int4', duckType: 'INTEGER', pgType: 'integer', nulls: true,
    duck: '(CASE WHEN i = 1 THEN -2147483648 WHEN i = 2 THEN 2147483647 ELSE i * 7919 % 2000000 - 1000000 END)::INTEGER',
    pg: '(CASE WHEN i = 1 THEN -2147483648 WHEN i = 2 THEN 2147483647 ELSE i * 7919 % 2000000 - 1000000 END)::int4' },
  { name: 'c_int8', duckType: 'BIGINT', pgType: 'bigint', nulls: true,
    duck: '(CASE WHEN i = 1 THEN -9223372036854775808 WHEN i = 2 THEN 9223372036854775807 ELSE i * 1000000007 - 2500000000000 END)::BIGINT',
    pg: '(CASE WHEN i = 1 THEN -9223372036854775808 WHEN i = 2 THEN 9223372036854775807 ELSE i * 1000000007 - 2500000000000 END)::int8' },
  { name: 'c_uint1', duckType: 'UTINYINT', pgType: 'smallint', nulls: true,
    duck: '(i % 256)::UTINYINT', pg: '(i % 256)::int2' },
  { name: 'c_uint2', duckType: 'USMALLINT', pgType: 'integer', nulls: true,
    duck: '(CASE WHEN i = 2 THEN 65535 ELSE i * 13 % 65536 END)::USMALLINT',
    pg: '(CASE WHEN i = 2 THEN 65535 ELSE i * 13 % 65536 END)::int4' },
  { name: 'c_uint4', duckType: 'UINTEGER', pgType: 'bigint', nulls: true,
    duck: '(CASE WHEN i = 2 THEN 4294967295 ELSE i * 858993 END)::UINTEGER',
    pg: '(CASE WHEN i = 2 THEN 4294967295 ELSE i * 858993 END)::int8' },
  { name: 'c_uint8', duckType: 'UBIGINT', pgType: 'numeric', nulls: true,
    duck: '(CASE WHEN i = 2 THEN 18446744073709551615 ELSE i::UBIGINT * 3689348814741910 END)::UBIGINT',
    pg: '(CASE WHEN i = 2 THEN 18446744073709551615 ELSE i::numeric * 3689348814741910 END)::numeric' },
  { name: 'c_float', duckType: 'FLOAT', pgType: 'real', nulls: true,
    duck: "CASE WHEN i = 4 THEN 'NaN'::FLOAT WHEN i = 5 THEN 'Infinity'::FLOAT WHEN i = 6 THEN '-Infinity'::FLOAT WHEN i = 8 THEN '-0.0'::FLOAT ELSE (i - 2500)::FLOAT / 7::FLOAT END",
    pg: "CASE WHEN i = 4 THEN 'NaN'::float4 WHEN i = 5 THEN 'Infinity'::float4 WHEN i = 6 THEN '-Infinity'::float4 WHEN i = 8 THEN '-0'::float4 ELSE (i - 2500)::float4 / 7::float4 END",
    note: 'float32 division, correctly rounded in both systems; -0.0 at i = 8' },
  { name: 'c_double', duckType: 'DOUBLE', pgType: 'double precision', nulls: true,
    duck: "CASE WHEN i = 4 THEN 'NaN'::DOUBLE WHEN i = 5 THEN 'Infinity'::DOUBLE WHEN i = 6 THEN '-Infinity'::DOUBLE WHEN i = 8 THEN '-0.0'::DOUBLE WHEN i = 9 THEN '1.7976931348623157e308'::DOUBLE WHEN i = 11 THEN '4.9e-324'::DOUBLE ELSE (i - 2500)::DOUBLE / 7::DOUBLE END",
    pg: "CASE WHEN i = 4 THEN 'NaN'::float8 WHEN i = 5 THEN 'Infinity'::float8 WHEN i = 6 THEN '-Infinity'::float8 WHEN i = 8 THEN '-0'::float8 WHEN i = 9 THEN '1.7976931348623157e308'::float8 WHEN i = 11 THEN '4.9e-324'::float8 ELSE (i - 2500)::float8 / 7::float8 END",
    note: 'max double at i = 9, smallest subnormal at i = 11' },
  { name: 'c_dec4_2', duckType: 'DECIMAL(4,2)', pgType: 'numeric(4,2)', nulls: true,
    duck: '((i * 4 - 9999) * 0.01)::DECIMAL(4,2)', pg: '((i * 4 - 9999) * 0.01)::numeric(4,2)',
    note: 'INT32 physical' },
  { name: 'c_dec9_3', duckType: 'DECIMAL(9,3)', pgType: 'numeric(9,3)', nulls: true,
    duck: '((i * 199999 - 499999999) * 0.001)::DECIMAL(9,3)', pg: '((i * 199999 - 499999999) * 0.001)::numeric(9,3)',
    note: 'INT32 physical' },
  { name: 'c_dec18_4', duckType: 'DECIMAL(18,4)', pgType: 'numeric(18,4)', nulls: true,
    duck: '((i * 199999999999999 - 499999999999999999) * 0.0001)::DECIMAL(18,4)',
    pg: '((i * 199999999999999 - 499999999999999999) * 0.0001)::numeric(18,4)',
    note: 'INT64 physical' },
  { name: 'c_dec38_10', duckType: 'DECIMAL(38,10)', pgType: 'numeric(38,10)', nulls: true,
    duck: "(((i - 2500) * 3999999999999999999999999)::VARCHAR || '.' || lpad((i * 7777777 % 10000000000)::VARCHAR, 10, '0'))::DECIMAL(38,10)",
    pg: "(((i - 2500) * 3999999999999999999999999)::text || '.' || lpad((i * 7777777 % 10000000000)::text, 10, '0'))::numeric(38,10)",
    note: 'FIXED_LEN_BYTE_ARRAY(16) physical; the string is "<integer part>.<10 digits>", so for negative integer parts the fraction is negative too' },
  { name: 'c_varchar', duckType: 'VARCHAR', pgType: 'text', nulls: true,
    duck: "'str_' || i", pg: "'str_' || i" },
  { name: 'c_varchar_long', duckType: 'VARCHAR', pgType: 'text', nulls: true,
    duck: "repeat('abcdefghij', 10 + i % 5) || 'ü€😀' || i", pg: "repeat('abcdefghij', (10 + i % 5)::int) || 'ü€😀' || i",
    note: '> 100 bytes, ends in 2-, 3- and 4-byte UTF-8 characters and the row number' },
  { name: 'c_blob', duckType: 'BLOB', pgType: 'bytea', nulls: true,
    duck: "CASE WHEN i % 11 = 0 THEN ''::BLOB ELSE unhex(lpad(hex(i * 2654435761 % 4294967296), 8, '0')) END",
    pg: "CASE WHEN i % 11 = 0 THEN ''::bytea ELSE decode(lpad(to_hex(i * 2654435761 % 4294967296), 8, '0'), 'hex') END",
    note: 'empty value where i % 11 = 0, else 4 bytes (big-endian of i * 2654435761 mod 2^32)' },
  { name: 'c_date', duckType: 'DATE', pgType: 'date', nulls: true,
    duck: "CASE WHEN i = 1 THEN DATE '0001-01-01' WHEN i = 2 THEN DATE '9999-12-31' ELSE DATE '1970-01-01' + (i * 13 - 30000)::INTEGER END",
    pg: "CASE WHEN i = 1 THEN DATE '0001-01-01' WHEN i = 2 THEN DATE '9999-12-31' ELSE DATE '1970-01-01' + (i * 13 - 30000)::int4 END",
    note: '1887-11-12 .. 2065-10-16, plus 0001-01-01 and 9999-12-31' },
  { name: 'c_time', duckType: 'TIME', pgType: 'time without time zone', nulls: true,
    duck: "CASE WHEN i = 2 THEN TIME '23:59:59.999999' ELSE TIME '00:00:00' + to_microseconds(i * 17000123) END",
    pg: "CASE WHEN i = 2 THEN TIME '23:59:59.999999' ELSE TIME '00:00:00' + (i * 17000123) * INTERVAL '1 microsecond' END",
    note: 'TIME(MICROS)' },
  { name: 'c_timestamp', duckType: 'TIMESTAMP', pgType: 'timestamp without time zone', nulls: true,
    duck: "TIMESTAMP '1900-01-01 00:00:00' + to_microseconds(i * 1234567890123)",
    pg: "TIMESTAMP '1900-01-01 00:00:00' + (i * 1234567890123) * INTERVAL '1 microsecond'",
    note: 'TIMESTAMP(MICROS, isAdjustedToUTC=false), 1900..2095, pre-1970 values negative' },
  { name: 'c_timestamptz', duckType: 'TIMESTAMPTZ', pgType: 'timestamp with time zone', nulls: true,
    duck: "TIMESTAMPTZ '1900-01-01 00:00:00+00' + to_microseconds(i * 1234567890123)",
    pg: "TIMESTAMPTZ '1900-01-01 00:00:00+00' + (i * 1234567890123) * INTERVAL '1 microsecond'",
    note: 'TIMESTAMP(MICROS, isAdjustedToUTC=true)' },
  { name: 'c_timestamp_ms', duckType: 'TIMESTAMP_MS', pgType: 'timestamp without time zone', nulls: true,
    duck: "(TIMESTAMP '1900-01-01 00:00:00' + to_milliseconds(i * 1234567890))::TIMESTAMP_MS",
    pg: "TIMESTAMP '1900-01-01 00:00:00' + (i * 1234567890) * INTERVAL '1 millisecond'",
    note: 'TIMESTAMP(MILLIS, isAdjustedToUTC=false)' },
  { name: 'c_timestamp_s', duckType: 'TIMESTAMP_S', pgType: 'timestamp without time zone', nulls: true,
    duck: "(TIMESTAMP '1900-01-01 00:00:00' + to_seconds(i * 1234567))::TIMESTAMP_S",
    pg: "TIMESTAMP '1900-01-01 00:00:00' + (i * 1234567) * INTERVAL '1 second'",
    note: 'DuckDB writes seconds as TIMESTAMP(MICROS)' },
  { name: 'c_timestamp_ns', duckType: 'TIMESTAMP_NS', pgType: 'timestamp without time zone', nulls: true,
    duck: 'make_timestamp_ns((i - 2500) * 123456789012345)',
    pg: "TIMESTAMP '1970-01-01 00:00:00' + (((i - 2500) * 123456789012345 - (((i - 2500) * 123456789012345) % 1000 + 1000) % 1000) / 1000) * INTERVAL '1 microsecond'",
    note: 'TIMESTAMP(NANOS): n = (i - 2500) * 123456789012345 ns since 1970 (1960..1979, sub-microsecond digits); PostgreSQL value = floor(n / 1000) microseconds (nanoseconds truncate toward minus infinity)' },
  { name: 'c_uuid', duckType: 'UUID', pgType: 'uuid', nulls: true,
    duck: 'md5(i::VARCHAR)::UUID', pg: 'md5(i::text)::uuid' },
  { name: 'c_interval', duckType: 'INTERVAL', pgType: 'interval', nulls: true,
    duck: 'to_months((i % 13)::INTEGER) + to_days((i % 31)::INTEGER) + to_milliseconds(i * 123457)',
    pg: "make_interval(months => (i % 13)::int, days => (i % 31)::int) + (i * 123457) * INTERVAL '1 millisecond'",
    note: 'Parquet INTERVAL (FLBA 12: unsigned 32-bit months, days, millis; the millis stay below 2^32); compare component-wise (e.g. as text), interval = folds 30 days into a month' },
  { name: 'c_json', duckType: 'JSON', pgType: 'jsonb', nulls: true,
    duck: "json_object('i', i, 's', 'v' || i)", pg: "jsonb_build_object('i', i, 's', 'v' || i)" },
  { name: 'c_enum', duckType: "ENUM('red', 'green', 'blue')", pgType: 'text', nulls: true,
    duck: "(['red', 'green', 'blue'])[i % 3 + 1]", pg: "(ARRAY['red', 'green', 'blue'])[i % 3 + 1]",
    note: 'DuckDB writes ENUM as a dictionary-encoded STRING' },
  { name: 'c_int4_nn', duckType: 'INTEGER', pgType: 'integer', nulls: false,
    duck: '(i * 3 - 7000)::INTEGER', pg: '(i * 3 - 7000)::int4' },
  { name: 'c_double_nn', duckType: 'DOUBLE', pgType: 'double precision', nulls: false,
    duck: '(i * 0.5)::DOUBLE', pg: '(i * 0.5)::float8' },
  { name: 'c_varchar_nn', duckType: 'VARCHAR', pgType: 'text', nulls: false,
    duck: "'nn_' || i", pg: "'nn_' || i" },
  { name: 'c_bool_nn', duckType: 'BOOLEAN', pgType: 'boolean', nulls: false,
    duck: 'i % 2 = 1', pg: 'i % 2 = 1' },
];

const withNulls = (c, expr) => (c.nulls ? `CASE WHEN i % 7 = 3 THEN NULL ELSE ${expr} END` : expr);

/** DuckDB statements that create table `types`. */
export function duckCreateTypesSql() {
  const cols = COLUMNS.map((c) => {
    const t = c.duckType.startsWith('ENUM') ? 'color' : c.duckType;
    return `  CAST(${withNulls(c, c.duck)} AS ${t}) AS ${c.name}`;
  });
  return [
    "CREATE TYPE color AS ENUM ('red', 'green', 'blue')",
    `CREATE TABLE types AS SELECT\n${cols.join(',\n')}\nFROM range(${N_ROWS}) AS t(i) ORDER BY i`,
  ];
}

/** The PostgreSQL query that computes the same table. */
export function pgTypesQuery() {
  const cols = COLUMNS.map((c) => `  ${withNulls(c, c.pg)} AS ${c.name}`);
  return `SELECT\n${cols.join(',\n')}\nFROM generate_series(0::bigint, ${N_ROWS - 1}) AS g(i) ORDER BY i`;
}

/** Markdown table for test/fixtures.md. */
export function markdownTable() {
  const esc = (s) => s.replace(/\|/g, '\\|');
  const lines = [
    '| column | DuckDB type | DuckDB formula | PostgreSQL type | PostgreSQL formula | NULL where | notes |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of COLUMNS) {
    lines.push(`| ${c.name} | ${esc(c.duckType)} | \`${esc(c.duck)}\` | ${c.pgType} | \`${esc(c.pg)}\` | ${c.nulls ? 'i % 7 = 3' : 'never'} | ${esc(c.note || '')} |`);
  }
  return lines.join('\n');
}
