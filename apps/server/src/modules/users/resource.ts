import { adjustBalanceInput, usersResource } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { badRequest } from '../../http/errors.js';
import { defineResource, isoOrNull, type ResourceDef } from '../../resources/define.js';
import { coinBySymbol } from '../coins/service.js';
import { adjustBalance } from '../ledger/service.js';
import { blockUser, unblockUser } from './service.js';
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
 * The balances field of the CSV from one user's accounts as the export's SQL gives them
 * (`symbol,decimals,bucket,balance;…`), as the record path writes the record's list
 * (`csvField(toCell(list))`: each item `JSON.stringify` of `{ coin, decimals, available, held }`,
 * joined by "; ", quoted with quotes doubled), written directly: a symbol is [A-Z0-9] (the coins'
 * CHECK), decimals a number, balances digits, so nothing in them needs escaping.
 */
function balancesField(text: string): string {
  if (!text) return '';
  // Read in place (no split, no objects): it runs for every exported user. Per coin, in the order
  // first seen: its symbol, decimals, available and held.
  const coins: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c1 = text.indexOf(',', i);
    const c2 = text.indexOf(',', c1 + 1);
    const c3 = text.indexOf(',', c2 + 1);
    let end = text.indexOf(';', c3 + 1);
    if (end < 0) end = text.length;
    const coin = text.slice(i, c1);
    let k = 0;
    while (k < coins.length && coins[k] !== coin) k += 4;
    if (k === coins.length) coins.push(coin, text.slice(c1 + 1, c2), '0', '0');
    coins[text.startsWith('available,', c2 + 1) ? k + 2 : k + 3] = text.slice(c3 + 1, end);
    i = end + 1;
  }
  // By symbol (as bySymbol): an insertion sort of the few coins, by code unit as `<` compares.
  const order: number[] = [];
  for (let k = 0; k < coins.length; k += 4) {
    let j = order.length;
    while (j > 0 && coins[order[j - 1]!]! > coins[k]!) j--;
    order.splice(j, 0, k);
  }
  let out = '"';
  for (const k of order) {
    out += `${out.length > 1 ? '; ' : ''}{""coin"":""${coins[k]}"",""decimals"":${coins[k + 1]},""available"":""${coins[k + 2]}"",""held"":""${coins[k + 3]}""}`;
  }
  return `${out}"`;
}

/**
 * One account of `a` as the export's text: `symbol,decimals,bucket,balance` (as `concat_ws` of them,
 * none being NULL). The coin's `symbol,decimals,` comes from one map of all coins built once per
 * statement (an InitPlan), not a join per account: on PGlite the join cost ~6 of the ~30 ms the
 * balances of 10,000 users took.
 */
const accountText = sql`((select jsonb_object_agg(c.id, c.symbol || ',' || c.decimals || ',') from coins c) ->> a.coin_id::text) || a.bucket || ',' || a.balance`;

export const usersDef: ResourceDef = defineResource({
  spec: usersResource,
  table: users,
  idColumn: users.id,
  columns: {
    username: users.username, email: users.email, status: users.status, country: users.country, walletAddress: users.walletAddress, createdAt: users.createdAt,
  },
  caseInsensitive: ['email'],
  searchColumns: [users.username, users.email],
  batchFields: { balances: balancesOf },
  // The export written by the database: each user's accounts as the text `balancesOf` reads
  // (a lateral read per user in the one-stream export, so a filtered export reads only its users'
  // accounts and the whole one streams in the list's order; one read per keyset batch otherwise),
  // grouped in Node by the same code into the field the record path writes.
  sqlExport: {
    cells: () => ({ balances: { cell: sql`bal.cell`, finish: balancesField } }),
    joins: (field, batch) =>
      batch
        ? // A batch: its users' accounts in one index scan over their sorted ids (one lookup a user costs more).
          sql`left join (
            select a.user_id, string_agg(${accountText}, ';') as cell
            from ledger_accounts a where a.user_id = any(array(select ${field('id')} from ${batch} order by 1)) group by a.user_id
          ) bal on bal.user_id = ${field('id')}`
        : sql`left join lateral (
            select string_agg(${accountText}, ';') as cell from ledger_accounts a where a.user_id = ${field('id')}
          ) bal on true`,
  },
  toRecord: (r) => ({
    _id: String(r.id), username: r.username, email: r.email, walletAddress: r.walletAddress ?? null, status: r.status, blockedReason: r.blockedReason ?? null,
    emailVerified: r.emailVerified, country: r.country ?? null, signupIp: r.signupIp, balances: (r.balances ?? []) as never,
    createdAt: isoOrNull(r.createdAt)!, lastLoginAt: isoOrNull(r.lastLoginAt),
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
      const coin = await coinBySymbol(tx, parsed.coin);
      if (!coin) throw badRequest('No such coin', { coin: 'No coin with this symbol' });
      await adjustBalance(tx, actor, { userId: Number(record._id), coin: coin.id, amount: BigInt(parsed.amount), reason: parsed.reason });
      return `Balance of ${record.username} adjusted`;
    },
  },
});
