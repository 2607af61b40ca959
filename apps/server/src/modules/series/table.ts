import { SERIES_FREQUENCIES, MARKET_CATEGORIES, type MarketCategory, type SeriesFrequency } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, updatedAt } from '../../db/columns.js';
import { tags } from '../tags/table.js';

const list = (values: readonly { value: string }[]) => sql.raw(values.map((v) => `'${v.value}'`).join(','));

/** The recurring template of prediction-market events (packages/contract/src/modules/series.ts). */
export const series = pgTable(
  'series',
  {
    id: id(),
    /** Upper case, unique; its events' tickers start with it by convention. */
    ticker: text('ticker').notNull(),
    title: text('title').notNull(),
    frequency: text('frequency').notNull().$type<SeriesFrequency>(),
    category: text('category').notNull().$type<MarketCategory>(),
    /** The source whose figure decides the results, and when it is read. */
    settlementSource: text('settlement_source').notNull(),
    settlementUrl: text('settlement_url'),
    /** Inactive: no new events may be added to it. */
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    /** What a new market of its events starts with (shares; null: no limit). */
    defaultMaxPosition: integer('default_max_position'),
    defaultMaxOrderSize: integer('default_max_order_size'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('series_ticker_uq').on(t.ticker),
    check('series_ticker_ck', sql`${t.ticker} = upper(${t.ticker})`),
    check('series_frequency_ck', sql`${t.frequency} in (${list(SERIES_FREQUENCIES)})`),
    check('series_category_ck', sql`${t.category} in (${list(MARKET_CATEGORIES)})`),
    check('series_status_ck', sql`${t.status} in ('active','inactive')`),
    check('series_limits_ck', sql`coalesce(${t.defaultMaxPosition}, 1) > 0 and coalesce(${t.defaultMaxOrderSize}, 1) > 0`),
  ],
);

/** A series' tags. A tag in use cannot be deleted (RESTRICT; the tags resource answers 409 first). */
export const seriesTags = pgTable(
  'series_tags',
  {
    seriesId: ref('series_id').notNull().references(() => series.id, { onDelete: 'cascade' }),
    tagId: ref('tag_id').notNull().references(() => tags.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.tagId] }), index('series_tags_tag_idx').on(t.tagId)],
);

export type SeriesRow = typeof series.$inferSelect;
