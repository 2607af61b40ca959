import { desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, ledgerPostings, ledgerTransactions } from '../../db/schema.js';
import { checkLedgerInvariants } from './invariants.js';
import { adjustBalance } from '../balance-adjustments/service.js';
import { balanceOf, balancesOf, LedgerError, platformBalance, postCreditsFrom, postTransaction } from './service.js';
import type { CoinRow } from '../coins/table.js';
import type { UserRow } from '../users/table.js';
import type { Tx } from '../../db/client.js';
import { auditOf, expectRefused, fund, makeCoin, makeUser, snapshot, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';

let f: MoneyFixture;
let coin: CoinRow;
let other: CoinRow;
let alice: UserRow;
moneyFile((m) => ({ f } = m));
beforeAll(async () => {
  coin = await makeCoin(f, { symbol: 'LSOL', decimals: 9 });
  other = await makeCoin(f, { symbol: 'LUSDC', decimals: 6 });
  alice = await makeUser(f);
});

/** Expects `fn` (run in a transaction that is then rolled back) to fail with a database error matching `pattern`. */
async function expectDbRefuses(fn: (tx: Parameters<Parameters<MoneyFixture['db']['transaction']>[0]>[0]) => Promise<unknown>, pattern: RegExp) {
  const err = await f.db.transaction(fn).then(() => null, (e: unknown) => e);
  const text = (e: unknown): string => (e instanceof Error ? `${e.message} ${text((e as { cause?: unknown }).cause)}` : '');
  expect(text(err)).toMatch(pattern);
}

describe('postTransaction', () => {
  it('creates accounts on demand, moves materialised balances and records the actor', async () => {
    const res = await f.db.transaction((tx) =>
      postTransaction(tx, f.admin, {
        cause: 'adjustment',
        reasonCode: 'correction',
        reason: 'opening balance',
        postings: [
          { account: { user: alice.id, bucket: 'available' }, coin: coin.id, amount: 5_000n },
          { account: { platform: 'adjustments' }, coin: coin.id, amount: -5_000n },
        ],
      }),
    );
    expect([...res.balances.values()].sort()).toEqual([-5_000n, 5_000n]);
    expect(await balanceOf(f.db, alice.id, coin.id)).toEqual({ available: 5_000n, held: 0n });
    const [txn] = await f.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.id, res.transactionId));
    expect(txn).toMatchObject({ cause: 'adjustment', reasonCode: 'correction', reason: 'opening balance', actorKind: 'admin', adminId: f.admin.admin.id, refType: null });
    const postings = await f.db.select().from(ledgerPostings).where(eq(ledgerPostings.transactionId, res.transactionId));
    expect(postings.map((p) => p.amount).sort()).toEqual([-5_000n, 5_000n]);
  });

  it('refuses postings that do not sum to zero per coin, a single posting, zero, and an adjustment without a reason code (a bug: LedgerError, nothing written)', async () => {
    const before = await snapshot(f.db);
    const u = { user: alice.id, bucket: 'available' } as const;
    const bad = [
      { cause: 'deposit' as const, postings: [{ account: u, coin: coin.id, amount: 1n }, { account: { platform: 'hot_wallet' as const }, coin: coin.id, amount: -2n }] },
      // sums to zero overall, but not per coin
      { cause: 'deposit' as const, postings: [{ account: u, coin: coin.id, amount: 1n }, { account: { platform: 'hot_wallet' as const }, coin: other.id, amount: -1n }] },
      { cause: 'deposit' as const, postings: [{ account: u, coin: coin.id, amount: 0n }, { account: { platform: 'hot_wallet' as const }, coin: coin.id, amount: 0n }] },
      { cause: 'deposit' as const, postings: [{ account: u, coin: coin.id, amount: 1n }] },
      { cause: 'adjustment' as const, reason: 'A note but no code', postings: [{ account: u, coin: coin.id, amount: 1n }, { account: { platform: 'adjustments' as const }, coin: coin.id, amount: -1n }] },
    ];
    for (const input of bad) {
      await expect(f.db.transaction((tx) => postTransaction(tx, f.system, input))).rejects.toBeInstanceOf(LedgerError);
    }
    expect(await snapshot(f.db)).toEqual(before);
  });

  it('turns an overdraft into 409 "Insufficient balance" and keeps nothing of the transaction', async () => {
    await expectRefused(
      f,
      (tx) =>
        postTransaction(tx, f.system, {
          cause: 'fee',
          postings: [
            { account: { user: alice.id, bucket: 'available' }, coin: coin.id, amount: -5_001n },
            { account: { platform: 'fees_income' }, coin: coin.id, amount: 5_001n },
          ],
        }),
      { status: 409, message: 'Insufficient balance' },
    );
    // Income accounts may not go negative either.
    await expectRefused(
      f,
      (tx) =>
        postTransaction(tx, f.system, {
          cause: 'fee',
          postings: [
            { account: { user: alice.id, bucket: 'available' }, coin: coin.id, amount: 1n },
            { account: { platform: 'fees_income' }, coin: coin.id, amount: -1n },
          ],
        }),
      { status: 409, message: 'Insufficient balance' },
    );
  });

  it('posts several coins in one transaction when each coin sums to zero', async () => {
    await fund(f, alice.id, other.id, 1_000_000n);
    await f.db.transaction((tx) =>
      postTransaction(tx, f.system, {
        cause: 'trade',
        postings: [
          { account: { user: alice.id, bucket: 'available' }, coin: other.id, amount: -300_000n },
          { account: { platform: 'market_collateral' }, coin: other.id, amount: 300_000n },
          { account: { user: alice.id, bucket: 'available' }, coin: coin.id, amount: -1_000n },
          { account: { platform: 'fees_income' }, coin: coin.id, amount: 1_000n },
        ],
      }),
    );
    expect(await balancesOf(f.db, alice.id)).toEqual([
      { coinId: coin.id, symbol: 'LSOL', decimals: 9, available: 4_000n, held: 0n },
      { coinId: other.id, symbol: 'LUSDC', decimals: 6, available: 700_000n, held: 0n },
    ]);
    expect(await platformBalance(f.db, 'market_collateral', other.id)).toBe(300_000n);
    expect(await platformBalance(f.db, 'hot_wallet', other.id)).toBe(-1_000_000n);
  });

  it('a causing record posts a once-only cause once: the unique index answers 409', async () => {
    const post = () =>
      f.db.transaction((tx) =>
        postTransaction(tx, f.system, {
          cause: 'deposit',
          ref: { type: 'test-record', id: 1 },
          postings: [
            { account: { user: alice.id, bucket: 'available' }, coin: coin.id, amount: 10n },
            { account: { platform: 'hot_wallet' }, coin: coin.id, amount: -10n },
          ],
        }),
      );
    await post();
    await expect(post()).rejects.toMatchObject({ status: 409 });
  });
});

