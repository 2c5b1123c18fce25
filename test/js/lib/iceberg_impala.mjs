// Impala's Iceberg query tests (testdata/workloads/functional-query/queries/
// QueryTest/iceberg-*.test, copied to iceberg/impala-expected/): the file
// format, which table of iceberg/impala/ each name in them means, and which
// of their queries read those tables unchanged. Used by check_iceberg.mjs.
//
// The format (Impala's tests/util/test_file_parser.py, followed here): a
// file is test cases separated by lines starting "====" (anything before the
// first is a header); a case is subsections starting "---- NAME[: comment]"
// (a later subsection of the same name replaces an earlier one, as Impala's
// parser does); QUERY is one or more statements separated by ';' of which
// Impala verifies only the last one's result (earlier ones are SET, USE,
// DML ...); lines starting '#' are comments (in QUERY and RESULTS). RESULTS
// rows are comma separated, strings in single quotes ('' for a quote), a
// NULL string printed 'NULL' like the string NULL; "row_regex:" rows and
// "regex:" values are patterns. RESULTS comments choose the verifier:
// VERIFY_IS_EQUAL (ordered), VERIFY_IS_EQUAL_SORTED (unordered),
// VERIFY_IS_SUBSET / _SUPERSET / _NOT_IN; without one, rows are compared in
// order iff the query contains "order by" (tests/common/test_result_verifier.py).
//
// Names (from Impala's testdata/datasets/functional/functional_schema_template.sql
// and tests/query_test/test_iceberg.py at the corpus's commit b215952):
//   functional_parquet.<name>  the tables of FUNCTIONAL_PARQUET below (the
//                              template's Iceberg tables whose directory the
//                              corpus has; the others, e.g. the *_orc ones,
//                              are not here)
//   $DATABASE.<name>           the Python test's unique database: only the
//                              tables LOADED_BY_TEST below are corpus tables
//                              there (create_iceberg_table_from_directory /
//                              load_table copy a corpus directory under the
//                              directory's own name); anything else in it the
//                              .test file creates itself
//   <name> unqualified         the database the file runs in: the unique
//                              database, except for the files of
//                              RUNS_IN_FUNCTIONAL_PARQUET
// A name the file creates (CREATE TABLE / VIEW, CTAS) is the file's own
// table from there on; a corpus table a statement changes (INSERT, DELETE,
// UPDATE, MERGE, ALTER, TRUNCATE, OPTIMIZE, LOAD DATA, DROP ...) no longer
// reads as the corpus has it: later queries over it do not apply.

// --------------------------------------------------------------- names

/** functional_parquet.<name> -> table directory below iceberg/impala. */
export const FUNCTIONAL_PARQUET = {
  iceberg_partitioned: 'iceberg_partitioned',
  iceberg_non_partitioned: 'iceberg_non_partitioned',
  trino_variant: 'iceberg_v3/trino_variant',
  hadoop_catalog_test_external: 'hadoop_catalog/hadoop_catalog_test/functional_parquet/hadoop_catalog_test',
  iceberg_alltypes_part: 'hadoop_catalog/ice/iceberg_alltypes_part',
  iceberg_legacy_partition_schema_evolution: 'hadoop_catalog/ice/iceberg_legacy_partition_schema_evolution',
  airports_parquet: 'hadoop_catalog/ice/airports_parquet',
  // the same files put under a second Hadoop catalog (berg.airports_parquet)
  airports_parquet_alternative: 'hadoop_catalog/ice/airports_parquet',
  iceberg_resolution_test_external: 'hadoop_catalog/iceberg_resolution_test/functional_parquet/iceberg_resolution_test',
  iceberg_timestamp_part: 'hadoop_catalog/ice/iceberg_timestamp_part',
  iceberg_timestamptz_part: 'hadoop_catalog/ice/iceberg_timestamptz_part',
  iceberg_uppercase_col: 'hadoop_catalog/ice/iceberg_uppercase_col',
  iceberg_v2_delete_positional: 'hadoop_catalog/ice/iceberg_v2_delete_positional',
  iceberg_v2_delete_equality: 'hadoop_catalog/ice/iceberg_v2_delete_equality',
  iceberg_v2_delete_equality_nulls: 'hadoop_catalog/ice/iceberg_v2_delete_equality_nulls',
  iceberg_v2_delete_both_eq_and_pos: 'hadoop_catalog/ice/iceberg_v2_delete_both_eq_and_pos',
  iceberg_v2_delete_equality_partitioned: 'hadoop_catalog/ice/iceberg_v2_delete_equality_partitioned',
  iceberg_v2_delete_equality_partition_evolution: 'hadoop_catalog/ice/iceberg_v2_delete_equality_partition_evolution',
  iceberg_v2_delete_equality_multi_eq_ids: 'hadoop_catalog/ice/iceberg_v2_delete_equality_multi_eq_ids',
  iceberg_v2_delete_pos_and_multi_eq_ids: 'hadoop_catalog/ice/iceberg_v2_delete_pos_and_multi_eq_ids',
  iceberg_multiple_storage_locations: 'hadoop_catalog/ice/iceberg_multiple_storage_locations',
  iceberg_v2_no_deletes: 'hadoop_catalog/ice/iceberg_v2_no_deletes',
  iceberg_v2_positional_delete_all_rows: 'hadoop_catalog/ice/iceberg_v2_positional_delete_all_rows',
  iceberg_v2_positional_not_all_data_files_have_delete_files: 'hadoop_catalog/ice/iceberg_v2_positional_not_all_data_files_have_delete_files',
  iceberg_v2_positional_update_all_rows: 'hadoop_catalog/ice/iceberg_v2_positional_update_all_rows',
  iceberg_v2_partitioned_position_deletes: 'hadoop_catalog/ice/iceberg_v2_partitioned_position_deletes',
  iceberg_with_key_metadata: 'hadoop_catalog/ice/iceberg_with_key_metadata',
  iceberg_lineitem_multiblock: 'hadoop_catalog/ice/iceberg_lineitem_multiblock',
  iceberg_spark_compaction_with_dangling_delete: 'hadoop_catalog/ice/iceberg_spark_compaction_with_dangling_delete',
  iceberg_v2_equality_delete_schema_evolution: 'hadoop_catalog/ice/iceberg_v2_equality_delete_schema_evolution',
  iceberg_v2_null_delete_record: 'hadoop_catalog/ice/iceberg_v2_null_delete_record',
};

