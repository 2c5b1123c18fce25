-- IMPORT FOREIGN SCHEMA over a directory, and create_table_sql().
\set fixtures '/tmp/parquet_fdw_test/fixtures'
CREATE SCHEMA imported;
IMPORT FOREIGN SCHEMA "/tmp/parquet_fdw_test/fixtures"
    LIMIT TO (duckdb_types_gzip_dict, duckdb_types_lz4_plain)
    FROM SERVER parquet_srv INTO imported;
SELECT foreign_table_name FROM information_schema.foreign_tables
 WHERE foreign_table_schema = 'imported' ORDER BY 1;
SELECT count(*) FROM imported.duckdb_types_gzip_dict t JOIN expected_types e USING (id)
 WHERE t::text IS DISTINCT FROM e::text;

CREATE SCHEMA imported2;
-- A directory with a broken file: the error names it.
IMPORT FOREIGN SCHEMA "/tmp/parquet_fdw_test/fixtures"
    EXCEPT (duckdb_types_gzip_dict)
    FROM SERVER parquet_srv INTO imported2;
-- EXCEPT leaves out the broken files (and one good one).
IMPORT FOREIGN SCHEMA "/tmp/parquet_fdw_test/fixtures"
    EXCEPT (duckdb_types_gzip_dict, bad_empty, bad_not_parquet, bad_only_magic,
            bad_magic_head, bad_magic_tail, bad_truncated, bad_footer_len,
            bad_footer_len_huge, bad_footer_thrift, bad_page_header,
            bad_snappy_data, bad_delta_bytes_bomb, bad_brotli_ratio)
    FROM SERVER parquet_srv INTO imported2;
SELECT count(*) > 20 AS many, bool_or(foreign_table_name = 'duckdb_types_gzip_dict') AS has_excluded,
       bool_or(foreign_table_name LIKE 'bad%') AS has_bad
  FROM information_schema.foreign_tables WHERE foreign_table_schema = 'imported2';
SELECT count(*) FROM imported2.duckdb_types_zstd_plain t JOIN expected_types e USING (id)
 WHERE t::text IS DISTINCT FROM e::text;

IMPORT FOREIGN SCHEMA "relative/dir" FROM SERVER parquet_srv INTO imported;

SELECT parquet_fdw.create_table_sql(:'fixtures' || '/pw_v2_zstd.parquet', 'my table', 'my server');
SELECT file_name = :'fixtures' || '/pw_v2_zstd.parquet' AS name_ok, num_rows, num_row_groups, num_columns
  FROM parquet_fdw.file_info(:'fixtures' || '/pw_v2_zstd.parquet');