describe('postCreditsFrom', () => {
  it('pays many users in one ledger transaction, creating the accounts of users who have none (its postings retried after a savepoint), and refuses a user named twice', async () => {
    const bob = await makeUser(f);
    const carol = await makeUser(f);
    await fund(f, bob.id, other.id, 1_000n); // bob has an account in `other`, carol none
    const credits = sql`select * from (values (${bob.id}::bigint, 7::bigint), (${carol.id}::bigint, 5::bigint)) v(user_id, amount)`;
    const before = await platformBalance(f.db, 'rewards', other.id);
    const res = await f.db.transaction((tx) => postCreditsFrom(tx, f.admin, { cause: 'reward', ref: { type: 'test', id: bob.id }, coin: other.id, from: 'rewards', credits }));
    expect(res).toMatchObject({ total: 12n, users: 2 });
    expect(await balanceOf(f.db, bob.id, other.id)).toEqual({ available: 1_007n, held: 0n });
    expect(await balanceOf(f.db, carol.id, other.id)).toEqual({ available: 5n, held: 0n });
    expect(await platformBalance(f.db, 'rewards', other.id)).toBe(before - 12n);
    const postings = await f.db.select().from(ledgerPostings).where(eq(ledgerPostings.transactionId, res.transactionId!));
    expect(postings.map((p) => p.amount).sort()).toEqual([-12n, 5n, 7n]);

    const twice = sql`select * from (values (${bob.id}::bigint, 1::bigint), (${bob.id}::bigint, 2::bigint)) v(user_id, amount)`;
    const snap = await snapshot(f.db);
    await expect(f.db.transaction((tx) => postCreditsFrom(tx, f.admin, { cause: 'reward', ref: { type: 'test', id: carol.id }, coin: other.id, from: 'rewards', credits: twice }))).rejects.toThrow(LedgerError);
    expect(await snapshot(f.db)).toEqual(snap);
  });
});

