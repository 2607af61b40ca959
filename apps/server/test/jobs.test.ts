import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admins, idempotencyKeys, twoFactorChallenges } from '../src/db/schema.js';
import { startJobs, type JobName } from '../src/jobs.js';
import { createChallenge } from '../src/modules/two-factor/service.js';
import { startTestServer, SUPER_EMAIL, type TestServer } from './helpers.js';

/**
 * The background jobs as main.ts starts them (both drivers): every job ticks, and the purge deletes
 * the 2FA sign-in challenges whose time is up (used or not) and leaves the live ones.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

describe('background jobs', () => {
  it('every job ticks; the purges remove expired 2FA challenges and Idempotency-Keys only', async () => {
    const db = s.database.db;
    const [root] = await db.select().from(admins).where(eq(admins.email, SUPER_EMAIL));
    const client = { ip: '203.0.113.9', userAgent: 'test' };
    await createChallenge(db, root!.id, client);
    await createChallenge(db, root!.id, client);
    await createChallenge(db, root!.id, client);
    const rows = await db.select().from(twoFactorChallenges).where(eq(twoFactorChallenges.adminId, root!.id));
    expect(rows).toHaveLength(3);
    const [expired, used, live] = rows.map((r) => r.id) as [number, number, number];
    await db.update(twoFactorChallenges).set({ expiresAt: new Date(Date.now() - 1_000) }).where(eq(twoFactorChallenges.id, expired));
    await db.update(twoFactorChallenges).set({ expiresAt: new Date(Date.now() - 60_000), usedAt: new Date(Date.now() - 120_000) }).where(eq(twoFactorChallenges.id, used));

    const keyRow = (key: string, expiresAt: Date) => ({ key, method: 'POST', path: '/api/platform/v1/deposits', requestHash: 'a'.repeat(64), responseStatus: 200, responseBody: '{}', completedAt: new Date(), expiresAt });
    await db.insert(idempotencyKeys).values([keyRow('old-key', new Date(Date.now() - 1_000)), keyRow('live-key', new Date(Date.now() + 3_600_000))]);

    const ticked = new Map<JobName, unknown[]>();
    const stop = startJobs({
      db,
      mailer: s.mailer,
      log: pino({ level: 'silent' }),
      intervals: { order_expiry: 50, trade_bots: 50, mail_delivery: 50, two_factor_challenge_purge: 50, idempotency_key_purge: 50 },
      onTick: (job, result) => ticked.set(job, [...(ticked.get(job) ?? []), result]),
    });
    try {
      for (let i = 0; i < 200 && ticked.size < 5; i++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      await stop();
    }
    expect([...ticked.keys()].sort()).toEqual(['idempotency_key_purge', 'mail_delivery', 'order_expiry', 'trade_bots', 'two_factor_challenge_purge']);
    expect(ticked.get('two_factor_challenge_purge')![0]).toBe(2);
    const left = await db.select({ id: twoFactorChallenges.id }).from(twoFactorChallenges).where(inArray(twoFactorChallenges.id, [expired, used, live]));
    expect(left.map((r) => r.id)).toEqual([live]);
    expect(ticked.get('idempotency_key_purge')![0]).toBe(1);
    expect((await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((r) => r.key)).toEqual(['live-key']);
  });
});
