/**
 * Numeric codes used by the engine's hot path. They are plain numbers (not
 * strings) so that commands and events never allocate. Name tables for
 * display/persistence are provided alongside.
 */

/** Outcome of a binary market. */
export const Outcome = { YES: 0, NO: 1 } as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** Side of an order, in terms of its own outcome. */
export const Side = { BUY: 0, SELL: 1 } as const;
export type Side = (typeof Side)[keyof typeof Side];

/** Side of the single YES book an order rests on. */
export const BookSide = { BID: 0, ASK: 1 } as const;
export type BookSide = (typeof BookSide)[keyof typeof BookSide];

/**
 * Order kind = outcome * 2 + side.
 * BUY_YES and SELL_NO are YES bids; SELL_YES and BUY_NO are YES asks.
 */
export const OrderKind = { BUY_YES: 0, SELL_YES: 1, BUY_NO: 2, SELL_NO: 3 } as const;
export type OrderKind = (typeof OrderKind)[keyof typeof OrderKind];

/** Time in force. */
export const Tif = { GTC: 0, IOC: 1, GTD: 2, FOK: 3 } as const;
export type Tif = (typeof Tif)[keyof typeof Tif];

/** Self-trade prevention mode (decided by the incoming order). Stored in flag bits 0..1. */
export const Stp = { NONE: 0, CANCEL_RESTING: 1, CANCEL_INCOMING: 2, CANCEL_BOTH: 3 } as const;
export type Stp = (typeof Stp)[keyof typeof Stp];

/** Order flags: bits 0..1 = self-trade prevention mode, bit 2 = post-only. */
export const Flags = { STP_MASK: 3, POST_ONLY: 4, ALL: 7 } as const;

/** How a fill changes the supply of YES/NO pairs. */
export const FillKind = {
  /** buyer vs seller of the same outcome: shares change hands, no collateral change. */
  TRANSFER: 0,
  /** YES buyer vs NO buyer: a new YES/NO pair is created, 100 cents collateral per share locked. */
  MINT: 1,
  /** YES seller vs NO seller: a pair is burnt, 100 cents collateral per share released. */
  MERGE: 2,
} as const;
export type FillKind = (typeof FillKind)[keyof typeof FillKind];

/** Market state. */
export const MarketState = { OPEN: 0, HALTED: 1, CLOSED: 2 } as const;
export type MarketState = (typeof MarketState)[keyof typeof MarketState];

/** Reason codes carried by `onRejected`. A rejected command changes nothing. */
export const RejectReason = {
  HALTED: 1,
  CLOSED: 2,
  INVALID_SIDE: 3,
  INVALID_ID: 4,
  INVALID_OWNER: 5,
  INVALID_PRICE: 6,
  INVALID_QUANTITY: 7,
  INVALID_TIF: 8,
  INVALID_FLAGS: 9,
  DUPLICATE_ID: 10,
  POST_ONLY_WOULD_CROSS: 11,
  UNKNOWN_ORDER: 12,
} as const;
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

/** Reason codes carried by `onCancelled`. */
export const CancelReason = {
  /** cancel(), cancelAll(owner), or reduce() by at least the remaining quantity. */
  USER: 1,
  /** self-trade prevention removed this order (resting or incoming). */
  SELF_TRADE: 2,
  /** unfilled remainder of an IOC order. */
  IOC_REMAINDER: 3,
  /** FOK order that could not be filled completely; nothing traded. */
  FOK_NOT_FILLED: 4,
  /** the market was closed. */
  CLOSED: 5,
} as const;
export type CancelReason = (typeof CancelReason)[keyof typeof CancelReason];

/** Largest accepted order quantity (shares). Keeps every quantity a small integer. */
export const MAX_QUANTITY = 1_000_000_000;

function invert<T extends Record<string, number>>(o: T): Record<number, keyof T & string> {
  const r: Record<number, keyof T & string> = {};
  for (const k of Object.keys(o)) r[o[k]!] = k as keyof T & string;
  return r;
}

export const RejectReasonName = invert(RejectReason);
export const CancelReasonName = invert(CancelReason);
export const TifName = invert(Tif);
export const StpName = invert(Stp);
export const MarketStateName = invert(MarketState);

export type FillKindName = 'transfer' | 'mint' | 'merge';
export const FillKindName: readonly FillKindName[] = ['transfer', 'mint', 'merge'];
export type OutcomeName = 'YES' | 'NO';
export const OutcomeName: readonly OutcomeName[] = ['YES', 'NO'];
export type SideName = 'buy' | 'sell';
export const SideName: readonly SideName[] = ['buy', 'sell'];
export type BookSideName = 'bid' | 'ask';
export const BookSideName: readonly BookSideName[] = ['bid', 'ask'];

/** The YES book side an order of this outcome/side rests on. */
export function bookSideOf(outcome: Outcome, side: Side): BookSide {
  return (outcome ^ side) as BookSide;
}

/** Convert a price in cents of `outcome` to YES cents (and back: the map is its own inverse). */
export function toYesPrice(outcome: Outcome, price: number): number {
  return outcome === Outcome.YES ? price : 100 - price;
}

/** Express a YES-cents price in cents of `outcome`. */
export function priceInOutcome(yesPrice: number, outcome: Outcome): number {
  return outcome === Outcome.YES ? yesPrice : 100 - yesPrice;
}

/** Classify a fill from the two parties' sides. */
export function fillKindOf(makerSide: Side, takerSide: Side): FillKind {
  return (makerSide !== takerSide ? FillKind.TRANSFER : takerSide === Side.BUY ? FillKind.MINT : FillKind.MERGE) as FillKind;
}
