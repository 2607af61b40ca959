import { z } from 'zod';
import { TIME_IN_FORCE_LABELS } from '../constants.js';
import { units } from '../lib/fields.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec } from '../resources/spec.js';

// ── Orders, trades and positions (prediction markets; docs/markets.md, "Orders and trades") ──────────
/**
 * An order's life. It rests `open`, fills partly or wholly, or ends cancelled (by its owner, an
 * admin, its time in force or the market closing), expired (GTD) or rejected (post-only that would
 * cross). Only `cancel` is an admin action; the other moves are the engine's.
 */
export const orderStates = defineStates({
  noun: 'Order',
  states: [
    { value: 'open', label: 'Open', color: 'blue' },
    { value: 'partially_filled', label: 'Partly filled', color: 'cyan' },
    { value: 'filled', label: 'Filled', color: 'green' },
    { value: 'cancelled', label: 'Cancelled', color: 'gray' },
    { value: 'expired', label: 'Expired', color: 'orange' },
    { value: 'rejected', label: 'Rejected', color: 'red' },
  ],
  initial: 'open',
  transitions: {
    'fill-part': { from: ['open', 'partially_filled'], to: 'partially_filled' },
    fill: { from: ['open', 'partially_filled'], to: 'filled' },
    cancel: { from: ['open', 'partially_filled'], to: 'cancelled' },
    expire: { from: ['open', 'partially_filled'], to: 'expired' },
    reject: { from: ['open'], to: 'rejected' },
  },
  done: { cancel: 'cancelled', 'fill-part': 'partly filled' },
});

const OUTCOME_OPTIONS = [{ value: 'YES', label: 'Yes' }, { value: 'NO', label: 'No' }] as const;
const SIDE_OPTIONS = [{ value: 'buy', label: 'Buy' }, { value: 'sell', label: 'Sell' }] as const;
/** Time in force as people read it (the seed's labels, and Fill Or Kill), the code on hover; the filter and column share them. */
export const ORDER_TIME_IN_FORCE_LABELS = { ...TIME_IN_FORCE_LABELS, FOK: 'Fill Or Kill' } as const;
const TIF_OPTIONS = (['GTC', 'IOC', 'FOK', 'GTD'] as const).map((value) => ({ value, label: ORDER_TIME_IN_FORCE_LABELS[value] }));
const outcome = z.enum(['YES', 'NO']);
const side = z.enum(['buy', 'sell']);
const marketRef = { resource: 'markets', labelKey: 'ticker' } as const;
const userRef = { resource: 'users', labelKey: 'username' } as const;

