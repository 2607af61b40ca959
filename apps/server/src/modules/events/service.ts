import { eventStates, eventTimesError } from '@pitboss/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { sanitizeRichText } from '../../lib/sanitize.js';
import type { Row, WriteContext } from '../../resources/define.js';
import { defineSubject, recordView, transition } from '../../resources/transition.js';
import { closeMarket, followEventClose } from '../markets/service.js';
import { markets } from '../markets/table.js';
import { seriesForEvent } from '../series/service.js';
import { events, type EventRow } from './table.js';

/*
 * Events: one occurrence of a series. Rules kept here (the API's field errors and 409s):
 * - open < close ≤ expected resolution (also a CHECK); a new or moved close time is in the future;
 * - an event joins only an active series; its ticker and series are fixed once it is open (declared
 *   with `editableIn`, enforced by the resource mechanism);
 * - moving the close time takes along the markets that close with it; a market closing at another
 *   time must stay inside the event's window, or the move is refused;
 * - the open time is fixed once one of its markets has opened;
 * - opening needs a close time still ahead; closing closes its open and halted markets;
 * - only a draft event without markets can be deleted.
 */

const at = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/** Rich text as stored: sanitised; nothing but markup counts as empty. */
function description(html: unknown): string {
  const clean = sanitizeRichText(String(html ?? ''));
  return clean.replace(/<[^>]*>/g, '').trim() ? clean : '';
}

export async function prepareEventCreate(input: Row, { tx }: WriteContext): Promise<Row> {
  const closeTime = at(input.closeTime);
  if (closeTime.getTime() <= Date.now()) throw badRequest('The close time has passed', { closeTime: 'The close time must be in the future' });
  const seriesId = input.seriesId ? (await seriesForEvent(tx, String(input.seriesId))).id : null;
  return {
    ticker: input.ticker, title: input.title, description: description(input.description), imageUrl: input.imageUrl ?? '', seriesId,
    openTime: at(input.openTime), closeTime, expectedResolutionTime: at(input.expectedResolutionTime),
  };
}

export async function prepareEventUpdate(input: Row, { tx, actor, existing }: WriteContext & { existing: Row }): Promise<Row> {
  const before = existing as unknown as EventRow;
  const values: Row = {};
  for (const key of ['ticker', 'title', 'imageUrl'] as const) if (input[key] !== undefined) values[key] = input[key];
  if (input.description !== undefined) values.description = description(input.description);
  if (input.seriesId !== undefined) {
    const next = input.seriesId === '' ? null : Number(input.seriesId);
    if (next !== before.seriesId) values.seriesId = next === null ? null : (await seriesForEvent(tx, String(next))).id;
  }

  const times = {
    openTime: input.openTime !== undefined ? at(input.openTime) : before.openTime,
    closeTime: input.closeTime !== undefined ? at(input.closeTime) : before.closeTime,
    expectedResolutionTime: input.expectedResolutionTime !== undefined ? at(input.expectedResolutionTime) : before.expectedResolutionTime,
  };
  const openMoved = times.openTime.getTime() !== before.openTime.getTime();
  const closeMoved = times.closeTime.getTime() !== before.closeTime.getTime();
  const problem = eventTimesError(times);
  if (problem) throw badRequest(problem.message, { [problem.path]: problem.message });
  if (closeMoved && times.closeTime.getTime() <= Date.now()) {
    throw badRequest('The close time must be in the future', { closeTime: before.status === 'open' ? 'The close time must be in the future: close the event to end trading now' : 'The close time must be in the future' });
  }
  if (openMoved || closeMoved) {
    // The markets still to trade or trading: they must stay inside the event's window.
    const live = await tx
      .select({ id: markets.id, ticker: markets.ticker, closesAt: markets.closesAt })
      .from(markets)
      .where(and(eq(markets.eventId, before.id), inArray(markets.status, ['draft', 'open', 'halted'])))
      .orderBy(asc(markets.id))
      .for('update');
    if (openMoved && (await hasOpened(tx, before.id))) {
      throw conflict('Its markets have opened: the open time is fixed', { openTime: 'Fixed: markets of this event have opened' });
    }
    const following = closeMoved ? live.filter((m) => m.closesAt.getTime() === before.closeTime.getTime()) : [];
    const own = live.filter((m) => !following.includes(m));
    const late = own.filter((m) => m.closesAt.getTime() > times.closeTime.getTime());
    if (late.length) throw badRequest('Markets close after this time', { closeTime: `${names(late)} close${late.length === 1 ? 's' : ''} after this time: move ${late.length === 1 ? 'its' : 'their'} close time first` });
    const early = live.filter((m) => !following.includes(m) && m.closesAt.getTime() <= times.openTime.getTime());
    if (early.length) throw badRequest('Markets close before this time', { openTime: `${names(early)} close${early.length === 1 ? 's' : ''} before this time` });
    if (following.length) await followEventClose(tx, actor, following.map((m) => m.id), times.closeTime);
  }
  if (openMoved) values.openTime = times.openTime;
  if (closeMoved) values.closeTime = times.closeTime;
  if (input.expectedResolutionTime !== undefined) values.expectedResolutionTime = times.expectedResolutionTime;
  return values;
}