/**
 * The corpus tables the Python test puts in the unique database before
 * running a .test file (file name without .test -> { name: directory }).
 */
export const LOADED_BY_TEST = {
  'iceberg-column-case-sensitivity-issue': { iceberg_column_case_sensitivity_issue: 'iceberg_column_case_sensitivity_issue' },
  'iceberg-migrated-table-field-id-resolution': {
    iceberg_migrated_alter_test: 'iceberg_migrated_alter_test',
    iceberg_migrated_complex_test: 'iceberg_migrated_complex_test',
  },
  'iceberg-load': { iceberg_mixed_file_format_test: 'iceberg_mixed_file_format_test' },
  'iceberg-merge-equality-update': { iceberg_v2_delete_equality_partitioned: 'hadoop_catalog/ice/iceberg_v2_delete_equality_partitioned' },
  'iceberg-merge-equality-insert': { iceberg_v2_delete_equality_partitioned: 'hadoop_catalog/ice/iceberg_v2_delete_equality_partitioned' },
  'iceberg-v3-negative': {
    iceberg_v3_deletion_vectors: 'iceberg_v3/iceberg_v3_deletion_vectors',
    iceberg_v3_default_value: 'iceberg_v3/iceberg_v3_default_value',
    test_complex_default: 'iceberg_v3/test_complex_default',
    iceberg_v3_all_types: 'iceberg_v3/iceberg_v3_all_types',
  },
  'iceberg-v3-row-lineage': { iceberg_v3_row_lineage: 'iceberg_v3/iceberg_v3_row_lineage' },
  'iceberg-v3-delete': { iceberg_v3_deletion_vectors: 'iceberg_v3/iceberg_v3_deletion_vectors' },
  // run after iceberg-v3-delete in the same database (test_v3_delete)
  'iceberg-v3-delete-partition-sort': { iceberg_v3_deletion_vectors: 'iceberg_v3/iceberg_v3_deletion_vectors' },
  'iceberg-v3-delete-existing-dv': { iceberg_v3_deletion_vectors: 'iceberg_v3/iceberg_v3_deletion_vectors' },
  'iceberg-v3-delete-v2-equality-upgrade': { iceberg_v2_delete_equality: 'hadoop_catalog/ice/iceberg_v2_delete_equality' },
  'iceberg-v3-variant': { trino_nested_variant: 'iceberg_v3/trino_nested_variant' },
  'iceberg-v3-default-values': {
    iceberg_v3_default_value: 'iceberg_v3/iceberg_v3_default_value',
    iceberg_v3_default_value_avro: 'iceberg_v3/iceberg_v3_default_value_avro',
    test_default_part: 'iceberg_v3/test_default_part',
    test_complex_default: 'iceberg_v3/test_complex_default',
    iceberg_v3_all_types: 'iceberg_v3/iceberg_v3_all_types',
  },
};

/**
 * Files the Python tests run without a unique database (run_test_case
 * without use_db, or use_db="functional_parquet"): unqualified names are
 * functional_parquet's there.
 */
export const RUNS_IN_FUNCTIONAL_PARQUET = new Set([
  'iceberg-query', 'iceberg-query-v2', 'iceberg-orc-field-id', 'iceberg-missing-field-ids',
  'iceberg-rollback-negative', 'iceberg-scan-metrics-basic', 'iceberg-scan-metrics-with-deletes',
  'iceberg-v2-plain-count-star-optimization', 'iceberg-v2-read-position-deletes',
  'iceberg-v2-read-position-deletes-orc', 'iceberg-v2-read-position-deletes-stats',
  'iceberg-v2-read-position-deletes-orc-stats', 'iceberg-v2-read-equality-deletes',
  'iceberg-v2-directed-mode', 'iceberg-virtual-partition-columns',
  'iceberg-multiple-storage-locations-table', 'iceberg-tablesample', 'iceberg-tablesample-v2',
]);

