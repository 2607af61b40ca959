import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportCategories } from '../src/db/schema.js';
import { activatePack } from '../src/modules/booster-packs/service.js';
import { confirmDeposit, recordDeposit } from '../src/modules/deposits/service.js';
import { blockUser } from '../src/modules/users/service.js';
import { requestWithdrawal } from '../src/modules/withdrawals/service.js';
import { transition } from '../src/resources/transition.js';
import { withdrawalSubject } from '../src/modules/withdrawals/service.js';
import { call, SUPER_EMAIL, superLogin } from './helpers.js';
import {
  auditOf, expectLedgerHealthy, fund, makeCoin, makeUser, newPlatformKey, platformCall, randomAddress, randomSignature, startPlatformMoney, type MoneyFixture,
} from './money-helpers.js';

/**
 * A state change is declared once and made once (resources/transition.ts): every caller (an admin
 * through the API, the platform API, a job) goes through the service, which locks the record,
 * checks the declared machine, updates it and writes exactly one audit entry with the caller as its
 * actor; the action mechanism adds none of its own. A second move racing the first gets the
 * machine's 409, naming the state the first left.
 */
const KEY = newPlatformKey();
let f: MoneyFixture;
let token: string;

beforeAll(async () => {
  f = await startPlatformMoney(KEY);
  token = await superLogin(f.s);
}, 120_000);

afterAll(async () => {
  if (!f) return;
  await expectLedgerHealthy(f.db);
  await f.s.close();
});

const admin = (method: string, path: string, body?: unknown) => call(f.s, method, `/api/admin/${path}`, { token, ...(body === undefined ? {} : { body }) });
const platform = (method: 'GET' | 'POST', path: string, body?: unknown) => platformCall(f.s, KEY, method, path, body === undefined ? {} : { body });

/** The audit entries `act` wrote on the record, as [action, actor kind, actor]. */
async function auditedBy(resource: string, id: number | string, act: () => Promise<unknown>): Promise<[string, string, string][]> {
  const before = (await auditOf(f.db, resource, id)).length;
  await act();
  return (await auditOf(f.db, resource, id)).slice(before).map((e) => [e.action, e.actorKind, e.adminEmail]);
}

/** Runs an admin API call that must succeed. */
const ok = async (res: Promise<{ status: number; body: unknown }>) => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
};

const ADMIN: [string, string] = ['admin', SUPER_EMAIL];
const PLATFORM: [string, string] = ['platform', 'platform'];
const JOB: [string, string] = ['system', 'system:test'];

async function fundedUser() {
  const coin = await makeCoin(f, { decimals: 6, withdrawalFee: 0n, minWithdrawal: 1n });
  const user = await makeUser(f);
  await fund(f, user.id, coin.id, 50_000_000n);
  return { coin, user };
}

const withdrawal = async () => {
  const { coin, user } = await fundedUser();
  return f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 1_000_000n, toAddress: randomAddress() }));
};

const deposit = async () => {
  const { coin, user } = await fundedUser();
  return f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_000_000n, txSignature: randomSignature() }));
};

async function pack(): Promise<string> {
  const coin = await makeCoin(f);
  const res = await ok(admin('POST', 'booster-packs', { name: `Audited pack ${randomBytes(3).toString('hex')}`, coinId: String(coin.id), price: '5000000', supply: 10 }));
  return (res.body as { result: { _id: string } }).result._id;
}

