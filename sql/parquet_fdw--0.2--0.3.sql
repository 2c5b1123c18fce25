/* parquet_fdw--0.2--0.3.sql: from 0.2 to 0.3 */

\echo Use "ALTER EXTENSION parquet_fdw UPDATE TO '0.3'" to load this file. \quit

-- The same three functions for a URL: server names the parquet_fdw foreign
-- server whose options and the caller's user mapping reach the store.
CREATE FUNCTION metadata(path text, server name,
    OUT file_name text, OUT row_group int, OUT row_group_num_rows bigint,
    OUT column_id int, OUT path_in_schema text, OUT physical_type text,
    OUT logical_type text, OUT converted_type text, OUT codec text,
    OUT encodings text, OUT num_values bigint, OUT total_compressed_size bigint,
    OUT total_uncompressed_size bigint, OUT data_page_offset bigint,
    OUT dictionary_page_offset bigint, OUT null_count bigint,
    OUT distinct_count bigint, OUT stats_min text, OUT stats_max text,
    OUT is_min_exact boolean, OUT is_max_exact boolean,
    OUT has_bloom_filter boolean, OUT bloom_filter_offset bigint,
    OUT bloom_filter_length int, OUT has_column_index boolean,
    OUT has_offset_index boolean, OUT key_value_metadata text,
    OUT bbox_xmin float8, OUT bbox_xmax float8, OUT bbox_ymin float8,
    OUT bbox_ymax float8, OUT bbox_zmin float8, OUT bbox_zmax float8,
    OUT bbox_mmin float8, OUT bbox_mmax float8, OUT geospatial_types int[])
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_metadata'
LANGUAGE C STRICT VOLATILE;

CREATE FUNCTION schema(path text, server name,
    OUT ordinal int, OUT depth int, OUT name text, OUT path_in_schema text,
    OUT repetition text, OUT physical_type text, OUT type_length int,
    OUT logical_type text, OUT converted_type text, OUT num_children int,
    OUT max_definition_level int, OUT max_repetition_level int,
    OUT field_id int, OUT column_id int, OUT pg_type text, OUT crs text,
    OUT edge_algorithm text, OUT srid int)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_schema'
LANGUAGE C STRICT VOLATILE;

CREATE FUNCTION file_info(path text, server name,
    OUT file_name text, OUT file_size bigint, OUT format_version int,
    OUT num_rows bigint, OUT num_row_groups int, OUT num_columns int,
    OUT created_by text, OUT key_value_metadata text)
RETURNS record
AS 'MODULE_PATHNAME', 'parquet_fdw_file_info'
LANGUAGE C STRICT VOLATILE;

-- Multipart uploads below an s3:// or gs:// prefix older than older_than,
-- aborted (those a backend killed in the middle of COPY TO left behind);
-- server as COPY's option server (NULL: the server process's credentials).
CREATE FUNCTION abort_uploads(prefix text, server name DEFAULT NULL,
    older_than interval DEFAULT '1 hour',
    OUT url text, OUT upload_id text, OUT initiated timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_abort_uploads'
LANGUAGE C VOLATILE;

-- A Delta Lake table (the directory holding _delta_log, or a URL read
-- through server): its versions with their commit time and operation; the
-- data files of a version (NULL: the latest) with partition values, row
-- counts, deleted rows and statistics; its columns with their Delta and
-- declared types.
CREATE FUNCTION table_versions(location text, server name DEFAULT NULL,
    OUT version bigint, OUT committed_at timestamptz, OUT operation text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_table_versions'
LANGUAGE C VOLATILE;

CREATE FUNCTION table_files(location text, version bigint DEFAULT NULL,
    server name DEFAULT NULL,
    OUT path text, OUT size bigint, OUT partition_values jsonb,
    OUT num_records bigint, OUT deleted_rows bigint, OUT stats jsonb)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_table_files'
LANGUAGE C VOLATILE;

CREATE FUNCTION table_schema(location text, version bigint DEFAULT NULL,
    server name DEFAULT NULL,
    OUT ordinal int, OUT column_name text, OUT table_type text,
    OUT declared_type text, OUT physical_name text, OUT field_id bigint,
    OUT nullable boolean, OUT partition_column boolean)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_table_schema'
LANGUAGE C VOLATILE;
