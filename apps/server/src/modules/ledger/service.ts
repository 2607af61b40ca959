import { and, asc, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { bulkInsert } from '../../db/bulk.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { conflict, forbidden } from '../../http/errors.js';
import { coins } from '../coins/table.js';
import { isCheckViolation, isUniqueViolation } from './errors.js';
import { MAX_AMOUNT } from './input.js';
import {
  ledgerAccounts, ledgerPostings, ledgerTransactions,
  type LedgerCause, type PlatformAccount, type UserBucket,
} from './table.js';

/** Which account a posting moves: a user's bucket in the coin, or a platform account in the coin. */
export type AccountRef = { user: number; bucket: UserBucket } | { platform: PlatformAccount };

export interface PostingInput {
  account: AccountRef;
  /** Coin id. */
  coin: number;
  /** Signed minor units: + credits the account, − debits it. */
  amount: bigint;
}

export interface PostInput {
  cause: LedgerCause;
  /** The causing record (`{ type: 'withdrawal', id: 42 }`). */
  ref?: { type: string; id: number };
  /** An adjustment's reason code (required for one) and its note. */
  reasonCode?: string;
  reason?: string | null;
  postings: PostingInput[];
}

export interface PostResult {
  transactionId: number;
  /** Balance of each touched account after the transaction, by account id. */
  balances: Map<number, bigint>;
}

/** A call the ledger refuses whatever the data: a bug in the caller, not a user error (→ 500). */
export class LedgerError extends Error {}

export const INSUFFICIENT_BALANCE = 'Insufficient balance';

const keyOf = (a: AccountRef, coin: number) => ('user' in a ? `u:${a.user}:${a.bucket}:${coin}` : `p:${a.platform}:${coin}`);

function checkPostings(input: PostInput): void {
  if (input.postings.length < 2) throw new LedgerError('A ledger transaction needs at least two postings');
  const perCoin = new Map<number, bigint>();
  for (const p of input.postings) {
    if (typeof p.amount !== 'bigint') throw new LedgerError('Posting amounts are bigint minor units');
    if (p.amount === 0n) throw new LedgerError('A posting of zero');
    if (p.amount > MAX_AMOUNT || -p.amount > MAX_AMOUNT) throw new LedgerError('A posting out of the bigint range');
    if (!Number.isSafeInteger(p.coin) || p.coin <= 0) throw new LedgerError('A posting without a coin');
    if ('user' in p.account && !Number.isSafeInteger(p.account.user)) throw new LedgerError('A posting without a user');
    perCoin.set(p.coin, (perCoin.get(p.coin) ?? 0n) + p.amount);
  }
  for (const [coin, total] of perCoin) {
    if (total !== 0n) throw new LedgerError(`Ledger postings of coin ${coin} sum to ${total}, not zero`);
  }
  if (input.cause === 'adjustment' && !input.reasonCode) throw new LedgerError('An adjustment needs a reason code');
}

function accountWhere(a: AccountRef, coin: number): SQL {
  return 'user' in a
    ? and(eq(ledgerAccounts.userId, a.user), eq(ledgerAccounts.coinId, coin), eq(ledgerAccounts.bucket, a.bucket))!
    : and(eq(ledgerAccounts.platformCode, a.platform), eq(ledgerAccounts.coinId, coin))!;
}

type AccountKeyRow = { id: number; ownerKind: string; userId: number | null; bucket: string | null; platformCode: string | null; coinId: number };
const rowKey = (r: AccountKeyRow) => (r.ownerKind === 'user' ? `u:${r.userId}:${r.bucket}:${r.coinId}` : `p:${r.platformCode}:${r.coinId}`);

/**
 * Records one balanced transaction and moves the materialised balances with it, in the caller's
 * database transaction:
 *
 * 1. the postings must sum to zero per coin (else LedgerError: a bug, not a user error);
 * 2. missing accounts are created (INSERT … ON CONFLICT DO NOTHING: two first postings at once
 *    create one account), before any account is locked;
 * 3. the touched accounts are locked `FOR UPDATE` in account-id order, so two transactions that
 *    touch the same accounts queue instead of deadlocking;
 * 4. `balance = balance + delta` per account; the CHECK `ledger_accounts_balance_ck` refuses a
 *    negative user (or income) balance, which becomes a 409 "Insufficient balance". The error
 *    aborts the caller's transaction: nothing of the request is kept.
 *
 * At commit a deferred trigger checks the sums again; triggers refuse any UPDATE or DELETE of
 * transactions and postings (a correction is a new transaction).
 */
export async function postTransaction(tx: DbOrTx, actor: Actor, input: PostInput): Promise<PostResult> {
  checkPostings(input);
  const idByKey = await accountIds(tx, input.postings);

  // Net change per account, applied in id order after locking in id order.
  const delta = new Map<number, bigint>();
  for (const p of input.postings) {
    const id = idByKey.get(keyOf(p.account, p.coin))!;
    delta.set(id, (delta.get(id) ?? 0n) + p.amount);
  }
  const ids = await lockAccounts(tx, idByKey);

  const [txn] = await tx
    .insert(ledgerTransactions)
    .values({
      cause: input.cause,
      refType: input.ref?.type ?? null,
      refId: input.ref?.id ?? null,
      reasonCode: input.reasonCode ?? null,
      reason: input.reason?.trim() || null,
      actorKind: actor.kind,
      adminId: actor.kind === 'admin' ? actor.admin.id : null,
      ...(actor.at ? { createdAt: actor.at } : {}),
    })
    .returning({ id: ledgerTransactions.id })
    .catch((err: unknown) => {
      if (isUniqueViolation(err, 'ledger_transactions_once_uq')) {
        throw conflict(`This ${input.ref?.type ?? 'record'} already has its ${input.cause} in the ledger`);
      }
      throw err;
    });

  const balances = await applyDeltas(tx, ids, delta);
  await tx.insert(ledgerPostings).values(
    input.postings.map((p) => ({ transactionId: txn!.id, accountId: idByKey.get(keyOf(p.account, p.coin))!, coinId: p.coin, amount: p.amount })),
  );
  return { transactionId: txn!.id, balances };
}

/**
 * The accounts of these postings, created when missing and locked `FOR UPDATE` in id order (as
 * `postTransaction` locks them); their ids by key. For writers that read balances before deciding,
 * under these locks (the booster packs' bulk path).
 */
export async function lockLedgerAccounts(tx: DbOrTx, postings: PostingInput[]): Promise<Map<string, number>> {
  const idByKey = await accountIds(tx, postings);
  await lockAccounts(tx, idByKey);
  return idByKey;
}

/**
 * Group commit (a market's orders, orders/group-commit.ts), step 1: the ids of the postings'
 * accounts by key. An account is never deleted or re-keyed (triggers), so an id once committed
 * stays true: `known` (the caller's, per database) answers without a round trip, and only keys it
 * lacks are read (created when missing). Those come back in `fresh`, for the caller to add to
 * `known` once its transaction has committed (a rolled-back creation must not be remembered).
 * Nothing is locked here: the balance update of `ledgerWrites` locks the accounts in id order.
 */
export async function ledgerAccountIds(tx: DbOrTx, known: ReadonlyMap<string, number>, postings: PostingInput[]): Promise<{ idByKey: Map<string, number>; fresh: Map<string, number> }> {
  const idByKey = new Map<string, number>();
  const missing: PostingInput[] = [];
  for (const p of postings) {
    const k = keyOf(p.account, p.coin);
    const id = known.get(k);
    if (id === undefined) missing.push(p);
    else idByKey.set(k, id);
  }
  const fresh = missing.length ? await accountIds(tx, missing) : new Map<string, number>();
  for (const [k, id] of fresh) idByKey.set(k, id);
  return { idByKey, fresh };
}

/**
 * Group commit, step 2: the statements that write many balanced transactions (ids reserved by the
 * caller, one per item), their postings and the net balance change per account, for the caller
 * to run together in ONE statement (data-modifying CTEs). The checks of `postTransaction` apply;
 * a negative balance fails the statement (the CHECK), and with it the group. The accounts are
 * locked `FOR UPDATE` in id order by the update itself (a sorted locking subquery), as
 * `postTransaction` locks them: two transactions touching the same accounts queue, never deadlock.
 */
export function ledgerWrites(items: { actor: Actor; input: PostInput; id: number }[], idByKey: Map<string, number>): SQLWrapper[] {
  if (items.length === 0) return [];
  const delta = new Map<number, bigint>();
  for (const it of items) {
    checkPostings(it.input);
    for (const p of it.input.postings) {
      const id = idByKey.get(keyOf(p.account, p.coin));
      if (id === undefined) throw new LedgerError('A posting on an account that was not locked');
      delta.set(id, (delta.get(id) ?? 0n) + p.amount);
    }
  }
  const changes = [...delta].filter(([, d]) => d !== 0n);
  // One column list for every row: dated by their actors (the demo seed's history) or all now.
  const dated = items[0]!.actor.at !== undefined;
  const writes: SQLWrapper[] = [
    bulkInsert(
      ledgerTransactions,
      items.map(({ actor, input, id }) => ({
        ...(dated ? { createdAt: actor.at ?? new Date() } : {}),
        id,
        cause: input.cause,
        refType: input.ref?.type ?? null,
        refId: input.ref?.id ?? null,
        reasonCode: input.reasonCode ?? null,
        reason: input.reason?.trim() || null,
        actorKind: actor.kind,
        adminId: actor.kind === 'admin' ? actor.admin.id : null,
      })),
      { overridingSystemValue: true },
    ),
    bulkInsert(
      ledgerPostings,
      items.flatMap(({ input, id }) => input.postings.map((p) => ({ transactionId: id, accountId: idByKey.get(keyOf(p.account, p.coin))!, coinId: p.coin, amount: p.amount }))),
    ),
  ];
  if (changes.length) {
    const json = JSON.stringify(changes.map(([id, d]) => ({ id, delta: d.toString() })));
    const ids = sql.join(changes.map(([id]) => sql`${id}::bigint`), sql`, `);
    writes.push(sql`update ledger_accounts a set balance = a.balance + v.delta, updated_at = now()
      from (select l.id, d.delta from (select id from ledger_accounts where id in (${ids}) order by id for update) l
        join jsonb_to_recordset(${json}::jsonb) as d(id bigint, delta bigint) on d.id = l.id) v
      where a.id = v.id and a.id in (${ids})`);
  }
  return writes;
}

/** The ids of the postings' accounts by key; missing accounts are created first. */
async function accountIds(tx: DbOrTx, postings: PostingInput[]): Promise<Map<string, number>> {
  const wanted = new Map<string, { account: AccountRef; coin: number }>();
  for (const p of postings) wanted.set(keyOf(p.account, p.coin), { account: p.account, coin: p.coin });
  const keyCols = {
    id: ledgerAccounts.id, ownerKind: ledgerAccounts.ownerKind, userId: ledgerAccounts.userId,
    bucket: ledgerAccounts.bucket, platformCode: ledgerAccounts.platformCode, coinId: ledgerAccounts.coinId,
  };
  const where = or(...[...wanted.values()].map((w) => accountWhere(w.account, w.coin)));
  const findAll = () => tx.select(keyCols).from(ledgerAccounts).where(where);
  let found: AccountKeyRow[] = await findAll();
  if (found.length < wanted.size) {
    const have = new Set(found.map(rowKey));
    // Sorted by key: two transactions creating the same accounts insert them in the same order.
    const missing = [...wanted.entries()].filter(([k]) => !have.has(k)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, w]) => w);
    await tx
      .insert(ledgerAccounts)
      .values(missing.map(({ account, coin }) => ('user' in account
        ? { ownerKind: 'user' as const, userId: account.user, bucket: account.bucket, coinId: coin }
        : { ownerKind: 'platform' as const, platformCode: account.platform, coinId: coin })))
      .onConflictDoNothing();
    found = await findAll();
  }
  const idByKey = new Map(found.map((r) => [rowKey(r), r.id]));
  if (idByKey.size !== wanted.size) throw new LedgerError('Ledger accounts could not be created');
  return idByKey;
}