async function ticket(): Promise<string> {
  const user = await makeUser(f);
  const [category] = await f.db.insert(supportCategories).values({ name: `Audit ${randomBytes(3).toString('hex')}` }).returning();
  const res = await platform('POST', 'tickets', { userId: String(user.id), categoryId: String(category!.id), subject: 'Where is my deposit', message: 'It has been a day.', priority: 'normal' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { result: { _id: string } }).result._id;
}

describe('every move through every caller is audited exactly once, with its actor', () => {
  it('admin API: each action writes its one entry, by its service, as the admin', async () => {
    const w1 = await withdrawal();
    expect(await auditedBy('withdrawals', w1.id, () => ok(admin('POST', `withdrawals/${w1.id}/approve`, {})))).toEqual([['approve', ...ADMIN]]);
    expect(await auditedBy('withdrawals', w1.id, () => ok(admin('POST', `withdrawals/${w1.id}/complete`, { txSignature: randomSignature() })))).toEqual([['complete', ...ADMIN]]);
    const w2 = await withdrawal();
    expect(await auditedBy('withdrawals', w2.id, () => ok(admin('POST', `withdrawals/${w2.id}/reject`, { reasonCode: 'duplicate', reason: 'Sent twice' })))).toEqual([['reject', ...ADMIN]]);

    const d = await deposit();
    expect(await auditedBy('deposits', d.id, () => ok(admin('POST', `deposits/${d.id}/confirm`, {})))).toEqual([['confirm', ...ADMIN]]);

    const u = await makeUser(f);
    expect(await auditedBy('users', u.id, () => ok(admin('POST', `users/${u.id}/block`, { reason: 'Chargeback pattern' })))).toEqual([['block', ...ADMIN]]);
    expect(await auditedBy('users', u.id, () => ok(admin('POST', `users/${u.id}/unblock`, {})))).toEqual([['unblock', ...ADMIN]]);

    // Records the mechanism used to audit: the entry still carries the record before and after.
    const p = await pack();
    expect(await auditedBy('booster-packs', p, () => ok(admin('POST', `booster-packs/${p}/activate`, {})))).toEqual([['activate', ...ADMIN]]);
    const [activated] = (await auditOf(f.db, 'booster-packs', p)).slice(-1);
    expect(activated).toMatchObject({ before: expect.objectContaining({ _id: p, status: 'draft' }), after: expect.objectContaining({ _id: p, status: 'active' }) });
    expect(await auditedBy('booster-packs', p, () => ok(admin('POST', `booster-packs/${p}/pause`, {})))).toEqual([['pause', ...ADMIN]]);

    const t = await ticket();
    expect(await auditedBy('tickets', t, () => ok(admin('POST', `tickets/${t}/close`, {})))).toEqual([['close', ...ADMIN]]);
    expect(await auditedBy('tickets', t, () => ok(admin('POST', `tickets/${t}/reopen`, {})))).toEqual([['reopen', ...ADMIN]]);
    // An action that moves no state, whose service writes nothing: the mechanism's one entry.
    expect(await auditedBy('tickets', t, () => ok(admin('POST', `tickets/${t}/assign`, { adminId: null })))).toEqual([['assign', ...ADMIN]]);

    const page = await ok(admin('POST', 'cms-pages', { slug: `audited-${randomBytes(3).toString('hex')}`, title: 'Audited', body: '<p>Once.</p>' }));
    const pageId = (page.body as { result: { _id: string } }).result._id;
    expect(await auditedBy('cms-pages', pageId, () => ok(admin('POST', `cms-pages/${pageId}/publish`, {})))).toEqual([['publish', ...ADMIN]]);
  });

  it('bulk: each record of a bulk action gets its one entry', async () => {
    const [a, b] = [await withdrawal(), await withdrawal()];
    const before = [(await auditOf(f.db, 'withdrawals', a.id)).length, (await auditOf(f.db, 'withdrawals', b.id)).length];
    const res = await ok(admin('POST', 'withdrawals/bulk/approve', { ids: [String(a.id), String(b.id)] }));
    expect(res.body).toMatchObject({ result: { done: 2, skipped: [] } });
    expect((await auditOf(f.db, 'withdrawals', a.id)).slice(before[0]).map((e) => e.action)).toEqual(['approve']);
    expect((await auditOf(f.db, 'withdrawals', b.id)).slice(before[1]).map((e) => e.action)).toEqual(['approve']);
  });

  it('platform API: the service audits the move as the platform', async () => {
    const t = await ticket();
    await ok(admin('POST', `tickets/${t}/close`, {}));
    const user = (await admin('GET', `tickets/${t}`)).body as { result: { userId: string } };
    expect(await auditedBy('tickets', t, async () => {
      const res = await platform('POST', `tickets/${t}/messages`, { userId: user.result.userId, message: 'Still waiting' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    })).toEqual([['message', ...PLATFORM]]);
  });

  it('jobs: a service called outside the API audits its move as the job (a pack put on sale too)', async () => {
    const d = await deposit();
    expect(await auditedBy('deposits', d.id, () => f.db.transaction((tx) => confirmDeposit(tx, f.system, d.id)))).toEqual([['confirm', ...JOB]]);
    const u = await makeUser(f);
    expect(await auditedBy('users', u.id, () => f.db.transaction((tx) => blockUser(tx, f.system, u.id, { reason: 'Sanctions list match' })))).toEqual([['block', ...JOB]]);
    // activatePack takes the actor: called by a job, it is audited as the job.
    const p = await pack();
    expect(await auditedBy('booster-packs', p, () => f.db.transaction((tx) => activatePack(tx, f.system, Number(p))))).toEqual([['activate', ...JOB]]);
  });
});

describe('a concurrent second move', () => {
  it('two admins approving at once: one approves, the other gets 409 naming the state; one entry', async () => {
    const w = await withdrawal();
    const results = await Promise.all([admin('POST', `withdrawals/${w.id}/approve`, {}), admin('POST', `withdrawals/${w.id}/approve`, {})]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE', message: 'Withdrawal is already approved', errors: { status: 'Withdrawal is already approved' } });
    expect((await auditOf(f.db, 'withdrawals', w.id)).map((e) => e.action)).toEqual(['request', 'approve']);
  });

  it('two callers of the service at once (an admin and a job): the second waits on the lock, then gets the 409', async () => {
    const d = await deposit();
    const results = await Promise.allSettled([
      f.db.transaction((tx) => confirmDeposit(tx, f.admin, d.id)),
      f.db.transaction((tx) => confirmDeposit(tx, f.system, d.id)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refusal.reason).toMatchObject({ status: 409, message: 'Deposit is already confirmed' });
    expect((await auditOf(f.db, 'deposits', d.id)).map((e) => e.action)).toEqual(['record', 'confirm']);
  });

  it('transition() itself: a wrong state is a 409 that writes nothing; a missing record a 404', async () => {
    const w = await withdrawal();
    await expect(f.db.transaction((tx) => transition(tx, f.admin, withdrawalSubject, w.id, 'complete'))).rejects.toMatchObject({
      status: 409, message: 'Withdrawal is requested: only an approved withdrawal can be completed',
    });
    await expect(f.db.transaction((tx) => transition(tx, f.admin, withdrawalSubject, 987_654_321, 'approve'))).rejects.toMatchObject({ status: 404, message: 'Withdrawal not found' });
    expect((await auditOf(f.db, 'withdrawals', w.id)).map((e) => e.action)).toEqual(['request']);
  });
});
