// The nested fixtures (DuckDB SQL), for gen_fixtures.mjs:
//
//   nestedTypesSql()  duckdb_nested_types.parquet: every scalar type of the
//                     "types" table (types_table.mjs) inside a LIST, a
//                     STRUCT and a MAP, NULLs at every level, plus lists of
//                     lists/structs/maps, structs of lists, maps of lists and
//                     long lists spanning pages. Compared with DuckDB's own
//                     reading by the interop stage.
//   legacyLists()     hyp_legacy_lists.parquet (hyparquet-writer): the
//                     backward-compatibility shapes of the LIST spec that
//                     DuckDB reads otherwise than the spec says (it collapses
//                     one-field repeated groups), so arrow-rs is the reference.
//   nestedDeclSql()   duckdb_nested_decl.parquet: a few nested columns whose
//                     values sql/nested.sql computes independently with
//                     PostgreSQL formulas (keep the two in sync) to check
//                     declared arrays, composites and jsonb.

import { COLUMNS } from './types_table.mjs';

const duckType = (c) => (c.duckType.startsWith('ENUM') ? 'color' : c.duckType);

/**
 * SELECT over table `types` (which must exist). 5000 rows. exclude: type
 * columns to leave out (e.g. c_interval, which arrow-rs cannot rewrite).
 */
export function nestedTypesSql(exclude = []) {
  const scalars = COLUMNS.filter((c) => c.name !== 'id' && !exclude.includes(c.name));
  const cols = ['id'];
  for (const c of scalars) {
    const t = duckType(c);
    // NULL list, empty list, [value, NULL, next row's value]; values are NULL where the types table has them NULL
    cols.push(`CASE id % 5 WHEN 0 THEN NULL WHEN 1 THEN []::${t}[] ` +
      `ELSE [${c.name}, NULL, lead(${c.name}) OVER (ORDER BY id)] END AS l_${c.name}`);
  }
  // one struct with a field of every type: NULL struct, NULL fields
  cols.push(`CASE WHEN id % 6 = 0 THEN NULL ELSE struct_pack(${scalars.map((c) => `${c.name} := ${c.name}`).join(', ')}) END AS s_all`);
  for (const c of scalars) {
    const t = duckType(c);
    cols.push(`CASE id % 5 WHEN 0 THEN NULL WHEN 1 THEN map([]::VARCHAR[], []::${t}[]) ` +
      `ELSE map(['k' || id, 'null'], [${c.name}, NULL]) END AS m_${c.name}`);
  }
  // map key types other than strings
  cols.push(`map([id::INTEGER, -1], ['v' || id, NULL]) AS mk_int`);
  cols.push(`map([id * 1000000007 + 1, 0], [id, NULL]) AS mk_bigint`);
  cols.push(`map([DATE '2000-01-01' + id::INTEGER], [id]) AS mk_date`);
  cols.push(`map([(id * 0.01)::DECIMAL(9,2)], [id]) AS mk_decimal`);
  cols.push(`map([TIMESTAMP '2000-01-01' + to_seconds(id)], [id::DOUBLE / 3]) AS mk_timestamp`);
  // deeper: NULL and empty at every level
  cols.push(`CASE id % 6 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[][] WHEN 2 THEN [NULL]::INTEGER[][] WHEN 3 THEN [[]]::INTEGER[][]
    WHEN 4 THEN [[NULL]]::INTEGER[][] ELSE [[id::INTEGER, NULL], NULL, [], [-id::INTEGER]] END AS ll`);
  cols.push(`CASE id % 4 WHEN 0 THEN NULL WHEN 1 THEN [[[id, NULL]], [], NULL] ELSE [[[id]], [[NULL], [id + 1, id + 2]]] END AS lll`);
  cols.push(`CASE id % 5 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL]
    ELSE [struct_pack(a := id::INTEGER, b := NULL::VARCHAR, c := [id, NULL]), struct_pack(a := NULL::INTEGER, b := 'b' || id, c := NULL::BIGINT[])] END AS ls`);
  cols.push(`CASE WHEN id % 7 = 0 THEN NULL ELSE struct_pack(a := CASE WHEN id % 3 = 0 THEN NULL ELSE [id, id * 2] END,
    b := CASE WHEN id % 4 = 0 THEN NULL ELSE struct_pack(x := 'x' || id, y := [id::DOUBLE / 8, NULL]) END) END AS sl`);
  cols.push(`CASE id % 4 WHEN 0 THEN NULL WHEN 1 THEN map([]::VARCHAR[], []::INTEGER[][])
    ELSE map(['a' || id, 'e', 'n'], [[id::INTEGER, NULL], []::INTEGER[], NULL]) END AS ml`);
  cols.push(`CASE id % 4 WHEN 0 THEN NULL WHEN 1 THEN [] ELSE [map([id::INTEGER], ['v' || id]), NULL, map([]::INTEGER[], []::VARCHAR[])] END AS lm`);
  cols.push(`CASE WHEN id % 9 = 0 THEN NULL ELSE struct_pack(inner := struct_pack(deep := CASE WHEN id % 2 = 0 THEN NULL ELSE id END)) END AS ss`);
  // rows longer than a segment (4096 level entries)
  cols.push(`CASE WHEN id % 500 = 7 THEN range(id, id + 9000)::BIGINT[] ELSE range(id % 4)::BIGINT[] END AS long_l`);
  cols.push(`CASE WHEN id % 700 = 9 THEN list_transform(range(3000), x -> repeat('s', (x % 50)::INTEGER) || x) ELSE ['short' || id] END AS long_s`);
  return `SELECT ${cols.join(',\n  ')}\nFROM types ORDER BY id`;
}

