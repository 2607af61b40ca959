import { z } from 'zod';
import { idList, units } from '../lib/fields.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';

// ── Trade bots (market makers; docs/markets.md, "Trade bots") ────────────────────────
/**
 * A market maker trading as one platform user: while running, every refresh it cancels its stale
 * quotes and rests bids and asks around a fair price on each of its markets, through the same order
 * service as everyone else. Stopping cancels its quotes.
 */
export const tradeBotStates = defineStates({
  noun: 'Trade bot',
  states: [
    { value: 'stopped', label: 'Stopped', color: 'gray' },
    { value: 'running', label: 'Running', color: 'green' },
  ],
  initial: 'stopped',
  transitions: {
    start: { from: ['stopped'], to: 'running' },
    stop: { from: ['running'], to: 'stopped' },
  },
});
export type TradeBotStatus = (typeof tradeBotStates.states)[number]['value'];

export const FAIR_SOURCES = [
  { value: 'last', label: 'Last trade' },
  { value: 'fixed', label: 'Fixed value' },
] as const;
export type FairSource = (typeof FAIR_SOURCES)[number]['value'];

/** Bounds of a bot's parameters (the form's and the API's). */
export const TRADE_BOT_LIMITS = {
  markets: 50,
  spread: { min: 1, max: 98 },
  size: { min: 1, max: 100_000 },
  levels: { min: 1, max: 10 },
  maxPosition: { min: 1, max: 1_000_000 },
  /** Seconds between refreshes. */
  refresh: { min: 2, max: 3_600 },
} as const;

/**
 * The YES prices a bot quotes around `fair` (cents): bids from `fair − ⌊spread/2⌋` down one cent per
 * level, asks from the best bid + `spread` up one cent per level. An ask at `a` is a NO bid at
 * `100 − a` (or a YES sell). Levels outside 1..99 are left out.
 */
export function botLadder(fair: number, spread: number, levels: number): { bids: number[]; asks: number[] } {
  const bestBid = fair - Math.floor(spread / 2);
  const bids: number[] = [];
  const asks: number[] = [];
  for (let i = 0; i < levels; i++) {
    if (bestBid - i >= 1) bids.push(bestBid - i);
    if (bestBid + spread + i <= 99) asks.push(bestBid + spread + i);
  }
  return { bids, asks };
}

interface LadderInput {
  fairSource: FairSource;
  fairPrice: number;
  spread: number;
  levels: number;
  size: number;
  maxPosition: number;
  allOpenMarkets: boolean;
  marketIds: readonly string[];
}

/** What is wrong with a bot's parameters taken together (prices must stay within 1..99), on the field to change. */
export function tradeBotProblem(v: LadderInput): { path: keyof LadderInput; message: string } | null {
  if (!v.allOpenMarkets && v.marketIds.length === 0) return { path: 'marketIds', message: 'Choose at least one market, or quote every open market' };
  const width = v.spread + 2 * (v.levels - 1);
  if (width > 98) {
    return { path: 'levels', message: `A spread of ${v.spread}¢ with ${v.levels} levels spans ${width}¢: bids and asks cannot all fit within 1..99¢ (at most 98¢)` };
  }
  if (v.fairSource === 'fixed') {
    const lowestBid = v.fairPrice - Math.floor(v.spread / 2) - (v.levels - 1);
    const highestAsk = v.fairPrice - Math.floor(v.spread / 2) + v.spread + (v.levels - 1);
    if (lowestBid < 1) return { path: 'fairPrice', message: `Around ${v.fairPrice}¢ the lowest bid would be ${lowestBid}¢: raise the fair price or narrow the spread or levels (bids stay at 1¢ or more)` };
    if (highestAsk > 99) return { path: 'fairPrice', message: `Around ${v.fairPrice}¢ the highest ask would be ${highestAsk}¢: lower the fair price or narrow the spread or levels (asks stay at 99¢ or less)` };
  }
  if (v.maxPosition < v.size) return { path: 'maxPosition', message: `Max position (${v.maxPosition}) is below the size per level (${v.size}): not even one level could be quoted` };
  return null;
}

const int = (label: string, b: { min: number; max: number }) =>
  z
    .number({ error: `${label}: a whole number` })
    .int(`${label}: a whole number`)
    .min(b.min, `${label}: at least ${b.min.toLocaleString('en')}`)
    .max(b.max, `${label}: at most ${b.max.toLocaleString('en')}`);

