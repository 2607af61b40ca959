import { z } from 'zod';
import { isoTime, ticker } from '../lib/fields.js';
import { defineStates, stateValues } from '../resources/states.js';
import { recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';

// ── Markets ────────────────────────────────────────────────────────────────
/**
 * One binary YES/NO question of an event. Prices are integer cents 1..99 of a share that pays 100.
 * draft → open ⇄ halted → closed → resolved | voided. Trading only while open. `resolve` and `void`
 * are the settlement service's moves (they pay out through the ledger): no admin action makes them
 * here yet.
 */
export const marketStates = defineStates({
  noun: 'Market',
  states: [
    { value: 'draft', label: 'Draft', color: 'gray' },
    { value: 'open', label: 'Open', color: 'green' },
    { value: 'halted', label: 'Halted', color: 'orange' },
    { value: 'closed', label: 'Closed', color: 'yellow' },
    { value: 'resolved', label: 'Resolved', color: 'blue' },
    { value: 'voided', label: 'Voided', color: 'red' },
  ],
  initial: 'draft',
  transitions: {
    open: { from: ['draft'], to: 'open' },
    halt: { from: ['open'], to: 'halted' },
    resume: { from: ['halted'], to: 'open' },
    close: { from: ['open', 'halted'], to: 'closed' },
    resolve: { from: ['closed'], to: 'resolved' },
    void: { from: ['closed'], to: 'voided' },
  },
});
export type MarketStatus = (typeof marketStates.states)[number]['value'];

/** What a resolved market paid: YES or NO, or VOID (costs refunded). Null until resolved or voided. */
export const MARKET_RESULTS = [
  { value: 'YES', label: 'Yes' },
  { value: 'NO', label: 'No' },
  { value: 'VOID', label: 'Void' },
] as const;
export type MarketResult = (typeof MARKET_RESULTS)[number]['value'];
const resultValues = MARKET_RESULTS.map((r) => r.value) as [MarketResult, ...MarketResult[]];

/** A share price in cents of the 100 a winning share pays: 1..99. */
export const MIN_PRICE = 1;
export const MAX_PRICE = 99;

const marketFields = z
  .object({
    eventId: z.string({ error: 'Choose the event' }).regex(/^\d{1,18}$/, 'Choose the event'),
    ticker: ticker(80),
    title: z.string({ error: 'Title is required' }).trim().min(3, 'At least 3 characters').max(200, 'At most 200 characters'),
    /** The rules that decide YES or NO: plain text, fixed once the market opens. */
    rules: z.string({ error: 'Rules are required' }).trim().min(10, 'Say what makes the market resolve YES (at least 10 characters)').max(10_000, 'At most 10,000 characters'),
    /** Defaults to the event's close time; between the event's open and close times. */
    closesAt: isoTime('Closes at').or(z.literal('')).optional(),
  })
  .strict();
export const marketCreate = marketFields;
export const marketUpdate = updateSchemaOf(marketFields).strict();

export const marketRecord = z.object({
  _id: recordFields.id, ticker: z.string(), title: z.string(), rules: z.string(),
  eventId: recordFields.id, eventTicker: z.string(), eventName: z.string(), status: z.enum(stateValues(marketStates)),
  /** Cents 1..99, null before the first trade. */
  lastPrice: z.number().int().min(MIN_PRICE).max(MAX_PRICE).nullable(),
  /** Shares traded, and YES/NO pairs outstanding. */
  volume: z.number().int().nonnegative(), openInterest: z.number().int().nonnegative(),
  result: z.enum(resultValues).nullable(),
  closesAt: recordFields.at, openedAt: recordFields.atOrNull, closedAt: recordFields.atOrNull, resolvedAt: recordFields.atOrNull,
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();
export type MarketRecord = z.infer<typeof marketRecord>;

export const marketsResource = resourceSpec(marketRecord, {
  name: 'markets', label: 'Market', plural: 'Markets', restriction: 'Markets',
  pages: { list: '/markets', add: '/add-market', update: '/update-market/{id}' },
  titleField: 'title',
  columns: [
    { key: 'ticker', label: 'Ticker', type: 'code', sortable: true },
    { key: 'title', label: 'Title', type: 'text', sortable: true },
    { key: 'eventTicker', label: 'Event', type: 'code' },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'lastPrice', label: 'Last (¢)', type: 'number', sortable: true },
    { key: 'volume', label: 'Volume', type: 'number', sortable: true },
    { key: 'openInterest', label: 'Open interest', type: 'number', sortable: true },
    { key: 'closesAt', label: 'Closes', type: 'date', sortable: true },
    { key: 'result', label: 'Result', type: 'code' },
    { key: 'openedAt', label: 'Opened', type: 'date', hidden: true },
    { key: 'closedAt', label: 'Closed', type: 'date', hidden: true },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: marketStates.states.map((s) => ({ value: s.value, label: s.label })) },
    { key: 'eventId', label: 'Event id', type: 'equals' },
    { key: 'result', label: 'Result', type: 'oneOf', options: MARKET_RESULTS },
    { key: 'lastPrice', label: 'Last price', type: 'range' },
    { key: 'closesAt', label: 'Closes', type: 'dateRange' },
  ],
  search: 'ticker or title',
  defaultSort: 'ticker',
  // A market that has opened keeps its history: only drafts can be deleted.
  deleteMode: 'delete',
  deletableIn: ['draft'],
  states: marketStates,
  actions: [
    { name: 'open', label: 'Open', right: 'edit', confirm: 'Trading starts on this market. Its ticker, event and rules are fixed from now on.' },
    { name: 'halt', label: 'Halt', right: 'edit', danger: true, confirm: 'Trading stops until the market is resumed.' },
    { name: 'resume', label: 'Resume', right: 'edit' },
    { name: 'close', label: 'Close', right: 'edit', danger: true, confirm: 'Trading ends for good; the market then awaits resolution. This cannot be undone.' },
  ],
  form: [
    {
      key: 'eventId', label: 'Event', type: 'reference', required: true, editableIn: ['draft'],
      reference: { resource: 'events', labelKey: 'title', filter: { status: 'draft,open' } }, description: 'Fixed once the market opens',
    },
    { key: 'ticker', label: 'Ticker', type: 'text', required: true, placeholder: 'KXBTCW-26NOV28-T100000', editableIn: ['draft'], description: 'Fixed once the market opens' },
    { key: 'title', label: 'Title', type: 'text', required: true, placeholder: 'Bitcoin above $100,000 on Nov 28 at 5pm ET?' },
    { key: 'rules', label: 'Rules', type: 'textarea', required: true, editableIn: ['draft'], description: 'What makes it resolve YES; fixed once the market opens' },
    { key: 'closesAt', label: 'Closes at', type: 'datetime', editableIn: ['draft', 'open', 'halted'], description: 'Empty: the event’s close time' },
  ],
  children: [
    { resource: 'orders', label: 'Orders', filter: 'marketId' },
    { resource: 'trades', label: 'Trades', filter: 'marketId' },
  ],
  create: marketCreate,
  update: marketUpdate,
});