/** Files whose unqualified names are another catalog's (Iceberg REST catalog tests): never corpus tables. */
export const RUNS_ELSEWHERE = new Set([
  'iceberg-multicatalog', 'iceberg-multiple-rest-catalogs', 'iceberg-multiple-rest-catalogs-ambiguous-name',
  'iceberg-rest-catalog', 'iceberg-rest-catalog-blacklist-db', 'iceberg-rest-catalog-blacklist-tables', 'iceberg-rest-fgac',
]);

/** Impala's Iceberg metadata table names (tbl.<name>). */
export const METADATA_TABLES = new Set(['snapshots', 'history', 'files', 'data_files', 'delete_files', 'entries', 'manifests',
  'partitions', 'all_files', 'all_data_files', 'all_delete_files', 'all_entries', 'all_manifests', 'metadata_log_entries',
  'refs', 'position_deletes']);

// --------------------------------------------------------------- parser

/**
 * The test cases of a .test file: [{ line (of its first subsection), sub:
 * { NAME: { text, comment, line } } }], a later subsection of a name
 * replacing an earlier one (as Impala's parser).
 */
export function parseTestFile(text) {
  const lines = text.split('\n');
  const cases = [];
  let cur = null;
  let sub = null;
  let started = false;
  const flush = () => {
    if (sub && cur) {
      sub.text = sub.lines.join('\n');
      delete sub.lines;
    }
    sub = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/^====/.test(l)) {
      flush();
      if (cur && Object.keys(cur.sub).length) cases.push(cur);
      cur = { line: i + 2, sub: {} };
      started = true;
      continue;
    }
    if (!started) continue; // header
    const m = /^---- (.*)$/.exec(l);
    if (m) {
      flush();
      const parts = m[1].split(':').map((s) => s.trim());
      const name = parts[0];
      const comment = parts.length >= 2 ? parts.slice(1).join(':') || null : null;
      sub = { name, comment, line: i + 1, lines: [] };
      cur.sub[name] = sub;
      continue;
    }
    if (sub) sub.lines.push(l);
  }
  flush();
  if (cur && Object.keys(cur.sub).length) cases.push(cur);
  return cases;
}

/** Lines of a section without '#' comment lines (Impala's remove_comments). */
export const removeComments = (text) => text.split('\n').filter((l) => !l.trim().startsWith('#')).join('\n');

/** The statements of a QUERY section as Impala runs them (comments out, trailing ';' and newlines off, split at every ';'). */
export function queryStatements(text) {
  const q = removeComments(text).replace(/[\n;]+$/, '');
  return q.split(';');
}

/** The RESULTS rows (comment lines out, the trailing newline off). */
export function resultLines(text) {
  const t = removeComments(text);
  const ls = t.split('\n');
  while (ls.length && ls[ls.length - 1] === '') ls.pop();
  return ls;
}

/** A RESULTS row split into values (Impala's __tokenize_row: commas outside quotes; '' in quotes is a quote). */
export function splitRow(row) {
  const out = [];
  let cur = '';
  let inQ = false;
  for (let i = 0; i < row.length; i++) {
    const c = row[i];
    if (c === "'") {
      if (inQ && row[i + 1] === "'") {
        cur += "''";
        i++;
        continue;
      }
      inQ = !inQ;
      cur += c;
    } else if (c === ',' && !inQ) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim());
}

// ------------------------------------------------------------ tokenizer

/**
 * Impala SQL tokens: { t: 'ws'|'comment'|'id'|'qid'|'str'|'num'|'op'|'hint', v, raw }.
 * id: a bare word (v as written); qid: a `backquoted` name (v the name);
 * str: a string literal in '...' or "..." (v its value: backslash escapes
 * and doubled quotes resolved); hint: [..] or /* +.. *\/ or -- +.. hints.
 */
