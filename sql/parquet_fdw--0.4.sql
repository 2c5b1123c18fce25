/* parquet_fdw--0.4.sql: version 0.4, installed by CREATE EXTENSION parquet_fdw */

\echo Use "CREATE EXTENSION parquet_fdw" to load this file. \quit

CREATE FUNCTION parquet_fdw_handler()
RETURNS fdw_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FUNCTION parquet_fdw_validator(text[], oid)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

-- The functions below check file access themselves (superuser or
-- pg_read_server_files), so everyone may look them up.
GRANT USAGE ON SCHEMA parquet_fdw TO PUBLIC;

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
    OUT key_value_metadata text,
    -- GeospatialStatistics of GEOMETRY/GEOGRAPHY chunks (Z, M when stored)
    OUT bbox_xmin float8,
    OUT bbox_xmax float8,
    OUT bbox_ymin float8,
    OUT bbox_ymax float8,
    OUT bbox_zmin float8,
    OUT bbox_zmax float8,
    OUT bbox_mmin float8,
    OUT bbox_mmax float8,
    OUT geospatial_types int[])
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
    OUT pg_type text,
    -- GEOMETRY/GEOGRAPHY: CRS (OGC:CRS84 when absent), GEOGRAPHY's edge
    -- algorithm (SPHERICAL when absent), the SRID of PostGIS values
    OUT crs text,
    OUT edge_algorithm text,
    OUT srid int)
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

-- The CREATE FOREIGN TABLE statement that reads the given path(s) with the
-- natural PostgreSQL types (the same that IMPORT FOREIGN SCHEMA uses).  The
-- key options of encrypted files (key ids, never keys) are passed through.
CREATE FUNCTION create_table_sql(
    path text,
    table_name text DEFAULT NULL,
    server_name text DEFAULT 'parquet_srv',
    footer_key text DEFAULT NULL,
    column_keys text DEFAULT NULL,
    aad_prefix text DEFAULT NULL)
RETURNS text
AS 'MODULE_PATHNAME', 'parquet_fdw_create_table_sql'
LANGUAGE C VOLATILE;

-- Whether the bounding box of a WKB value (GEOMETRY read as bytea) meets
-- the box [xmin, xmax] x [ymin, ymax]; a qual with it prunes row groups by
-- their GeospatialStatistics (docs/GEOSPATIAL.md).
CREATE FUNCTION bbox_intersects(wkb bytea, xmin float8, ymin float8,
                                xmax float8, ymax float8)
RETURNS boolean
AS 'MODULE_PATHNAME', 'parquet_fdw_bbox_intersects'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- COPY ... WITH (FORMAT parquet) is a ProcessUtility hook: it exists only
-- in sessions that have loaded the library.  (Extension scripts run with
-- client_min_messages at least WARNING, so a NOTICE would not be seen.)
DO $$
BEGIN
    IF current_setting('shared_preload_libraries') !~ '(^|[\s,])parquet_fdw([\s,]|$)' AND
       current_setting('session_preload_libraries') !~ '(^|[\s,])parquet_fdw([\s,]|$)' THEN
        RAISE WARNING 'COPY ... WITH (FORMAT parquet) needs the parquet_fdw library loaded in the session'
            USING HINT = 'Add parquet_fdw to shared_preload_libraries or session_preload_libraries, or run LOAD ''parquet_fdw''; without it PostgreSQL reports: COPY format "parquet" not recognized.';
    END IF;
END
$$;

-- Encryption keys (docs/ENCRYPTION.md).  Key material lives in files of the
-- key directory (parquet_fdw.key_directory); SQL only ever names key ids.
CREATE FUNCTION create_key(key_id text, bits integer DEFAULT 256)
RETURNS void
AS 'MODULE_PATHNAME', 'parquet_fdw_create_key'
LANGUAGE C STRICT VOLATILE;

CREATE FUNCTION drop_key(key_id text)
RETURNS void
AS 'MODULE_PATHNAME', 'parquet_fdw_drop_key'
LANGUAGE C STRICT VOLATILE;

CREATE FUNCTION keys(OUT key_id text, OUT bits integer)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'parquet_fdw_keys'
LANGUAGE C STRICT VOLATILE;

REVOKE ALL ON FUNCTION create_key(text, integer), drop_key(text), keys() FROM PUBLIC;

-- Who may use which key besides superusers (members of grantee).
CREATE TABLE key_grants (
	key_id text NOT NULL,
	grantee regrole NOT NULL,
	PRIMARY KEY (key_id, grantee)
);
REVOKE ALL ON key_grants FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('key_grants', '');

CREATE FUNCTION grant_key(key_id text, grantee regrole)
RETURNS void
LANGUAGE sql STRICT VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$ INSERT INTO parquet_fdw.key_grants VALUES ($1, $2) ON CONFLICT DO NOTHING $$;

CREATE FUNCTION revoke_key(key_id text, grantee regrole)
RETURNS void
LANGUAGE sql STRICT VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$ DELETE FROM parquet_fdw.key_grants g WHERE g.key_id = $1 AND g.grantee = $2 $$;

REVOKE ALL ON FUNCTION grant_key(text, regrole), revoke_key(text, regrole) FROM PUBLIC;

-- Called by the extension (not through SQL) to check a non-superuser's use
-- of a key; SECURITY DEFINER so that key_grants stays unreadable to others.
CREATE FUNCTION key_usable(key_id text, role oid)
RETURNS boolean
LANGUAGE sql STABLE STRICT SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM parquet_fdw.key_grants g
                     WHERE g.key_id = $1 AND pg_has_role($2, g.grantee::oid, 'MEMBER')) $$;
REVOKE ALL ON FUNCTION key_usable(text, oid) FROM PUBLIC;

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

-- adjust/parquet_fdw's import_parquet() and import_parquet_explicit()
-- (docs/migrating.md): a foreign table over the files func returns for arg.
-- Its users call them unqualified, as they lived in the extension's schema,
-- usually public: they go there, or into parquet_fdw without a public schema.
DO $do$
DECLARE
    s text := CASE WHEN to_regnamespace('public') IS NULL
                   THEN 'parquet_fdw' ELSE 'public' END;
BEGIN
    EXECUTE format($f$
CREATE FUNCTION %I.import_parquet(
    tablename text,
    schemaname text,
    servername text,
    func regproc,
    arg jsonb,
    options jsonb DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'parquet_fdw_import_parquet'
LANGUAGE C VOLATILE$f$, s);
    EXECUTE format($f$
CREATE FUNCTION %I.import_parquet_explicit(
    tablename text,
    schemaname text,
    servername text,
    attnames text[],
    atttypes regtype[],
    func regproc,
    arg jsonb,
    options jsonb DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'parquet_fdw_import_parquet_explicit'
LANGUAGE C VOLATILE$f$, s);
END
$do$;
