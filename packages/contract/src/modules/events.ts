import { z } from 'zod';
import { idList, isoTime, isUrlOrSitePath, ticker } from '../lib/fields.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { endpoint, readAccess } from '../resources/endpoint.js';
import { idParam, recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';

// ── Events ─────────────────────────────────────────────────────────────────
/**
 * One occurrence of a series (or a one-off question): draft while it is prepared; open once
 * published (its markets may open from its open time); closed when trading on it is over (closing it
 * closes its open and halted markets); settled when every market is resolved or voided, a move the
 * settlement service makes (no admin action here).
 */
export const eventStates = defineStates({
  noun: 'Event',
  states: [
    { value: 'draft', label: 'Draft', color: 'gray' },
    { value: 'open', label: 'Open', color: 'green' },
    { value: 'closed', label: 'Closed', color: 'orange' },
    { value: 'settled', label: 'Settled', color: 'blue' },
  ],
  initial: 'draft',
  transitions: {
    open: { from: ['draft'], to: 'open' },
    close: { from: ['open'], to: 'closed' },
    settle: { from: ['closed'], to: 'settled' },
  },
});
export type EventStatus = (typeof eventStates.states)[number]['value'];

/** open < close ≤ expected resolution, reported on the later field. */
export function eventTimesError(t: { openTime: string | Date; closeTime: string | Date; expectedResolutionTime: string | Date }): { path: 'closeTime' | 'expectedResolutionTime'; message: string } | null {
  const open = new Date(t.openTime).getTime();
  const close = new Date(t.closeTime).getTime();
  const resolution = new Date(t.expectedResolutionTime).getTime();
  if (!(close > open)) return { path: 'closeTime', message: 'The close time must be after the open time' };
  if (!(resolution >= close)) return { path: 'expectedResolutionTime', message: 'The expected resolution cannot be before the close time' };
  return null;
}

const eventFields = z
  .object({
    ticker: ticker(60),
    title: z.string({ error: 'Title is required' }).trim().min(3, 'At least 3 characters').max(200, 'At most 200 characters'),
    /** Rich text; sanitised on the server. */
    description: z.string().trim().max(20_000, 'Too long').default(''),
    imageUrl: z.string().trim().max(500, 'At most 500 characters').refine((v) => v === '' || isUrlOrSitePath(v), 'A full http(s) URL or a path').default(''),
    /** Empty: a one-off event outside any series. */
    seriesId: z.union([recordFields.id, z.literal('')], { error: 'Choose a series' }).default(''),
    openTime: isoTime('Open time'),
    closeTime: isoTime('Close time'),
    expectedResolutionTime: isoTime('Expected resolution'),
    tagIds: idList('Tags', 20).default([]),
  })
  .strict();

export const eventCreate = eventFields.superRefine((v, ctx) => {
  const problem = eventTimesError(v);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
});
/** A PATCH names some fields: the order of the times is checked against the stored ones on the server. */
export const eventUpdate = updateSchemaOf(eventFields).strict();

export const eventRecord = z.object({
  _id: recordFields.id, ticker: z.string(), title: z.string(), description: z.string(), imageUrl: z.string(),
  seriesId: recordFields.id.nullable(), seriesTicker: z.string().nullable(), seriesName: z.string().nullable(),
  openTime: recordFields.at, closeTime: recordFields.at, expectedResolutionTime: recordFields.at,
  tagIds: z.array(recordFields.id), tags: z.array(z.string()), status: z.enum(stateValues(eventStates)), marketCount: z.number().int(),
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();
export type EventRecord = z.infer<typeof eventRecord>;

export const eventsResource = resourceSpec(eventRecord, {
  name: 'events', label: 'Event', plural: 'Events', restriction: 'Events',
  pages: { list: '/events', add: '/add-event', update: '/update-event/{id}' },
  titleField: 'title',
  columns: [
    { key: 'ticker', label: 'Ticker', type: 'code', sortable: true },
    { key: 'title', label: 'Title', type: 'text', sortable: true },
    // The series prefixes the event's ticker (KXBTCW-26DEC04 is KXBTCW's): shown on the record, a column on demand.
    { key: 'seriesTicker', label: 'Series', type: 'code', hidden: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'openTime', label: 'Opens', type: 'date', sortable: true },
    { key: 'closeTime', label: 'Closes', type: 'date', sortable: true },
    { key: 'expectedResolutionTime', label: 'Expected resolution', type: 'date', sortable: true, hidden: true },
    { key: 'marketCount', label: 'Markets', type: 'number' },
    { key: 'tags', label: 'Tags', type: 'tags' },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(eventStates) },
    { key: 'tags', label: 'Tag', type: 'equals' },
    { key: 'seriesId', label: 'Series', type: 'equals', reference: { resource: 'series', labelKey: 'ticker' } },
    { key: 'openTime', label: 'Opens', type: 'dateRange' },
    { key: 'closeTime', label: 'Closes', type: 'dateRange' },
  ],
  search: 'ticker or title',
  defaultSort: '-openTime',
  // Only a draft event without markets can be deleted (409 otherwise).
  deleteMode: 'delete',
  deletableIn: ['draft'],
  states: eventStates,
  actions: [
    { name: 'open', label: 'Open', right: 'edit', confirm: 'Publishes the event. Its markets can open once its open time has passed.' },
    { name: 'close', label: 'Close', right: 'edit', danger: true, confirm: 'Ends trading on this event: its open and halted markets close too. This cannot be undone.' },
  ],
  form: [
    { key: 'ticker', label: 'Ticker', type: 'text', required: true, placeholder: 'KXBTCW-26NOV28', editableIn: ['draft'], description: 'Fixed once the event is open' },
    { key: 'title', label: 'Title', type: 'text', required: true },
    { key: 'seriesId', label: 'Series', type: 'reference', reference: { resource: 'series', labelKey: 'title', filter: { status: 'active' } }, editableIn: ['draft'], description: 'Empty for a one-off event' },
    { key: 'description', label: 'Description', type: 'richtext' },
    { key: 'imageUrl', label: 'Image URL', type: 'text', placeholder: 'https://' },
    { key: 'openTime', label: 'Open time', type: 'datetime', required: true, editableIn: ['draft', 'open'], description: 'Trading may start from this time' },
    { key: 'closeTime', label: 'Close time', type: 'datetime', required: true, editableIn: ['draft', 'open'], description: 'Trading ends; markets closing at this time follow it when it moves' },
    { key: 'expectedResolutionTime', label: 'Expected resolution', type: 'datetime', required: true, editableIn: ['draft', 'open', 'closed'] },
    { key: 'tagIds', label: 'Tags', type: 'multiselect', optionsFrom: { resource: 'tags', labelKey: 'name', filter: { status: 'active' } } },
  ],
  create: eventCreate,
  update: eventUpdate,
  children: [{ resource: 'markets', label: 'Markets', filter: 'eventId' }],
});

// ── Event history (`/event-history/{id}`) ──────────────────────────────────
/**
 * An event's timeline (its own and its markets' status changes and resolutions, from the audit log,
 * oldest first) and each market's trades over time for a price chart. `by` names the admin only
 * for callers who may read the audit log; others see who acted by kind (an admin, the platform, the
 * system).
 */
export const eventHistoryEntrySchema = z.object({
  at: z.string(),
  /** The event itself or one of its markets. */
  kind: z.enum(['event', 'market']),
  recordId: z.string(),
  ticker: z.string(),
  /** The audit action: create, open, halt, resume, close, resolve, void, settle… */
  action: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  by: z.string(),
  /** A resolution's result, source and evidence; a market's new close time; null otherwise. */
  detail: z.string().nullable(),
});
export type EventHistoryEntry = z.infer<typeof eventHistoryEntrySchema>;

export const eventHistoryMarketSchema = z.object({
  _id: z.string(),
  ticker: z.string(),
  title: z.string(),
  status: z.string(),
  result: z.string().nullable(),
  lastPrice: z.number().int().nullable(),
  volume: z.number().int(),
  /** Trades in the market. */
  trades: z.number().int(),
  /**
   * The price over time: every trade (YES cents, shares) while there are at most `EVENT_HISTORY_MAX_POINTS`;
   * beyond, one point per time slice (its last price, the shares traded in it) and `bucketed` is true.
   */
  points: z.array(z.object({ at: z.string(), price: z.number().int(), quantity: z.number().int() })),
  bucketed: z.boolean(),
});

export const EVENT_HISTORY_MAX_POINTS = 500;

export const eventHistorySchema = z.object({
  event: z.object({
    _id: z.string(), ticker: z.string(), title: z.string(), status: z.string(),
    openTime: z.string(), closeTime: z.string(), expectedResolutionTime: z.string(),
  }),
  timeline: z.array(eventHistoryEntrySchema),
  markets: z.array(eventHistoryMarketSchema),
});
export type EventHistory = z.infer<typeof eventHistorySchema>;

export const eventHistoryEndpoints = {
  history: endpoint('GET /api/admin/events/:id/history', {
    access: readAccess('Events'),
    summary: 'An event\'s timeline of status changes and resolutions, and each market\'s trade prices over time',
    params: idParam,
    result: eventHistorySchema,
  }),
};
