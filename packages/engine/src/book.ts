import {
  BookSide,
  CancelReason,
  Flags,
  MAX_QUANTITY,
  MarketState,
  MarketStateName,
  Outcome,
  OutcomeName,
  RejectReason,
  SideName,
  Stp,
  StpName,
  Tif,
  type FillKind,
  type OrderKind,
} from './constants.js';
import type { EngineListener } from './events.js';

/** Levels per book side: index = YES price in cents, 0 and 100 are sentinels. */
const LV = 101;
const NIL = -1;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function isSafeInt(x: number): boolean {
  return x >= -MAX_SAFE && x <= MAX_SAFE && Math.floor(x) === x;
}

export interface BookOptions {
  /** Price increment in cents; must divide 100. Default 1. */
  tick?: number;
  /** Initial number of order slots (grows by doubling). Default 1024. */
  capacity?: number;
}

/** Order in the convenient (object) form accepted by `MarketBook.submit`. */
export interface OrderInput {
  id: number;
  owner: number;
  outcome: 'YES' | 'NO';
  side: 'buy' | 'sell';
  /** Limit price in cents of `outcome`. */
  price: number;
  qty: number;
  /** Default GTC. */
  tif?: 'GTC' | 'IOC' | 'GTD' | 'FOK';
  /** Required for GTD: the order is live while `now < expiresAt`. */
  expiresAt?: number;
  postOnly?: boolean;
  /** Self-trade prevention mode of this order when it is the incoming one. Default NONE. */
  stp?: 'NONE' | 'CANCEL_RESTING' | 'CANCEL_INCOMING' | 'CANCEL_BOTH';
}

/** A resting order, as plain data. */
export interface RestingOrder {
  id: number;
  owner: number;
  outcome: 'YES' | 'NO';
  side: 'buy' | 'sell';
  /** Limit price in cents of `outcome`. */
  price: number;
  /** Remaining quantity. */
  qty: number;
  tif: 'GTC' | 'GTD';
  /** GTD expiry, null for GTC. */
  expiresAt: number | null;
  postOnly: boolean;
  stp: 'NONE' | 'CANCEL_RESTING' | 'CANCEL_INCOMING' | 'CANCEL_BOTH';
}

/** Full book state as plain (JSON-safe) data. Orders are in priority order: bids best first, then asks best first. */
export interface BookSnapshot {
  version: 1;
  tick: number;
  state: 'OPEN' | 'HALTED' | 'CLOSED';
  /** Engine clock (largest time seen), null if none yet. */
  clock: number | null;
  orders: RestingOrder[];
}

const TIF_CODE: Record<string, number> = { GTC: Tif.GTC, IOC: Tif.IOC, GTD: Tif.GTD, FOK: Tif.FOK };
const STP_CODE: Record<string, number> = {
  NONE: Stp.NONE,
  CANCEL_RESTING: Stp.CANCEL_RESTING,
  CANCEL_INCOMING: Stp.CANCEL_INCOMING,
  CANCEL_BOTH: Stp.CANCEL_BOTH,
};

/**
 * Order book and matching engine of one binary market.
 *
 * One book priced in YES cents: a flat array of 101 price levels per side,
 * each a FIFO doubly-linked list of order slots. Order data live in typed
 * arrays indexed by slot; a free list recycles slots; caller ids map to slots
 * through an open-addressing hash (Float64Array keys, linear probing,
 * backward-shift deletion). GTD orders are also kept in an indexed binary heap
 * ordered by (expiresAt, id). Nothing is allocated per command once the
 * arrays have grown to the working-set size.
 *
 * The engine has no clock: time enters only through `place(..., now)`,
 * `move(..., now)` and `expire(now)`. The largest time seen is the engine
 * clock; whenever it advances, all GTD orders with `expiresAt <= clock` are
 * expired first, so no resting order is ever past its expiry.
 */
export class MarketBook {
  readonly tick: number;
  private listener: EngineListener;

  /** A listener threw during the current command (see "events"): the first error, rethrown at its end. */
  private failed = false;
  private error: unknown = undefined;

  private _state: number = MarketState.OPEN;
  private _clock = -Infinity;
  private killed = false;

  // price levels, index = bookSide * LV + yesPrice
  private readonly lvHead = new Int32Array(2 * LV).fill(NIL);
  private readonly lvTail = new Int32Array(2 * LV).fill(NIL);
  private readonly lvTotal = new Float64Array(2 * LV);
  /** 1 where a price (cents) is a valid limit: a multiple of the tick in tick..100-tick. */
  private readonly validPrice = new Uint8Array(LV);
  /**
   * best[BID] = best bid (0 if none), best[ASK] = best ask (100 if none), YES cents.
   * Kept in a typed array so hot paths can index it by book side without branching
   * (the side of a random order is unpredictable; branch mispredictions were measurable).
   */
  private readonly best = new Int32Array([0, 100]);

  // order slots
  private cap: number;
  private top = 0;
  private freeHead = NIL;
  private live = 0;
  private oId: Float64Array;
  private oOwner: Float64Array;
  private oQty: Float64Array;
  private oExp: Float64Array;
  private oPrice: Int32Array; // YES cents
  private oLink: Int32Array; // [next, prev] per slot
  private oHeap: Int32Array; // position in expiry heap, -1 if none
  private oKind: Uint8Array; // OrderKind
  private oFlags: Uint8Array; // stp | post-only

  // id -> slot hash
  private hKeys: Float64Array;
  private hVals: Int32Array; // slot + 1, 0 = empty
  private hMask: number;
  private hShift: number;
  private hCount = 0;

  // expiry heap of slots
  private heap: Int32Array;
  private heapSize = 0;

