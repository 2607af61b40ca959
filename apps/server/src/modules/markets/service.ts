import { MARKET_HALT_REASONS, marketStates, type ReasonInput } from '@pitboss/contract';
import { eq, inArray } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import type { Row, WriteContext } from '../../resources/define.js';
import { defineSubject, transition } from '../../resources/transition.js';
import { events, type EventRow } from '../events/table.js';
import { publishMarketChange } from '../market-overview/service.js';
import { cancelRestingOrders } from '../orders/service.js';
import { markets, type MarketRow } from './table.js';
import { series } from '../series/table.js';
import { assertMarketsNotKilled } from '../kill-switches/guard.js';
import { FieldErrors, requireReasonCode } from '../ledger/input.js';

/*
 * Markets: one YES/NO question of an event. Rules kept here (the API's field errors and 409s):
 * - a market belongs to a draft or open event and closes inside the event's window
 *   (event open < closes at ≤ event close; by default at the event's close);
 * - it opens only when its event is open and the event's open time has passed (an operator who
 *   wants trading earlier moves the event's open time), and never after its own close time;
 *   resuming a halted market needs the same;
 * - its ticker, event and rules are fixed once it has opened (declared with `editableIn`);
 * - only a draft market can be deleted (declared: `deletableIn`).
 *
 * Locks: the resource mechanism locks the market row first; the event is then read FOR SHARE
 * NOWAIT. Event writes lock the event, then its markets: if one is under way, a market write
 * answers 409 at once instead of waiting in a lock cycle.
 */

export const marketAuditView = (m: MarketRow) => ({
  eventId: m.eventId, ticker: m.ticker, title: m.title, status: m.status, closesAt: m.closesAt, openedAt: m.openedAt, closedAt: m.closedAt,
  lastPrice: m.lastPrice, volume: m.volume, openInterest: m.openInterest, result: m.result, haltReasonCode: m.haltReasonCode, haltReason: m.haltReason,
  maxPosition: m.maxPosition, maxOrderSize: m.maxOrderSize,
});

const at = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/** PostgreSQL's lock_not_available (NOWAIT), from either driver. */
function isLockBusy(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '55P03' || e?.cause?.code === '55P03';
}

/**
 * The market's event, locked FOR SHARE (it cannot close or move while the market is written). With
 * `nowait` (a market row is already locked) an event being changed right now is a 409, never a wait.
 */
export async function eventOfMarket(tx: DbOrTx, eventId: number | string, opts: { nowait: boolean; field?: string }): Promise<EventRow> {
  const id = Number(eventId);
  let row: EventRow | undefined;
  try {
    const query = tx.select().from(events).where(eq(events.id, id));
    [row] = await (opts.nowait ? query.for('share', { noWait: true }) : query.for('share'));
  } catch (err) {
    if (isLockBusy(err)) throw conflict('The event is being changed right now: try again in a moment');
    throw err;
  }
  if (!row) {
    if (opts.field) throw badRequest('Unknown event', { [opts.field]: 'No such event' });
    throw notFound('Event');
  }
  return row;
}

/** A closing time inside the event's window (and ahead, unless unchanged). */
function checkClosesAt(event: EventRow, closesAt: Date): void {
  if (closesAt.getTime() <= event.openTime.getTime()) throw badRequest('The market would close before its event opens', { closesAt: 'Must be after the event’s open time' });
  if (closesAt.getTime() > event.closeTime.getTime()) throw badRequest('The market would close after its event', { closesAt: 'Cannot be after the event’s close time' });
  if (closesAt.getTime() <= Date.now()) throw badRequest('The close time has passed', { closesAt: 'Must be in the future' });
}

function checkEventTakesMarkets(event: EventRow): void {
  if (event.status !== 'draft' && event.status !== 'open') throw badRequest('The event is over', { eventId: `Event ${event.ticker} is ${event.status}: it takes no new markets` });
}

export async function prepareMarketCreate(input: Row, { tx }: WriteContext): Promise<Row> {
  const event = await eventOfMarket(tx, String(input.eventId), { nowait: false, field: 'eventId' });
  checkEventTakesMarkets(event);
  const closesAt = input.closesAt ? at(input.closesAt) : event.closeTime;
  checkClosesAt(event, closesAt);
  // Limits not given come from the event's series (none without a series).
  const [defaults] = event.seriesId === null ? [] : await tx.select({ maxPosition: series.defaultMaxPosition, maxOrderSize: series.defaultMaxOrderSize }).from(series).where(eq(series.id, event.seriesId));
  const limit = (key: 'maxPosition' | 'maxOrderSize') => (input[key] === undefined ? (defaults?.[key] ?? null) : (input[key] as number | null));
  return { eventId: event.id, ticker: input.ticker, title: input.title, rules: input.rules, closesAt, maxPosition: limit('maxPosition'), maxOrderSize: limit('maxOrderSize') };
}