export function tokenize(sql) {
  const toks = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    const rest = sql.slice(i);
    let m;
    if ((m = /^\s+/.exec(rest))) {
      toks.push({ t: 'ws', raw: m[0] });
      i += m[0].length;
    } else if (rest.startsWith('--')) {
      const e = sql.indexOf('\n', i);
      const raw = e < 0 ? rest : sql.slice(i, e);
      toks.push({ t: /^--\s*\+/.test(raw) ? 'hint' : 'comment', raw });
      i += raw.length;
    } else if (rest.startsWith('/*')) {
      const e = sql.indexOf('*/', i + 2);
      const raw = e < 0 ? rest : sql.slice(i, e + 2);
      toks.push({ t: /^\/\*\s*\+/.test(raw) ? 'hint' : 'comment', raw });
      i += raw.length;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      let v = '';
      for (;;) {
        if (j >= n) throw new Error(`unterminated string literal at ${i}`);
        const d = sql[j];
        if (d === '\\' && j + 1 < n) {
          const e = sql[j + 1];
          v += { n: '\n', t: '\t', r: '\r', 0: '\0', b: '\b', Z: '\x1a' }[e] ?? e;
          j += 2;
        } else if (d === c) {
          if (sql[j + 1] === c) {
            v += c;
            j += 2;
          } else {
            j++;
            break;
          }
        } else {
          v += d;
          j++;
        }
      }
      toks.push({ t: 'str', v, raw: sql.slice(i, j) });
      i = j;
    } else if (c === '`') {
      const e = sql.indexOf('`', i + 1);
      if (e < 0) throw new Error(`unterminated backquote at ${i}`);
      toks.push({ t: 'qid', v: sql.slice(i + 1, e), raw: sql.slice(i, e + 1) });
      i = e + 1;
    } else if ((m = /^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?/.exec(rest))) {
      toks.push({ t: 'num', v: m[0], raw: m[0] });
      i += m[0].length;
    } else if ((m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(rest))) {
      toks.push({ t: 'id', v: m[0], raw: m[0] });
      i += m[0].length;
    } else if (c === '[' && (m = /^\[\s*[A-Za-z_][A-Za-z0-9_,\s()]*\]/.exec(rest)) && !/^\[\s*\d/.test(rest)) {
      toks.push({ t: 'hint', raw: m[0] });
      i += m[0].length;
    } else if ((m = /^(<=>|<>|!=|<=|>=|\|\||::|==|&&)/.exec(rest))) {
      toks.push({ t: 'op', v: m[0], raw: m[0] });
      i += m[0].length;
    } else {
      toks.push({ t: 'op', v: c, raw: c });
      i++;
    }
  }
  return toks;
}

/** The tokens that carry meaning (no whitespace, comments or hints). */
export const solid = (toks) => toks.filter((x) => x.t !== 'ws' && x.t !== 'comment' && x.t !== 'hint');

export const isWord = (tok, w) => tok && tok.t === 'id' && tok.v.toLowerCase() === w;
export const nameOf = (tok) => (tok.t === 'id' || tok.t === 'qid' ? tok.v : null);

/** The first keyword of a statement, lowercased ('' for an empty one). */
export function statementKind(toks) {
  const s = solid(toks);
  let k = 0;
  while (s[k] && s[k].t === 'op' && s[k].v === '(') k++;
  return s[k] && s[k].t === 'id' ? s[k].v.toLowerCase() : '';
}

const TABLE_END = new Set(['where', 'group', 'order', 'limit', 'having', 'union', 'join', 'inner', 'left', 'right', 'full', 'cross',
  'on', 'using', 'offset', 'except', 'intersect', 'window', 'for', 'tablesample', 'as', 'straight_join', 'anti', 'semi', 'natural',
  'lateral', 'with', 'values', 'select', 'set', 'from', 'minus', 'outer']);

/**
 * Table references of a statement's token list (solid tokens): every name
 * after FROM / JOIN (and comma-separated FROM lists), with what follows it:
 * [{ parts: [names], start, end (solid indices of the name), alias,
 * travel: { kind: 'version'|'time', tokens, start, end } | null,
 * sample: bool }].
 */
export function tableRefs(s) {
  const refs = [];
  const readRef = (k) => {
    // a dotted name
    const parts = [];
    const start = k;
    if (!s[k] || !nameOf(s[k])) return { k, ref: null };
    parts.push(nameOf(s[k]));
    k++;
    while (s[k] && s[k].t === 'op' && s[k].v === '.' && s[k + 1] && nameOf(s[k + 1])) {
      parts.push(nameOf(s[k + 1]));
      k += 2;
    }
    const ref = { parts, start, end: k - 1, alias: null, travel: null, sample: false };
    // FOR SYSTEM_VERSION AS OF n | FOR SYSTEM_TIME AS OF expr
    if (isWord(s[k], 'for') && (isWord(s[k + 1], 'system_version') || isWord(s[k + 1], 'system_time')) && isWord(s[k + 2], 'as') && isWord(s[k + 3], 'of')) {
      const kind = s[k + 1].v.toLowerCase() === 'system_version' ? 'version' : 'time';
      const tstart = k;
      k += 4;
      // the corpus's forms: a number, a string, a $VARIABLE or NAME the Python
      // test substitutes, now(); anything longer is taken up to the next
      // top-level keyword, comma or parenthesis
      const etoks = [];
      if (s[k] && nameOf(s[k]) && s[k + 1] && s[k + 1].t === 'op' && s[k + 1].v === '(' && s[k + 2] && s[k + 2].t === 'op' && s[k + 2].v === ')') {
        etoks.push(s[k], s[k + 1], s[k + 2]);
        k += 3;
      } else if (s[k]) {
        etoks.push(s[k]);
        k++;
      }
      while (s[k] && s[k].t === 'op' && ['+', '-'].includes(s[k].v)) {
        // now() - interval 1 day and the like
        while (s[k] && !(s[k].t === 'op' && [',', ')', ';'].includes(s[k].v)) && !(s[k].t === 'id' && TABLE_END.has(s[k].v.toLowerCase()))) {
          etoks.push(s[k]);
          k++;
        }
      }
      ref.travel = { kind, tokens: etoks, start: tstart, end: k - 1 };
    }
    if (isWord(s[k], 'tablesample')) ref.sample = true;
    // alias: [AS] name
    if (isWord(s[k], 'as') && s[k + 1] && nameOf(s[k + 1])) {
      ref.alias = nameOf(s[k + 1]);
      ref.aliasEnd = k + 1;
      k += 2;
    } else if (s[k] && ((s[k].t === 'id' && !TABLE_END.has(s[k].v.toLowerCase())) || s[k].t === 'qid')) {
      ref.alias = nameOf(s[k]);
      ref.aliasEnd = k;
      k++;
    }
    return { k, ref };
  };
  for (let k = 0; k < s.length; k++) {
    const x = s[k];
    if (!(isWord(x, 'from') || isWord(x, 'join'))) continue;
    // DELETE x FROM ...; "FROM (" subquery: its own FROM is found later
    let j = k + 1;
    for (;;) {
      if (s[j] && s[j].t === 'op' && s[j].v === '(') break;
      const { k: nk, ref } = readRef(j);
      if (!ref) break;
      refs.push(ref);
      j = nk;
      if (isWord(x, 'from') && s[j] && s[j].t === 'op' && s[j].v === ',') {
        j++;
        continue;
      }
      break;
    }
  }
  return refs;
}

