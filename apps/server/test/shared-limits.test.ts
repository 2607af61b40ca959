import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../src/app.js';
import { openDatabase, queryRows, type Database } from '../src/db/client.js';
import { call, startTestServer, type TestServer } from './helpers.js';

/**
 * Rate limits count across instances: two apps on one database (each with its own pool on
 * PostgreSQL, as two processes would have) share the limit of `POST /api/admin/forgotPassword`
 * (10 a minute from one address), in PostgreSQL by default and in Redis when REDIS_URL is set.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 10;

/** A fresh address per run, so a counter left in Redis by an earlier run never counts. */
const freshIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;

async function startPair(env: Record<string, string>) {
  const s = await startTestServer(env);
  // On PostgreSQL the second instance opens its own pool; on PGlite it shares the one database handle.
  const database: Database | null = s.config.databaseUrl ? await openDatabase({ databaseUrl: s.config.databaseUrl }) : null;
  const second: BuiltApp = await buildApp({ config: s.config, db: database?.db ?? s.database.db, mailer: s.mailer }, { logger: false });
  await second.app.ready();
  const other = { ...s, built: second, app: second.app } as TestServer;
  return {
    s,
    other,
    async close() {
      await second.app.close();
      await database?.close();
      await s.close();
    },
  };
}

async function shareOneLimit(pair: { s: TestServer; other: TestServer }, ip: string) {
  const forgot = (server: TestServer) => call(server, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' }, ip });
  for (let i = 0; i < LIMIT; i++) {
    const res = await forgot(i % 2 === 0 ? pair.s : pair.other);
    expect(res.status, `call ${i + 1} of ${LIMIT}`).toBe(200);
  }
  // The 11th, on either instance, is over the limit both counted together.
  const over = await forgot(pair.other);
  expect(over.status).toBe(429);
  expect(over.body.code).toBe('THROTTLED');
  expect((await forgot(pair.s)).status).toBe(429);
  // Another address still has its own allowance.
  expect((await call(pair.s, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' }, ip: freshIp() })).status).toBe(200);
  await pair.s.idle();
  await pair.other.built.idle();
}

describe('shared rate limits: PostgreSQL store (default)', () => {
  let pair: Awaited<ReturnType<typeof startPair>>;
  beforeAll(async () => {
    pair = await startPair({});
  });
  afterAll(async () => pair?.close());

  it('two instances on one database share one limit', async () => {
    const ip = freshIp();
    await shareOneLimit(pair, ip);
    const rows = await queryRows<{ key: string; hits: number }>(pair.s.database.db, sql`select key, hits from rate_limits where key like ${`%${ip}`}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).toContain('/api/admin/forgotPassword');
    expect(rows[0]!.hits).toBe(LIMIT + 2);
  });

  it('an expired window starts again at one, and expired rows are cleaned', async () => {
    const ip = freshIp();
    const key = `rl:POST/api/admin/forgotPassword:${ip}`;
    await queryRows(pair.s.database.db, sql`insert into rate_limits (key, hits, expires_at) values (${key}, 99, now() - interval '1 second')`);
    expect((await call(pair.s, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' }, ip })).status).toBe(200);
    const [row] = await queryRows<{ hits: number }>(pair.s.database.db, sql`select hits from rate_limits where key = ${key}`);
    expect(row!.hits).toBe(1);
    await pair.s.idle();
  });
});

describe('shared rate limits: Redis store (REDIS_URL)', () => {
  let pair: Awaited<ReturnType<typeof startPair>>;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    pair = await startPair({ REDIS_URL });
  });
  afterAll(async () => {
    await pair?.close();
    await redis?.quit();
  });

  it('two instances share one limit counted in Redis, nothing in PostgreSQL', async () => {
    const ip = freshIp();
    await shareOneLimit(pair, ip);
    const keys = await redis.keys(`pitboss-rl:*${ip}`);
    expect(keys).toHaveLength(1);
    expect(Number(await redis.get(keys[0]!))).toBe(LIMIT + 2);
    expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0);
    const rows = await queryRows(pair.s.database.db, sql`select 1 from rate_limits where key like ${`%${ip}`}`);
    expect(rows).toHaveLength(0);
    await redis.del(keys[0]!);
  });
});
