import {
  BookSideName,
  CancelReasonName,
  FillKindName,
  OutcomeName,
  RejectReasonName,
  SideName,
  type BookSide,
  type CancelReason,
  type FillKind,
  type OrderKind,
  type RejectReason,
} from './constants.js';

/**
 * Event interface of the engine.
 *
 * The engine calls these methods synchronously, in order, while it executes a
 * command. Every argument is a plain number, so delivering an event allocates
 * nothing (ids, owners and quantities that fit in a V8 small integer, i.e.
 * |x| < 2^30, are passed unboxed). Implement the interface with a class whose
 * methods do the minimum (write to your own buffers, bump counters) and keep
 * one listener per book so the call sites stay monomorphic.
 *
 * Rules:
 * - A listener must not call mutating methods of the book it listens to.
 * - Prices are YES cents. `priceInOutcome(price, outcome)` converts for NO.
 * - Order kinds are `OrderKind` codes (outcome * 2 + side).
 *
 * `EventCollector` is a ready-made listener that turns events into plain
 * objects (for tests and the server, not for the hot path).
 */
export interface EngineListener {
  /** A new order passed validation (it may still be cancelled by FOK or STP). */
  onAccepted(id: number, owner: number): void;
  /** A command was refused; nothing changed. `owner` is -1 when unknown. */
  onRejected(id: number, owner: number, reason: RejectReason): void;
  /**
   * A trade. `price` is the maker's price in YES cents, `qty` shares.
   * `makerRemaining`/`takerRemaining` are the quantities left after this fill.
   */
  onFill(
    makerId: number,
    takerId: number,
    makerOwner: number,
    takerOwner: number,
    price: number,
    qty: number,
    kind: FillKind,
    makerKind: OrderKind,
    takerKind: OrderKind,
    makerRemaining: number,
    takerRemaining: number,
  ): void;
  /** `qty` shares of the order were cancelled (its whole remaining quantity). */
  onCancelled(id: number, owner: number, qty: number, reason: CancelReason): void;
  /** A GTD order reached its expiry time; `qty` is the quantity removed. */
  onExpired(id: number, owner: number, qty: number): void;
  /** A resting order's quantity went down by `by` to `remaining`; it keeps its priority. */
  onReduced(id: number, owner: number, by: number, remaining: number): void;
  /** A resting order was moved to `price` (YES cents); it loses time priority and may trade. */
  onMoved(id: number, owner: number, price: number, qty: number): void;
  /** Total resting quantity at a level changed (emitted once per touched level per step). */
  onLevel(side: BookSide, price: number, total: number): void;
}

/** A listener that ignores everything. */
export class NullListener implements EngineListener {
  onAccepted(): void {}
  onRejected(): void {}
  onFill(): void {}
  onCancelled(): void {}
  onExpired(): void {}
  onReduced(): void {}
  onMoved(): void {}
  onLevel(): void {}
}

export interface AcceptedEvent { type: 'accepted'; id: number; owner: number }
export interface RejectedEvent { type: 'rejected'; id: number; owner: number; reason: string }
export interface FillEvent {
  type: 'fill';
  makerId: number;
  takerId: number;
  makerOwner: number;
  takerOwner: number;
  /** YES cents. */
  price: number;
  qty: number;
  kind: FillKindName;
  makerOutcome: OutcomeName;
  makerSide: SideName;
  takerOutcome: OutcomeName;
  takerSide: SideName;
  makerRemaining: number;
  takerRemaining: number;
}
export interface CancelledEvent { type: 'cancelled'; id: number; owner: number; qty: number; reason: string }
export interface ExpiredEvent { type: 'expired'; id: number; owner: number; qty: number }
export interface ReducedEvent { type: 'reduced'; id: number; owner: number; by: number; remaining: number }
export interface MovedEvent { type: 'moved'; id: number; owner: number; price: number; qty: number }
export interface LevelEvent { type: 'level'; side: BookSideName; price: number; total: number }
export type EngineEvent =
  | AcceptedEvent
  | RejectedEvent
  | FillEvent
  | CancelledEvent
  | ExpiredEvent
  | ReducedEvent
  | MovedEvent
  | LevelEvent;

/** Price of a fill in cents of the maker's outcome. */
export function makerPrice(f: Pick<FillEvent, 'price' | 'makerOutcome'>): number {
  return f.makerOutcome === 'YES' ? f.price : 100 - f.price;
}
/** Price of a fill in cents of the taker's outcome. */
export function takerPrice(f: Pick<FillEvent, 'price' | 'takerOutcome'>): number {
  return f.takerOutcome === 'YES' ? f.price : 100 - f.price;
}

/**
 * Collects events as plain objects (allocates: for tests and the server).
 * Set `includeLevels = false` to drop book-change events.
 */
export class EventCollector implements EngineListener {
  events: EngineEvent[] = [];
  constructor(public includeLevels = true) {}
  /** Return the events collected so far and start a new list. */
  drain(): EngineEvent[] {
    const e = this.events;
    this.events = [];
    return e;
  }
  onAccepted(id: number, owner: number): void {
    this.events.push({ type: 'accepted', id, owner });
  }
  onRejected(id: number, owner: number, reason: RejectReason): void {
    this.events.push({ type: 'rejected', id, owner, reason: RejectReasonName[reason] ?? String(reason) });
  }
  onFill(
    makerId: number,
    takerId: number,
    makerOwner: number,
    takerOwner: number,
    price: number,
    qty: number,
    kind: FillKind,
    makerKind: OrderKind,
    takerKind: OrderKind,
    makerRemaining: number,
    takerRemaining: number,
  ): void {
    this.events.push({
      type: 'fill',
      makerId,
      takerId,
      makerOwner,
      takerOwner,
      price,
      qty,
      kind: FillKindName[kind]!,
      makerOutcome: OutcomeName[makerKind >> 1]!,
      makerSide: SideName[makerKind & 1]!,
      takerOutcome: OutcomeName[takerKind >> 1]!,
      takerSide: SideName[takerKind & 1]!,
      makerRemaining,
      takerRemaining,
    });
  }
  onCancelled(id: number, owner: number, qty: number, reason: CancelReason): void {
    this.events.push({ type: 'cancelled', id, owner, qty, reason: CancelReasonName[reason] ?? String(reason) });
  }
  onExpired(id: number, owner: number, qty: number): void {
    this.events.push({ type: 'expired', id, owner, qty });
  }
  onReduced(id: number, owner: number, by: number, remaining: number): void {
    this.events.push({ type: 'reduced', id, owner, by, remaining });
  }
  onMoved(id: number, owner: number, price: number, qty: number): void {
    this.events.push({ type: 'moved', id, owner, price, qty });
  }
  onLevel(side: BookSide, price: number, total: number): void {
    if (this.includeLevels) this.events.push({ type: 'level', side: BookSideName[side]!, price, total });
  }
}
