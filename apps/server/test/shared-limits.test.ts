import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { call } from './helpers.js';
import { freshIp, RATE_LIMIT_FORGOT as LIMIT, shareOneLimit, startInstances } from './two-instances.js';

/**
 * Rate limits count across instances: two apps on one database (each with its own pool on
 * PostgreSQL, as two processes would have) share the limit of `POST /api/admin/forgotPassword`
 * (10 a minute from one address), in PostgreSQL by default and in Redis when REDIS_URL is set.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('shared rate limits: PostgreSQL store (default)', () => {
  let pair: Awaited<ReturnType<typeof startInstances>>;
  beforeAll(async () => {
    pair = await startInstances({});
  });
  afterAll(async () => pair?.close());

  it('two instances on one database share one limit', async () => {
    const ip = freshIp();
    await shareOneLimit(pair, ip);
    const rows = await queryRows<{ key: string; hits: number }>(pair.first.database.db, sql`select key, hits from rate_limits where key like ${`%${ip}`}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).toContain('/api/admin/forgotPassword');
    expect(rows[0]!.hits).toBe(LIMIT + 2);
  });

  it('an expired window starts again at one, and expired rows are cleaned', async () => {
    const ip = freshIp();
    const key = `rl:POST/api/admin/forgotPassword:${ip}`;
    await queryRows(pair.first.database.db, sql`insert into rate_limits (key, hits, expires_at) values (${key}, 99, now() - interval '1 second')`);
    expect((await call(pair.first, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' }, ip })).status).toBe(200);
    const [row] = await queryRows<{ hits: number }>(pair.first.database.db, sql`select hits from rate_limits where key = ${key}`);
    expect(row!.hits).toBe(1);
    await pair.first.idle();
  });
});

describe('shared rate limits: Redis store (REDIS_URL)', () => {
  let pair: Awaited<ReturnType<typeof startInstances>>;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    pair = await startInstances({ REDIS_URL });
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
    const rows = await queryRows(pair.first.database.db, sql`select 1 from rate_limits where key like ${`%${ip}`}`);
    expect(rows).toHaveLength(0);
    await redis.del(keys[0]!);
  });
});
