import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Tx } from '../../db/client.js';
import * as schema from '../../db/schema.js';
import { auditLog, ledgerTransactions, withdrawals } from '../../db/schema.js';
import type { CoinRow } from '../coins/table.js';
import { confirmDeposit, recordDeposit } from '../deposits/service.js';
import { balanceOf, platformBalance } from './service.js';
import { approveWithdrawal, completeWithdrawal, rejectWithdrawal, requestWithdrawal } from '../withdrawals/service.js';
import { expectLedgerHealthy, fund, makeCoin, makeUser, randomAddress, randomSignature, startMoney, type MoneyFixture } from '../../../test/money-helpers.js';

/*
 * Races on real PostgreSQL (PGlite runs one query at a time, so a race there proves nothing).
 * Every racer runs in its own transaction on its own pooled connection; a barrier makes all of
 * them open their transaction before any starts its work.
 */
const PG = Boolean(process.env.TEST_DATABASE_URL);

let f: MoneyFixture;
let pool: pg.Pool;
let db: Db;
let coin: CoinRow;
beforeAll(async () => {
  if (!PG) return;
  f = await startMoney();
  pool = new pg.Pool({ connectionString: f.s.config.databaseUrl!, max: 60 });
  db = drizzle(pool, { schema }) as unknown as Db;
  coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 250_000n });
});
afterAll(async () => {
  if (!PG) return;
  await expectLedgerHealthy(f.db);
  await pool?.end();
  await f?.s.close();
});

/** Runs each job in its own transaction, all started before any proceeds; settles them all. */
async function race<T>(jobs: ((tx: Tx) => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  let arrived = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return Promise.allSettled(
    jobs.map((job) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        if (++arrived === jobs.length) release();
        await gate;
        return job(tx);
      }),
    ),
  );
}

const failures = (results: PromiseSettledResult<unknown>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => {
    const e = r.reason as { status?: number; message?: string };
    return { status: e.status, message: e.message };
  });

