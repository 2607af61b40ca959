import { z } from 'zod';
import { isoTime, ticker } from '../lib/fields.js';
import { reasonCodes, reasonCoded, reasonOptions } from '../lib/reasons.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';

// ── Markets ────────────────────────────────────────────────────────────────
/**
 * One binary YES/NO question of an event. Prices are integer cents 1..99 of a share that pays 100.
 * draft → open ⇄ halted → closed → resolved | voided. Trading only while open. The `resolve` action
 * (named right `resolve`) settles a closed market: result YES or NO makes the `resolve` move, VOID the
 * `void` move; the settlement pays out through the ledger in the same transaction (docs/markets.md, "Resolution").
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

/** Bounds of a resolution's source and evidence note (plain text). */
export const RESOLUTION_SOURCE_MAX = 300;
export const RESOLUTION_EVIDENCE_MAX = 5_000;
/** At most this many evidence links per resolution. */
export const RESOLUTION_LINKS_MAX = 10;

/** One evidence link: a full http(s) URL (shown as a link in the resolution history). */
const evidenceUrl = z
  .string({ error: 'A link: a full http(s) URL' })
  .trim()
  .max(500, 'A link of at most 500 characters')
  .regex(/^https?:\/\/[^\s/]+\S*$/, 'Each link: a full http(s) URL');

/**
 * Closing or resolving a market before its close time answers 409 `CONFIRM_REQUIRED`, saying how
 * early, until the call is sent again with `confirm: true` (the dialog asks, then sends it).
 */
export const confirmEarly = { confirm: z.boolean({ error: 'true, to act before the close time' }).optional() };

/** The body of a market's `resolve` action. */
export const marketResolveInput = z
  .object({
    ...confirmEarly,
    result: z.enum(resultValues, { error: 'Choose YES, NO or VOID' }),
    source: z
      .string({ error: 'Name the source of the result' })
      .trim()
      .min(3, 'Name the source of the result (at least 3 characters)')
      .max(RESOLUTION_SOURCE_MAX, `At most ${RESOLUTION_SOURCE_MAX} characters`),
    evidence: z
      .string({ error: 'Describe the evidence' })
      .trim()
      .min(10, 'Describe the evidence (at least 10 characters)')
      .max(RESOLUTION_EVIDENCE_MAX, `At most ${RESOLUTION_EVIDENCE_MAX.toLocaleString('en')} characters`),
    /** Links to what the source published (its page, an archived copy); at least one unless VOID. */
    evidenceUrls: z.array(evidenceUrl, { error: 'Links to the evidence: a list of URLs' }).max(RESOLUTION_LINKS_MAX, `At most ${RESOLUTION_LINKS_MAX} links`).default([]),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.result !== 'VOID' && v.evidenceUrls.length === 0) ctx.addIssue({ code: 'custom', path: ['evidenceUrls'], message: 'Add at least one link to the evidence (paste a URL, then Enter)' });
  });
export type MarketResolveInput = z.infer<typeof marketResolveInput>;

/** Why trading on a market is halted. */
export const MARKET_HALT_REASONS = reasonCodes([
  { code: 'incident', label: 'Operational incident' },
  { code: 'price_anomaly', label: 'Abnormal prices or trading' },
  { code: 'pending_news', label: 'Material news pending' },
  { code: 'rules_question', label: 'Question on the rules' },
  { code: 'source_unavailable', label: 'Settlement source unavailable' },
  // Set by the kill switch (kill-switches.ts); its release resumes only the markets it halted.
  { code: 'kill_switch', label: 'Kill switch' },
]);

/** The largest per-market limit (shares) a market or series may set. */
export const SHARE_LIMIT_MAX = 100_000_000;

/**
 * A trading limit in whole shares (docs/markets.md, "Trading limits"): a market's maximum position
 * per customer and maximum order size, and a series' defaults for them. Empty (null): no limit.
 */
export const shareLimit = (what: string) =>
  z
    .number({ error: `${what}: a whole number of shares` })
    .int(`${what}: a whole number of shares`)
    .min(1, `${what}: at least 1 share, or empty for no limit`)
    .max(SHARE_LIMIT_MAX, `${what}: at most ${SHARE_LIMIT_MAX.toLocaleString('en')} shares`)
    .nullable()
    .optional();