const L = TRADE_BOT_LIMITS;
/** A new bot's parameters (the create schema's defaults and the add form's first values). */
export const TRADE_BOT_DEFAULTS = { fairSource: 'last', fairPrice: 50, spread: 4, size: 10, levels: 3, maxPosition: 100, refreshSeconds: 10 } as const;
const D = TRADE_BOT_DEFAULTS;
const tradeBotFields = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters'),
    /** The platform user the bot trades as: its orders, fills and positions are the bot's. */
    userId: z.string({ error: 'Choose the user the bot trades as' }).regex(/^\d{1,18}$/, 'Choose the user the bot trades as'),
    allOpenMarkets: z.boolean({ error: 'Yes or no' }).default(false),
    marketIds: idList('Markets', L.markets).default([]),
    fairSource: z.enum(['last', 'fixed'], { error: 'Last trade or fixed value' }).default(D.fairSource),
    /** Cents 1..99: the fair price of a fixed bot, the starting price of a last-trade bot before a market's first trade (a two-sided book's middle comes first). */
    fairPrice: int('Fair price (¢)', { min: 1, max: 99 }).default(D.fairPrice),
    spread: int('Spread (¢)', L.spread).default(D.spread),
    size: int('Size per level', L.size).default(D.size),
    levels: int('Levels', L.levels).default(D.levels),
    maxPosition: int('Max position', L.maxPosition).default(D.maxPosition),
    refreshSeconds: int('Refresh interval (s)', L.refresh).default(D.refreshSeconds),
  })
  .strict();

export const tradeBotCreate = tradeBotFields.superRefine((v, ctx) => {
  const problem = tradeBotProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
});
/** A PATCH names some fields: the server checks them together with the stored ones. */
export const tradeBotUpdate = updateSchemaOf(tradeBotFields).strict();