describe('races on PostgreSQL', () => {
  it.skipIf(!PG)('50 concurrent withdrawals against balance B of amount a hold exactly floor(B / (a + fee))', async () => {
    const user = await makeUser(f);
    const B = 10_600_000n;
    const a = 1_000_000n;
    const fee = coin.withdrawalFee;
    await fund(f, user.id, coin.id, B);
    const results = await race(
      Array.from({ length: 50 }, () => (tx: Tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: a, toAddress: randomAddress() })),
    );
    const expected = Number(B / (a + fee)); // 8
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(expected);
    // Every loser is the balance CHECK's 409: no deadlock (40P01) or serialization failure (40001).
    const lost = failures(results);
    expect(lost).toHaveLength(50 - expected);
    for (const l of lost) expect(l).toEqual({ status: 409, message: 'Insufficient balance' });
    const held = BigInt(expected) * (a + fee);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: B - held, held });
    const rows = await f.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id));
    expect(rows).toHaveLength(expected);
  });

  it.skipIf(!PG)('the same withdrawal approved by two admins at once is approved once, and completed twice at once pays once', async () => {
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 5_000_000n);
    const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }));
    const approvals = await race([(tx) => approveWithdrawal(tx, f.admin, w.id), (tx) => approveWithdrawal(tx, f.admin2, w.id)]);
    expect(approvals.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(failures(approvals)).toEqual([{ status: 409, message: 'Withdrawal is already approved' }]);
    const approveEntries = await f.db.select().from(auditLog).where(and(eq(auditLog.resource, 'withdrawals'), eq(auditLog.recordId, String(w.id)), eq(auditLog.action, 'approve')));
    expect(approveEntries).toHaveLength(1);

    const hot = await platformBalance(f.db, 'hot_wallet', coin.id);
    const completions = await race([
      (tx) => completeWithdrawal(tx, f.admin, w.id, { txSignature: randomSignature() }),
      (tx) => completeWithdrawal(tx, f.admin2, w.id, { txSignature: randomSignature() }),
    ]);
    expect(completions.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(failures(completions)).toEqual([{ status: 409, message: 'Withdrawal is already completed' }]);
    expect(await platformBalance(f.db, 'hot_wallet', coin.id)).toBe(hot + 2_000_000n);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 2_750_000n, held: 0n });
  });

  it.skipIf(!PG)('approve and reject at once: one wins, and the hold is released at most once', async () => {
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 5_000_000n);
    const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }));
    const results = await race([(tx) => approveWithdrawal(tx, f.admin, w.id), (tx) => rejectWithdrawal(tx, f.admin2, w.id, { reasonCode: 'duplicate', reason: 'Looks odd' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(failures(results)[0]).toMatchObject({ status: 409 });
    const [row] = await f.db.select().from(withdrawals).where(eq(withdrawals.id, w.id));
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual(
      row!.status === 'rejected' ? { available: 5_000_000n, held: 0n } : { available: 2_750_000n, held: 2_250_000n },
    );
  });

  it.skipIf(!PG)('a deposit confirmed twice at once credits once', async () => {
    const user = await makeUser(f);
    const d = await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: user.id, coin: coin.id, amount: 7_000_000n, txSignature: randomSignature() }));
    const results = await race([(tx) => confirmDeposit(tx, f.admin, d.id), (tx) => confirmDeposit(tx, f.system, d.id), (tx) => confirmDeposit(tx, f.admin2, d.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(failures(results)).toEqual([
      { status: 409, message: 'Deposit is already confirmed' },
      { status: 409, message: 'Deposit is already confirmed' },
    ]);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 7_000_000n, held: 0n });
    const credits = await f.db.select().from(ledgerTransactions).where(and(eq(ledgerTransactions.refType, 'deposit'), eq(ledgerTransactions.refId, d.id)));
    expect(credits).toHaveLength(1);
  });

  it.skipIf(!PG)('first postings at once create each account once (a new coin, 20 new users)', async () => {
    const fresh = await makeCoin(f, { decimals: 9 });
    const users = await Promise.all(Array.from({ length: 20 }, () => makeUser(f)));
    const ds = [];
    for (const u of users) {
      ds.push(await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: u.id, coin: fresh.id, amount: 1_000n, txSignature: randomSignature() })));
    }
    const results = await race(ds.map((d) => (tx: Tx) => confirmDeposit(tx, f.system, d.id)));
    expect(failures(results)).toEqual([]);
    expect(await platformBalance(f.db, 'hot_wallet', fresh.id)).toBe(-20_000n);
    const accounts = await f.db.select().from(schema.ledgerAccounts).where(eq(schema.ledgerAccounts.coinId, fresh.id));
    expect(accounts).toHaveLength(21);
  });

  it.skipIf(!PG)('a busy minute: deposits, requests and completions of 15 users at once, all on hot_wallet, without deadlock', async () => {
    const users = await Promise.all(Array.from({ length: 15 }, () => makeUser(f)));
    const ready: { userId: number; withdrawalId: number; depositId: number }[] = [];
    for (const u of users) {
      await fund(f, u.id, coin.id, 10_000_000n);
      const w = await f.db.transaction(async (tx) => {
        const r = await requestWithdrawal(tx, f.platform, { userId: u.id, coin: coin.id, amount: 1_000_000n, toAddress: randomAddress() });
        return approveWithdrawal(tx, f.admin, r.id);
      });
      const d = await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: u.id, coin: coin.id, amount: 3_000_000n, txSignature: randomSignature() }));
      ready.push({ userId: u.id, withdrawalId: w.id, depositId: d.id });
    }
    const hot = await platformBalance(f.db, 'hot_wallet', coin.id);
    const results = await race<unknown>(
      ready.flatMap((r) => [
        (tx: Tx) => confirmDeposit(tx, f.admin, r.depositId),
        (tx: Tx) => completeWithdrawal(tx, f.admin2, r.withdrawalId, { txSignature: randomSignature() }),
        (tx: Tx) => requestWithdrawal(tx, f.platform, { userId: r.userId, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }),
      ]),
    );
    expect(failures(results)).toEqual([]);
    // 15 deposits of 3 in, 15 completions of 1 out.
    expect(await platformBalance(f.db, 'hot_wallet', coin.id)).toBe(hot - 15n * 3_000_000n + 15n * 1_000_000n);
    for (const r of ready) expect(await balanceOf(f.db, r.userId, coin.id)).toEqual({ available: 10_000_000n - 1_250_000n + 3_000_000n - 2_250_000n, held: 2_250_000n });
  });
});
