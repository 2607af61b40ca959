import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict } from '../../http/errors.js';
import { events } from '../events/table.js';
import { series, type SeriesRow } from './table.js';

/** Refuses to delete series that have events (409 naming how many): set them inactive instead. */
export async function assertSeriesUnused(tx: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const [used] = await tx.select({ n: sql<number>`count(*)::int` }).from(events).where(inArray(events.seriesId, ids));
  if (!used!.n) return;
  throw conflict(`${ids.length === 1 ? 'This series has' : 'These series have'} ${used!.n} event${used!.n === 1 ? '' : 's'}: set ${ids.length === 1 ? 'it' : 'them'} inactive instead`);
}

/**
 * The series an event is added to (or moved into): it must exist and be active. Locked FOR SHARE,
 * so it cannot be deleted or deactivated while the event is written.
 */
export async function seriesForEvent(tx: DbOrTx, id: string): Promise<SeriesRow> {
  const [row] = await tx.select().from(series).where(eq(series.id, Number(id))).for('share');
  if (!row) throw badRequest('Unknown series', { seriesId: 'No such series' });
  if (row.status !== 'active') throw badRequest('Inactive series', { seriesId: `${row.ticker} is inactive: no new events can be added to it` });
  return row;
}
