import { z } from 'zod';
import { idList, ticker } from '../lib/fields.js';
import { shareLimit } from './markets.js';
import { common, recordFields, resourceSpec, statusSchema, updateSchemaOf } from '../resources/spec.js';

// ── Series ─────────────────────────────────────────────────────────────────
/**
 * A series is the recurring template of prediction-market events (weekly Bitcoin close, monthly
 * CPI): its ticker prefixes its events' tickers, and it names where results come from.
 */
export const SERIES_FREQUENCIES = [
  { value: 'one_off', label: 'One-off' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'quarterly', label: 'Quarterly' },
  { value: 'yearly', label: 'Yearly' },
] as const;
export type SeriesFrequency = (typeof SERIES_FREQUENCIES)[number]['value'];
const frequencyValues = SERIES_FREQUENCIES.map((f) => f.value) as [SeriesFrequency, ...SeriesFrequency[]];

export const MARKET_CATEGORIES = [
  { value: 'Crypto', label: 'Crypto' },
  { value: 'Economics', label: 'Economics' },
  { value: 'Financials', label: 'Financials' },
  { value: 'Politics', label: 'Politics' },
  { value: 'Sports', label: 'Sports' },
  { value: 'Climate', label: 'Climate & weather' },
  { value: 'Science', label: 'Science & tech' },
  { value: 'Entertainment', label: 'Entertainment' },
  { value: 'World', label: 'World' },
] as const;
export type MarketCategory = (typeof MARKET_CATEGORIES)[number]['value'];
const categoryValues = MARKET_CATEGORIES.map((c) => c.value) as [MarketCategory, ...MarketCategory[]];

export const seriesCreate = z
  .object({
    ticker: ticker(30),
    title: z.string({ error: 'Title is required' }).trim().min(3, 'At least 3 characters').max(200, 'At most 200 characters'),
    frequency: z.enum(frequencyValues, { error: 'Choose a frequency' }),
    category: z.enum(categoryValues, { error: 'Choose a category' }),
    tagIds: idList('Tags', 20).default([]),
    settlementSource: z.string({ error: 'Say where results come from' }).trim().min(3, 'Say where results come from').max(300, 'At most 300 characters'),
    settlementUrl: z
      .string()
      .trim()
      .max(500, 'At most 500 characters')
      .refine((v) => v === '' || /^https?:\/\/[^\s/]+\S*$/.test(v), 'A full http(s) URL')
      .optional(),
    status: statusSchema.default('active'),
    /** What a new market of the series' events starts with (docs/markets.md, "Trading limits"). */
    defaultMaxPosition: shareLimit('Default max position'),
    defaultMaxOrderSize: shareLimit('Default max order size'),
  })
  .strict();
export const seriesUpdate = updateSchemaOf(seriesCreate).strict();

export const seriesRecord = z.object({
  _id: recordFields.id, ticker: z.string(), title: z.string(), frequency: z.enum(frequencyValues), category: z.enum(categoryValues),
  tagIds: z.array(recordFields.id), tags: z.array(z.string()), settlementSource: z.string(), settlementUrl: z.string().nullable(),
  status: recordFields.status, eventCount: z.number().int(),
  defaultMaxPosition: z.number().int().positive().nullable(), defaultMaxOrderSize: z.number().int().positive().nullable(), createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();
export type SeriesRecord = z.infer<typeof seriesRecord>;

export const seriesResource = resourceSpec(seriesRecord, {
  name: 'series', label: 'Series', plural: 'Series', restriction: 'Series',
  pages: { list: '/series', add: '/add-series', update: '/update-series/{id}' },
  titleField: 'title',
  columns: [
    { key: 'ticker', label: 'Ticker', type: 'code', sortable: true },
    { key: 'title', label: 'Title', type: 'text', sortable: true },
    { key: 'frequency', label: 'Frequency', type: 'status', sortable: true },
    { key: 'category', label: 'Category', type: 'text', sortable: true },
    { key: 'tags', label: 'Tags', type: 'tags' },
    { key: 'eventCount', label: 'Events', type: 'number', sortable: true },
    { key: 'settlementSource', label: 'Settlement source', type: 'longtext', hidden: true },
    { key: 'defaultMaxPosition', label: 'Max position', type: 'number', hidden: true },
    { key: 'defaultMaxOrderSize', label: 'Max order', type: 'number', hidden: true },
    common.statusColumn,
    common.createdColumn,
  ],
  filters: [
    common.statusFilter,
    { key: 'frequency', label: 'Frequency', type: 'oneOf', options: SERIES_FREQUENCIES },
    { key: 'category', label: 'Category', type: 'oneOf', options: MARKET_CATEGORIES },
    { key: 'tags', label: 'Tag', type: 'equals' },
    common.createdFilter,
  ],
  search: 'ticker or title',
  defaultSort: 'ticker',
  // A series with events cannot be deleted (409): set it inactive instead.
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'ticker', label: 'Ticker', type: 'text', required: true, placeholder: 'KXBTCW', description: 'Upper-case letters and digits; its events’ tickers start with it' },
    { key: 'title', label: 'Title', type: 'text', required: true, placeholder: 'Bitcoin weekly close' },
    { key: 'frequency', label: 'Frequency', type: 'select', required: true, options: SERIES_FREQUENCIES },
    { key: 'category', label: 'Category', type: 'select', required: true, options: MARKET_CATEGORIES },
    { key: 'tagIds', label: 'Tags', type: 'multiselect', optionsFrom: { resource: 'tags', labelKey: 'name', filter: { status: 'active' } } },
    { key: 'settlementSource', label: 'Settlement source', type: 'textarea', required: true, description: 'The source whose figure decides the results, and when it is read' },
    { key: 'settlementUrl', label: 'Settlement source URL', type: 'text', placeholder: 'https://' },
    { ...common.statusField, description: 'No new events can be added to an inactive series' },
    { key: 'defaultMaxPosition', label: 'Default max position per customer (shares)', type: 'number', description: 'What a new market of its events starts with; each market may change it. Empty: no limit' },
    { key: 'defaultMaxOrderSize', label: 'Default max order size (shares)', type: 'number', description: 'What a new market of its events starts with; each market may change it. Empty: no limit' },
  ],
  create: seriesCreate,
  update: seriesUpdate,
  children: [{ resource: 'events', label: 'Events', filter: 'seriesId' }],
});
