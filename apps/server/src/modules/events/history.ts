import { EVENT_HISTORY_MAX_POINTS, type EventHistory, type EventHistoryEntry } from '@pitboss/contract';
import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { notFound } from '../../http/errors.js';
import { auditLog } from '../audit-log/table.js';
import { markets } from '../markets/table.js';
import { events } from './table.js';

/*
 * An event's history (`/event-history/{id}`): its own and its markets' moves from the audit log
 * (every state move writes one: open, halt, resume, close, resolve, void, settle…), and each
 * market's trade prices over time.
 */

type Json = Record<string, unknown> | null;

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));

/** What an entry says beyond its move: a result and its evidence, a close time moved. */
function detailOf(action: string, before: Json, after: Json): string | null {
  const parts: string[] = [];
  if (after?.result) parts.push(`Result ${String(after.result)}`);
  for (const key of ['source', 'evidence', 'note']) if (after?.[key]) parts.push(`${key}: ${String(after[key])}`);
  if (action === 'update') {
    for (const key of ['closesAt', 'closeTime', 'openTime']) {
      if (after && key in after && str(after[key]) !== str(before?.[key])) parts.push(`${key === 'openTime' ? 'Opens' : 'Closes'} at ${str(after[key]) ?? '—'}`);
    }
  }
  return parts.length ? parts.join(' · ') : null;
}

/** Whether an update changed anything the timeline shows (status or times); other edits (a title) are left to the audit log. */
function isMove(action: string, before: Json, after: Json): boolean {
  if (action !== 'update') return true;
  if (str(after?.status) !== null && str(after?.status) !== str(before?.status)) return true;
  return ['closesAt', 'closeTime', 'openTime'].some((k) => after !== null && k in after && str(after[k]) !== str(before?.[k]));
}

/** Who acted, as the caller may see it: the admin's address only for those who may read the audit log. */
function actorLabel(row: { actorKind: string; adminEmail: string }, showAdmins: boolean): string {
  if (row.actorKind === 'admin') return showAdmins ? row.adminEmail : 'an admin';
  if (row.actorKind === 'platform') return 'the platform';
  return row.adminEmail.startsWith('system:') ? `system (${row.adminEmail.slice(7)})` : 'the system';
}

const iso = (v: string | Date) => (v instanceof Date ? v : new Date(v)).toISOString();

interface PointRow {
  at: string | Date;
  price: number;
  quantity: string | number;
}

/** A market's trades over time: each one, or one point per time slice when there are many. */
async function pricePoints(db: DbOrTx, marketId: number): Promise<{ trades: number; points: EventHistory['markets'][number]['points']; bucketed: boolean }> {
  const [range] = await queryRows<{ n: string | number; lo: number | null; hi: number | null }>(
    db,
    sql`select count(*) as n, extract(epoch from min(created_at))::float8 as lo, extract(epoch from max(created_at))::float8 as hi from trades where market_id = ${marketId}`,
  );
  const n = Number(range?.n ?? 0);
  if (n === 0) return { trades: 0, points: [], bucketed: false };
  const toPoint = (r: PointRow) => ({ at: iso(r.at), price: r.price, quantity: Number(r.quantity) });
  if (n <= EVENT_HISTORY_MAX_POINTS) {
    const rows = await queryRows<PointRow>(db, sql`select created_at as at, price, quantity from trades where market_id = ${marketId} order by created_at, id`);
    return { trades: n, points: rows.map(toPoint), bucketed: false };
  }
  // Seconds per slice, so that the trades' time span makes at most the maximum number of points.
  const width = Math.max((range!.hi! - range!.lo!) / EVENT_HISTORY_MAX_POINTS, 1e-3);
  const rows = await queryRows<PointRow>(
    db,
    sql`select max(created_at) as at, (array_agg(price order by created_at desc, id desc))[1] as price, sum(quantity) as quantity
        from trades where market_id = ${marketId}
        group by floor((extract(epoch from created_at) - ${range!.lo}::float8) / ${width}::float8)
        order by 1`,
  );
  return { trades: n, points: rows.map(toPoint), bucketed: true };
}

export async function eventHistory(db: DbOrTx, eventId: number, opts: { showAdmins: boolean }): Promise<EventHistory> {
  const [event] = Number.isSafeInteger(eventId) ? await db.select().from(events).where(eq(events.id, eventId)) : [];
  if (!event) throw notFound('Event');
  const ms = await db.select().from(markets).where(eq(markets.eventId, event.id)).orderBy(asc(markets.ticker), asc(markets.id));
  const byId = new Map(ms.map((m) => [String(m.id), m]));
  const audit = await db
    .select()
    .from(auditLog)
    .where(
      and(
        or(
          and(eq(auditLog.resource, 'events'), eq(auditLog.recordId, String(event.id))),
          ms.length ? and(eq(auditLog.resource, 'markets'), inArray(auditLog.recordId, [...byId.keys()])) : sql`false`,
        ),
        ne(auditLog.action, 'denied'),
      ),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const timeline: EventHistoryEntry[] = [];
  for (const a of audit) {
    const before = a.before as Json;
    const after = a.after as Json;
    if (!isMove(a.action, before, after)) continue;
    const market = a.resource === 'markets' ? byId.get(a.recordId ?? '') : undefined;
    timeline.push({
      at: a.createdAt.toISOString(),
      kind: a.resource === 'events' ? 'event' : 'market',
      recordId: a.recordId ?? '',
      ticker: market ? market.ticker : event.ticker,
      action: a.action,
      from: str(before?.status),
      to: str(after?.status),
      by: actorLabel(a, opts.showAdmins),
      detail: detailOf(a.action, before, after),
    });
  }
  const out: EventHistory['markets'] = [];
  for (const m of ms) {
    const p = await pricePoints(db, m.id);
    out.push({
      _id: String(m.id), ticker: m.ticker, title: m.title, status: m.status, result: m.result ?? null, lastPrice: m.lastPrice ?? null,
      volume: Number(m.volume), ...p,
    });
  }
  return {
    event: {
      _id: String(event.id), ticker: event.ticker, title: event.title, status: event.status,
      openTime: event.openTime.toISOString(), closeTime: event.closeTime.toISOString(), expectedResolutionTime: event.expectedResolutionTime.toISOString(),
    },
    timeline,
    markets: out,
  };
}
