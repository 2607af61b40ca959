import { eventStates, stateValues, type EventStatus } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { series } from '../series/table.js';
import { tags } from '../tags/table.js';

/** The declared machine's states (packages/contract/src/modules/events.ts). */
export const EVENT_STATUSES = stateValues(eventStates);

/**
 * One occurrence of a series (or a one-off): open < close ≤ expected resolution, held by CHECKs as
 * well as by the API.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    /** Null: a one-off event. */
    seriesId: ref('series_id').references(() => series.id, { onDelete: 'restrict' }),
    ticker: text('ticker').notNull(),
    title: text('title').notNull(),
    /** Sanitised rich text. */
    description: text('description').notNull().default(''),
    /** An http(s) URL or a path of the platform's image; empty for none. */
    imageUrl: text('image_url').notNull().default(''),
    openTime: ts('open_time').notNull(),
    closeTime: ts('close_time').notNull(),
    expectedResolutionTime: ts('expected_resolution_time').notNull(),
    status: text('status').notNull().$type<EventStatus>().default('draft'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('events_ticker_uq').on(t.ticker),
    index('events_series_idx').on(t.seriesId),
    index('events_open_time_idx').on(t.openTime, t.id),
    index('events_close_time_idx').on(t.closeTime, t.id),
    index('events_status_idx').on(t.status, t.openTime),
    check('events_ticker_ck', sql`${t.ticker} = upper(${t.ticker})`),
    check('events_times_ck', sql`${t.openTime} < ${t.closeTime} and ${t.closeTime} <= ${t.expectedResolutionTime}`),
    statusCheck('events_status_ck', t.status, eventStates),
  ],
);

/** An event's tags (many-to-many to the tags resource). A tag in use cannot be deleted. */
export const eventTags = pgTable(
  'event_tags',
  {
    eventId: ref('event_id').notNull().references(() => events.id, { onDelete: 'cascade' }),
    tagId: ref('tag_id').notNull().references(() => tags.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.tagId] }), index('event_tags_tag_idx').on(t.tagId)],
);

export type EventRow = typeof events.$inferSelect;