  constructor(listener: EngineListener, options: BookOptions = {}) {
    const tick = options.tick ?? 1;
    if (!Number.isInteger(tick) || tick < 1 || tick > 50 || 100 % tick !== 0) {
      throw new RangeError(`tick must be a positive integer dividing 100, got ${tick}`);
    }
    this.tick = tick;
    for (let p = tick; p < 100; p += tick) this.validPrice[p] = 1;
    this.listener = listener;
    let cap = 16;
    while (cap < (options.capacity ?? 1024)) cap *= 2;
    this.cap = cap;
    this.oId = new Float64Array(cap);
    this.oOwner = new Float64Array(cap);
    this.oQty = new Float64Array(cap);
    this.oExp = new Float64Array(cap);
    this.oPrice = new Int32Array(cap);
    this.oLink = new Int32Array(cap * 2);
    this.oHeap = new Int32Array(cap);
    this.oKind = new Uint8Array(cap);
    this.oFlags = new Uint8Array(cap);
    this.heap = new Int32Array(cap);
    const hSize = cap * 2;
    this.hKeys = new Float64Array(hSize);
    this.hVals = new Int32Array(hSize);
    this.hMask = hSize - 1;
    this.hShift = 32 - Math.log2(hSize);
  }

  // ---------------------------------------------------------------- queries

