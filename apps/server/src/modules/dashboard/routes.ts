import { accessFor, dashboardEndpoints, formatUnits, isSuperAdmin, type DashboardData } from '@pitboss/contract';
import { inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { coins } from '../coins/table.js';
import { LIVE_ORDER_STATUSES, orders } from '../orders/table.js';
import { WITHDRAWAL_HOLDING_STATUSES, withdrawals } from '../withdrawals/table.js';

type Card = DashboardData['cards'][number];

/**
 * The dashboard shows real figures from the data there is. Days are the
 * caller's days (the `timezone` header). Every signed-in admin sees it: it is
 * the fallback page of the access check, so it is never denied.
 */
export function dashboardRoutes(app: App, ctx: AppContext): void {
  route(app, dashboardEndpoints.dashboard, async (req) => {
    const tz = req.timezone;
    const one = async (q: SQL) => Number((await queryRows<{ n: string | number }>(ctx.db, q))[0]?.n ?? 0);
    const todayStart = sql`(date_trunc('day', now() at time zone ${tz}) at time zone ${tz})`;
    // Figures come from modules with their own rights: each shows only to admins who may view its source.
    const admin = req.admin!;
    const mayAdmins = accessFor(admin, 'Sub Admin').canView;
    const mayAudit = accessFor(admin, 'Audit Log').canView;
    const mayMail = isSuperAdmin(admin) || accessFor(admin, 'Email Templates').canView;
    const mayUsers = accessFor(admin, 'Users').canView;
    const mayDeposits = accessFor(admin, 'Deposit').canView;
    const mayWithdrawals = accessFor(admin, 'Withdraw').canView;
    const mayMarkets = accessFor(admin, 'Markets').canView;
    const mayTrades = accessFor(admin, 'Trade History').canView;
    const mayTickets = accessFor(admin, 'Support Ticket').canView;
    const mayPacks = accessFor(admin, 'Booster Packs').canView;
    const mayReconcile = accessFor(admin, 'Reconciliation').canView;
    // Each figure: who may see it, and the query that counts it (run only for those who may).
    const figures: { may: boolean; card: Omit<Card, 'value'>; query: SQL }[] = [
      { may: mayUsers, card: { key: 'signupsToday', label: 'Signups today', hint: `Days in ${tz}` }, query: sql`select count(*) as n from users where created_at >= ${todayStart}` },
      {
        may: mayUsers, card: { key: 'signups7d', label: 'Signups (7 days)' },
        query: sql`select count(*) as n from users where created_at >= ${todayStart} - interval '6 days'`,
      },
      {
        may: mayWithdrawals, card: { key: 'withdrawalsAwaitingReview', label: 'Withdrawals awaiting review' },
        query: sql`select count(*) as n from withdrawals where status in ('requested', 'awaiting_second_approval')`,
      },
      { may: mayDeposits, card: { key: 'depositsPending', label: 'Deposits pending' }, query: sql`select count(*) as n from deposits where status = 'pending'` },
      { may: mayAdmins, card: { key: 'activeAdmins', label: 'Active admins' }, query: sql`select count(*) as n from admins where status = 'active'` },
      { may: mayAdmins, card: { key: 'subAdmins', label: 'Sub-admins' }, query: sql`select count(*) as n from admins where role = 'subadmin'` },
      { may: mayAdmins, card: { key: 'liveSessions', label: 'Live sessions' }, query: sql`select count(*) as n from admin_sessions where revoked_at is null and expires_at > now()` },
      {
        may: mayAdmins, card: { key: 'signInsToday', label: 'Sign-ins today', hint: `Days in ${tz}` },
        query: sql`select count(*) as n from login_history where success and created_at >= ${todayStart}`,
      },
      {
        may: mayAdmins, card: { key: 'failedSignIns24h', label: 'Failed sign-ins (24 h)' },
        query: sql`select count(*) as n from login_history where not success and created_at > now() - interval '24 hours'`,
      },
      {
        may: mayAudit, card: { key: 'auditToday', label: 'Admin changes today' },
        query: sql`select count(*) as n from audit_log where action <> 'denied' and created_at >= ${todayStart}`,
      },
      { may: mayMail, card: { key: 'mailPending', label: 'Mail waiting' }, query: sql`select count(*) as n from mail_outbox where status = 'pending'` },
      { may: mayMarkets, card: { key: 'marketsOpen', label: 'Open markets' }, query: sql`select count(*) as n from markets where status = 'open'` },
      { may: mayMarkets, card: { key: 'marketsHalted', label: 'Halted markets' }, query: sql`select count(*) as n from markets where status = 'halted'` },
      { may: mayMarkets, card: { key: 'marketsUnresolved', label: 'Markets awaiting resolution' }, query: sql`select count(*) as n from markets where status = 'closed'` },
      { may: mayTrades, card: { key: 'tradesToday', label: 'Trades today', hint: `Days in ${tz}` }, query: sql`select count(*) as n from trades where created_at >= ${todayStart}` },
      { may: mayTickets, card: { key: 'ticketsOpen', label: 'Open tickets' }, query: sql`select count(*) as n from tickets where status <> 'closed'` },
      { may: mayTickets, card: { key: 'ticketsWaiting', label: 'Tickets waiting for an answer' }, query: sql`select count(*) as n from tickets where waiting_since is not null` },
      { may: mayPacks, card: { key: 'packsSoldToday', label: 'Packs sold today', hint: `Days in ${tz}` }, query: sql`select count(*) as n from pack_purchases where created_at >= ${todayStart}` },
    ];
    const cards: Card[] = [];
    for (const f of figures) if (f.may) cards.push({ ...f.card, value: await one(f.query) });
    // Money sitting in users' `held` accounts, per coin, by what holds it: the records the hold
    // postings reference (the ledger invariant keeps their sum equal to the held balances).
    const perCoin = async (q: SQL) => {
      const rows = await queryRows<{ symbol: string; decimals: number; total: string }>(ctx.db, q);
      return { value: rows.length, text: rows.length ? rows.map((h) => `${formatUnits(h.total, Number(h.decimals))} ${h.symbol}`).join(' · ') : 'None' };
    };
    if (mayWithdrawals) {
      // Open withdrawals hold amount + fee (`withdrawal_hold`), until paid out or released.
      cards.push({
        key: 'fundsHeld', label: 'Funds held for withdrawals',
        ...(await perCoin(sql`select ${coins.symbol} as symbol, ${coins.decimals} as decimals, sum(${withdrawals.amount} + ${withdrawals.fee})::text as total
          from ${withdrawals} join ${coins} on ${coins.id} = ${withdrawals.coinId}
          where ${inArray(withdrawals.status, [...WITHDRAWAL_HOLDING_STATUSES])} group by 1, 2 order by 1`)),
      });
    }
    if (mayTrades) {
      // Live buy orders hold what their remainder may still spend (`order` holds), until filled or released.
      cards.push({
        key: 'orderHolds', label: 'Held for open buy orders',
        ...(await perCoin(sql`select ${coins.symbol} as symbol, ${coins.decimals} as decimals, sum(${orders.held})::text as total
          from ${orders} join ${coins} on ${coins.id} = ${orders.coinId}
          where ${inArray(orders.status, [...LIVE_ORDER_STATUSES])} and ${orders.held} > 0 group by 1, 2 order by 1`)),
      });
    }
    if (mayReconcile) {
      // Each coin's latest check (by the instant it checked): its status, and how many are mismatched.
      const last = await queryRows<{ symbol: string; status: string; as_of: string }>(ctx.db, sql`
        select distinct on (r.coin_id) c.symbol, r.status, to_char(r.as_of at time zone ${tz}, 'YYYY-MM-DD HH24:MI') as as_of
        from reconciliations r join coins c on c.id = r.coin_id order by r.coin_id, r.as_of desc, r.id desc`);
      const label: Record<string, string> = { matched: 'matched', explained: 'explained', mismatch: 'MISMATCH', no_report: 'no custody report' };
      last.sort((a, b) => a.symbol.localeCompare(b.symbol));
      cards.push({
        key: 'reconciliation', label: 'Reconciliation (last check)', value: last.filter((r) => r.status === 'mismatch').length,
        text: last.length ? last.map((r) => `${r.symbol} ${label[r.status] ?? r.status}`).join(' · ') : 'Not checked yet',
        ...(last.length ? { hint: `As of ${last.map((r) => `${r.symbol} ${r.as_of}`).join(', ')} (${tz})` } : {}),
      });
    }
    const daily = async (table: string, where: string) => {
      const rows = await queryRows<{ d: string; n: string | number }>(ctx.db, sql`
        with days as (
          select generate_series(date_trunc('day', now() at time zone ${tz}) - interval '13 days', date_trunc('day', now() at time zone ${tz}), interval '1 day') as d
        )
        select to_char(days.d, 'YYYY-MM-DD') as d,
               (select count(*) from ${sql.raw(table)} t where ${sql.raw(where)}
                  and t.created_at >= (days.d at time zone ${tz}) and t.created_at < ((days.d + interval '1 day') at time zone ${tz})) as n
        from days order by days.d`);
      return rows.map((r) => ({ date: r.d, value: Number(r.n) }));
    };
    const series = [];
    if (mayUsers) series.push({ key: 'signups', label: 'Signups', points: await daily('users', 'true') });
    if (mayDeposits) series.push({ key: 'deposits', label: 'Deposits seen', points: await daily('deposits', 'true') });
    if (mayWithdrawals) series.push({ key: 'withdrawals', label: 'Withdrawals requested', points: await daily('withdrawals', 'true') });
    if (mayAdmins) {
      series.push({ key: 'signIns', label: 'Successful sign-ins', points: await daily('login_history', 't.success') });
      series.push({ key: 'failedSignIns', label: 'Failed sign-ins', points: await daily('login_history', 'not t.success') });
    }
    if (mayAudit) series.push({ key: 'adminChanges', label: 'Admin changes', points: await daily('audit_log', "t.action <> 'denied'") });
    if (mayTrades) series.push({ key: 'trades', label: 'Trades', points: await daily('trades', 'true') });
    if (mayTickets) series.push({ key: 'tickets', label: 'Tickets opened', points: await daily('tickets', 'true') });
    if (mayPacks) series.push({ key: 'packsSold', label: 'Packs sold', points: await daily('pack_purchases', 'true') });
    return ok({ cards, series, timezone: tz });
  });
}
