-- Columns declared with types other than the natural one.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
\set file :fixtures '/duckdb_types_snappy_dict.parquet'
SET TimeZone = 'UTC';

CREATE FOREIGN TABLE ft_declared (
    id numeric,
    c_int4 bigint,
    c_int2 integer,
    c_float double precision,
    c_dec9_3 numeric(12,4),
    c_timestamp timestamptz,
    c_date text,
    c_varchar varchar(20),
    c_enum varchar,
    c_json text,
    c_uuid text,
    c_bool text,
    c_blob bytea,
    renamed text OPTIONS (column_name 'c_varchar_nn')
) SERVER parquet_srv OPTIONS (filename :'file');

-- Each column equals the expected value cast the same way by PostgreSQL.
SELECT count(*) AS rows,
       count(*) FILTER (WHERE d.c_int4 IS DISTINCT FROM e.c_int4::bigint) AS bad_int4,
       count(*) FILTER (WHERE d.c_int2 IS DISTINCT FROM e.c_int2::integer) AS bad_int2,
       count(*) FILTER (WHERE d.c_float::text IS DISTINCT FROM e.c_float::float8::text) AS bad_float,
       count(*) FILTER (WHERE d.c_dec9_3::text IS DISTINCT FROM e.c_dec9_3::numeric(12,4)::text) AS bad_dec,
       count(*) FILTER (WHERE d.c_timestamp IS DISTINCT FROM e.c_timestamp::timestamptz) AS bad_ts,
       count(*) FILTER (WHERE d.c_date IS DISTINCT FROM e.c_date::text) AS bad_date,
       count(*) FILTER (WHERE d.c_varchar IS DISTINCT FROM e.c_varchar) AS bad_varchar,
       count(*) FILTER (WHERE d.c_enum IS DISTINCT FROM e.c_enum) AS bad_enum,
       count(*) FILTER (WHERE d.c_json::jsonb IS DISTINCT FROM e.c_json) AS bad_json,
       count(*) FILTER (WHERE d.c_uuid IS DISTINCT FROM e.c_uuid::text) AS bad_uuid,
       count(*) FILTER (WHERE d.c_bool IS DISTINCT FROM e.c_bool::text) AS bad_bool,
       count(*) FILTER (WHERE d.c_blob IS DISTINCT FROM e.c_blob) AS bad_blob,
       count(*) FILTER (WHERE d.renamed IS DISTINCT FROM e.c_varchar_nn) AS bad_renamed
FROM ft_declared d JOIN expected_types e ON e.id = d.id;

-- A changed column_name takes effect in the same session: the names the
-- scan remembers per table are forgotten when ALTER changes the table.
SELECT min(renamed) = (SELECT min(c_varchar_nn) FROM expected_types) AS same FROM ft_declared;
ALTER FOREIGN TABLE ft_declared ALTER COLUMN renamed OPTIONS (SET column_name 'c_uuid');
SELECT min(renamed) = (SELECT min(c_uuid::text) FROM expected_types) AS same FROM ft_declared;
ALTER FOREIGN TABLE ft_declared ALTER COLUMN renamed OPTIONS (SET column_name 'c_varchar_nn');

-- A typmod that some values do not fit is an error when such a value is read.
CREATE FOREIGN TABLE ft_short (c_varchar_long varchar(5))
    SERVER parquet_srv OPTIONS (filename :'file');
SELECT count(*) FROM ft_short;
SELECT c_varchar_long FROM ft_short LIMIT 1;

-- Impossible declarations are reported once, before any row, naming both types.
CREATE FOREIGN TABLE ft_bad_decl (c_date integer)
    SERVER parquet_srv OPTIONS (filename :'file');
SELECT * FROM ft_bad_decl;
CREATE FOREIGN TABLE ft_bad_decl2 (c_bool date)
    SERVER parquet_srv OPTIONS (filename :'file');
SELECT * FROM ft_bad_decl2;

-- A column the file does not have.
CREATE FOREIGN TABLE ft_missing (nosuchcol int)
    SERVER parquet_srv OPTIONS (filename :'file');
SELECT * FROM ft_missing;

-- Unquoted (lower-case) names match a differently cased Parquet field.
CREATE FOREIGN TABLE ft_case ("ID" bigint, "C_INT4_NN" integer)
    SERVER parquet_srv OPTIONS (filename :'file');
SELECT sum("ID"), sum("C_INT4_NN") FROM ft_case;