describe('the database guards the books', () => {
  it('refuses a negative user balance even from raw SQL (CHECK), and lets hot_wallet go negative', async () => {
    const [acct] = await f.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.userId, alice.id)).limit(1);
    await expectDbRefuses((tx) => tx.update(ledgerAccounts).set({ balance: -1n }).where(eq(ledgerAccounts.id, acct!.id)), /ledger_accounts_balance_ck/);
    expect(await platformBalance(f.db, 'hot_wallet', coin.id)).toBeLessThan(0n);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of transactions and postings', async () => {
    await expectDbRefuses((tx) => tx.update(ledgerPostings).set({ amount: 1n }), /append-only/);
    await expectDbRefuses((tx) => tx.delete(ledgerPostings), /append-only/);
    await expectDbRefuses((tx) => tx.execute(sql`truncate ledger_postings`), /append-only/);
    await expectDbRefuses((tx) => tx.update(ledgerTransactions).set({ reason: 'rewritten' }), /append-only/);
    await expectDbRefuses((tx) => tx.delete(ledgerTransactions), /append-only/);
    await expectDbRefuses((tx) => tx.execute(sql`truncate ledger_transactions cascade`), /append-only/);
  });

  it('refuses at commit a transaction whose raw postings do not balance, or that has none', async () => {
    const [acct] = await f.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.userId, alice.id)).limit(1);
    await expectDbRefuses(async (tx) => {
      const [t] = await tx.insert(ledgerTransactions).values({ cause: 'fee', actorKind: 'system' }).returning();
      await tx.insert(ledgerPostings).values({ transactionId: t!.id, accountId: acct!.id, coinId: acct!.coinId, amount: 7n });
    }, /does not balance: coin \d+ sums to 7(?!\d)/);
    // Several transactions in one insert (as an order group writes them): the one that does not balance is named.
    await expectDbRefuses(async (tx) => {
      const ts = await tx.insert(ledgerTransactions).values([1, 2, 3].map(() => ({ cause: 'fee' as const, actorKind: 'system' as const }))).returning();
      await tx.insert(ledgerPostings).values(
        ts.flatMap((t, i) => [
          { transactionId: t.id, accountId: acct!.id, coinId: acct!.coinId, amount: 5n },
          { transactionId: t.id, accountId: acct!.id, coinId: acct!.coinId, amount: i === 1 ? -4n : -5n },
        ]),
      );
    }, /does not balance: coin \d+ sums to 1(?!\d)/);
    await expectDbRefuses((tx) => tx.insert(ledgerTransactions).values({ cause: 'fee', actorKind: 'system' }), /has no postings/);
  });

  it('refuses a posting added later to an older, balanced transaction (a ledger transaction\'s postings are inserted together)', async () => {
    const [acct] = await f.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.userId, alice.id)).limit(1);
    const [old] = await f.db.select({ id: ledgerTransactions.id }).from(ledgerTransactions).limit(1);
    await expectDbRefuses((tx) => tx.insert(ledgerPostings).values({ transactionId: old!.id, accountId: acct!.id, coinId: acct!.coinId, amount: 5n }), /does not balance: it already has postings/);
  });

  it('refuses a posting whose coin is not its account\'s coin, or that names no account or no transaction', async () => {
    const [acct] = await f.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.coinId, coin.id)).limit(1);
    const [last] = await f.db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).orderBy(desc(ledgerAccounts.id)).limit(1);
    const twoLegs = (tx: Tx, transactionId: number, accountId: number, coinId: number) =>
      tx.insert(ledgerPostings).values([
        { transactionId, accountId, coinId, amount: 7n },
        { transactionId, accountId: acct!.id, coinId: acct!.coinId, amount: -7n },
      ]);
    await expectDbRefuses(async (tx) => {
      const [t] = await tx.insert(ledgerTransactions).values({ cause: 'fee', actorKind: 'system' }).returning();
      await twoLegs(tx, t!.id, acct!.id, other.id);
    }, /ledger_postings_account_coin: .* no such account in that coin/);
    await expectDbRefuses(async (tx) => {
      const [t] = await tx.insert(ledgerTransactions).values({ cause: 'fee', actorKind: 'system' }).returning();
      await twoLegs(tx, t!.id, last!.id + 1000, acct!.coinId);
    }, /ledger_postings_account_coin: .* no such account in that coin/);
    const [lastTxn] = await f.db.select({ id: ledgerTransactions.id }).from(ledgerTransactions).orderBy(desc(ledgerTransactions.id)).limit(1);
    await expectDbRefuses((tx) => twoLegs(tx, lastTxn!.id + 1000, acct!.id, acct!.coinId), /ledger_postings_transaction: .* does not exist/);
  });

  it('refuses deleting, re-keying or truncating a ledger account (postings name it)', async () => {
    const [acct] = await f.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.coinId, coin.id)).limit(1);
    await expectDbRefuses((tx) => tx.delete(ledgerAccounts).where(eq(ledgerAccounts.id, acct!.id)), /never deleted/);
    await expectDbRefuses((tx) => tx.update(ledgerAccounts).set({ coinId: other.id }).where(eq(ledgerAccounts.id, acct!.id)), /never deleted or re-keyed/);
    await expectDbRefuses((tx) => tx.execute(sql`truncate ledger_accounts cascade`), /never deleted/);
  });

  it('checkLedgerInvariants names a materialised balance that drifted, and a negative balance', async () => {
    const [acct] = await f.db.select().from(ledgerAccounts).where(eq(ledgerAccounts.userId, alice.id)).limit(1);
    let seen: Awaited<ReturnType<typeof checkLedgerInvariants>> = [];
    await f.db
      .transaction(async (tx) => {
        await tx.execute(sql`alter table ledger_accounts drop constraint ledger_accounts_balance_ck`);
        await tx.update(ledgerAccounts).set({ balance: -3n }).where(eq(ledgerAccounts.id, acct!.id));
        // A posting naming no account, past the statement-level check (as a bulk load that switches it off).
        await tx.execute(sql`alter table ledger_postings disable trigger ledger_postings_checked`);
        const [t] = await tx.insert(ledgerTransactions).values({ cause: 'fee', actorKind: 'system' }).returning();
        await tx.insert(ledgerPostings).values([
          { transactionId: t!.id, accountId: acct!.id + 100_000, coinId: acct!.coinId, amount: 4n },
          { transactionId: t!.id, accountId: acct!.id, coinId: acct!.coinId, amount: -4n },
        ]);
        seen = await checkLedgerInvariants(tx);
        throw new Error('roll back'); // the corruption never commits
      })
      .catch(() => undefined);
    expect(seen.map((v) => v.rule)).toEqual(
      expect.arrayContaining(['no negative user (or income) balance', 'materialised balance equals the sum of postings', 'every posting names its transaction and an account in its coin']),
    );
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
  });
});

