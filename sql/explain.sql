-- EXPLAIN shows files, row groups and columns; ANALYZE adds what was read.
\set fixtures '/tmp/parquet_fdw_test/fixtures'
\set file :fixtures '/duckdb_types_snappy_dict.parquet'
SELECT parquet_fdw.create_table_sql(:'file', 'ft_explain') \gexec

EXPLAIN (COSTS OFF) SELECT id, c_varchar FROM ft_explain WHERE c_int4 > 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ft_explain;
EXPLAIN (COSTS OFF, VERBOSE) SELECT c_date FROM ft_explain;

-- Bytes read equal the compressed sizes of the chunks of the read columns,
-- as the file's own metadata reports them.
CREATE FUNCTION explain_bytes(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    plan jsonb;
BEGIN
    EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, FORMAT JSON, TIMING OFF, COSTS OFF) ' || q INTO plan;
    RETURN jsonb_path_query_first(plan, 'strict $.**."Bytes Read"')::bigint;
END
$$;
SELECT explain_bytes('SELECT id, c_varchar FROM ft_explain') =
       (SELECT sum(total_compressed_size)
          FROM parquet_fdw.metadata(:'file')
         WHERE path_in_schema IN ('id', 'c_varchar')) AS bytes_match;
SELECT explain_bytes('SELECT count(*) FROM ft_explain') AS bytes_for_count;
SELECT explain_filter('ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF', $q$SELECT id FROM ft_explain WHERE id < 10$q$);

-- Row estimates come from the footers.
EXPLAIN SELECT * FROM ft_explain;