/** Locks the accounts `FOR UPDATE` in id order (two transactions on the same accounts queue, never deadlock); returns the sorted ids. */
async function lockAccounts(tx: DbOrTx, idByKey: Map<string, number>): Promise<number[]> {
  const ids = [...idByKey.values()].sort((a, b) => a - b);
  await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(inArray(ledgerAccounts.id, ids)).orderBy(asc(ledgerAccounts.id)).for('update');
  return ids;
}

/** `balance = balance + delta` per account (a negative user balance is a 409); the new balances by id. */
async function applyDeltas(tx: DbOrTx, ids: number[], delta: Map<number, bigint>): Promise<Map<number, bigint>> {
  const balances = new Map<number, bigint>();
  const changes = ids.filter((id) => delta.get(id) !== 0n);
  if (changes.length > 0) {
    const values = sql.join(changes.map((id) => sql`(${id}::bigint, ${delta.get(id)!.toString()}::bigint)`), sql`, `);
    try {
      const rows = await queryRows<{ id: string | number; balance: string | number | bigint }>(tx, sql`
        update ledger_accounts a set balance = a.balance + v.delta, updated_at = now()
        from (values ${values}) as v(id, delta)
        where a.id = v.id
        returning a.id, a.balance::text as balance`);
      for (const r of rows) balances.set(Number(r.id), BigInt(r.balance));
    } catch (err) {
      if (isCheckViolation(err, 'ledger_accounts_balance_ck')) throw conflict(INSUFFICIENT_BALANCE);
      throw err;
    }
  }
  return balances;
}