/** The target table of a statement that changes a table: { parts, created } or null (tokens solid). */
export function statementTarget(s) {
  const w = (k) => (s[k] && s[k].t === 'id' ? s[k].v.toLowerCase() : '');
  const nameAt = (k) => {
    const parts = [];
    if (!s[k] || !nameOf(s[k])) return null;
    parts.push(nameOf(s[k]));
    k++;
    while (s[k] && s[k].t === 'op' && s[k].v === '.' && s[k + 1] && nameOf(s[k + 1])) {
      parts.push(nameOf(s[k + 1]));
      k += 2;
    }
    return parts;
  };
  const k0 = w(0);
  let k = 1;
  switch (k0) {
    case 'create': {
      while (['external', 'temporary', 'or', 'replace', 'transactional'].includes(w(k))) k++;
      if (!['table', 'view'].includes(w(k))) return null;
      k++;
      if (w(k) === 'if' && w(k + 1) === 'not' && w(k + 2) === 'exists') k += 3;
      return { parts: nameAt(k), created: true };
    }
    case 'drop':
      if (!['table', 'view'].includes(w(1))) return null;
      k = 2;
      if (w(k) === 'if' && w(k + 1) === 'exists') k += 2;
      return { parts: nameAt(k), created: false, dropped: true };
    case 'insert':
      while (['into', 'overwrite', 'table'].includes(w(k))) k++;
      return { parts: nameAt(k), created: false };
    case 'upsert':
      while (['into', 'table'].includes(w(k))) k++;
      return { parts: nameAt(k), created: false };
    case 'update':
    case 'alter':
    case 'truncate':
    case 'optimize':
      if (w(k) === 'table') k++;
      if (w(k) === 'if' && w(k + 1) === 'exists') k += 2;
      return { parts: nameAt(k), created: false };
    case 'delete': {
      if (w(1) === 'from') return { parts: nameAt(2), created: false };
      // DELETE t FROM tbl t JOIN ...: the alias names the target
      const refs = tableRefs(s);
      const a = nameAt(1);
      const r = refs.find((x) => x.alias && a && x.alias.toLowerCase() === a[0].toLowerCase());
      return { parts: r ? r.parts : a, created: false };
    }
    case 'merge':
      if (w(1) === 'into') return { parts: nameAt(2), created: false };
      return null;
    case 'load': {
      const i = s.findIndex((x, j) => isWord(x, 'table') && j > 0 && isWord(s[j - 1], 'into'));
      return i >= 0 ? { parts: nameAt(i + 1), created: false } : null;
    }
    default:
      return null;
  }
}

/** Statement kinds that only read, or change nothing a later query reads. */
export const NO_CHANGE = new Set(['select', 'with', 'values', 'set', 'unset', 'use', 'describe', 'show', 'explain',
  'compute', 'invalidate', 'refresh', 'comment', '']);

/** Kinds of read statements whose results could be compared. */
export const READ_KINDS = new Set(['select', 'with', 'values']);

// ------------------------------------------------------- the test files

const UNIQUE = '__unique_db__';
/** Impala's virtual columns: no parquet_fdw equivalent. */
export const VIRTUAL_COLUMNS = /^(input__file__name|file__position|partition__spec__id|iceberg__[a-z_]+|_file|_pos|_row_id|_last_updated_sequence_number|_file_row_id|_file_last_updated_sequence_number)$/i;

/** Query options that do not change a query's result. */
const HARMLESS_OPTIONS = new Set(['mt_dop', 'batch_size', 'num_nodes', 'runtime_filter_wait_time_ms', 'explain_level',
  'disable_outermost_topn', 'max_scan_range_length', 'mem_limit', 'min_spillable_buffer_size', 'default_spillable_buffer_size',
  'disable_optimized_iceberg_v2_read', 'iceberg_disable_count_star_optimization', 'parquet_file_size', 'max_fs_writers',
  'debug_action', 'runtime_filter_mode', 'runtime_bloom_filter_size', 'enable_runtime_filter', 'disable_codegen',
  'iceberg_predicate_pushdown_subsetting', 'parquet_late_materialization_threshold', 'abort_on_error', 'exec_single_node_rows_threshold',
  'num_scanner_threads', 'scan_node_codegen_threshold', 'disable_hbase_num_rows_estimate', 'compute_processing_cost',
  'processing_cost_min_threads', 'parquet_read_statistics', 'parquet_dictionary_filtering', 'parquet_bloom_filtering',
  'enable_expr_rewrites', 'timezone', 'skip_unneeded_updates_col_limit', 'default_transactional_type']);