export const orderRecord = z.object({
  _id: recordFields.id, marketId: recordFields.id, marketTicker: z.string(), marketTitle: z.string(), userId: recordFields.id, username: z.string(),
  outcome, side, price: z.number().int().min(1).max(99), quantity: z.number().int().positive(), filled: z.number().int().nonnegative(), remaining: z.number().int().nonnegative(),
  timeInForce: z.enum(['GTC', 'IOC', 'FOK', 'GTD']), expiresAt: recordFields.atOrNull, postOnly: z.boolean(),
  status: z.enum(stateValues(orderStates)), reason: z.string().nullable(),
  coin: z.string(), held: units, heldText: z.string(), fees: units, feesText: z.string(),
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();
export type OrderRecord = z.infer<typeof orderRecord>;

export const ordersResource = resourceSpec(orderRecord, {
  name: 'orders', label: 'Order', plural: 'Orders', restriction: 'Trade History', pages: { list: '/order-history' },
  titleField: '_id', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Placed', type: 'date', sortable: true },
    { key: 'marketTicker', label: 'Market', type: 'code' },
    { key: 'marketTitle', label: 'Question', type: 'text', hidden: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'outcome', label: 'Outcome', type: 'code' },
    { key: 'side', label: 'Side', type: 'code' },
    { key: 'price', label: 'Price (¢)', type: 'number', sortable: true },
    { key: 'quantity', label: 'Quantity', type: 'number', sortable: true },
    { key: 'filled', label: 'Filled', type: 'number' },
    { key: 'remaining', label: 'Resting', type: 'number', hidden: true },
    { key: 'timeInForce', label: 'Time in force', type: 'text', hidden: true },
    { key: 'expiresAt', label: 'Expires', type: 'date', hidden: true },
    { key: 'postOnly', label: 'Post-only', type: 'bool', hidden: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'reason', label: 'Reason', type: 'code', hidden: true },
    { key: 'heldText', label: 'Held', type: 'money', hidden: true, sortable: true, sortWithin: 'coin' },
    { key: 'feesText', label: 'Fees', type: 'money', hidden: true, sortable: true, sortWithin: 'coin' },
    { key: 'updatedAt', label: 'Updated', type: 'date', hidden: true },
  ],
  filters: [
    { key: 'marketId', label: 'Market', type: 'equals', reference: marketRef },
    { key: 'userId', label: 'User', type: 'equals', reference: userRef },
    { key: 'outcome', label: 'Outcome', type: 'oneOf', options: OUTCOME_OPTIONS },
    { key: 'side', label: 'Side', type: 'oneOf', options: SIDE_OPTIONS },
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(orderStates) },
    { key: 'timeInForce', label: 'Time in force', type: 'oneOf', options: TIF_OPTIONS },
    { key: 'price', label: 'Price (¢)', type: 'range' },
    { key: 'createdAt', label: 'Placed', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: orderStates,
  actions: [
    { name: 'cancel', label: 'Cancel order', right: 'edit', danger: true, bulk: true, confirm: 'The unfilled part leaves the book and what it holds (money or shares) goes back to the user. Fills already made stay.' },
  ],
});

/** One fill between a resting (maker) and an incoming (taker) order. Price in YES cents. */
/**
 * Why a trade is a wash-trade candidate (docs/markets.md, "Surveillance"): its maker and taker are
 * one user, signed up from one IP address, or share a wallet (a withdrawal destination or a deposit
 * source both used). Trades between two house accounts are not flagged.
 */
export const WASH_SIGNALS = [
  { value: 'same_user', label: 'Same user' },
  { value: 'same_signup_ip', label: 'Same signup IP' },
  { value: 'shared_wallet', label: 'Shared wallet' },
] as const;
export type WashSignal = (typeof WASH_SIGNALS)[number]['value'];

export const tradeRecord = z.object({
  _id: recordFields.id, marketId: recordFields.id, marketTicker: z.string(), marketTitle: z.string(),
  /** The maker's and the taker's user ids (the user filter matches either). */
  userIds: z.array(recordFields.id),
  makerUserId: recordFields.id, makerUsername: z.string(), takerUserId: recordFields.id, takerUsername: z.string(),
  makerOrderId: recordFields.id, takerOrderId: recordFields.id,
  makerOutcome: outcome, makerSide: side, takerOutcome: outcome, takerSide: side,
  price: z.number().int().min(1).max(99), quantity: z.number().int().positive(), kind: z.enum(['mint', 'transfer', 'merge']),
  coin: z.string(), makerFee: units, makerFeeText: z.string(), takerFee: units, takerFeeText: z.string(), createdAt: recordFields.at,
  /** Null, or why it is a wash-trade candidate. */
  washSignal: z.enum(WASH_SIGNALS.map((s) => s.value) as [WashSignal, ...WashSignal[]]).nullable(),
}).strict();
export type TradeRecord = z.infer<typeof tradeRecord>;

export const tradesResource = resourceSpec(tradeRecord, {
  name: 'trades', label: 'Trade', plural: 'Trades', restriction: 'Trade History', pages: { list: '/trade-history' },
  titleField: '_id', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Time', type: 'date', sortable: true },
    { key: 'marketTicker', label: 'Market', type: 'code' },
    { key: 'marketTitle', label: 'Question', type: 'text', hidden: true },
    { key: 'takerUsername', label: 'Taker', type: 'text' },
    { key: 'takerOutcome', label: 'Taker outcome', type: 'code' },
    { key: 'takerSide', label: 'Taker side', type: 'code' },
    { key: 'makerUsername', label: 'Maker', type: 'text' },
    { key: 'makerOutcome', label: 'Maker outcome', type: 'code', hidden: true },
    { key: 'makerSide', label: 'Maker side', type: 'code', hidden: true },
    { key: 'price', label: 'YES price (¢)', type: 'number', sortable: true },
    { key: 'quantity', label: 'Quantity', type: 'number', sortable: true },
    { key: 'kind', label: 'Kind', type: 'code', hidden: true },
    { key: 'takerFeeText', label: 'Taker fee', type: 'money', sortable: true, sortWithin: 'coin' },
    { key: 'makerFeeText', label: 'Maker fee', type: 'money', hidden: true, sortable: true, sortWithin: 'coin' },
    { key: 'makerOrderId', label: 'Maker order', type: 'code', hidden: true },
    { key: 'takerOrderId', label: 'Taker order', type: 'code', hidden: true },
    { key: 'washSignal', label: 'Wash-trade signal', type: 'text', hidden: true },
  ],
  filters: [
    { key: 'marketId', label: 'Market', type: 'equals', reference: marketRef },
    { key: 'userIds', label: 'User (maker or taker)', type: 'equals', reference: userRef },
    { key: 'takerOutcome', label: 'Taker outcome', type: 'oneOf', options: OUTCOME_OPTIONS },
    { key: 'takerSide', label: 'Taker side', type: 'oneOf', options: SIDE_OPTIONS },
    { key: 'kind', label: 'Kind', type: 'oneOf', options: [{ value: 'mint', label: 'Mint' }, { value: 'transfer', label: 'Transfer' }, { value: 'merge', label: 'Merge' }] },
    { key: 'price', label: 'YES price (¢)', type: 'range' },
    { key: 'washSignal', label: 'Wash-trade signal', type: 'oneOf', options: WASH_SIGNALS },
    { key: 'createdAt', label: 'Time', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  views: [
    {
      page: '/wash-trade-candidates', title: 'Wash-trade candidates', fixed: { washSignal: WASH_SIGNALS.map((s) => s.value).join(',') }, defaultSort: '-createdAt',
      description: 'Trades whose maker and taker are one user, signed up from one IP address, or share a wallet (a withdrawal destination or a deposit source). Pick a market to review one; export for the file.',
      columns: ['createdAt', 'marketTicker', 'washSignal', 'makerUsername', 'takerUsername', 'price', 'quantity'],
    },
  ],
});

/** A holding: open while it has shares (or shares offered), closed once sold down to zero; buying again reopens it. */
export const positionStates = defineStates({
  noun: 'Position',
  states: [{ value: 'open', label: 'Open', color: 'green' }, { value: 'closed', label: 'Closed', color: 'gray' }],
  initial: 'open',
  transitions: { close: { from: ['open'], to: 'closed' }, reopen: { from: ['closed'], to: 'open' } },
});

export const positionRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), marketId: recordFields.id, marketTicker: z.string(), marketTitle: z.string(),
  outcome, quantity: z.number().int().nonnegative(), reserved: z.number().int().nonnegative(),
  /** Average cost per share held, in cents (null with no shares). */
  averagePrice: z.number().nullable(),
  coin: z.string(), cost: units, costText: z.string(), realizedPnl: units, realizedPnlText: z.string(),
  /** What its market's settlement paid it (null until the market is resolved or voided; in the realised P&L too). */
  settlement: units.nullable(), settlementText: z.string().nullable(),
  /** A house account's (and the bot trading as it, if any), for the liability view. */
  house: z.boolean(), botName: z.string().nullable(),
  /** Profit or loss at settlement: its shares pay 1 each if its outcome wins, nothing if not, less its cost. */
  ifYesText: z.string(), ifNoText: z.string(),
  status: z.enum(stateValues(positionStates)), createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();
export type PositionRecord = z.infer<typeof positionRecord>;

const positionSpec = (kind: 'open' | 'closed') =>
  resourceSpec(positionRecord, {
    name: `${kind}-positions`, label: kind === 'open' ? 'Open position' : 'Closed position', plural: kind === 'open' ? 'Open positions' : 'Closed positions',
    restriction: 'Trade History', pages: { list: `/${kind}-positions` },
    titleField: 'marketTicker', readOnly: true, keyset: true,
    columns: [
      { key: 'updatedAt', label: kind === 'open' ? 'Last change' : 'Closed', type: 'date', sortable: true },
      { key: 'marketTicker', label: 'Market', type: 'code' },
      { key: 'marketTitle', label: 'Question', type: 'text', hidden: true },
      { key: 'username', label: 'User', type: 'text' },
      { key: 'outcome', label: 'Outcome', type: 'code' },
      ...(kind === 'open'
        ? ([
            { key: 'quantity', label: 'Shares', type: 'number', sortable: true },
            { key: 'reserved', label: 'Offered', type: 'number' },
            { key: 'averagePrice', label: 'Avg price (¢)', type: 'number' },
            { key: 'costText', label: 'Cost', type: 'money' },
            { key: 'house', label: 'House', type: 'bool', hidden: true },
            { key: 'botName', label: 'Bot', type: 'text', hidden: true },
            { key: 'ifYesText', label: 'P&L if YES', type: 'money', hidden: true },
            { key: 'ifNoText', label: 'P&L if NO', type: 'money', hidden: true },
          ] as const)
        : []),
      ...(kind === 'closed' ? ([{ key: 'settlementText', label: 'Settlement paid', type: 'money' }] as const) : []),
      { key: 'realizedPnlText', label: 'Realised P&L', type: 'money' },
      // Every open position is open: the column would only repeat it (still in Columns).
      { key: 'status', label: 'Status', type: 'status', ...(kind === 'open' ? { hidden: true } : {}) },
      { key: 'createdAt', label: 'Opened', type: 'date', sortable: true, hidden: true },
    ],
    filters: [
      { key: 'marketId', label: 'Market', type: 'equals', reference: marketRef },
      { key: 'userId', label: 'User', type: 'equals', reference: userRef },
      { key: 'outcome', label: 'Outcome', type: 'oneOf', options: OUTCOME_OPTIONS },
      { key: 'house', label: 'Account', type: 'oneOf', options: [{ value: 'false', label: 'Customer' }, { value: 'true', label: 'House (trade bots)' }] },
      { key: 'updatedAt', label: kind === 'open' ? 'Last change' : 'Closed', type: 'dateRange' },
    ],
    defaultSort: '-updatedAt',
    deleteMode: 'none',
    states: positionStates,
  });

export const openPositionsResource = positionSpec('open');
export const closedPositionsResource = positionSpec('closed');