const names = (list: { ticker: string }[]) => (list.length <= 3 ? list.map((m) => m.ticker).join(', ') : `${list.slice(0, 3).map((m) => m.ticker).join(', ')} and ${list.length - 3} more`);

async function hasOpened(tx: DbOrTx, eventId: number): Promise<boolean> {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(markets).where(and(eq(markets.eventId, eventId), sql`${markets.openedAt} is not null`));
  return row!.n > 0;
}

async function lockEvent(tx: DbOrTx, id: number): Promise<EventRow> {
  const [row] = Number.isSafeInteger(id) ? await tx.select().from(events).where(eq(events.id, id)).for('update') : [];
  if (!row) throw notFound('Event');
  return row;
}

/** An event's moves: through its declared machine, audited with the event's record (as its list shows it). */
export const eventSubject = defineSubject({ resource: 'events', table: events, machine: eventStates, view: recordView(async () => (await import('./resource.js')).eventsDef) });

/** draft → open: published; its markets may open once its open time has passed. The close time must still be ahead. */
export async function openEvent(tx: DbOrTx, actor: Actor, id: number): Promise<EventRow> {
  const { after } = await transition(tx, actor, eventSubject, id, 'open', {
    check: (before) => {
      if (before.closeTime.getTime() <= Date.now()) throw conflict('The close time has passed: move it before opening the event', { closeTime: 'In the past' });
    },
  });
  return after;
}

/** open → closed: trading on the event is over; its open and halted markets close with it (each audited). */
export async function closeEvent(tx: DbOrTx, actor: Actor, id: number): Promise<{ event: EventRow; closedMarkets: number }> {
  let closedMarkets = 0;
  const { after } = await transition(tx, actor, eventSubject, id, 'close', {
    effects: async () => {
      const trading = await tx
        .select({ id: markets.id })
        .from(markets)
        .where(and(eq(markets.eventId, id), inArray(markets.status, ['open', 'halted'])))
        .orderBy(asc(markets.id));
      for (const m of trading) await closeMarket(tx, actor, m.id);
      closedMarkets = trading.length;
    },
  });
  // Markets resolved one by one before the event closed: it is settled as it closes.
  const settled = await settleEventIfDone(tx, actor, id);
  return { event: settled ?? after, closedMarkets };
}

/**
 * closed → settled, once none of the event's markets is left to resolve (at least one market, each
 * resolved or voided): called after every resolution and when the event closes. The event row is
 * locked first, so two markets of one event resolved at once settle it once.
 */
export async function settleEventIfDone(tx: DbOrTx, actor: Actor, id: number): Promise<EventRow | null> {
  const before = await lockEvent(tx, id);
  if (before.status !== 'closed') return null;
  const [left] = await queryRows<{ markets: number; open: number }>(
    tx,
    sql`select count(*)::int as markets, (count(*) filter (where status not in ('resolved', 'voided')))::int as open from markets where event_id = ${id}`,
  );
  if (!left || left.markets === 0 || left.open > 0) return null;
  // Settling is the settlement's move, audited by its status alone.
  const { after } = await transition(tx, actor, eventSettleSubject, id, 'settle');
  return after;
}

const eventSettleSubject = defineSubject({ resource: 'events', table: events, machine: eventStates, view: (row) => ({ status: row.status }) });

/** A draft event (the declared `deletableIn`) is deleted only once its markets are: they are deleted first. */
export async function assertEventsDeletable(tx: DbOrTx, records: { _id: string }[]): Promise<void> {
  const ids = records.map((r) => Number(r._id));
  const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(markets).where(inArray(markets.eventId, ids));
  if (used!.n) throw conflict(`${ids.length === 1 ? 'This event has' : 'These events have'} ${used!.n} market${used!.n === 1 ? '' : 's'}: delete ${used!.n === 1 ? 'it' : 'them'} first`);
}