export const tradeBotRecord = z.object({
  _id: recordFields.id, name: z.string(), userId: recordFields.id, username: z.string(),
  allOpenMarkets: z.boolean(), marketIds: z.array(recordFields.id), markets: z.array(z.string()),
  fairSource: z.enum(['last', 'fixed']), fairPrice: z.number().int(), spread: z.number().int(), size: z.number().int(), levels: z.number().int(),
  maxPosition: z.number().int(), refreshSeconds: z.number().int(),
  status: z.enum(stateValues(tradeBotStates)),
  startedAt: recordFields.atOrNull, lastRunAt: recordFields.atOrNull, nextRunAt: recordFields.atOrNull,
  /** What the last refresh did (`3 open markets: 4 placed, 2 cancelled, 6 kept; 1 not open`). */
  lastRunSummary: z.string().nullable(),
  /** The last thing that went wrong (a market refused, a balance short), kept until the bot is started again. */
  lastError: z.string().nullable(), lastErrorAt: recordFields.atOrNull,
  // Figures of the bot's user: orders resting, fills, shares held, P&L (minor units of the settlement coin).
  openOrders: z.number().int(), fills: z.number().int(), volume: z.number().int(), yesShares: z.number().int(), noShares: z.number().int(),
  coin: z.string(),
  realizedPnl: units, realizedPnlText: z.string(),
  /** Open shares marked to each market's last price (resolved: to the payout), less their cost. */
  unrealizedPnl: units, unrealizedPnlText: z.string(),
  feesPaid: units, feesPaidText: z.string(),
  /** Realised + unrealised − fees. */
  totalPnl: units, totalPnlText: z.string(),
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();
export type TradeBotRecord = z.infer<typeof tradeBotRecord>;

export const tradeBotsResource = resourceSpec(tradeBotRecord, {
  name: 'trade-bots', label: 'Trade bot', plural: 'Trade bots', restriction: 'Trade Bot',
  pages: { list: '/trade-bot', add: '/add-trade-bot', update: '/update-trade-bot/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'username', label: 'Trades as', type: 'text' },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'markets', label: 'Markets', type: 'tags' },
    { key: 'allOpenMarkets', label: 'Every open market', type: 'bool', hidden: true },
    { key: 'fairSource', label: 'Fair price', type: 'code' },
    { key: 'fairPrice', label: 'Fixed / start (¢)', type: 'number', hidden: true },
    { key: 'spread', label: 'Spread (¢)', type: 'number', sortable: true },
    // How it quotes beyond its price and spread is the bot's form; its activity is what the list watches.
    { key: 'levels', label: 'Levels', type: 'number', hidden: true },
    { key: 'size', label: 'Size', type: 'number', hidden: true },
    { key: 'maxPosition', label: 'Max position', type: 'number', hidden: true },
    { key: 'refreshSeconds', label: 'Refresh (s)', type: 'number', sortable: true, hidden: true },
    { key: 'openOrders', label: 'Quotes resting', type: 'number' },
    { key: 'fills', label: 'Fills', type: 'number' },
    { key: 'volume', label: 'Shares traded', type: 'number', hidden: true },
    { key: 'yesShares', label: 'YES held', type: 'number', hidden: true },
    { key: 'noShares', label: 'NO held', type: 'number', hidden: true },
    { key: 'realizedPnlText', label: 'Realised P&L', type: 'money', hidden: true },
    { key: 'unrealizedPnlText', label: 'Unrealised P&L', type: 'money', hidden: true },
    { key: 'feesPaidText', label: 'Fees paid', type: 'money', hidden: true },
    { key: 'totalPnlText', label: 'P&L', type: 'money' },
    { key: 'lastRunAt', label: 'Last run', type: 'date', sortable: true },
    { key: 'nextRunAt', label: 'Next run', type: 'date', hidden: true },
    { key: 'lastRunSummary', label: 'Last run did', type: 'text', hidden: true },
    { key: 'lastError', label: 'Last error', type: 'longtext', hidden: true },
    { key: 'lastErrorAt', label: 'Last error at', type: 'date', hidden: true },
    { key: 'startedAt', label: 'Started', type: 'date', hidden: true },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
  ],
  figures: [
    'lastRunAt', 'nextRunAt', 'lastRunSummary', 'lastError', 'lastErrorAt', 'openOrders', 'fills', 'volume', 'yesShares', 'noShares',
    'realizedPnlText', 'unrealizedPnlText', 'feesPaidText', 'totalPnlText',
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(tradeBotStates) },
    { key: 'userId', label: 'Trades as', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'fairSource', label: 'Fair price', type: 'oneOf', options: FAIR_SOURCES },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  search: 'name',
  defaultSort: 'name',
  // A running bot is stopped first (its quotes cancelled); its orders and trades stay with its user.
  deleteMode: 'delete',
  deletableIn: ['stopped'],
  states: tradeBotStates,
  actions: [
    { name: 'start', label: 'Start', right: 'edit', confirm: 'The bot quotes its open markets from its next refresh (within seconds), with its user’s money and shares.' },
    { name: 'stop', label: 'Stop', right: 'edit', danger: true, confirm: 'Its resting quotes are cancelled and what they hold goes back to its user. Fills already made stay.' },
  ],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true, placeholder: 'Crypto market maker' },
    {
      key: 'userId', label: 'Trades as (house account)', type: 'reference', required: true, editableIn: ['stopped'],
      reference: { resource: 'users', labelKey: 'username', filter: { status: 'active', house: 'true' } },
      description: 'A house account kept for this bot (one bot per user; Users › Make house account): its USDC pays for bids, its shares can be offered; every live order of this user is the bot’s to cancel',
    },
    { key: 'allOpenMarkets', label: 'Quote every open market', type: 'switch', description: 'Markets opened later are quoted too; the list below is then ignored' },
    {
      key: 'marketIds', label: 'Markets', type: 'multiselect', optionsFrom: { resource: 'markets', labelKey: 'ticker', filter: { status: 'draft,open,halted' } },
      description: `Up to ${L.markets}; only open ones are quoted (a halted or closed market is left, its quotes cancelled)`,
    },
    { key: 'fairSource', label: 'Fair price source', type: 'select', options: FAIR_SOURCES, required: true, initial: D.fairSource },
    { key: 'fairPrice', label: 'Fair price (¢)', type: 'number', required: true, initial: D.fairPrice, description: 'The fixed value; for “Last trade”, the price used before a market’s first trade (unless its book has a bid and an ask: then their middle)' },
    { key: 'spread', label: 'Spread (¢)', type: 'number', required: true, initial: D.spread, description: 'Between the best bid and the best ask (YES cents)' },
    { key: 'size', label: 'Size per level (shares)', type: 'number', required: true, initial: D.size },
    { key: 'levels', label: 'Levels', type: 'number', required: true, initial: D.levels, description: `Price levels per side, one cent apart (1–${L.levels.max})` },
    { key: 'maxPosition', label: 'Max position (shares per market)', type: 'number', required: true, initial: D.maxPosition, description: 'Net YES − NO shares the bot may reach in a market, counting its resting quotes' },
    { key: 'refreshSeconds', label: 'Refresh interval (s)', type: 'number', required: true, initial: D.refreshSeconds, description: `${L.refresh.min}–${L.refresh.max.toLocaleString('en')} seconds` },
  ],
  children: [
    { resource: 'orders', label: 'Orders', filter: 'userId', parentKey: 'userId' },
    { resource: 'trades', label: 'Fills', filter: 'userIds', parentKey: 'userId' },
    { resource: 'open-positions', label: 'Positions', filter: 'userId', parentKey: 'userId' },
  ],
  create: tradeBotCreate,
  update: tradeBotUpdate,
});
