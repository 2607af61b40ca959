import { seriesResource } from '@pitboss/contract';
import { getTableColumns, sql } from 'drizzle-orm';
import { outerColumn } from '../../db/bulk.js';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, type Row } from '../../resources/define.js';
import { events } from '../events/table.js';
import { setTagLinks, tagColumns, tagFilter } from '../tags/service.js';
import { assertSeriesUnused } from './service.js';
import { series } from './table.js';

const tagCols = tagColumns('series', series.id);
const eventCount = sql<number>`(select count(*)::int from ${events} e where e.series_id = ${outerColumn(series.id)})`;

/** Column values of the input: the URL's empty text is null; tags are written as links. */
function columnsOf(input: Row): Row {
  const { tagIds: _tags, ...rest } = input;
  return rest.settlementUrl === '' ? { ...rest, settlementUrl: null } : rest;
}

export const seriesDef = defineResource({
  spec: seriesResource,
  table: series,
  idColumn: series.id,
  columns: {
    ticker: series.ticker, title: series.title, frequency: series.frequency, category: series.category, status: series.status,
    createdAt: series.createdAt, eventCount,
  },
  filterWhere: { tags: tagFilter('series', series.id) },
  searchColumns: [series.ticker, series.title],
  select: (db: DbOrTx) => db.select({ ...getTableColumns(series), ...tagCols, eventCount }).from(series),
  toRecord: (r) => ({
    _id: String(r.id), ticker: String(r.ticker), title: String(r.title), frequency: r.frequency as 'weekly', category: r.category as 'Crypto',
    tagIds: (r.tagIds as string[] | null) ?? [], tags: (r.tags as string[] | null) ?? [], settlementSource: String(r.settlementSource),
    settlementUrl: (r.settlementUrl as string | null) ?? null, status: r.status as 'active', eventCount: Number(r.eventCount ?? 0),
    defaultMaxPosition: (r.defaultMaxPosition as number | null) ?? null, defaultMaxOrderSize: (r.defaultMaxOrderSize as number | null) ?? null,
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: columnsOf,
  prepareUpdate: columnsOf,
  relations: { keys: ['tagIds'], save: (id, input, { tx }) => (input.tagIds === undefined ? Promise.resolve(false) : setTagLinks(tx, 'series', id, input.tagIds as string[])) },
  uniqueErrors: { series_ticker_uq: { field: 'ticker', message: 'A series with this ticker exists' } },
  statusColumn: series.status,
  beforeDelete: (records, { tx }) => assertSeriesUnused(tx, records.map((r) => Number(r._id))),
});