describe('adjustBalance', () => {
  it('credits and debits a user against the adjustments account, audited on the user with the reason', async () => {
    const bob = await makeUser(f);
    const credit = await f.db.transaction((tx) => adjustBalance(tx, f.admin, { userId: bob.id, coin: coin.id, amount: 2_500_000_000n, reasonCode: 'correction', reason: 'Goodwill for outage #12' }));
    expect(credit.available).toBe(2_500_000_000n);
    const debit = await f.db.transaction((tx) => adjustBalance(tx, f.admin, { userId: bob.id, coin: coin.id, amount: -500_000_000n, reasonCode: 'correction', reason: 'Duplicate goodwill' }));
    expect(debit.available).toBe(2_000_000_000n);
    expect(await platformBalance(f.db, 'adjustments', coin.id)).toBeLessThanOrEqual(-2_000_000_000n);
    const entries = await auditOf(f.db, 'users', bob.id);
    const adj = entries.filter((e) => e.action === 'adjust-balance');
    expect(adj).toHaveLength(2);
    expect(adj[0]).toMatchObject({ actorKind: 'admin', adminId: f.admin.admin.id, ip: '203.0.113.5', before: { coin: 'LSOL', available: '0' }, after: { coin: 'LSOL', available: '2500000000', amount: '2500000000', reason: 'Goodwill for outage #12' } });
    expect(adj[1]).toMatchObject({ before: { available: '2500000000' }, after: { available: '2000000000', amount: '-500000000' } });
  });

  it('refuses an overdraft (409), no reason, zero, an unknown coin (400), an unknown user (404) and the platform (403), changing nothing', async () => {
    const carol = await makeUser(f);
    await expectRefused(f, (tx) => adjustBalance(tx, f.admin, { userId: carol.id, coin: coin.id, amount: -1n, reasonCode: 'correction', reason: 'claw back' }), { status: 409, message: 'Insufficient balance' });
    await expectRefused(f, (tx) => adjustBalance(tx, f.admin, { userId: carol.id, coin: coin.id, amount: 5n, reasonCode: 'nope', reason: 'A note' }), { status: 400, errors: { reasonCode: 'Pick a reason' } });
    await expectRefused(f, (tx) => adjustBalance(tx, f.admin, { userId: carol.id, coin: coin.id, amount: 0n, reasonCode: 'correction', reason: 'x' }), { status: 400, errors: { amount: expect.any(String) } });
    await expectRefused(f, (tx) => adjustBalance(tx, f.admin, { userId: carol.id, coin: 999_999, amount: 5n, reasonCode: 'correction', reason: 'x' }), { status: 400, errors: { coin: 'No such coin' } });
    await expectRefused(f, (tx) => adjustBalance(tx, f.admin, { userId: 999_999, coin: coin.id, amount: 5n, reasonCode: 'correction', reason: 'x' }), { status: 404 });
    await expectRefused(f, (tx) => adjustBalance(tx, f.platform, { userId: carol.id, coin: coin.id, amount: 5n, reasonCode: 'correction', reason: 'x' }), { status: 403 });
  });
});