/**
 * The declared-types fixture; sql/nested.sql computes the same rows in
 * PostgreSQL (view expected_nested). 3000 rows, i = 0..2999.
 */
export function nestedDeclSql() {
  return `SELECT i AS id,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[] WHEN 2 THEN [NULL]::INTEGER[]
    ELSE [i::INTEGER, NULL, -i::INTEGER] END AS li,
  CASE WHEN i % 3 = 0 THEN NULL ELSE ['a' || i, NULL] END AS lt,
  CASE WHEN i % 5 = 0 THEN NULL ELSE struct_pack(
    a := CASE WHEN i % 3 = 0 THEN NULL ELSE i::INTEGER END,
    b := 's' || i,
    c := i::DOUBLE / 4,
    d := (i * 0.01)::DECIMAL(9,2),
    e := DATE '2000-01-01' + i::INTEGER,
    f := CASE WHEN i % 7 = 0 THEN NULL ELSE struct_pack(x := i::INTEGER, y := ['y' || i]) END) END AS st,
  CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN map([]::VARCHAR[], []::INTEGER[])
    ELSE map(['k' || i, 'n'], [i::INTEGER, NULL]) END AS mp,
  CASE i % 6 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL]
    ELSE [struct_pack(a := i::INTEGER, b := NULL::VARCHAR), struct_pack(a := NULL::INTEGER, b := 'b' || i)] END AS ls,
  CASE WHEN i % 5 = 0 THEN NULL ELSE map([i::INTEGER, -1], [[i::INTEGER, (i + 1)::INTEGER], NULL]) END AS ml,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN []::INTEGER[][] WHEN 2 THEN [NULL]::INTEGER[][] WHEN 3 THEN [[]]::INTEGER[][]
    ELSE [[i::INTEGER, NULL], NULL, [(i + 1)::INTEGER]] END AS ll,
  struct_pack(${Array.from({ length: 12 }, (_, k) => `w${k} := repeat('w${k}', 20) || i`).join(', ')}) AS wide
FROM range(3000) AS t(i) ORDER BY i`;
}

/**
 * hyparquet-writer input ({ schema, columnData }) for hyp_legacy_lists:
 * a top-level repeated group (a required list of one-field structs),
 * one-field repeated groups named `array` and `<list>_tuple` (rule 4: lists
 * of one-field structs), and
 * a repeated group misnamed `element` whose one field is the element (a
 * list of strings). NULL lists, empty lists and NULL fields throughout.
 * (hyparquet-writer writes no repeated leaves, so no 2-level list of a
 * primitive: the corpus has those.)
 */
