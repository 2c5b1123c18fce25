// Rows of text values (PostgreSQL's text output, NULL as null) compared as
// multisets or in order, with a short account of what differs.

/** A row as one line: values joined by '|', NULL for null. */
export const rowText = (r) => r.map((v) => (v === null ? 'NULL' : v)).join('|');

/** null when got and exp hold the same rows as multisets; else what differs. */
export function multisetDiff(got, exp) {
  const m = new Map();
  for (const r of exp) {
    const k = rowText(r);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  const extra = [];
  for (const r of got) {
    const k = rowText(r);
    const n = m.get(k);
    if (n) m.set(k, n - 1);
    else extra.push(k);
  }
  const missing = [];
  for (const [k, n] of m) for (let j = 0; j < n; j++) missing.push(k);
  if (!extra.length && !missing.length) return null;
  return `${got.length} rows, expected ${exp.length}; ${extra.length} not expected${extra.length ? ` (e.g. ${extra.slice(0, 3).join(' ; ')})` : ''}` +
    `; ${missing.length} missing${missing.length ? ` (e.g. ${missing.slice(0, 3).join(' ; ')})` : ''}`;
}

/** null when got and exp hold the same rows in the same order; else the first difference. */
export function orderedDiff(got, exp) {
  const g = got.map(rowText);
  const e = exp.map(rowText);
  for (let j = 0; j < Math.max(g.length, e.length); j++) {
    if (g[j] !== e[j]) return `${g.length} rows, expected ${e.length}; row ${j + 1}: got ${g[j] ?? '(none)'}, expected ${e[j] ?? '(none)'}`;
  }
  return null;
}
