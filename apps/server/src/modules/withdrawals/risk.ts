import { WITHDRAWAL_FLAGS, type WithdrawalFlag, type WithdrawalRisk } from '@pitboss/contract';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { notFound } from '../../http/errors.js';
import { coins } from '../coins/table.js';
import { balancesOf } from '../ledger/service.js';
import { users } from '../users/table.js';
import { withdrawals } from './table.js';

const DAY = 86_400_000;

/**
 * What an approver looks up before deciding on a withdrawal, read in one place: the user, their
 * balances and flows per coin, their recent withdrawals, the destination's history, their open
 * tickets, and the flags those facts raise. Every count reads an index (a user's withdrawals and
 * deposits by user and time, withdrawals by destination, tickets by user).
 */
export async function withdrawalRisk(db: DbOrTx, id: number): Promise<WithdrawalRisk> {
  const [w] = await db
    .select({ w: withdrawals, coin: { symbol: coins.symbol, threshold: coins.secondApprovalThreshold } })
    .from(withdrawals)
    .innerJoin(coins, eq(coins.id, withdrawals.coinId))
    .where(eq(withdrawals.id, id));
  if (!w) throw notFound('Withdrawal');
  const [user] = await db.select().from(users).where(eq(users.id, w.w.userId));
  if (!user) throw notFound('User');
  const userId = user.id;
  const address = w.w.toAddress;

  const lifetime = await queryRows<{ coin: string; decimals: number; deposited: string; withdrawn: string }>(db, sql`
    select c.symbol as coin, c.decimals, coalesce(d.total, 0)::text as deposited, coalesce(x.total, 0)::text as withdrawn
    from coins c
    left join (select coin_id, sum(amount) as total from deposits where user_id = ${userId} and status = 'confirmed' group by coin_id) d on d.coin_id = c.id
    left join (select coin_id, sum(amount) as total from withdrawals where user_id = ${userId} and status = 'completed' group by coin_id) x on x.coin_id = c.id
    where d.total is not null or x.total is not null
    order by c.symbol`);
  const recent = await queryRows<{ coin: string; decimals: number; count24h: number; amount24h: string; count7d: number; amount7d: string }>(db, sql`
    select c.symbol as coin, c.decimals,
      count(*) filter (where w.created_at > now() - interval '24 hours')::int as "count24h",
      coalesce(sum(w.amount) filter (where w.created_at > now() - interval '24 hours'), 0)::text as "amount24h",
      count(*)::int as "count7d", coalesce(sum(w.amount), 0)::text as "amount7d"
    from withdrawals w join coins c on c.id = w.coin_id
    where w.user_id = ${userId} and w.created_at > now() - interval '7 days' and w.status not in ('rejected', 'failed')
    group by c.symbol, c.decimals order by c.symbol`);
  const [dest] = await queryRows<{ whitelisted: boolean; used_before: boolean; other_users: number; earlier: number }>(db, sql`
    select
      exists (select 1 from whitelist_wallets where address = ${address}) as whitelisted,
      exists (select 1 from withdrawals where user_id = ${userId} and to_address = ${address} and id < ${id}) as used_before,
      (select count(distinct u) from (
        select user_id as u from withdrawals where to_address = ${address} and user_id <> ${userId}
        union select id as u from users where wallet_address = ${address} and id <> ${userId}
      ) o)::int as other_users,
      (select count(*) from withdrawals where user_id = ${userId} and id < ${id})::int as earlier`);
  const [tickets] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from tickets where user_id = ${userId} and status <> 'closed'`);
  const balances = await balancesOf(db, userId);

  const ageDays = Math.floor((Date.now() - user.createdAt.getTime()) / DAY);
  const recent24h = recent.reduce((n, r) => n + r.count24h, 0);
  const raised: WithdrawalFlag[] = [];
  if (ageDays < 7) raised.push('new_account');
  if (dest!.earlier === 0) raised.push('first_withdrawal');
  if (!dest!.used_before) raised.push('new_destination');
  if (dest!.other_users > 0) raised.push('shared_destination');
  if (recent24h >= 3) raised.push('rapid');
  if (w.coin.threshold !== null && w.w.amount >= w.coin.threshold) raised.push('two_approvals');
  if (user.status === 'blocked') raised.push('user_blocked');

  return {
    withdrawalId: String(id),
    user: { _id: String(userId), username: user.username, status: user.status, signedUpAt: user.createdAt.toISOString(), accountAgeDays: ageDays },
    balances: balances.map((b) => ({ coin: b.symbol, decimals: b.decimals, available: b.available.toString(), held: b.held.toString() })),
    lifetime: lifetime.map((l) => ({ ...l, decimals: Number(l.decimals) })),
    recent: recent.map((r) => ({ ...r, decimals: Number(r.decimals) })),
    destination: { address, whitelisted: Boolean(dest!.whitelisted), newForUser: !dest!.used_before, otherUsers: Number(dest!.other_users) },
    openTickets: Number(tickets?.n ?? 0),
    flags: raised.map((code) => ({ code, label: WITHDRAWAL_FLAGS[code] })),
  };
}
