import { adjustBalanceInput, usersResource } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { badRequest } from '../../http/errors.js';
import { defineResource, isoOrNull, type ResourceDef } from '../../resources/define.js';
import { coinBySymbol } from '../coins/service.js';
import { adjustBalance } from '../ledger/service.js';
import { blockUser, unblockUser } from './service.js';
import { users } from './table.js';

/**
 * Balances per coin of each user, available and held, as the record carries them (minor units as
 * strings, coins by symbol): one grouped query for a whole page or export batch of users.
 */
async function balancesOf(db: DbOrTx, ids: number[]): Promise<Map<number, unknown>> {
  const rows = await queryRows<{ user_id: string | number; balances: unknown }>(db, sql`
    select b.user_id, json_agg(json_build_object('coin', b.symbol, 'decimals', b.decimals, 'available', b.available::text, 'held', b.held::text) order by b.symbol) as balances
    from (select a.user_id, c.symbol, c.decimals,
                 sum(case when a.bucket = 'available' then a.balance else 0 end) as available,
                 sum(case when a.bucket = 'held' then a.balance else 0 end) as held
          from ledger_accounts a join coins c on c.id = a.coin_id
          where a.user_id = any(${`{${ids.join(',')}}`}::bigint[]) group by a.user_id, c.symbol, c.decimals) b
    group by b.user_id`);
  return new Map(rows.map((r) => [Number(r.user_id), r.balances]));
}

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