/** The option name and value of a SET statement, or null. */
function setOption(s) {
  if (!isWord(s[0], 'set') || !s[1] || s[1].t !== 'id') return null;
  if (!(s[2] && s[2].t === 'op' && s[2].v === '=')) return null;
  const v = s.slice(3).map((x) => (x.t === 'str' ? x.v : x.raw)).join('');
  return { name: s[1].v.toLowerCase(), value: v };
}

/** Names a WITH clause defines (lowercased). */
function cteNames(s) {
  const out = new Set();
  for (let k = 0; k < s.length; k++) {
    if (nameOf(s[k]) && isWord(s[k + 1], 'as') && s[k + 2] && s[k + 2].t === 'op' && s[k + 2].v === '('
      && (isWord(s[k - 1], 'with') || (s[k - 1] && s[k - 1].t === 'op' && s[k - 1].v === ','))) out.add(nameOf(s[k]).toLowerCase());
  }
  return out;
}

/**
 * Every read query of the .test files that reads a table of the corpus
 * (tableDirs: the set of directories below iceberg/impala), in file order:
 * [{ file, line, sql (the statement, $DATABASE resolved), options (SET in
 * its block), sub (the case's subsections), refs: [{ ref, res }], skip
 * (reason or null) }]; and counts of what was looked at.
 */
export function collectQueries(files, tableDirs, currentSnapshotOf = () => null) {
  const out = [];
  const counts = { files: 0, cases: 0, statements: 0, readStatements: 0 };
  for (const { name: fileName, text } of files) {
    counts.files++;
    const base = fileName.replace(/\.test$/, '');
    const defaultDb = RUNS_ELSEWHERE.has(base) ? '__elsewhere__' : RUNS_IN_FUNCTIONAL_PARQUET.has(base) ? 'functional_parquet' : UNIQUE;
    const ctx = { db: defaultDb, loaded: LOADED_BY_TEST[base] || {}, created: new Map(), changed: new Map() };
    const keyOf = (parts) => {
      if (parts.length === 1) return { db: ctx.db, name: parts[0].toLowerCase() };
      return { db: parts[0].toLowerCase() === UNIQUE ? UNIQUE : parts[0].toLowerCase(), name: parts[1].toLowerCase() };
    };
    const resolveKey = ({ db, name }) => {
      const key = `${db}.${name}`;
      let dir = null;
      if (db === 'functional_parquet') dir = FUNCTIONAL_PARQUET[name] ?? null;
      else if (db === UNIQUE) dir = ctx.loaded[name] ?? null;
      if (dir && !tableDirs.has(dir)) dir = null;
      if (ctx.created.has(key)) return { kind: 'created', key, line: ctx.created.get(key), name };
      if (dir && ctx.changed.has(key)) return { kind: 'changed', key, dir, line: ctx.changed.get(key), name };
      if (dir) return { kind: 'corpus', key, dir, name };
      return { kind: 'other', key, name };
    };
    /** What a table reference in statement s names. */
    const resolve = (ref, s, ctes) => {
      const p = ref.parts;
      const aliases = new Set(tableRefs(s).map((r) => (r.alias || r.parts[r.parts.length - 1]).toLowerCase()));
      if (p.length === 1 && ctes.has(p[0].toLowerCase())) return { kind: 'cte', name: p[0] };
      if (p.length >= 2 && METADATA_TABLES.has(p[p.length - 1].toLowerCase())) {
        const t = resolveKey(keyOf(p.slice(0, -1)));
        return { kind: 'metadata', table: t, name: p.join('.') };
      }
      if (p.length === 2 && aliases.has(p[0].toLowerCase()) && !['functional_parquet', UNIQUE, 'functional', 'default'].includes(p[0].toLowerCase())) return { kind: 'nested', name: p.join('.') };
      if (p.length >= 3) return { kind: 'nested', name: p.join('.') };
      return resolveKey(keyOf(p));
    };
    const applyChange = (s, line) => {
      const kind = statementKind(s);
      if (kind === 'use' && s[1] && nameOf(s[1])) {
        ctx.db = nameOf(s[1]).toLowerCase() === UNIQUE ? UNIQUE : nameOf(s[1]).toLowerCase();
        return;
      }
      if (NO_CHANGE.has(kind)) return;
      const t = statementTarget(s);
      if (!t || !t.parts) return;
      const k = keyOf(t.parts);
      const key = `${k.db}.${k.name}`;
      // ALTER TABLE t EXECUTE ROLLBACK(<the corpus's current snapshot>): t reads as the corpus has it again
      const rb = s.findIndex((x, j) => isWord(x, 'execute') && isWord(s[j + 1], 'rollback'));
      if (kind === 'alter' && rb > 0 && s[rb + 2] && s[rb + 2].v === '(' && s[rb + 3] && s[rb + 3].t === 'num') {
        const r = resolveKey(k);
        if (r.dir && currentSnapshotOf(r.dir) === s[rb + 3].v) {
          ctx.changed.delete(key);
          return;
        }
      }
      if (t.created) ctx.created.set(key, line);
      else if (t.dropped) {
        ctx.created.delete(key);
        ctx.changed.set(key, line);
      } else if (!ctx.created.has(key)) ctx.changed.set(key, line);
    };
    const cases = parseTestFile(text);
    for (const c of cases) {
      counts.cases++;
      const qsec = c.sub.QUERY || c.sub.HIVE_QUERY || c.sub.TRINO_QUERY;
      if (!qsec) continue;
      const engine = c.sub.QUERY ? 'impala' : c.sub.HIVE_QUERY ? 'hive' : 'trino';
      const stmts = queryStatements(qsec.text.replaceAll('$DATABASE', UNIQUE));
      const options = {};
      const blockLine = qsec.line + 1; // statements are named by their QUERY section's first line
      for (let i = 0; i < stmts.length; i++) {
        const raw = stmts[i];
        let toks;
        try {
          toks = tokenize(raw);
        } catch {
          continue;
        }
        const s = solid(toks);
        if (!s.length) continue;
        counts.statements++;
        const last = i === stmts.length - 1;
        const opt = setOption(s);
        if (opt) {
          options[opt.name] = opt.value;
          continue;
        }
        const kind = statementKind(s);
        if (last && engine === 'impala' && READ_KINDS.has(kind)) {
          counts.readStatements++;
          const ctes = cteNames(s);
          const refs = tableRefs(s).map((ref) => ({ ref, res: resolve(ref, s, ctes) }));
          const reads = refs.filter((r) => ['corpus', 'changed'].includes(r.res.kind) || (r.res.kind === 'metadata' && ['corpus', 'changed'].includes(r.res.table.kind)));
          if (reads.length) {
            out.push({ file: fileName, line: qsec.line + 1, sql: raw.trim(), toks, s, options: { ...options }, sub: c.sub, refs, skip: null });
          }
        }
        // a statement Impala expects to fail (CATCH) changed nothing
        const caught = (c.sub.CATCH || c.sub.CALCITE_PLANNER_CATCH) && !/__NO_ERROR__/.test((c.sub.CATCH || c.sub.CALCITE_PLANNER_CATCH).text);
        if (!(last && caught)) applyChange(s, blockLine);
      }
    }
  }
  return { queries: out, counts };
}

