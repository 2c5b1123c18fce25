// Parts the Node test stages share: PASS/FAIL lines and their summary, and
// the search for key material where it must never be.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** check(what, problems) prints PASS or FAIL; summary(stage) the last line and the exit code. */
export function counter() {
  const c = { passed: 0, failed: 0 };
  c.check = (what, problems) => {
    if (problems.length === 0) {
      c.passed++;
      console.log(`PASS ${what}`);
    } else {
      c.failed++;
      console.log(`FAIL ${what}: ${problems.slice(0, 6).join('; ')}${problems.length > 6 ? `; ... (${problems.length})` : ''}`);
    }
  };
  c.summary = (stage) => {
    console.log(`${stage}: ${c.passed} passed, ${c.failed} failed`);
    return c.failed ? 1 : 0;
  };
  return c;
}

/** The server log's size now: where a later serverLogSince starts. */
export const logSize = (logPath) => (logPath && fs.existsSync(logPath) ? fs.statSync(logPath).size : 0);

/**
 * The server log from byte start on, and problems unless it holds each of
 * mustHave ([pattern (string or RegExp), what it shows]): a search of a log
 * that never got the statements would find no key and prove nothing.
 */
export function serverLogSince(logPath, start, mustHave) {
  if (!logPath || !fs.existsSync(logPath))
    return { log: Buffer.alloc(0), problems: [`no server log at ${logPath} (pass --log)`] };
  const log = fs.readFileSync(logPath).subarray(start);
  const text = log.toString('utf8');
  const problems = mustHave.filter(([pat]) => (typeof pat === 'string' ? !text.includes(pat) : !pat.test(text)))
    .map(([, what]) => `${what} missing from the server log`);
  return { log, problems };
}

/**
 * Problems naming each key ([id, Buffer]) found in a haystack ([where,
 * Buffer]) as lower or upper hex, raw bytes or base64 (and, with halfHex,
 * the hex of its first half).
 */
export function keysFound(keys, haystacks, { halfHex = false } = {}) {
  const p = [];
  for (const [id, k] of keys) {
    const forms = [['hex', Buffer.from(k.toString('hex'))], ['HEX', Buffer.from(k.toString('hex').toUpperCase())],
      ['raw', k], ['base64', Buffer.from(k.toString('base64').replace(/=+$/, ''))]];
    if (halfHex) forms.push(['hex of half the key', Buffer.from(k.subarray(0, k.length / 2).toString('hex'))]);
    for (const [where, hay] of haystacks)
      for (const [form, needle] of forms)
        if (hay.indexOf(needle) >= 0) p.push(`key ${id} (${form}) found in the ${where}`);
  }
  return p;
}

/**
 * A connection (PG* environment) whose notices are kept in seen, for the
 * leakage search; q(sql, params) returns the rows.
 */
export async function connectWatched() {
  const client = new pg.Client();
  await client.connect();
  const seen = [];
  client.on('notice', (n) => seen.push(JSON.stringify(n)));
  const q = async (sql, params) => (await client.query(sql, params)).rows;
  return { client, q, seen };
}

/** The error client raises for sql, or null. */
export async function sqlError(client, sql) {
  try {
    await client.query(sql);
    return null;
  } catch (e) {
    return e;
  }
}

/** Problems unless e has SQLSTATE code and re matches its message, detail, hint or context. */
export const expectError = (e, code, re) => (!e ? [`no error, expected ${code}`]
  : e.code !== code || !re.test([e.message, e.detail, e.hint, e.where].filter(Boolean).join(' '))
    ? [`${e.code} ${e.message} (${e.detail ?? ''}) ${e.where ?? ''}, expected ${code} ${re}`] : []);

/** Every file below dir (not directories), as paths relative to it, sorted. */
export function filesBelow(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}
