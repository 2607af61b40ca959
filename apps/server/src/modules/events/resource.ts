import { eventsResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { outerColumn } from '../../db/bulk.js';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull } from '../../resources/define.js';
import { markets } from '../markets/table.js';
import { series } from '../series/table.js';
import { setTagLinks, tagColumns, tagFilter } from '../tags/service.js';
import { assertEventsDeletable, closeEvent, openEvent, prepareEventCreate, prepareEventUpdate } from './service.js';
import { events } from './table.js';

const tagCols = tagColumns('events', events.id);
const marketCount = sql<number>`(select count(*)::int from ${markets} m where m.event_id = ${outerColumn(events.id)})`;

export const eventsDef = defineResource({
  spec: eventsResource,
  table: events,
  idColumn: events.id,
  columns: {
    ticker: events.ticker, title: events.title, status: events.status, openTime: events.openTime, closeTime: events.closeTime,
    expectedResolutionTime: events.expectedResolutionTime, createdAt: events.createdAt, seriesId: events.seriesId,
  },
  filterWhere: { tags: tagFilter('events', events.id) },
  searchColumns: [events.ticker, events.title],
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(events), seriesTicker: series.ticker, seriesName: series.title, ...tagCols, marketCount })
      .from(events)
      .leftJoin(series, eq(series.id, events.seriesId)),
  toRecord: (r) => ({
    _id: String(r.id), ticker: String(r.ticker), title: String(r.title), description: String(r.description ?? ''), imageUrl: String(r.imageUrl ?? ''),
    seriesId: r.seriesId === null || r.seriesId === undefined ? null : String(r.seriesId), seriesTicker: (r.seriesTicker as string | null) ?? null,
    seriesName: (r.seriesName as string | null) ?? null, openTime: isoOrNull(r.openTime)!, closeTime: isoOrNull(r.closeTime)!,
    expectedResolutionTime: isoOrNull(r.expectedResolutionTime)!, tagIds: (r.tagIds as string[] | null) ?? [], tags: (r.tags as string[] | null) ?? [],
    status: r.status as 'draft', marketCount: Number(r.marketCount ?? 0), createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: prepareEventCreate,
  prepareUpdate: prepareEventUpdate,
  relations: { keys: ['tagIds'], save: (id, input, { tx }) => (input.tagIds === undefined ? Promise.resolve(false) : setTagLinks(tx, 'events', id, input.tagIds as string[])) },
  uniqueErrors: { events_ticker_uq: { field: 'ticker', message: 'An event with this ticker exists' } },
  beforeDelete: (records, { tx }) => assertEventsDeletable(tx, records),
  actions: {
    open: async (tx, actor, record) => {
      await openEvent(tx, actor, Number(record._id));
      return `Event ${record.ticker} is open`;
    },
    close: async (tx, actor, record) => {
      const { closedMarkets } = await closeEvent(tx, actor, Number(record._id));
      return `Event ${record.ticker} closed${closedMarkets ? `, with ${closedMarkets} market${closedMarkets === 1 ? '' : 's'}` : ''}`;
    },
  },
});