  get state(): 'OPEN' | 'HALTED' | 'CLOSED' {
    return MarketStateName[this._state] as 'OPEN' | 'HALTED' | 'CLOSED';
  }
  /** Largest time seen (-Infinity before any). */
  get clock(): number {
    return this._clock;
  }
  /** Best bid in YES cents, 0 when there is none. */
  get bestBid(): number {
    return this.best[BookSide.BID]!;
  }
  /** Best ask in YES cents, 100 when there is none. */
  get bestAsk(): number {
    return this.best[BookSide.ASK]!;
  }
  /** Number of resting orders. */
  get size(): number {
    return this.live;
  }
  /** Replace the listener (e.g. after restore). */
  setListener(listener: EngineListener): void {
    this.listener = listener;
  }
  /** Resting quantity at a level (YES cents). */
  depthAt(side: BookSide, yesPrice: number): number {
    if (!Number.isInteger(yesPrice) || yesPrice < 1 || yesPrice > 99 || (side !== 0 && side !== 1)) return 0;
    return this.lvTotal[side * LV + yesPrice]!;
  }
  /** Non-empty levels of one side, best first, as [yesPrice, total]. */
  levels(side: BookSide): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    const t = this.tick;
    if (side === BookSide.BID) {
      for (let p = 100 - t; p > 0; p -= t) if (this.lvHead[p] !== NIL) out.push([p, this.lvTotal[p]!]);
    } else {
      for (let p = t; p < 100; p += t) if (this.lvHead[LV + p] !== NIL) out.push([p, this.lvTotal[LV + p]!]);
    }
    return out;
  }
  /** A resting order by id, as plain data. */
  order(id: number): RestingOrder | undefined {
    const s = this.find(id);
    return s === NIL ? undefined : this.describe(s);
  }
  /** All resting orders in priority order (bids best first, then asks best first). */
  orders(): RestingOrder[] {
    const out: RestingOrder[] = [];
    this.forEachInPriority((s) => {
      out.push(this.describe(s));
    });
    return out;
  }

  // --------------------------------------------------------------- commands

  /**
   * Submit a new order (hot path, positional numeric arguments).
   *
   * @param outcome Outcome.YES | Outcome.NO
   * @param side Side.BUY | Side.SELL
   * @param price limit in cents of `outcome` (multiple of tick, tick..100-tick)
   * @param qty integer shares, 1..MAX_QUANTITY
   * @param tif Tif code; GTD needs `expiresAt`
   * @param expiresAt GTD expiry (ignored otherwise); `expiresAt <= clock` on arrival makes it IOC
   * @param flags Stp mode | Flags.POST_ONLY
   * @param now current time; advances the engine clock (and expires due orders) if larger
   * @returns 0 if accepted, otherwise the RejectReason (also emitted as onRejected)
   */
  place(
    id: number,
    owner: number,
    outcome: number,
    side: number,
    price: number,
    qty: number,
    tif: number,
    expiresAt: number,
    flags: number,
    now: number,
  ): number {
    const r = this.placeCmd(id, owner, outcome, side, price, qty, tif, expiresAt, flags, now);
    if (this.failed) this.flush();
    return r;
  }

  private placeCmd(id: number, owner: number, outcome: number, side: number, price: number, qty: number, tif: number, expiresAt: number, flags: number, now: number): number {
    if (now > this._clock) this.advance(now);
    const reason = this.checkOrder(id, owner, outcome, side, price, qty, tif, expiresAt, flags);
    if (reason !== 0) {
      this.eRejected(id, owner, reason);
      return reason;
    }
    this.eAccepted(id, owner);
    const bs = outcome ^ side;
    const yp = outcome === Outcome.YES ? price : 100 - price;
    const stp = flags & Flags.STP_MASK;
    if (tif === Tif.FOK && !this.canFill(bs, yp, qty, owner, stp)) {
      this.eCancelled(id, owner, qty, CancelReason.FOK_NOT_FILLED);
      return 0;
    }
    let rem = qty;
    this.killed = false;
    // only enter the matching loop if the order crosses: yp >= best ask (bid) or yp <= best bid (ask), no branch on the side
    if ((yp - this.best[bs ^ 1]!) * (1 - 2 * bs) >= 0) rem = this.match(bs, yp, qty, id, owner, outcome * 2 + side, stp);
    if (rem !== 0) this.remainder(id, owner, outcome * 2 + side, bs, yp, rem, tif, expiresAt, flags);
    return 0;
  }

  /** Validation of a new order: 0 or the reject reason (checked in this order). */
  private checkOrder(id: number, owner: number, outcome: number, side: number, price: number, qty: number, tif: number, expiresAt: number, flags: number): number {
    if (this._state !== MarketState.OPEN) return this._state === MarketState.HALTED ? RejectReason.HALTED : RejectReason.CLOSED;
    if ((outcome !== 0 && outcome !== 1) || (side !== 0 && side !== 1)) return RejectReason.INVALID_SIDE;
    if (!isSafeInt(id)) return RejectReason.INVALID_ID;
    if (!isSafeInt(owner)) return RejectReason.INVALID_OWNER;
    if ((price | 0) !== price || price < 1 || price > 99 || this.validPrice[price] === 0) return RejectReason.INVALID_PRICE;
    if ((qty | 0) !== qty || qty < 1 || qty > MAX_QUANTITY) return RejectReason.INVALID_QUANTITY;
    if ((tif !== Tif.GTC && tif !== Tif.IOC && tif !== Tif.GTD && tif !== Tif.FOK) || (tif === Tif.GTD && (typeof expiresAt !== 'number' || expiresAt !== expiresAt))) {
      return RejectReason.INVALID_TIF;
    }
    if ((flags | 0) !== flags || (flags & ~Flags.ALL) !== 0 || ((flags & Flags.POST_ONLY) !== 0 && (tif === Tif.IOC || tif === Tif.FOK))) {
      return RejectReason.INVALID_FLAGS;
    }
    if (this.find(id) !== NIL) return RejectReason.DUPLICATE_ID;
    if ((flags & Flags.POST_ONLY) !== 0) {
      const bs = outcome ^ side;
      const yp = outcome === Outcome.YES ? price : 100 - price;
      if ((yp - this.best[bs ^ 1]!) * (1 - 2 * bs) >= 0) return RejectReason.POST_ONLY_WOULD_CROSS;
    }
    return 0;
  }

  /** What happens to the unfilled part of a new order: cancelled (STP, IOC/FOK), expired (late GTD) or rested. */
  private remainder(id: number, owner: number, kind: number, bs: number, yp: number, rem: number, tif: number, expiresAt: number, flags: number): void {
    if (this.killed) {
      this.eCancelled(id, owner, rem, CancelReason.SELF_TRADE);
    } else if (tif === Tif.IOC || tif === Tif.FOK) {
      this.eCancelled(id, owner, rem, CancelReason.IOC_REMAINDER);
    } else if (tif === Tif.GTD && expiresAt <= this._clock) {
      this.eExpired(id, owner, rem);
    } else {
      const s = this.alloc();
      this.oId[s] = id;
      this.oOwner[s] = owner;
      this.oQty[s] = rem;
      this.oPrice[s] = yp;
      this.oKind[s] = kind;
      this.oFlags[s] = flags;
      this.live++;
      this.insertId(id, s);
      if (tif === Tif.GTD && expiresAt !== Infinity) {
        this.oExp[s] = expiresAt;
        this.heapPush(s);
      } else {
        this.oExp[s] = Infinity;
        this.oHeap[s] = NIL;
      }
      this.attach(s, bs, yp, rem);
    }
  }

  /** Submit an order given as an object (convenience; allocates nothing extra but is not the hot path). */
  submit(o: OrderInput, now: number = this._clock): number {
    const tif = o.tif === undefined ? Tif.GTC : (TIF_CODE[o.tif] ?? -1);
    const stp = o.stp === undefined ? 0 : (STP_CODE[o.stp] ?? 8);
    const outcome = o.outcome === 'YES' ? 0 : o.outcome === 'NO' ? 1 : -1;
    const side = o.side === 'buy' ? 0 : o.side === 'sell' ? 1 : -1;
    return this.place(
      o.id,
      o.owner,
      outcome,
      side,
      o.price,
      o.qty,
      tif,
      o.expiresAt ?? NaN,
      stp | (o.postOnly === true ? Flags.POST_ONLY : 0),
      now,
    );
  }

  /**
   * Move a resting order to a new limit price (cents of its own outcome):
   * cancel-and-replace keeping id, owner, remaining quantity, TIF and flags.
   * It loses time priority and may trade as the incoming order. A post-only
   * order that would cross is rejected and stays where it was.
   * @returns 0 on success, otherwise the RejectReason
   */
  move(id: number, price: number, now?: number): number {
    const r = this.moveCmd(id, price, now);
    if (this.failed) this.flush();
    return r;
  }

  private moveCmd(id: number, price: number, now: number | undefined): number {
    if (now !== undefined && now > this._clock) this.advance(now);
    const s = this.find(id);
    if (
      s === NIL ||
      this._state !== MarketState.OPEN ||
      (price | 0) !== price ||
      price < 1 ||
      price > 99 ||
      this.validPrice[price] === 0 ||
      (this.oFlags[s]! & Flags.POST_ONLY) !== 0
    ) {
      return this.moveChecked(s, id, price);
    }
    return this.moveSlot(s, id, price);
  }

  /** move() with every check spelled out (unknown id, rejections, post-only). */
  private moveChecked(s: number, id: number, price: number): number {
    if (s === NIL) {
      this.eRejected(id, -1, RejectReason.UNKNOWN_ORDER);
      return RejectReason.UNKNOWN_ORDER;
    }
    const owner = this.oOwner[s]!;
    const kind = this.oKind[s]!;
    const flags = this.oFlags[s]!;
    const bs = (kind >> 1) ^ (kind & 1);
    const yp = kind >> 1 === Outcome.YES ? price : 100 - price;
    let reason = 0;
    if (this._state !== MarketState.OPEN) {
      reason = this._state === MarketState.HALTED ? RejectReason.HALTED : RejectReason.CLOSED;
    } else if ((price | 0) !== price || price < 1 || price > 99 || this.validPrice[price] === 0) {
      reason = RejectReason.INVALID_PRICE;
    } else if ((flags & Flags.POST_ONLY) !== 0 && (yp - this.best[bs ^ 1]!) * (1 - 2 * bs) >= 0) {
      reason = RejectReason.POST_ONLY_WOULD_CROSS;
    }
    if (reason !== 0) {
      this.eRejected(id, owner, reason);
      return reason;
    }
    return this.moveSlot(s, id, price);
  }

  /**
   * Re-queue a validated resting order at a new price (cents of its outcome).
   * Hot path: kept small (with detach/attach) so V8 inlines all of it.
   */
  private moveSlot(s: number, id: number, price: number): number {
    const kind = this.oKind[s]!;
    const bs = (kind >> 1) ^ (kind & 1);
    const yp = kind < 2 ? price : 100 - price;
    const qty = this.oQty[s]!;
    const old = this.oPrice[s]!;
    const oldTotal = this.unlinkSlot(s, bs, qty);
    this.oPrice[s] = yp;
    // crosses iff yp >= best ask (bid) or yp <= best bid (ask); no branch on the side
    if ((yp - this.best[bs ^ 1]!) * (1 - 2 * bs) >= 0) {
      this.eMoved(id, this.oOwner[s]!, yp, qty);
      this.eLevel(bs, old, oldTotal);
      return this.moveCross(s, id, kind, bs, yp, qty);
    }
    const newTotal = this.linkSlot(s, bs, yp, qty);
    // events are emitted together at the end (same order: moved, old level, new level)
    this.eMoved(id, this.oOwner[s]!, yp, qty);
    this.eLevel(bs, old, oldTotal);
    this.eLevel(bs, yp, newTotal);
    return 0;
  }

  /** Unlink a slot from its level (slot data kept), keep best prices, emit the level change. */
  private detach(s: number, bs: number, qty: number): void {
    const tot = this.unlinkSlot(s, bs, qty);
    this.eLevel(bs, this.oPrice[s]!, tot);
  }

  /** Unlink a slot from its level (slot data kept) and keep best prices; returns the level's new total. */
  private unlinkSlot(s: number, bs: number, qty: number): number {
    const head = this.lvHead;
    const oLink = this.oLink;
    const yp = this.oPrice[s]!;
    const li = bs * LV + yp;
    const pv = oLink[(s << 1) | 1]!;
    const nx = oLink[s << 1]!;
    if (pv === NIL) head[li] = nx;
    else oLink[pv << 1] = nx;
    if (nx === NIL) this.lvTail[li] = pv;
    else oLink[(nx << 1) | 1] = pv;
    const tot = this.lvTotal[li]! - qty;
    this.lvTotal[li] = tot;
    if (pv === NIL && nx === NIL) this.levelEmptied(bs, yp);
    return tot;
  }

  /** Link a slot at the tail of level (bs, yp), keep best prices, emit the level change. */
  private attach(s: number, bs: number, yp: number, qty: number): void {
    this.eLevel(bs, yp, this.linkSlot(s, bs, yp, qty));
  }

  /** Link a slot at the tail of level (bs, yp) and keep best prices; returns the level's new total. */
  private linkSlot(s: number, bs: number, yp: number, qty: number): number {
    const li = bs * LV + yp;
    const tl = this.lvTail[li]!;
    this.oLink[(s << 1) | 1] = tl;
    this.oLink[s << 1] = NIL;
    if (tl === NIL) this.lvHead[li] = s;
    else this.oLink[tl << 1] = s;
    this.lvTail[li] = s;
    const tot = this.lvTotal[li]! + qty;
    this.lvTotal[li] = tot;
    const best = this.best;
    if ((yp - best[bs]!) * (1 - 2 * bs) > 0) best[bs] = yp;
    return tot;
  }

  /** A moved order crosses: match it as the incoming order, then rest or drop the remainder. */
  private moveCross(s: number, id: number, kind: number, bs: number, yp: number, qty: number): number {
    const owner = this.oOwner[s]!;
    const rem = this.match(bs, yp, qty, id, owner, kind, this.oFlags[s]! & Flags.STP_MASK);
    if (rem === 0) {
      this.release(s);
    } else if (this.killed) {
      this.eCancelled(id, owner, rem, CancelReason.SELF_TRADE);
      this.release(s);
    } else {
      this.oQty[s] = rem;
      this.attach(s, bs, yp, rem);
    }
    return 0;
  }

  /** Cancel a resting order. Allowed while halted. @returns true if it was resting. */
  cancel(id: number): boolean {
    const s = this.find(id);
    if (s === NIL) {
      this.eRejected(id, -1, RejectReason.UNKNOWN_ORDER);
    } else {
      this.removeResting(s, CancelReason.USER);
    }
    this.flush();
    return s !== NIL;
  }

  /**
   * Reduce a resting order's quantity by `by` shares, keeping its priority.
   * Reducing by its whole remaining quantity (or more) cancels it (reason USER).
   * Allowed while halted. @returns 0 on success, otherwise the RejectReason.
   */
  reduce(id: number, by: number): number {
    const r = this.reduceCmd(id, by);
    this.flush();
    return r;
  }

  private reduceCmd(id: number, by: number): number {
    const s = this.find(id);
    if (s === NIL) {
      this.eRejected(id, -1, RejectReason.UNKNOWN_ORDER);
      return RejectReason.UNKNOWN_ORDER;
    }
    const owner = this.oOwner[s]!;
    if (!Number.isInteger(by) || by < 1) {
      this.eRejected(id, owner, RejectReason.INVALID_QUANTITY);
      return RejectReason.INVALID_QUANTITY;
    }
    const q = this.oQty[s]!;
    if (by >= q) {
      this.removeResting(s, CancelReason.USER);
      return 0;
    }
    const kind = this.oKind[s]!;
    const bs = (kind >> 1) ^ (kind & 1);
    const yp = this.oPrice[s]!;
    const li = bs * LV + yp;
    this.oQty[s] = q - by;
    this.lvTotal[li] = this.lvTotal[li]! - by;
    this.eReduced(id, owner, by, q - by);
    this.eLevel(bs, yp, this.lvTotal[li]!);
    return 0;
  }

  /** Cancel every resting order of `owner`, in priority order. Allowed while halted. @returns count. */
  cancelAll(owner: number): number {
    const n = this.sweep(owner, false, CancelReason.USER);
    this.flush();
    return n;
  }

  /**
   * Advance the clock to `now` and expire every GTD order with expiresAt <= now,
   * in (expiresAt, id) order. Time never goes back: a smaller `now` is ignored.
   * @returns number of orders expired
   */
  expire(now: number): number {
    const n = this.advance(now);
    this.flush();
    return n;
  }

  /** The clock part of expire(): events are buffered, not delivered. */
  private advance(now: number): number {
    if (!(now > this._clock)) return 0;
    this._clock = now;
    let n = 0;
    while (this.heapSize > 0) {
      const s = this.heap[0]!;
      if (this.oExp[s]! > now) break;
      const kind = this.oKind[s]!;
      const qty = this.oQty[s]!;
      this.eExpired(this.oId[s]!, this.oOwner[s]!, qty);
      this.detach(s, (kind >> 1) ^ (kind & 1), qty);
      this.release(s);
      n++;
    }
    return n;
  }

  /** Stop accepting new orders and moves (cancel, reduce, expire still work). */
  halt(): boolean {
    if (this._state !== MarketState.OPEN) return false;
    this._state = MarketState.HALTED;
    return true;
  }

  /** Re-open a halted market. */
  resume(): boolean {
    if (this._state !== MarketState.HALTED) return false;
    this._state = MarketState.OPEN;
    return true;
  }

  /** Cancel everything (reason CLOSED, priority order) and reject all further orders. @returns count cancelled. */
  close(): number {
    if (this._state === MarketState.CLOSED) return 0;
    this._state = MarketState.CLOSED;
    const n = this.sweep(0, true, CancelReason.CLOSED);
    this.flush();
    return n;
  }

  // --------------------------------------------------------------- snapshot

  /** Plain-data snapshot of the whole book. */
  snapshot(): BookSnapshot {
    return {
      version: 1,
      tick: this.tick,
      state: this.state,
      clock: this._clock === -Infinity ? null : this._clock,
      orders: this.orders(),
    };
  }

  /** Rebuild a book from a snapshot; its subsequent behaviour is identical to the original's. */
  static restore(snap: BookSnapshot, listener: EngineListener, options: Omit<BookOptions, 'tick'> = {}): MarketBook {
    if (snap.version !== 1) throw new Error(`unsupported snapshot version ${String(snap.version)}`);
    const b = new MarketBook(listener, { tick: snap.tick, capacity: Math.max(options.capacity ?? 1024, snap.orders.length) });
    const st = MarketState[snap.state];
    if (st === undefined) throw new Error(`bad state ${String(snap.state)}`);
    b._clock = snap.clock ?? -Infinity;
    const t = b.tick;
    for (const o of snap.orders) {
      const outcome = o.outcome === 'YES' ? 0 : o.outcome === 'NO' ? 1 : -1;
      const side = o.side === 'buy' ? 0 : o.side === 'sell' ? 1 : -1;
      const stp = STP_CODE[o.stp];
      if (outcome < 0 || side < 0 || stp === undefined) throw new Error(`bad order ${o.id}`);
      if (!Number.isSafeInteger(o.id) || !Number.isSafeInteger(o.owner) || b.find(o.id) !== NIL) throw new Error(`bad or duplicate id ${o.id}`);
      if (!Number.isInteger(o.price) || o.price < t || o.price > 100 - t || o.price % t !== 0) throw new Error(`bad price in order ${o.id}`);
      if (!Number.isInteger(o.qty) || o.qty < 1 || o.qty > MAX_QUANTITY) throw new Error(`bad qty in order ${o.id}`);
      const gtd = o.tif === 'GTD';
      if (gtd && (typeof o.expiresAt !== 'number' || !(o.expiresAt > b._clock))) throw new Error(`bad expiry in order ${o.id}`);
      const bs = outcome ^ side;
      const yp = outcome === 0 ? o.price : 100 - o.price;
      const s = b.alloc();
      b.oId[s] = o.id;
      b.oOwner[s] = o.owner;
      b.oQty[s] = o.qty;
      b.oPrice[s] = yp;
      b.oKind[s] = outcome * 2 + side;
      b.oFlags[s] = stp | (o.postOnly ? Flags.POST_ONLY : 0);
      b.live++;
      b.insertId(o.id, s);
      if (gtd && o.expiresAt !== Infinity) {
        b.oExp[s] = o.expiresAt as number;
        b.heapPush(s);
      } else {
        b.oExp[s] = Infinity;
        b.oHeap[s] = NIL;
      }
      b.linkSlot(s, bs, yp, o.qty);
    }
    if (b.bestBid >= b.bestAsk) throw new Error('snapshot book is crossed');
    b._state = st;
    return b;
  }

  /** Check every internal invariant (for tests; O(n)). Throws on the first violation. */
  validate(): void {
    const fail = (m: string): never => {
      throw new Error(`book invariant: ${m}`);
    };
    let count = 0;
    let bb = 0;
    let ba = 100;
    for (let bs = 0; bs < 2; bs++) {
      for (let p = 0; p < LV; p++) {
        const li = bs * LV + p;
        let s = this.lvHead[li]!;
        let prev = NIL;
        let tot = 0;
        if (s !== NIL && (p % this.tick !== 0 || p === 0 || p === 100)) fail(`order at invalid level ${p}`);
        while (s !== NIL) {
          if (this.oLink[(s << 1) | 1] !== prev) fail('prev link');
          const k = this.oKind[s]!;
          if (((k >> 1) ^ (k & 1)) !== bs || this.oPrice[s] !== p) fail('order on wrong level');
          if (!(this.oQty[s]! > 0)) fail('non-positive qty');
          if (this.oExp[s] !== Infinity && this.oExp[s]! <= this._clock) fail('resting order past expiry');
          if (this.find(this.oId[s]!) !== s) fail('hash');
          if ((this.oExp[s] !== Infinity) !== (this.oHeap[s]! >= 0)) fail('heap membership');
          tot += this.oQty[s]!;
          count++;
          prev = s;
          s = this.oLink[s << 1]!;
        }
        if (this.lvTail[li] !== prev) fail('tail');
        if (tot !== this.lvTotal[li]) fail(`level total ${bs}/${p}: ${tot} != ${this.lvTotal[li]}`);
        if (prev !== NIL) {
          if (bs === 0) bb = Math.max(bb, p);
          else ba = Math.min(ba, p);
        }
      }
    }
    if (bb !== this.bestBid || ba !== this.bestAsk) fail(`best ${this.bestBid}/${this.bestAsk} != ${bb}/${ba}`);
    if (bb >= ba) fail('crossed');
    if (count !== this.live || count !== this.hCount) fail('count');
    for (let i = 0; i < this.heapSize; i++) {
      const s = this.heap[i]!;
      if (this.oHeap[s] !== i) fail('heap index');
      if (i > 0 && this.heapLess(s, this.heap[(i - 1) >> 1]!)) fail('heap order');
    }
  }

  // --------------------------------------------------------------- events

  /*
   * Every listener call goes through one of these small guards: an exception is caught and kept,
   * the command carries on to its end (so the book is never left half-changed and every event
   * of the command is still delivered), and the first error is rethrown by `flush()` when the
   * public command returns. A try/catch that does not throw costs nothing in optimized code, and
   * the guards are inlined, so the hot path is as before.
   */
  private failure(err: unknown): void {
    if (!this.failed) {
      this.failed = true;
      this.error = err;
    }
  }
  private eAccepted(id: number, owner: number): void {
    try {
      this.listener.onAccepted(id, owner);
    } catch (err) {
      this.failure(err);
    }
  }
  private eRejected(id: number, owner: number, reason: number): void {
    try {
      this.listener.onRejected(id, owner, reason as RejectReason);
    } catch (err) {
      this.failure(err);
    }
  }
  private eFill(makerId: number, takerId: number, makerOwner: number, takerOwner: number, price: number, qty: number, kind: number, makerKind: number, takerKind: number, makerRem: number, takerRem: number): void {
    try {
      this.listener.onFill(makerId, takerId, makerOwner, takerOwner, price, qty, kind as FillKind, makerKind as OrderKind, takerKind as OrderKind, makerRem, takerRem);
    } catch (err) {
      this.failure(err);
    }
  }
  private eCancelled(id: number, owner: number, qty: number, reason: number): void {
    try {
      this.listener.onCancelled(id, owner, qty, reason as CancelReason);
    } catch (err) {
      this.failure(err);
    }
  }
  private eExpired(id: number, owner: number, qty: number): void {
    try {
      this.listener.onExpired(id, owner, qty);
    } catch (err) {
      this.failure(err);
    }
  }
  private eReduced(id: number, owner: number, by: number, remaining: number): void {
    try {
      this.listener.onReduced(id, owner, by, remaining);
    } catch (err) {
      this.failure(err);
    }
  }
  private eMoved(id: number, owner: number, price: number, qty: number): void {
    try {
      this.listener.onMoved(id, owner, price, qty);
    } catch (err) {
      this.failure(err);
    }
  }
  private eLevel(side: number, price: number, total: number): void {
    try {
      this.listener.onLevel(side as BookSide, price, total);
    } catch (err) {
      this.failure(err);
    }
  }

  /** End of a public command: rethrow the first error a listener threw during it. */
  private flush(): void {
    if (this.failed) {
      const err = this.error;
      this.failed = false;
      this.error = undefined;
      throw err;
    }
  }

  // --------------------------------------------------------------- internals

  private describe(s: number): RestingOrder {
    const kind = this.oKind[s]!;
    const outcome = kind >> 1;
    const exp = this.oExp[s]!;
    const flags = this.oFlags[s]!;
    return {
      id: this.oId[s]!,
      owner: this.oOwner[s]!,
      outcome: OutcomeName[outcome]!,
      side: SideName[kind & 1]!,
      price: outcome === 0 ? this.oPrice[s]! : 100 - this.oPrice[s]!,
      qty: this.oQty[s]!,
      tif: exp === Infinity ? 'GTC' : 'GTD',
      expiresAt: exp === Infinity ? null : exp,
      postOnly: (flags & Flags.POST_ONLY) !== 0,
      stp: StpName[flags & Flags.STP_MASK] as RestingOrder['stp'],
    };
  }

  private forEachInPriority(fn: (slot: number) => void): void {
    const t = this.tick;
    for (let p = 100 - t; p > 0; p -= t) {
      for (let s = this.lvHead[p]!; s !== NIL; s = this.oLink[s << 1]!) fn(s);
    }
    for (let p = t; p < 100; p += t) {
      for (let s = this.lvHead[LV + p]!; s !== NIL; s = this.oLink[s << 1]!) fn(s);
    }
  }

  /** Cancel resting orders of `owner` (every order when `all`) in priority order. */
  private sweep(owner: number, all: boolean, reason: CancelReason): number {
    const t = this.tick;
    let n = 0;
    for (let bs = 0; bs < 2; bs++) {
      for (let i = t; i < 100; i += t) {
        const p = bs === 0 ? 100 - i : i;
        const li = bs * LV + p;
        let s = this.lvHead[li]!;
        let changed = false;
        while (s !== NIL) {
          const next = this.oLink[s << 1]!;
          if (all || this.oOwner[s] === owner) {
            this.unlinkSlot(s, bs, this.oQty[s]!);
            this.eCancelled(this.oId[s]!, this.oOwner[s]!, this.oQty[s]!, reason);
            this.release(s);
            changed = true;
            n++;
          }
          s = next;
        }
        if (changed) this.eLevel(bs, p, this.lvTotal[li]!);
      }
    }
    return n;
  }

  private removeResting(s: number, reason: CancelReason): void {
    const kind = this.oKind[s]!;
    const qty = this.oQty[s]!;
    this.eCancelled(this.oId[s]!, this.oOwner[s]!, qty, reason);
    this.detach(s, (kind >> 1) ^ (kind & 1), qty);
    this.release(s);
  }

  /**
   * FOK pre-check: would an order of `qty` at `yp` fill completely, given STP?
   * Mirrors match() without side effects.
   */
  private canFill(bs: number, yp: number, qty: number, owner: number, stp: number): boolean {
    const t = this.tick;
    let need = qty;
    if (bs === BookSide.BID) {
      for (let p = this.bestAsk; p <= yp; p += t) {
        for (let m = this.lvHead[LV + p]!; m !== NIL; m = this.oLink[m << 1]!) {
          if (stp !== Stp.NONE && this.oOwner[m] === owner) {
            if (stp === Stp.CANCEL_RESTING) continue;
            return false;
          }
          need -= this.oQty[m]!;
          if (need <= 0) return true;
        }
      }
    } else {
      for (let p = this.bestBid; p >= yp && p > 0; p -= t) {
        for (let m = this.lvHead[p]!; m !== NIL; m = this.oLink[m << 1]!) {
          if (stp !== Stp.NONE && this.oOwner[m] === owner) {
            if (stp === Stp.CANCEL_RESTING) continue;
            return false;
          }
          need -= this.oQty[m]!;
          if (need <= 0) return true;
        }
      }
    }
    return false;
  }

  /**
   * Match an incoming order against the opposite side. Emits fills, STP
   * cancels and one level event per level left. Returns the unfilled
   * quantity; sets `killed` if STP stopped the incoming order.
   * Allocation-free: only typed-array reads/writes (events go to the buffer).
   */
  private match(bs: number, yp: number, qty: number, tId: number, tOwner: number, tKind: number, stp: number): number {
    const head = this.lvHead;
    const tail = this.lvTail;
    const total = this.lvTotal;
    const oQty = this.oQty;
    const oLink = this.oLink;
    const oOwner = this.oOwner;
    const oId = this.oId;
    const oKind = this.oKind;
    const t = this.tick;
    const tSide = tKind & 1;
    let rem = qty;
    this.killed = false;
    // Opposite side: asks when the incoming order is a bid (walk prices up), bids otherwise (walk down).
    const opp = bs ^ 1;
    const base = opp * LV;
    const dir = 1 - 2 * bs; // +1: walk asks upwards, -1: walk bids downwards
    const step = dir * t;
    let p = this.best[opp]!;
    while (rem > 0 && (yp - p) * dir >= 0) {
      // (sentinels: no ask = 100 > yp, no bid = 0 < yp, so the walk stops at the book's edge)
      const li = base + p;
      let m = head[li]!;
      let changed = false;
      while (m !== NIL) {
        const mOwner = oOwner[m]!;
        if (stp !== Stp.NONE && mOwner === tOwner) {
          if (stp === Stp.CANCEL_INCOMING) {
            this.killed = true;
            break;
          }
          // cancel the resting order (it is the head of the level)
          const mq = oQty[m]!;
          const next = oLink[m << 1]!;
          head[li] = next;
          if (next !== NIL) oLink[(next << 1) | 1] = NIL;
          else tail[li] = NIL;
          total[li] = total[li]! - mq;
          changed = true;
          this.eCancelled(oId[m]!, mOwner, mq, CancelReason.SELF_TRADE);
          this.release(m);
          m = next;
          if (stp === Stp.CANCEL_BOTH) {
            this.killed = true;
            break;
          }
          continue;
        }
        const mq = oQty[m]!;
        const mKind = oKind[m]!;
        const mSide = mKind & 1;
        const fk = (mSide !== tSide ? 0 : 1 + tSide) as FillKind;
        changed = true;
        if (mq <= rem) {
          rem -= mq;
          total[li] = total[li]! - mq;
          const next = oLink[m << 1]!;
          head[li] = next;
          if (next !== NIL) oLink[(next << 1) | 1] = NIL;
          else tail[li] = NIL;
          this.eFill(oId[m]!, tId, mOwner, tOwner, p, mq, fk, mKind, tKind, 0, rem);
          this.release(m);
          m = next;
          if (rem === 0) break;
        } else {
          const left = mq - rem;
          oQty[m] = left;
          total[li] = total[li]! - rem;
          this.eFill(oId[m]!, tId, mOwner, tOwner, p, rem, fk, mKind, tKind, left, 0);
          rem = 0;
          break;
        }
      }
      if (changed) this.eLevel(opp, p, total[li]!);
      if (m !== NIL) break; // level still has orders: incoming order done or stopped
      // level emptied: find the next non-empty one
      p += step;
      while (p > 0 && p < 100 && head[base + p] === NIL) p += step;
      this.best[opp] = p; // stops exactly at 0 or 100 (multiples of the tick) when the side is empty
      if (this.killed) break;
    }
    return rem;
  }

  /** A level just became empty: if it was the best, find the next non-empty level. */
  private levelEmptied(bs: number, yp: number): void {
    const t = this.tick;
    const head = this.lvHead;
    if (bs === BookSide.BID) {
      if (yp === this.best[BookSide.BID]) {
        let p = yp - t;
        while (p > 0 && head[p] === NIL) p -= t;
        this.best[BookSide.BID] = p;
      }
    } else if (yp === this.best[BookSide.ASK]) {
      let p = yp + t;
      while (p < 100 && head[LV + p] === NIL) p += t;
      this.best[BookSide.ASK] = p;
    }
  }

  private alloc(): number {
    const s = this.freeHead;
    if (s !== NIL) {
      this.freeHead = this.oLink[s << 1]!;
      return s;
    }
    if (this.top === this.cap) this.grow();
    return this.top++;
  }

  /** Forget a slot that is no longer in any level: id map, expiry heap, free list. */
  private release(s: number): void {
    this.deleteId(this.oId[s]!);
    if (this.oHeap[s]! !== NIL) this.heapRemove(s);
    this.oLink[s << 1] = this.freeHead;
    this.freeHead = s;
    this.live--;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    this.oId = f64(this.oId);
    this.oOwner = f64(this.oOwner);
    this.oQty = f64(this.oQty);
    this.oExp = f64(this.oExp);
    this.oPrice = i32(this.oPrice);
    const link = new Int32Array(cap * 2);
    link.set(this.oLink);
    this.oLink = link;
    this.oHeap = i32(this.oHeap);
    this.heap = i32(this.heap);
    this.oKind = u8(this.oKind);
    this.oFlags = u8(this.oFlags);
    this.cap = cap;
    // the id map stays at load <= 1/2 of 2*cap
    const oldKeys = this.hKeys;
    const oldVals = this.hVals;
    const hSize = cap * 2;
    this.hKeys = new Float64Array(hSize);
    this.hVals = new Int32Array(hSize);
    this.hMask = hSize - 1;
    this.hShift = 32 - Math.log2(hSize);
    this.hCount = 0;
    for (let i = 0; i < oldVals.length; i++) {
      const v = oldVals[i]!;
      if (v !== 0) this.insertId(oldKeys[i]!, v - 1);
    }
  }

  // ---- id -> slot map (open addressing, linear probing, Fibonacci hashing)

  private hashOf(id: number): number {
    let h = id | 0;
    if (h !== id) h ^= (id / 4294967296) | 0;
    return Math.imul(h, 0x9e3779b1) >>> this.hShift;
  }

  /** Slot of a live order id, or -1. */
  private find(id: number): number {
    const keys = this.hKeys;
    const vals = this.hVals;
    const mask = this.hMask;
    let i = this.hashOf(id);
    for (;;) {
      const v = vals[i]!;
      if (v === 0) return NIL;
      if (keys[i] === id) return v - 1;
      i = (i + 1) & mask;
    }
  }

  private insertId(id: number, s: number): void {
    const keys = this.hKeys;
    const vals = this.hVals;
    const mask = this.hMask;
    let i = this.hashOf(id);
    while (vals[i] !== 0) i = (i + 1) & mask;
    keys[i] = id;
    vals[i] = s + 1;
    this.hCount++;
  }

  private deleteId(id: number): void {
    const keys = this.hKeys;
    const vals = this.hVals;
    const mask = this.hMask;
    let i = this.hashOf(id);
    for (;;) {
      const v = vals[i]!;
      if (v === 0) return;
      if (keys[i] === id) break;
      i = (i + 1) & mask;
    }
    // backward-shift deletion: move later members of the cluster into the hole when allowed
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = vals[j]!;
      if (v === 0) break;
      const k = this.hashOf(keys[j]!);
      // entry at j may move to i iff its home k is not in the cyclic range (i, j]
      if (i <= j ? k <= i || k > j : k <= i && k > j) {
        keys[i] = keys[j]!;
        vals[i] = v;
        i = j;
      }
    }
    vals[i] = 0;
    this.hCount--;
  }

  // ---- expiry heap (indexed binary min-heap on (expiresAt, id))

  private heapLess(a: number, b: number): boolean {
    const ea = this.oExp[a]!;
    const eb = this.oExp[b]!;
    return ea < eb || (ea === eb && this.oId[a]! < this.oId[b]!);
  }

  private heapPush(s: number): void {
    const i = this.heapSize++;
    this.heap[i] = s;
    this.oHeap[s] = i;
    this.siftUp(i);
  }

  private heapRemove(s: number): void {
    const i = this.oHeap[s]!;
    this.oHeap[s] = NIL;
    const last = this.heap[--this.heapSize]!;
    if (i === this.heapSize) return;
    this.heap[i] = last;
    this.oHeap[last] = i;
    this.siftDown(i);
    this.siftUp(this.oHeap[last]!);
  }

  private siftUp(i: number): void {
    const h = this.heap;
    const s = h[i]!;
    while (i > 0) {
      const pi = (i - 1) >> 1;
      const p = h[pi]!;
      if (!this.heapLess(s, p)) break;
      h[i] = p;
      this.oHeap[p] = i;
      i = pi;
    }
    h[i] = s;
    this.oHeap[s] = i;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    const n = this.heapSize;
    const s = h[i]!;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && this.heapLess(h[c + 1]!, h[c]!)) c++;
      const cs = h[c]!;
      if (!this.heapLess(cs, s)) break;
      h[i] = cs;
      this.oHeap[cs] = i;
      i = c;
    }
    h[i] = s;
    this.oHeap[s] = i;
  }
}