/**
 * One balanced transaction paying many users from one platform account, set-based (a market's
 * settlement pays every holder at once): `credits` is a SELECT of `(user_id, amount)` rows, one per
 * user, each amount > 0 (minor units of `coin`); the platform account gives their total. Same
 * guarantees as `postTransaction`, in four statements whatever the number of users, none of them
 * per user:
 *
 * 1. one pass over the credits checks them (one row per user, each > 0, the total in range);
 * 2. the ledger transaction row;
 * 3. its postings, one INSERT … SELECT (each user's credit to their available account and the
 *    platform's −total), whose count and sums are checked against step 1; the ledger's
 *    statement-level check (migration 0028) sees them all: accounts of the coin, sum zero. It runs
 *    in a savepoint: when some users have no account yet (their credits find no account, so the
 *    postings do not balance), the missing accounts are created (INSERT … SELECT … WHERE NOT EXISTS
 *    … ON CONFLICT DO NOTHING) and the INSERT runs again;
 * 4. the balances, one UPDATE … FROM the transaction's postings sorted by account id through a
 *    nested loop (hash and merge joins and memoize off for that statement), so it locks the accounts in id
 *    order, as `postTransaction` does: two transactions touching the same accounts queue, never
 *    deadlock. Inserting postings takes no lock on the accounts (no foreign key), so the accounts
 *    need no separate locking pass before. The CHECK refuses a negative platform balance (409).
 *    Accounts are stored with free space on their pages (fillfactor), so a balance update is a
 *    heap-only tuple update: no index entry is written.
 *
 * No credits: no transaction (null). The caller's query runs twice (steps 1 and 3; a third and
 * fourth time when accounts were missing): give a cheap one (the settlement stages its credits in a
 * temporary table).
 */