export function legacyLists(n = 3000) {
  const schema = [
    { name: 'root', num_children: 5 },
    { name: 'id', type: 'INT32', repetition_type: 'REQUIRED' },
    { name: 'rg', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'v', type: 'INT32', repetition_type: 'OPTIONAL' },
    { name: 'arr', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'array', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'str', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'tup', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'tup_tuple', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'x', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    { name: 'misnamed', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'element', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'str', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  ];
  const ids = Array.from({ length: n }, (_, i) => i);
  const list = (i, f) => (i % 5 === 0 ? null : i % 5 === 1 ? [] : Array.from({ length: 1 + (i % 4) }, (_, k) => f(k)));
  const columnData = [
    { name: 'id', data: ids },
    { name: 'rg', data: ids.map((i) => (i % 3 === 0 ? [] : Array.from({ length: i % 4 }, (_, k) => (k === 1 ? null : i * 10 + k)))) },
    { name: 'arr', data: ids.map((i) => list(i, (k) => `a${i}_${k}`)) },
    { name: 'tup', data: ids.map((i) => list(i, (k) => (k === 2 ? null : i / 8 + k))) },
    { name: 'misnamed', data: ids.map((i) => list(i, (k) => `m${i}_${k}`)) },
  ];
  return { schema, columnData };
}

/**
 * duckdb_fixed_arrays.parquet: DuckDB's fixed-size ARRAY type, which it
 * writes as a 3-level LIST whose NULL arrays carry one level entry per
 * element slot (rep 0 then rep > 0, all below the list's definition level).
 * Every scalar type of the types table as T[3] (NULL arrays where
 * id % 4 = 1, a NULL element in every other row), nested fixed arrays, and
 * fixed arrays inside lists, structs and maps and of structs and lists.
 * 5000 rows: leaves with 15000 level entries span several of the reader's
 * segments and batches. DuckDB's CASE cannot yield ARRAY types, so each
 * CASE yields a list that is then cast.
 */
export function fixedArraysSql() {
  const scalars = COLUMNS.filter((c) => c.name !== 'id');
  const cols = ['id'];
  for (const c of scalars) {
    cols.push(`(CASE WHEN id % 4 = 1 THEN NULL ELSE [${c.name}, NULL, lead(${c.name}) OVER (ORDER BY id)] END)::${duckType(c)}[3] AS a_${c.name}`);
  }
  cols.push(`(CASE id % 5 WHEN 0 THEN NULL WHEN 1 THEN [NULL, [id, NULL], NULL]
    ELSE [[id, id + 1], NULL, [NULL, -id]] END)::INTEGER[2][3] AS fixed_of_fixed`);
  cols.push(`(CASE id % 6 WHEN 0 THEN NULL WHEN 1 THEN [] WHEN 2 THEN [NULL]
    ELSE [[id, NULL, 1], NULL, [2, 3, id]] END)::INTEGER[3][] AS list_of_fixed`);
  cols.push(`(CASE id % 4 WHEN 0 THEN NULL ELSE [struct_pack(a := id, b := 'b' || id), NULL] END)::STRUCT(a INTEGER, b VARCHAR)[2] AS fixed_of_structs`);
  cols.push(`(CASE id % 4 WHEN 0 THEN NULL WHEN 1 THEN [NULL, []] ELSE [[id], [id, NULL]] END)::INTEGER[][2] AS fixed_of_lists`);
  cols.push(`(CASE id % 3 WHEN 0 THEN NULL ELSE struct_pack(x := CASE WHEN id % 2 = 0 THEN NULL ELSE [id, -id] END, y := id) END)::STRUCT(x BIGINT[2], y BIGINT) AS struct_of_fixed`);
  cols.push(`(CASE id % 3 WHEN 0 THEN NULL ELSE map(['k' || id, 'n'], [[id, NULL], NULL]) END)::MAP(VARCHAR, INTEGER[2]) AS map_of_fixed`);
  return `SELECT ${cols.join(',\n  ')}\nFROM types ORDER BY id`;
}
