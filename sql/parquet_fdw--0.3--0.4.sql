/* parquet_fdw--0.3--0.4.sql: from 0.3 to 0.4 */

\echo Use "ALTER EXTENSION parquet_fdw UPDATE TO '0.4'" to load this file. \quit

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
