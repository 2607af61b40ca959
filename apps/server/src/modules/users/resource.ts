import { adjustBalanceInput, formatMoney, usersResource } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, } from '../../resources/define.js';
import { finishFrom } from '../../resources/rewrite-off-thread.js';
import { loadCoin } from '../coins/service.js';
import { adjustBalance } from '../balance-adjustments/service.js';
import { blockUser, setHouseAccount, unblockUser } from './service.js';
import { balancesField, balancesFromAccounts } from './balances-field.js';
import { users } from './table.js';

type Balance = { coin: string; decimals: number; available: string; held: string };

/** One account (`symbol,decimals,bucket,balance`) into a user's list of balances per coin. */
function addAccount(list: Balance[], coin: string, decimals: string, bucket: string, balance: string): void {
  let b = list.find((x) => x.coin === coin);
  if (!b) {
    b = { coin, decimals: Number(decimals), available: '0', held: '0' };
    list.push(b);
  }
  if (bucket === 'available') b.available = balance;
  else b.held = balance;
}
const bySymbol = (list: Balance[]) => list.sort((x, y) => (x.coin < y.coin ? -1 : x.coin > y.coin ? 1 : 0));

/**
 * Balances per coin of each user, available and held, as the record carries them (minor units as
 * strings, coins by symbol in order), for a whole page or export batch of users in one query. The
 * accounts come back as one text (`user,symbol,decimals,bucket,balance;…`: symbols are [A-Z0-9])
 * and are grouped here: folding them into JSON per user cost the database three times as much.
 */
async function balancesOf(db: DbOrTx, ids: number[]): Promise<Map<number, unknown>> {
  const [row] = await queryRows<{ s: string | null }>(db, sql`
    select string_agg(concat_ws(',', a.user_id, c.symbol, c.decimals, a.bucket, a.balance), ';') as s
    from ledger_accounts a join coins c on c.id = a.coin_id
    where a.user_id = any(${`{${ids.join(',')}}`}::bigint[])`);
  const byUser = new Map<number, Balance[]>();
  for (const account of row?.s ? row.s.split(';') : []) {
    const [user, coin, decimals, bucket, balance] = account.split(',') as [string, string, string, string, string];
    const id = Number(user);
    let list = byUser.get(id);
    if (!list) {
      list = [];
      byUser.set(id, list);
    }
    addAccount(list, coin, decimals, bucket, balance);
  }
  for (const list of byUser.values()) bySymbol(list);
  return byUser;
}

/**
 * One account of `a` as the export's text: `coin_id,bucket,balance` (none being NULL). The coin's
 * column and decimals come from the export's context (the coins, read when it starts), not a join.
 */
const accountText = sql`a.coin_id || ',' || a.bucket || ',' || a.balance`;

/** `balancesField`, which the export's worker thread loads from its module. */
const balancesFinish = finishFrom(balancesField, new URL('./balances-field.js', import.meta.url).href);
const balancesFromAccountsFinish = finishFrom(balancesFromAccounts, new URL('./balances-field.js', import.meta.url).href);

export const usersDef = defineResource({
  spec: usersResource,
  table: users,
  idColumn: users.id,
  // Any coin, offered or not: a correction may concern a coin no longer listed.
  accepts: { 'adjust-balance.coinId': sql`true` },
  columns: {
    username: users.username, email: users.email, status: users.status, house: users.house, country: users.country, walletAddress: users.walletAddress, createdAt: users.createdAt,
  },
  caseInsensitive: ['email'],
  searchColumns: [users.username, users.email],
  batchFields: { balances: balancesOf },
  // The export written by the database: each user's accounts as one text (a lateral read per user
  // in the one-stream export, so a filtered export reads only its users' accounts and the whole one
  // streams in the list's order; one read per keyset batch otherwise), written in Node as the
  // record path writes the balances: two columns per coin of the export (csv-columns.ts).
  sqlExport: {
    cells: () => ({ balances: { cell: sql`bal.cell`, finish: balancesFinish } }),
    joins: (field, batchIds) =>
      batchIds
        ? // A batch: its users' accounts in one index scan over their sorted ids (one lookup a user costs more).
          sql`left join (
            select a.user_id, string_agg(${accountText}, ';') as cell
            from ledger_accounts a where a.user_id = any(${batchIds}) group by a.user_id
          ) bal on bal.user_id = ${field('id')}`
        : sql`left join lateral (
            select string_agg(${accountText}, ';') as cell from ledger_accounts a where a.user_id = ${field('id')}
          ) bal on true`,
    // PGlite's batches: the batch's accounts read raw (no text built by the database, which runs in
    // the server's thread) and joined to their users on the export's worker thread: the export of
    // 200 k users ~30 % faster (docs/performance-log.md).
    sideReads: {
      balances: {
        key: 'id',
        rows: (batchIds) => sql`select a.user_id, a.coin_id, a.bucket, a.balance from ledger_accounts a where a.user_id = any(${batchIds}) order by a.user_id`,
        context: (_db, context) => context,
        finish: balancesFromAccountsFinish,
      },
    },
  },
  toRecord: (r) => ({
    _id: String(r.id), username: r.username, email: r.email, walletAddress: r.walletAddress ?? null, status: r.status, blockedReason: r.blockedReason ?? null,
    emailVerified: r.emailVerified, house: r.house, country: r.country ?? null, signupIp: r.signupIp, balances: (r.balances ?? []) as never,
    createdAt: iso(r.createdAt), lastLoginAt: isoOrNull(r.lastLoginAt),
  }),
  auditedByHandlers: true,
  actions: {
    block: async (tx, actor, record, input) => {
      await blockUser(tx, actor, Number(record._id), { reason: String(input.reason) });
      return `${record.username} blocked`;
    },
    unblock: async (tx, actor, record) => {
      await unblockUser(tx, actor, Number(record._id));
      return `${record.username} unblocked`;
    },
    'adjust-balance': async (tx, actor, record, input) => {
      const parsed = adjustBalanceInput.parse(input);
      // The coin exists: `checkReferenceValues` answered 400 on the field otherwise.
      const coin = await loadCoin(tx, Number(parsed.coinId));
      const amount = BigInt(parsed.amount);
      const { adjustment, transactionId } = await adjustBalance(tx, actor, { userId: Number(record._id), coin: coin.id, amount, reasonCode: parsed.reasonCode, reason: parsed.reason });
      const moved = formatMoney(amount < 0n ? -amount : amount, coin.decimals, coin.symbol);
      if (transactionId === null) return `Adjustment #${adjustment.id} (${amount < 0n ? '-' : ''}${moved}) waits for a second admin's approval: nothing is applied yet`;
      return amount < 0n ? `Debited ${moved} from ${record.username}` : `Credited ${moved} to ${record.username}`;
    },
    'make-house': async (tx, actor, record, input) => {
      await setHouseAccount(tx, actor, Number(record._id), { house: true, reason: String(input.reason) });
      return `${record.username} is a house account: trade bots can trade as them`;
    },
    'make-customer': async (tx, actor, record, input) => {
      await setHouseAccount(tx, actor, Number(record._id), { house: false, reason: String(input.reason) });
      return `${record.username} is a customer account`;
    },
  },
});
