/* parquet_fdw--0.1.sql */

\echo Use "CREATE EXTENSION parquet_fdw" to load this file. \quit

CREATE FUNCTION parquet_fdw_handler()
RETURNS fdw_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FUNCTION parquet_fdw_validator(text[], oid)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FOREIGN DATA WRAPPER parquet_fdw
  HANDLER parquet_fdw_handler
  VALIDATOR parquet_fdw_validator;

-- One row per row group x column chunk of a Parquet file.
CREATE FUNCTION metadata(
    path text,
    OUT file_name text,
    OUT row_group int,
    OUT row_group_num_rows bigint,
    OUT column_id int,
    OUT path_in_schema text,
    OUT physical_type text,
    OUT logical_type text,
    OUT converted_type text,
    OUT codec text,
    OUT encodings text,
    OUT num_values bigint,
    OUT total_compressed_size bigint,
    OUT total_uncompressed_size bigint,
    OUT data_page_offset bigint,
    OUT dictionary_page_offset bigint,
    OUT null_count bigint,
    OUT distinct_count bigint,
    OUT stats_min text,
    OUT stats_max text,
    OUT is_min_exact boolean,
    OUT is_max_exact boolean,
    OUT has_bloom_filter boolean,
    OUT bloom_filter_offset bigint,
    OUT bloom_filter_length int,
    OUT has_column_index boolean,
    OUT has_offset_index boolean,
    OUT key_value_metadata text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_metadata'
LANGUAGE C STRICT VOLATILE;

-- The schema tree of a Parquet file, depth first.
CREATE FUNCTION schema(
    path text,
    OUT ordinal int,
    OUT depth int,
    OUT name text,
    OUT path_in_schema text,
    OUT repetition text,
    OUT physical_type text,
    OUT type_length int,
    OUT logical_type text,
    OUT converted_type text,
    OUT num_children int,
    OUT max_definition_level int,
    OUT max_repetition_level int,
    OUT field_id int,
    OUT column_id int,
    OUT pg_type text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_schema'
LANGUAGE C STRICT VOLATILE;

-- File-level facts: row count, row groups, created_by, metadata.
CREATE FUNCTION file_info(
    path text,
    OUT file_name text,
    OUT file_size bigint,
    OUT format_version int,
    OUT num_rows bigint,
    OUT num_row_groups int,
    OUT num_columns int,
    OUT created_by text,
    OUT key_value_metadata text)
RETURNS record
AS 'MODULE_PATHNAME', 'parquet_fdw_file_info'
LANGUAGE C STRICT VOLATILE;

-- The CREATE FOREIGN TABLE statement that reads the given path(s) with the
-- natural PostgreSQL types (the same that IMPORT FOREIGN SCHEMA uses).
CREATE FUNCTION create_table_sql(
    path text,
    table_name text DEFAULT NULL,
    server_name text DEFAULT 'parquet_srv')
RETURNS text
AS 'MODULE_PATHNAME', 'parquet_fdw_create_table_sql'
LANGUAGE C VOLATILE;
