import { z } from 'zod';
import { units } from '../lib/fields.js';
import { recordFields, resourceSpec } from '../resources/spec.js';
import { MARKET_RESULTS } from './markets.js';

// ── Resolutions (prediction markets; docs/markets.md, "Resolution and settlement") ──────────────────
/**
 * One settled market: who resolved it, with what result, source and evidence, and what the
 * settlement paid. Written by the markets' `resolve` action in the settlement's own transaction;
 * read-only here (the resolution history, `/resolution-history`).
 */
export const resolutionRecord = z.object({
  _id: recordFields.id,
  marketId: recordFields.id, marketTicker: z.string(), marketTitle: z.string(),
  eventId: recordFields.id, eventTicker: z.string(),
  result: z.enum(['YES', 'NO', 'VOID']),
  source: z.string(), evidence: z.string(),
  /** Links to the evidence, shown as links. */
  evidenceUrls: z.array(z.string()),
  /** The admin who resolved it; null for a system job. */
  adminId: recordFields.id.nullable(), adminName: z.string(),
  coin: z.string(),
  /** What the market's collateral held before the settlement, and what it paid (equal: the collateral ends at zero). */
  collateral: units, collateralText: z.string(),
  totalPaid: units, totalPaidText: z.string(),
  /** Users who held shares, positions closed, and the YES/NO pairs settled. */
  holders: z.number().int().nonnegative(), positions: z.number().int().nonnegative(), pairs: z.number().int().nonnegative(),
  createdAt: recordFields.at,
}).strict();
export type ResolutionRecord = z.infer<typeof resolutionRecord>;

export const resolutionsResource = resourceSpec(resolutionRecord, {
  name: 'resolutions', label: 'Resolution', plural: 'Resolution history', restriction: 'Markets',
  pages: { list: '/resolution-history' },
  titleField: 'marketTicker', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Resolved', type: 'date', sortable: true },
    { key: 'marketTicker', label: 'Market', type: 'code' },
    { key: 'marketTitle', label: 'Question', type: 'text', hidden: true },
    { key: 'eventTicker', label: 'Event', type: 'code', hidden: true },
    { key: 'result', label: 'Result', type: 'code' },
    { key: 'adminName', label: 'Resolved by', type: 'text' },
    { key: 'source', label: 'Source', type: 'text' },
    { key: 'evidence', label: 'Evidence', type: 'longtext' },
    { key: 'evidenceUrls', label: 'Evidence links', type: 'links' },
    { key: 'totalPaidText', label: 'Paid', type: 'money' },
    { key: 'holders', label: 'Holders', type: 'number', sortable: true },
    { key: 'positions', label: 'Positions', type: 'number', hidden: true },
    { key: 'pairs', label: 'Pairs settled', type: 'number', sortable: true, hidden: true },
    { key: 'collateralText', label: 'Collateral', type: 'money', hidden: true },
  ],
  filters: [
    { key: 'marketId', label: 'Market', type: 'equals', reference: { resource: 'markets', labelKey: 'ticker' } },
    { key: 'eventId', label: 'Event', type: 'equals', reference: { resource: 'events', labelKey: 'title' } },
    { key: 'result', label: 'Result', type: 'oneOf', options: MARKET_RESULTS },
    { key: 'adminId', label: 'Resolved by', type: 'equals', reference: { resource: 'sub-admins', labelKey: 'name' } },
    { key: 'createdAt', label: 'Resolved', type: 'dateRange' },
  ],
  search: 'market ticker, source or evidence',
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
