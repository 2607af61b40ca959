import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { call, startTestServer, type TestServer } from './helpers.js';

/**
 * Two app instances on one database, in process: the second has its own pool on PostgreSQL (as a
 * second process would) and shares the one database handle on PGlite. `second` is a TestServer
 * whose app is the second instance (same config, mailer and database as `first`).
 */
export async function startInstances(env: Record<string, string> = {}) {
  const first = await startTestServer(env);
  const database: Database | null = first.config.databaseUrl ? await openDatabase({ databaseUrl: first.config.databaseUrl }) : null;
  const built: BuiltApp = await buildApp({ config: first.config, db: database?.db ?? first.database.db, mailer: first.mailer }, { logger: false });
  await built.app.ready();
  const second = { ...first, built, app: built.app, idle: () => built.idle(), database: database ?? first.database } as TestServer;
  let secondOpen = true;
  return {
    first,
    second,
    /** Stops the second instance as a graceful shutdown would (app closed, its pool ended). */
    async closeSecond() {
      if (!secondOpen) return;
      secondOpen = false;
      await built.app.close();
      await database?.close();
    },
    async close() {
      await this.closeSecond();
      await first.close();
    },
  };
}

export const RATE_LIMIT_FORGOT = 10;

/** A fresh address per run, so a counter left in Redis by an earlier run never counts. */
export const freshIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

/**
 * `POST /api/admin/forgotPassword` allows 10 a minute from one address: calls alternating between
 * the two instances are counted together, the 11th is refused on either, another address is not.
 */
export async function shareOneLimit(pair: { first: TestServer; second: TestServer }, ip: string) {
  const forgot = (server: TestServer) => call(server, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' }, ip });
  for (let i = 0; i < RATE_LIMIT_FORGOT; i++) {
    const res = await forgot(i % 2 === 0 ? pair.first : pair.second);
    expect(res.status, `call ${i + 1} of ${RATE_LIMIT_FORGOT}`).toBe(200);
  }
  // The 11th, on either instance, is over the limit both counted together.
  const over = await forgot(pair.second);
  expect(over.status).toBe(429);
  expect(over.body.code).toBe('THROTTLED');
  expect((await forgot(pair.first)).status).toBe(429);
  // Another address still has its own allowance.
  expect((await call(pair.first, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' }, ip: freshIp() })).status).toBe(200);
  await pair.first.idle();
  await pair.second.idle();
}