/** Why a collected query cannot be compared (before translation), or null. */
export function staticSkipReason(q) {
  const why = skipReason(q);
  return why && why.replaceAll(UNIQUE, '$DATABASE');
}

function skipReason(q) {
  const first = (a) => a[0];
  const changed = q.refs.find((r) => r.res.kind === 'changed');
  if (changed) return `${changed.res.name} was changed by this file before (the QUERY at line ${changed.res.line}): the corpus does not hold what Impala read`;
  const meta = q.refs.find((r) => r.res.kind === 'metadata');
  if (meta) return `metadata table ${meta.res.name}: parquet_fdw has no Iceberg metadata tables`;
  const nested = q.refs.find((r) => r.res.kind === 'nested');
  if (nested) return `collection reference ${nested.res.name} in FROM (Impala's nested-collection join)`;
  const created = q.refs.find((r) => r.res.kind === 'created');
  if (created) return `also reads ${created.res.name}, a table this file creates (line ${created.res.line})`;
  const other = q.refs.find((r) => r.res.kind === 'other');
  if (other) return `also reads ${other.res.key}, not a corpus table`;
  const sample = q.refs.find((r) => r.ref.sample);
  if (sample) return 'TABLESAMPLE: which rows Impala samples is its own';
  const catchSec = q.sub.CATCH || q.sub.CALCITE_PLANNER_CATCH;
  if (catchSec) return `Impala expects an error (CATCH: ${first(removeComments(catchSec.text).split('\n').filter((l) => l.trim())) ?? ''})`;
  if (!q.sub.RESULTS) return q.sub.DML_RESULTS ? 'DML_RESULTS only' : 'no RESULTS section';
  const ver = (q.sub.RESULTS.comment || '').toUpperCase().replace(/\s/g, '');
  if (/RAW_STRING|MULTI_LINE/.test(ver)) return `RESULTS: ${q.sub.RESULTS.comment} (raw multi-line strings)`;
  if (!q.sub.TYPES) return 'no TYPES section';
  const vars = /\$[A-Z_]+/.exec(q.sql) || /\b[A-Z][A-Z0-9_]*_SNAPSHOT_ID\b/.exec(q.sql) || /\b[A-Z][A-Z0-9_]*SNAPTHOT_ID\b/.exec(q.sql);
  if (vars) return `${vars[0]}: a value the Python test substitutes`;
  const virt = q.s.find((x) => (x.t === 'id' || x.t === 'qid') && VIRTUAL_COLUMNS.test(x.v));
  if (virt) return `virtual column ${virt.v}: no parquet_fdw equivalent`;
  const lines = resultLines(q.sub.RESULTS.text);
  if (lines.some((l) => /^row_regex:/i.test(l))) return 'expected rows given as row_regex: patterns';
  if (lines.some((l) => splitRow(l).some((v) => /^regex:/i.test(v)))) return 'expected values given as regex: patterns';
  for (const [k, v] of Object.entries(q.options)) {
    if (!HARMLESS_OPTIONS.has(k)) {
      if (k === 'expand_complex_types') continue; // the translation follows it
      return `SET ${k}=${v} changes what Impala returns`;
    }
  }
  return null;
}

