import { formatUnits, type DashboardData, type RestrictionName } from '@pitboss/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { queryRows, type DbOrTx } from '../../db/client.js';

export type DashboardCard = DashboardData['cards'][number];

/** What a figure's query knows: the database, the caller's zone, and the start of the caller's day in it. */
export interface FigureContext {
  db: DbOrTx;
  tz: string;
  todayStart: SQL;
}

/**
 * What a module shows on the dashboard, declared beside its tables (`<module>/dashboard.ts`) and
 * listed in modules/index.ts: shown only to admins who may view `restriction`, and only then
 * queried.
 */
export interface DashboardFigures {
  restriction: RestrictionName;
  /** Cards that count rows (`select count(*) as n …`); `today` says the day is the caller's. */
  counts?: readonly { key: string; label: string; today?: boolean; query(c: FigureContext): SQL }[];
  /** Cards worked out otherwise (sums per coin, statuses). */
  cards?(c: FigureContext): Promise<DashboardCard[]>;
  /** Daily series over the caller's last 14 days: rows created that day (`createdAt`), matching `where`. */
  series?: readonly { key: string; label: string; createdAt: AnyPgColumn; where?: SQL }[];
}

/** A card of amounts per coin (`symbol`, `decimals`, `total` in minor units): "12.5 USDC · 3 SOL", its value the number of coins. */
export async function perCoinCard(db: DbOrTx, card: { key: string; label: string }, query: SQL): Promise<DashboardCard> {
  const rows = await queryRows<{ symbol: string; decimals: number; total: string }>(db, query);
  return { ...card, value: rows.length, text: rows.length ? rows.map((h) => `${formatUnits(h.total, Number(h.decimals))} ${h.symbol}`).join(' · ') : 'None' };
}

export async function countCard(c: FigureContext, count: NonNullable<DashboardFigures['counts']>[number]): Promise<DashboardCard> {
  const n = Number((await queryRows<{ n: string | number }>(c.db, count.query(c)))[0]?.n ?? 0);
  return { key: count.key, label: count.label, value: n, ...(count.today ? { hint: `Days in ${c.tz}` } : {}) };
}

/** A series' 14 points: the rows created on each of the caller's days. */
export async function dailyPoints(c: FigureContext, s: NonNullable<DashboardFigures['series']>[number]): Promise<{ date: string; value: number }[]> {
  const { tz } = c;
  const rows = await queryRows<{ d: string; n: string | number }>(c.db, sql`
    with days as (
      select generate_series(date_trunc('day', now() at time zone ${tz}) - interval '13 days', date_trunc('day', now() at time zone ${tz}), interval '1 day') as d
    )
    select to_char(days.d, 'YYYY-MM-DD') as d,
           (select count(*) from ${s.createdAt.table} where ${s.where ?? sql`true`}
              and ${s.createdAt} >= (days.d at time zone ${tz}) and ${s.createdAt} < ((days.d + interval '1 day') at time zone ${tz})) as n
    from days order by days.d`);
  return rows.map((r) => ({ date: r.d, value: Number(r.n) }));
}