/** Why a proposed resolution is rejected. */
export const RESOLUTION_REJECT_REASONS = reasonCodes([
  { code: 'wrong_result', label: 'The result is wrong' },
  { code: 'wrong_source', label: 'Not the settlement source' },
  { code: 'evidence_missing', label: 'Evidence missing or unclear' },
  { code: 'source_revised', label: 'The source revised its figure' },
  { code: 'disputed', label: 'Disputed by users' },
]);

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
    /** Shares of one outcome a customer may hold plus have on order to buy; not given on create: the series' default. */
    maxPosition: shareLimit('Max position'),
    /** Shares one order may be for; not given on create: the series' default. */
    maxOrderSize: shareLimit('Max order size'),
  })
  .strict();
export const marketCreate = marketFields;
export const marketUpdate = updateSchemaOf(marketFields).strict();

export const marketRecord = z.object({
  _id: recordFields.id, ticker: z.string(), title: z.string(), rules: z.string(),
  eventId: recordFields.id, eventTicker: z.string(), eventName: z.string(), status: z.enum(stateValues(marketStates)),
  /** Its series' settlement source (null for an event without a series): what the resolve form starts on. */
  settlementSource: z.string().nullable(),
  /** The book's best bid and ask in YES cents (a NO order at q counts at 100 − q), null when that side is empty. */
  bestBid: z.number().int().min(MIN_PRICE).max(MAX_PRICE).nullable(), bestAsk: z.number().int().min(MIN_PRICE).max(MAX_PRICE).nullable(),
  /** Cents 1..99, null before the first trade. */
  lastPrice: z.number().int().min(MIN_PRICE).max(MAX_PRICE).nullable(),
  /** Shares traded, and YES/NO pairs outstanding. */
  volume: z.number().int().nonnegative(), openInterest: z.number().int().nonnegative(),
  result: z.enum(resultValues).nullable(),
  /** While halted: the halt's reason code and note. */
  haltReasonCode: z.string().nullable(), haltReason: z.string().nullable(),
  /** Trading limits in shares (null: none); house accounts are exempt. */
  maxPosition: z.number().int().positive().nullable(), maxOrderSize: z.number().int().positive().nullable(),
  /** A resolution proposed and waiting for a second admin (docs/markets.md, "Two admins to resolve"), or none. */
  proposalPending: z.boolean(), proposedResult: z.enum(resultValues).nullable(), proposedByEmail: z.string().nullable(), disputeEndsAt: recordFields.atOrNull,
  /**
   * Its liability in the settlement coin (docs/markets.md, "Liability"): collateral held (open
   * interest × 1), what resting buys hold, what settling YES or NO pays holders, and the house
   * accounts' (trade bots') profit or loss if it settles YES or NO.
   */
  collateralText: z.string(), buyHoldsText: z.string(), payoutIfYesText: z.string(), payoutIfNoText: z.string(), houseIfYesText: z.string(), houseIfNoText: z.string(),
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
    // The event's ticker opens the market's (KXBTCW-26NOV28 of KXBTCW-26NOV28-T100000), and the
    // Event filter picks one; the book's quotes and open interest are live on the Market overview.
    { key: 'eventTicker', label: 'Event', type: 'code', hidden: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'bestBid', label: 'Bid (¢)', type: 'number', hidden: true },
    { key: 'bestAsk', label: 'Ask (¢)', type: 'number', hidden: true },
    { key: 'lastPrice', label: 'Last (¢)', type: 'number', sortable: true },
    { key: 'volume', label: 'Volume', type: 'number', sortable: true },
    { key: 'openInterest', label: 'Open interest', type: 'number', sortable: true, hidden: true },
    { key: 'closesAt', label: 'Closes', type: 'date', sortable: true, moment: { future: 'Closes', past: 'Closed', actual: 'closedAt' } },
    { key: 'result', label: 'Result', type: 'code' },
    { key: 'haltReasonCode', label: 'Halted for', type: 'text', hidden: true },
    { key: 'haltReason', label: 'Halt note', type: 'text', hidden: true },
    { key: 'collateralText', label: 'Collateral', type: 'money', hidden: true },
    { key: 'buyHoldsText', label: 'Held by buys', type: 'money', hidden: true },
    { key: 'payoutIfYesText', label: 'Pays if YES', type: 'money', hidden: true },
    { key: 'payoutIfNoText', label: 'Pays if NO', type: 'money', hidden: true },
    { key: 'houseIfYesText', label: 'House if YES', type: 'money', hidden: true },
    { key: 'houseIfNoText', label: 'House if NO', type: 'money', hidden: true },
    { key: 'maxPosition', label: 'Max position', type: 'number', hidden: true },
    { key: 'maxOrderSize', label: 'Max order', type: 'number', hidden: true },
    { key: 'proposedResult', label: 'Proposed', type: 'code', hidden: true },
    { key: 'proposedByEmail', label: 'Proposed by', type: 'text', hidden: true },
    { key: 'disputeEndsAt', label: 'Dispute window ends', type: 'date', hidden: true },
    { key: 'openedAt', label: 'Opened', type: 'date', hidden: true },
    { key: 'closedAt', label: 'Closed', type: 'date', sortable: true, hidden: true },
    { key: 'resolvedAt', label: 'Resolved', type: 'date', sortable: true, hidden: true },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(marketStates) },
    { key: 'eventId', label: 'Event', type: 'equals', reference: { resource: 'events', labelKey: 'title' } },
    { key: 'result', label: 'Result', type: 'oneOf', options: MARKET_RESULTS },
    { key: 'haltReasonCode', label: 'Halted for', type: 'oneOf', options: reasonOptions(MARKET_HALT_REASONS) },
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
    { name: 'halt', label: 'Halt', right: 'edit', ...reasonCoded(MARKET_HALT_REASONS), danger: true, confirm: 'Trading stops until the market is resumed.' },
    { name: 'resume', label: 'Resume', right: 'edit' },
    { name: 'close', label: 'Close', right: 'edit', input: z.object(confirmEarly).strict(), danger: true, confirm: 'Trading ends for good; the market then awaits resolution. This cannot be undone.' },
    {
      name: 'resolve', label: 'Resolve', right: { named: 'resolve' }, input: marketResolveInput, danger: true, shownWhen: { key: 'proposalPending', equals: false },
      confirm: 'Settles the market, in one transaction: YES or NO pays 100¢ per winning share from the market’s collateral, VOID refunds each holder’s cost; every position closes. This cannot be undone. When resolutions need a second admin (site settings), this proposes the result instead.',
      fields: [
        { key: 'result', label: 'Result', type: 'select', required: true, options: MARKET_RESULTS },
        { key: 'source', label: 'Source', type: 'text', required: true, initialFrom: 'settlementSource', description: 'Where the result comes from: the series’ settlement source unless another was used' },
        { key: 'evidence', label: 'Evidence', type: 'textarea', required: true, description: 'What the source showed (values, times), kept in the resolution history' },
        { key: 'evidenceUrls', label: 'Evidence links', type: 'tags', placeholder: 'https://… then Enter', description: 'Where the result can be checked: the source’s page, an archived copy (at least one unless VOID)' },
      ],
    },
    {
      name: 'confirm', label: 'Confirm resolution', right: { named: 'resolve' }, danger: true, shownWhen: { key: 'proposalPending', equals: true },
      subject: { title: 'Confirm {proposedResult} for {ticker}, proposed by {proposedByEmail}' },
      confirm: 'The second admin’s confirmation: the market settles now as proposed (result, source, evidence). Not by the admin who proposed it, and not before the dispute window ends. This cannot be undone.',
    },
    {
      name: 'reject', label: 'Reject resolution', right: { named: 'resolve' }, ...reasonCoded(RESOLUTION_REJECT_REASONS), danger: true, shownWhen: { key: 'proposalPending', equals: true },
      subject: { title: 'Reject {proposedResult} for {ticker}, proposed by {proposedByEmail}' },
      confirm: 'Nothing is settled; the market stays closed and can be resolved again.',
    },
  ],
  form: [
    {
      key: 'eventId', label: 'Event', type: 'reference', required: true, editableIn: ['draft'],
      reference: { resource: 'events', labelKey: 'title', filter: { status: 'draft,open' } }, description: 'Fixed once the market opens',
    },
    { key: 'ticker', label: 'Ticker', type: 'text', required: true, placeholder: 'KXBTCW-26NOV28-T100000', editableIn: ['draft'], description: 'Fixed once the market opens' },
    { key: 'title', label: 'Title', type: 'text', required: true, placeholder: 'Bitcoin above $100,000 on Nov 28 at 5pm ET?', editableIn: ['draft', 'open', 'halted'], description: 'Fixed once the market closes: the question it is resolved on' },
    { key: 'rules', label: 'Rules', type: 'textarea', required: true, editableIn: ['draft'], description: 'What makes it resolve YES; fixed once the market opens' },
    { key: 'closesAt', label: 'Closes at', type: 'datetime', editableIn: ['draft', 'open', 'halted'], description: 'Empty: the event’s close time' },
    {
      key: 'maxPosition', label: 'Max position per customer (shares)', type: 'number', editableIn: ['draft', 'open', 'halted'],
      description: 'Shares of one outcome a customer may hold plus have on order to buy. Empty on a new market: its series’ default; empty later: no limit',
    },
    {
      key: 'maxOrderSize', label: 'Max order size (shares)', type: 'number', editableIn: ['draft', 'open', 'halted'],
      description: 'Shares one customer order may be for. Empty on a new market: its series’ default; empty later: no limit',
    },
  ],
  figures: ['openInterest', 'collateralText', 'buyHoldsText', 'payoutIfYesText', 'payoutIfNoText', 'houseIfYesText', 'houseIfNoText', 'maxPosition', 'maxOrderSize'],
  children: [
    // On the market's own page its ticker would repeat on every row.
    { resource: 'orders', label: 'Orders', filter: 'marketId', hideColumns: ['marketTicker'] },
    { resource: 'trades', label: 'Trades', filter: 'marketId', hideColumns: ['marketTicker'] },
    // Who holds what, house accounts (trade bots) included, and what each gains or loses either way.
    { resource: 'open-positions', label: 'Positions', filter: 'marketId', hideColumns: ['marketTicker'], showColumns: ['house', 'botName', 'ifYesText', 'ifNoText'] },
  ],
  views: [
    {
      page: '/unresolved-markets', title: 'Unresolved markets', fixed: { status: 'closed' }, defaultSort: 'closedAt',
      description: 'Closed markets awaiting resolution, oldest close first. Resolve each with its result, source and evidence.',
      // The market's ticker opens with its event's (Event is in Columns).
      columns: ['closedAt', 'ticker', 'title', 'lastPrice', 'volume', 'openInterest', 'status'],
    },
    {
      page: '/market-liability', title: 'Market liability', fixed: { status: 'open,halted,closed' }, defaultSort: 'ticker',
      description: 'What each market not yet settled holds and owes: collateral, what resting buys hold, what settling YES or NO pays, and the house accounts’ (trade bots’) profit or loss either way. A market’s Positions tab shows who holds what.',
      columns: ['ticker', 'status', 'openInterest', 'collateralText', 'buyHoldsText', 'payoutIfYesText', 'payoutIfNoText', 'houseIfYesText', 'houseIfNoText'],
    },
    {
      page: '/event-resolution/{id}', title: 'Resolve event', fixed: { eventId: '{id}' }, defaultSort: 'ticker',
      description: 'The event’s markets and their state: resolve each closed one with its result (YES, NO or VOID), the source and the evidence.',
      columns: ['ticker', 'title', 'status', 'lastPrice', 'openInterest', 'closedAt', 'result', 'resolvedAt'],
      subject: { label: 'Event', param: 'id', resource: 'events', title: 'title', code: 'ticker', rowTitle: 'eventName', rowCode: 'eventTicker' },
    },
  ],
  create: marketCreate,
  update: marketUpdate,
});