/**
 * A query whose only use of Impala's virtual columns is as items of its
 * select list (select *, ICEBERG__DATA__SEQUENCE__NUMBER from t): the same
 * query without those items, and its TYPES and RESULTS without their
 * columns, so that the rest is compared; q itself otherwise.
 */
export function withoutVirtualItems(q) {
  const s = q.s;
  const isVirt = (x) => (x.t === 'id' || x.t === 'qid') && VIRTUAL_COLUMNS.test(x.v);
  if (!s.some(isVirt) || !isWord(s[0], 'select') || !q.sub.TYPES || !q.sub.RESULTS) return q;
  // the top-level select list
  let d = 0;
  let fromAt = -1;
  for (let k = 1; k < s.length; k++) {
    if (s[k].t === 'op' && s[k].v === '(') d++;
    if (s[k].t === 'op' && s[k].v === ')') d--;
    if (d === 0 && isWord(s[k], 'from')) {
      fromAt = k;
      break;
    }
  }
  if (fromAt < 0) return q;
  const items = [];
  let start = 1;
  d = 0;
  for (let k = 1; k <= fromAt; k++) {
    if (s[k].t === 'op' && s[k].v === '(') d++;
    if (s[k].t === 'op' && s[k].v === ')') d--;
    if (k === fromAt || (d === 0 && s[k].t === 'op' && s[k].v === ',')) {
      items.push([start, k]);
      start = k + 1;
    }
  }
  const virtItem = ([a, b]) => {
    const t = s.slice(a, b);
    return (t.length === 1 && isVirt(t[0])) || (t.length === 3 && nameOf(t[0]) && t[1].v === '.' && isVirt(t[2]));
  };
  const drop = items.map((it, i) => (virtItem(it) ? i : -1)).filter((i) => i >= 0);
  if (!drop.length || drop.length === items.length) return q;
  const virtInItems = drop.reduce((n, i) => n + s.slice(...items[i]).filter(isVirt).length, 0);
  if (virtInItems !== s.filter(isVirt).length) return q; // used elsewhere too
  if (q.refs.some(({ ref }) => ref.start < fromAt)) return q;
  // the result columns: a * item's columns are not known here, so dropped
  // items before a * keep their position, those after it count from the end
  // (when every item after the * is one column)
  const types = q.sub.TYPES.text.split('\n').filter((l) => !l.trim().startsWith('#')).join('').split(',').map((t) => t.trim());
  const starAt = items.findIndex(([a, b]) => b - a === 1 && s[a].t === 'op' && s[a].v === '*');
  const fromEnd = items.length - 1;
  const positions = drop.map((i) => (starAt < 0 || i < starAt ? i : types.length - 1 - (fromEnd - i)));
  if (starAt >= 0 && drop.some((i) => i > starAt) && items.slice(starAt + 1).some(([a, b], j) => !drop.includes(starAt + 1 + j) && b - a !== 1)) return q;
  const keep = (arr) => arr.filter((_, j) => !positions.includes(j));
  // the select list again without the dropped items
  const comma = s.find((x) => x.t === 'op' && x.v === ',');
  const kept = items.filter((_, i) => !drop.includes(i));
  const list = kept.flatMap(([a, b], i) => (i ? [comma, ...s.slice(a, b)] : s.slice(a, b)));
  const ns = [s[0], ...list, ...s.slice(fromAt)];
  const shift = fromAt - (1 + list.length);
  const refs = q.refs.map(({ ref, res }) => ({
    ref: { ...ref, start: ref.start - shift, end: ref.end - shift, aliasEnd: ref.aliasEnd === undefined ? undefined : ref.aliasEnd - shift,
      travel: ref.travel ? { ...ref.travel, start: ref.travel.start - shift, end: ref.travel.end - shift } : null },
    res,
  }));
  const rows = resultLines(q.sub.RESULTS.text).map((l) => keep(splitRow(l)).join(','));
  return {
    ...q,
    s: ns,
    sql: ns.map((x) => x.raw).join(' '),
    refs,
    sub: { ...q.sub, TYPES: { ...q.sub.TYPES, text: keep(types).join(', ') }, RESULTS: { ...q.sub.RESULTS, text: rows.join('\n') } },
    dropped: drop.map((i) => s.slice(...items[i]).map((x) => x.raw).join('')),
  };
}