export async function prepareMarketUpdate(input: Row, { tx, existing }: WriteContext & { existing: Row }): Promise<Row> {
  const before = existing as unknown as MarketRow;
  const values: Row = {};
  for (const key of ['ticker', 'title', 'rules', 'maxPosition', 'maxOrderSize'] as const) if (input[key] !== undefined) values[key] = input[key];
  const moving = input.eventId !== undefined && Number(input.eventId) !== before.eventId;
  if (!moving && input.closesAt === undefined) return values;
  const event = await eventOfMarket(tx, moving ? String(input.eventId) : before.eventId, { nowait: true, field: 'eventId' });
  if (moving) {
    checkEventTakesMarkets(event);
    values.eventId = event.id;
  }
  // Empty: back to the event's close time.
  const closesAt = input.closesAt === undefined ? before.closesAt : input.closesAt === '' ? event.closeTime : at(input.closesAt);
  if (moving || closesAt.getTime() !== before.closesAt.getTime()) {
    checkClosesAt(event, closesAt);
    values.closesAt = closesAt;
  }
  return values;
}

/** A market's moves: through its declared machine, audited with `marketAuditView`; each one published to the live overview. */
export const marketSubject = defineSubject({ resource: 'markets', table: markets, machine: marketStates, view: marketAuditView });

/** Trading may happen: the event must be open, its open time passed, the market's close time ahead. */
async function assertTradable(tx: DbOrTx, m: MarketRow, verb: string): Promise<void> {
  const event = await eventOfMarket(tx, m.eventId, { nowait: true });
  const now = Date.now();
  if (event.status !== 'open') throw conflict(`Event ${event.ticker} is ${event.status}: ${event.status === 'draft' ? 'open the event first' : `its markets cannot ${verb}`}`);
  if (event.openTime.getTime() > now) throw conflict(`Event ${event.ticker} opens for trading at ${event.openTime.toISOString()}: the market can open from then`);
  if (m.closesAt.getTime() <= now) throw conflict(`The market's close time (${m.closesAt.toISOString()}) has passed: close it instead`);
}

/** draft → open. */
export async function openMarket(tx: DbOrTx, actor: Actor, id: number): Promise<MarketRow> {
  const { after } = await transition(tx, actor, marketSubject, id, 'open', {
    check: async (before) => {
      await assertMarketsNotKilled(tx, 'open');
      await assertTradable(tx, before, 'open');
    },
    set: { openedAt: new Date() },
    effects: () => publishMarketChange(tx, id),
  });
  return after;
}

/** open → halted: no trading until resumed; the reason code (MARKET_HALT_REASONS) and note stay on the market while halted. */
export async function haltMarket(tx: DbOrTx, actor: Actor, id: number, input: ReasonInput): Promise<MarketRow> {
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, MARKET_HALT_REASONS);
  errors.throwIfAny();
  const { after } = await transition(tx, actor, marketSubject, id, 'halt', { set: { haltReasonCode: reasonCode, haltReason: note }, effects: () => publishMarketChange(tx, id) });
  return after;
}

/** halted → open, under the same conditions as opening. */
export async function resumeMarket(tx: DbOrTx, actor: Actor, id: number): Promise<MarketRow> {
  const { after } = await transition(tx, actor, marketSubject, id, 'resume', {
    check: async (before) => {
      await assertMarketsNotKilled(tx, 'resume');
      await assertTradable(tx, before, 'resume');
    },
    set: { haltReasonCode: null, haltReason: null },
    effects: () => publishMarketChange(tx, id),
  });
  return after;
}

/** open | halted → closed: trading is over, the market awaits resolution. Its resting orders are cancelled and their holds released. */
export async function closeMarket(tx: DbOrTx, actor: Actor, id: number): Promise<MarketRow> {
  // A halted market that closes is no longer halted: its halt's reason goes with the halt.
  const { after } = await transition(tx, actor, marketSubject, id, 'close', { set: { closedAt: new Date(), haltReasonCode: null, haltReason: null }, effects: () => publishMarketChange(tx, id) });
  await cancelRestingOrders(tx, actor, id);
  return after;
}

/** Markets that close with their event follow its new close time (each change audited). Rows are locked by the caller. */
export async function followEventClose(tx: DbOrTx, actor: Actor, ids: number[], closesAt: Date): Promise<void> {
  if (ids.length === 0) return;
  const before = await tx.select().from(markets).where(inArray(markets.id, ids));
  const now = new Date();
  const after = await tx.update(markets).set({ closesAt, updatedAt: now }).where(inArray(markets.id, ids)).returning();
  for (const row of after) {
    const prior = before.find((b) => b.id === row.id)!;
    await writeAudit(tx, actor, { action: 'update', resource: 'markets', recordId: row.id, before: marketAuditView(prior), after: marketAuditView(row) });
    await publishMarketChange(tx, row.id);
  }
}