export async function postCreditsFrom(
  tx: DbOrTx,
  actor: Actor,
  input: { cause: LedgerCause; ref: { type: string; id: number }; coin: number; from: PlatformAccount; credits: SQL },
): Promise<{ transactionId: number | null; total: bigint; users: number }> {
  const { coin, from } = input;
  const credits = sql`select c.user_id::bigint as user_id, c.amount::bigint as amount from (${input.credits}) as c(user_id, amount)`;
  const userAccount = (userId: SQL) => sql`a.user_id = ${userId} and a.coin_id = ${coin}::bigint and a.bucket = 'available'`;
  let [platform] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(accountWhere({ platform: from }, coin));
  if (!platform) {
    await tx.insert(ledgerAccounts).values({ ownerKind: 'platform', platformCode: from, coinId: coin }).onConflictDoNothing();
    [platform] = await tx.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(accountWhere({ platform: from }, coin));
  }
  const platformId = sql`${platform!.id}::bigint`;
  // 1. The credits checked, in one pass.
  const [sum] = await queryRows<{ total: string; n: string | number; users: string | number; smallest: string | null }>(tx, sql`
    select coalesce(sum(amount), 0)::text as total, count(*) as n, count(distinct user_id) as users, min(amount)::text as smallest from (${credits}) c`);
  const n = Number(sum!.n);
  if (n === 0) return { transactionId: null, total: 0n, users: 0 };
  if (Number(sum!.users) !== n) throw new LedgerError('Credits name a user twice: give one row per user');
  if (BigInt(sum!.smallest!) <= 0n) throw new LedgerError('A credit of zero or less');
  const total = BigInt(sum!.total);
  if (total > MAX_AMOUNT) throw new LedgerError('A posting out of the bigint range');

  // 2. The ledger transaction.
  const [txn] = await tx
    .insert(ledgerTransactions)
    .values({ cause: input.cause, refType: input.ref.type, refId: input.ref.id, actorKind: actor.kind, adminId: actor.kind === 'admin' ? actor.admin.id : null, ...(actor.at ? { createdAt: actor.at } : {}) })
    .returning({ id: ledgerTransactions.id })
    .catch((err: unknown) => {
      if (isUniqueViolation(err, 'ledger_transactions_once_uq')) throw conflict(`This ${input.ref.type} already has its ${input.cause} in the ledger`);
      throw err;
    });
  const txnId = sql`${txn!.id}::bigint`;
  // 3. Its postings, in one statement, in a savepoint (see above).
  const insertPostings = (q: DbOrTx) => queryRows<{ n: string | number; credited: string; debited: string }>(q, sql`
    with p as (insert into ledger_postings (transaction_id, account_id, coin_id, amount)
      select ${txnId}, a.id, ${coin}::bigint, c.amount from (${credits}) c join ledger_accounts a on ${userAccount(sql`c.user_id`)}
      union all select ${txnId}, ${platformId}, ${coin}::bigint, ${(-total).toString()}::bigint
      returning amount)
    select count(*) as n, coalesce(sum(amount) filter (where amount > 0), 0)::text as credited, coalesce(sum(amount) filter (where amount < 0), 0)::text as debited from p`);
  let posted: { n: string | number; credited: string; debited: string } | undefined;
  try {
    [posted] = await tx.transaction((sp) => insertPostings(sp));
  } catch (err) {
    const created = await queryRows(tx, sql`
      insert into ledger_accounts (owner_kind, user_id, bucket, coin_id)
      select 'user', c.user_id, 'available', ${coin}::bigint from (${credits}) c
      where not exists (select 1 from ledger_accounts a where ${userAccount(sql`c.user_id`)})
      order by c.user_id on conflict do nothing returning id`);
    if (created.length === 0) throw err;
    [posted] = await insertPostings(tx);
  }
  if (Number(posted!.n) !== n + 1 || BigInt(posted!.credited) !== total || BigInt(posted!.debited) !== -total) {
    throw new LedgerError(`Credits changed while being posted (${posted!.n} postings for ${n} credits)`);
  }
  // 4. The balances, in account id order (see above).
  const [joins] = await queryRows<{ hash: string; merge: string; memoize: string }>(tx, sql`
    select current_setting('enable_hashjoin') as hash, current_setting('enable_mergejoin') as merge, current_setting('enable_memoize') as memoize,
      set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true), set_config('enable_memoize', 'off', true)`);
  try {
    await queryRows(tx, sql`
      update ledger_accounts a set balance = a.balance + p.amount, updated_at = now()
      from (select account_id, amount from ledger_postings where transaction_id = ${txnId} order by account_id) p where a.id = p.account_id`);
  } catch (err) {
    if (isCheckViolation(err, 'ledger_accounts_balance_ck')) throw conflict(INSUFFICIENT_BALANCE);
    throw err;
  }
  await queryRows(tx, sql`select set_config('enable_hashjoin', ${joins!.hash}, true), set_config('enable_mergejoin', ${joins!.merge}, true), set_config('enable_memoize', ${joins!.memoize}, true)`);
  return { transactionId: txn!.id, total, users: n };
}

