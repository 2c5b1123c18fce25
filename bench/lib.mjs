// Helpers shared by the benchmark scripts' Node parts (bench.mjs, analytic.mjs).

/** SQL on one line (for psql scripts and reports). */
export const oneLine = (s) => s.replace(/\s+/g, ' ').trim();

export const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** Six significant digits for numbers, text otherwise. */
export function sig6(v) {
  const s = String(v).trim();
  if (s !== '' && /^[-+\d.eE]+$/.test(s) && Number.isFinite(Number(s))) return Number(Number(s).toPrecision(6)).toString();
  return s;
}

/** Same rows, comparing the values through f. */
export function rowsEqual(x, y, f) {
  if (x.length !== y.length) return false;
  return x.every((row, i) => row.length === y[i].length && row.every((v, j) => f(v) === f(y[i][j])));
}

/** The Delta and Iceberg benches' target ratios and SQL text helpers. */
export const TARGET = 1.1;
export const PLAN_TARGET = 5;
export const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;
export const asText = (v) => (v === null || v === undefined ? '' : String(v));
export const TEXT = { getTypeParser: () => (v) => v };
