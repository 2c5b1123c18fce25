// PostgreSQL sessions of the test stages: clients that survive a backend
// crash (the failed query reports it), waiting for a server to come back,
// and the error a statement raises.

import pg from 'pg';

/**
 * A client with session options (the -c settings of a stage) and pg.Client
 * options extra (database, query_timeout, ...).  A backend crash emits
 * 'error' on the client besides failing the query; unhandled, it would
 * kill the stage.
 */
export function sessionClient(options, extra = {}) {
  const c = new pg.Client({ options, connectionTimeoutMillis: 30000, ...extra });
  c.on('error', () => {});
  return c;
}

/**
 * A client from make(), connected and answering, tried every 0.5 s for
 * maxMs (a crashed server restarting); then prepare(c). Throws the last
 * error when the server does not come back.
 */
export async function connectRetrying(make, maxMs = 60000, prepare = async () => {}) {
  const t0 = Date.now();
  for (;;) {
    const c = make();
    try {
      await c.connect();
      await c.query('SELECT 1');
      await prepare(c);
      return c;
    } catch (err) {
      await c.end().catch(() => {});
      if (Date.now() - t0 > maxMs) throw new Error(`PostgreSQL did not come back: ${err.message}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Whether the server answers a client from make() within maxMs. */
export async function waitForServer(make, maxMs = 60000) {
  try {
    await (await connectRetrying(make, maxMs)).end();
    return true;
  } catch {
    return false;
  }
}

/** Whether session c still answers. */
export async function alive(c) {
  try {
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** The error sql raises in c; null if none. */
export async function errorOf(c, sql) {
  try {
    await c.query(sql);
    return null;
  } catch (err) {
    return err;
  }
}