export interface CoinBalance {
  coinId: number;
  symbol: string;
  decimals: number;
  available: bigint;
  held: bigint;
}

/** A user's balances per coin (coins they have an account in), by symbol. */
export async function balancesOf(tx: DbOrTx, userId: number): Promise<CoinBalance[]> {
  const rows = await tx
    .select({ coinId: ledgerAccounts.coinId, symbol: coins.symbol, decimals: coins.decimals, bucket: ledgerAccounts.bucket, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .innerJoin(coins, eq(coins.id, ledgerAccounts.coinId))
    .where(eq(ledgerAccounts.userId, userId));
  const byCoin = new Map<number, CoinBalance>();
  for (const r of rows) {
    const b = byCoin.get(r.coinId) ?? { coinId: r.coinId, symbol: r.symbol, decimals: r.decimals, available: 0n, held: 0n };
    if (r.bucket === 'held') b.held = r.balance;
    else b.available = r.balance;
    byCoin.set(r.coinId, b);
  }
  return [...byCoin.values()].sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** One user's balance in one coin (zero when there is no account yet). */
export async function balanceOf(tx: DbOrTx, userId: number, coinId: number): Promise<{ available: bigint; held: bigint }> {
  const b = (await balancesOf(tx, userId)).find((x) => x.coinId === coinId);
  return { available: b?.available ?? 0n, held: b?.held ?? 0n };
}

/** A platform account's balance (zero when there is no account yet). */
export async function platformBalance(tx: DbOrTx, code: PlatformAccount, coinId: number): Promise<bigint> {
  const [row] = await tx.select({ balance: ledgerAccounts.balance }).from(ledgerAccounts).where(accountWhere({ platform: code }, coinId));
  return row?.balance ?? 0n;
}

/** Who may change money by hand: an admin or a system job, never the user-facing platform API. */
export function assertBackOffice(actor: Actor, what: string): void {
  if (actor.kind === 'platform') throw forbidden(`The platform cannot ${what}`);
}

