// A plain, obviously-correct reference implementation of the engine's rules:
// one array of resting orders in arrival order, filtered and sorted on every
// step. No typed arrays, no hashing, no incremental best prices. It emits the
// same events, in the same order, through the same EngineListener interface.
import {
  type BookSide,
  CancelReason,
  MAX_QUANTITY,
  RejectReason,
  Stp,
  Tif,
  type BookSnapshot,
  type EngineListener,
  type FillKind,
  type OrderKind,
  type RestingOrder,
} from '../src/index.js';

interface RefOrder {
  id: number;
  owner: number;
  outcome: number; // 0 YES, 1 NO
  side: number; // 0 buy, 1 sell
  bookSide: number; // 0 bid, 1 ask
  yesPrice: number;
  qty: number;
  gtd: boolean;
  expiresAt: number;
  stp: number;
  postOnly: boolean;
}

const STP_NAMES = ['NONE', 'CANCEL_RESTING', 'CANCEL_INCOMING', 'CANCEL_BOTH'] as const;

export class ReferenceBook {
  /** Resting orders in arrival order (a moved order goes to the end). */
  private book: RefOrder[] = [];
  private state: 'OPEN' | 'HALTED' | 'CLOSED' = 'OPEN';
  private clock = -Infinity;

  constructor(
    private readonly L: EngineListener,
    readonly tick = 1,
  ) {}

  static restore(snap: BookSnapshot, L: EngineListener): ReferenceBook {
    const r = new ReferenceBook(L, snap.tick);
    r.state = snap.state;
    r.clock = snap.clock ?? -Infinity;
    for (const o of snap.orders) {
      const outcome = o.outcome === 'YES' ? 0 : 1;
      const side = o.side === 'buy' ? 0 : 1;
      r.book.push({
        id: o.id,
        owner: o.owner,
        outcome,
        side,
        bookSide: outcome === side ? 0 : 1,
        yesPrice: outcome === 0 ? o.price : 100 - o.price,
        qty: o.qty,
        gtd: o.tif === 'GTD',
        expiresAt: o.expiresAt ?? Infinity,
        stp: STP_NAMES.indexOf(o.stp),
        postOnly: o.postOnly,
      });
    }
    return r;
  }

  get bestBid(): number {
    const bids = this.book.filter((o) => o.bookSide === 0).map((o) => o.yesPrice);
    return bids.length === 0 ? 0 : Math.max(...bids);
  }
  get bestAsk(): number {
    const asks = this.book.filter((o) => o.bookSide === 1).map((o) => o.yesPrice);
    return asks.length === 0 ? 100 : Math.min(...asks);
  }

  private validPrice(p: number): boolean {
    return Number.isInteger(p) && p >= this.tick && p <= 100 - this.tick && p % this.tick === 0;
  }

  private levelTotal(bookSide: number, yesPrice: number): number {
    return this.book.filter((o) => o.bookSide === bookSide && o.yesPrice === yesPrice).reduce((a, o) => a + o.qty, 0);
  }

  private crosses(bookSide: number, yesPrice: number): boolean {
    return bookSide === 0 ? this.bestAsk <= yesPrice : this.bestBid >= yesPrice;
  }

  /** Opposite-side orders that an incoming order at `yesPrice` may trade with, in priority order. */
  private makersFor(bookSide: number, yesPrice: number): RefOrder[] {
    const opp = this.book.filter((o) => o.bookSide !== bookSide && (bookSide === 0 ? o.yesPrice <= yesPrice : o.yesPrice >= yesPrice));
    // stable sort: best price first; arrival order (array order) within a price
    return opp.sort((a, b) => (bookSide === 0 ? a.yesPrice - b.yesPrice : b.yesPrice - a.yesPrice));
  }

  private remove(o: RefOrder): void {
    this.book.splice(this.book.indexOf(o), 1);
  }

  place(id: number, owner: number, outcome: number, side: number, price: number, qty: number, tif: number, expiresAt: number, flags: number, now: number): number {
    this.expire(now);
    const L = this.L;
    let reason = 0;
    if (this.state !== 'OPEN') reason = this.state === 'HALTED' ? RejectReason.HALTED : RejectReason.CLOSED;
    else if (![0, 1].includes(outcome) || ![0, 1].includes(side)) reason = RejectReason.INVALID_SIDE;
    else if (!Number.isSafeInteger(id)) reason = RejectReason.INVALID_ID;
    else if (!Number.isSafeInteger(owner)) reason = RejectReason.INVALID_OWNER;
    else if (!this.validPrice(price)) reason = RejectReason.INVALID_PRICE;
    else if (!Number.isInteger(qty) || qty < 1 || qty > MAX_QUANTITY) reason = RejectReason.INVALID_QUANTITY;
    else if (![Tif.GTC, Tif.IOC, Tif.GTD, Tif.FOK].includes(tif as Tif) || (tif === Tif.GTD && Number.isNaN(expiresAt))) reason = RejectReason.INVALID_TIF;
    else if (!Number.isInteger(flags) || flags < 0 || flags > 7 || (flags & 4 && (tif === Tif.IOC || tif === Tif.FOK))) reason = RejectReason.INVALID_FLAGS;
    else if (this.book.some((o) => o.id === id)) reason = RejectReason.DUPLICATE_ID;
    const bookSide = outcome === side ? 0 : 1;
    const yesPrice = outcome === 0 ? price : 100 - price;
    const postOnly = (flags & 4) !== 0;
    if (reason === 0 && postOnly && this.crosses(bookSide, yesPrice)) reason = RejectReason.POST_ONLY_WOULD_CROSS;
    if (reason !== 0) {
      L.onRejected(id, owner, reason as RejectReason);
      return reason;
    }
    L.onAccepted(id, owner);
    const stp = flags & 3;
    const taker = { id, owner, kind: outcome * 2 + side, side };
    if (tif === Tif.FOK && !this.canFill(bookSide, yesPrice, qty, owner, stp)) {
      L.onCancelled(id, owner, qty, CancelReason.FOK_NOT_FILLED);
      return 0;
    }
    const [rem, killed] = this.match(bookSide, yesPrice, qty, taker, stp);
    if (rem === 0) return 0;
    if (killed) L.onCancelled(id, owner, rem, CancelReason.SELF_TRADE);
    else if (tif === Tif.IOC || tif === Tif.FOK) L.onCancelled(id, owner, rem, CancelReason.IOC_REMAINDER);
    else if (tif === Tif.GTD && expiresAt <= this.clock) L.onExpired(id, owner, rem);
    else {
      const gtd = tif === Tif.GTD && expiresAt !== Infinity;
      this.book.push({ id, owner, outcome, side, bookSide, yesPrice, qty: rem, gtd, expiresAt: gtd ? expiresAt : Infinity, stp, postOnly });
      L.onLevel(bookSide as BookSide, yesPrice, this.levelTotal(bookSide, yesPrice));
    }
    return 0;
  }

  private canFill(bookSide: number, yesPrice: number, qty: number, owner: number, stp: number): boolean {
    let avail = 0;
    for (const m of this.makersFor(bookSide, yesPrice)) {
      if (stp !== Stp.NONE && m.owner === owner) {
        if (stp === Stp.CANCEL_RESTING) continue;
        break;
      }
      avail += m.qty;
    }
    return avail >= qty;
  }

  /** Returns [remaining, stopped by self-trade prevention]. */
  private match(bookSide: number, yesPrice: number, qty: number, taker: { id: number; owner: number; kind: number; side: number }, stp: number): [number, boolean] {
    const L = this.L;
    let rem = qty;
    let killed = false;
    const makers = this.makersFor(bookSide, yesPrice);
    const opp = 1 - bookSide;
    let i = 0;
    while (rem > 0 && !killed && i < makers.length) {
      const price = makers[i]!.yesPrice;
      let changed = false;
      for (; i < makers.length && makers[i]!.yesPrice === price && rem > 0 && !killed; i++) {
        const m = makers[i]!;
        if (stp !== Stp.NONE && m.owner === taker.owner) {
          if (stp === Stp.CANCEL_INCOMING) {
            killed = true;
            break;
          }
          this.remove(m);
          changed = true;
          L.onCancelled(m.id, m.owner, m.qty, CancelReason.SELF_TRADE);
          if (stp === Stp.CANCEL_BOTH) killed = true;
          continue;
        }
        const q = Math.min(m.qty, rem);
        rem -= q;
        m.qty -= q;
        changed = true;
        if (m.qty === 0) this.remove(m);
        const kind = (m.side !== taker.side ? 0 : taker.side === 0 ? 1 : 2) as FillKind;
        L.onFill(m.id, taker.id, m.owner, taker.owner, price, q, kind, (m.outcome * 2 + m.side) as OrderKind, taker.kind as OrderKind, m.qty, rem);
      }
      if (changed) L.onLevel(opp as BookSide, price, this.levelTotal(opp, price));
    }
    return [rem, killed];
  }

  move(id: number, price: number, now?: number): number {
    if (now !== undefined) this.expire(now);
    const L = this.L;
    const o = this.book.find((x) => x.id === id);
    if (o === undefined) {
      L.onRejected(id, -1, RejectReason.UNKNOWN_ORDER);
      return RejectReason.UNKNOWN_ORDER;
    }
    const yesPrice = o.outcome === 0 ? price : 100 - price;
    let reason = 0;
    if (this.state !== 'OPEN') reason = this.state === 'HALTED' ? RejectReason.HALTED : RejectReason.CLOSED;
    else if (!this.validPrice(price)) reason = RejectReason.INVALID_PRICE;
    else if (o.postOnly && this.crosses(o.bookSide, yesPrice)) reason = RejectReason.POST_ONLY_WOULD_CROSS;
    if (reason !== 0) {
      L.onRejected(id, o.owner, reason as RejectReason);
      return reason;
    }
    L.onMoved(id, o.owner, yesPrice, o.qty);
    this.remove(o);
    L.onLevel(o.bookSide as BookSide, o.yesPrice, this.levelTotal(o.bookSide, o.yesPrice));
    o.yesPrice = yesPrice;
    const [rem, killed] = this.match(o.bookSide, yesPrice, o.qty, { id, owner: o.owner, kind: o.outcome * 2 + o.side, side: o.side }, o.stp);
    if (rem === 0) return 0;
    if (killed) {
      L.onCancelled(id, o.owner, rem, CancelReason.SELF_TRADE);
      return 0;
    }
    o.qty = rem;
    this.book.push(o);
    L.onLevel(o.bookSide as BookSide, yesPrice, this.levelTotal(o.bookSide, yesPrice));
    return 0;
  }

  cancel(id: number): boolean {
    const o = this.book.find((x) => x.id === id);
    if (o === undefined) {
      this.L.onRejected(id, -1, RejectReason.UNKNOWN_ORDER);
      return false;
    }
    this.remove(o);
    this.L.onCancelled(o.id, o.owner, o.qty, CancelReason.USER);
    this.L.onLevel(o.bookSide as BookSide, o.yesPrice, this.levelTotal(o.bookSide, o.yesPrice));
    return true;
  }

  reduce(id: number, by: number): number {
    const o = this.book.find((x) => x.id === id);
    if (o === undefined) {
      this.L.onRejected(id, -1, RejectReason.UNKNOWN_ORDER);
      return RejectReason.UNKNOWN_ORDER;
    }
    if (!Number.isInteger(by) || by < 1) {
      this.L.onRejected(id, o.owner, RejectReason.INVALID_QUANTITY);
      return RejectReason.INVALID_QUANTITY;
    }
    if (by >= o.qty) {
      this.cancel(id);
      return 0;
    }
    o.qty -= by;
    this.L.onReduced(id, o.owner, by, o.qty);
    this.L.onLevel(o.bookSide as BookSide, o.yesPrice, this.levelTotal(o.bookSide, o.yesPrice));
    return 0;
  }

  /** Resting orders in priority order: bids best first, then asks best first; arrival order within a price. */
  private priorityOrder(): RefOrder[] {
    const bids = this.book.filter((o) => o.bookSide === 0).sort((a, b) => b.yesPrice - a.yesPrice);
    const asks = this.book.filter((o) => o.bookSide === 1).sort((a, b) => a.yesPrice - b.yesPrice);
    return [...bids, ...asks];
  }

  private sweep(match: (o: RefOrder) => boolean, reason: CancelReason): number {
    let n = 0;
    const list = this.priorityOrder();
    for (let i = 0; i < list.length; ) {
      const o0 = list[i]!;
      let changed = false;
      for (; i < list.length && list[i]!.bookSide === o0.bookSide && list[i]!.yesPrice === o0.yesPrice; i++) {
        const o = list[i]!;
        if (!match(o)) continue;
        this.remove(o);
        this.L.onCancelled(o.id, o.owner, o.qty, reason);
        changed = true;
        n++;
      }
      if (changed) this.L.onLevel(o0.bookSide as BookSide, o0.yesPrice, this.levelTotal(o0.bookSide, o0.yesPrice));
    }
    return n;
  }

  cancelAll(owner: number): number {
    return this.sweep((o) => o.owner === owner, CancelReason.USER);
  }

  expire(now: number): number {
    if (!(now > this.clock)) return 0;
    this.clock = now;
    const due = this.book.filter((o) => o.gtd && o.expiresAt <= now).sort((a, b) => a.expiresAt - b.expiresAt || a.id - b.id);
    for (const o of due) {
      this.remove(o);
      this.L.onExpired(o.id, o.owner, o.qty);
      this.L.onLevel(o.bookSide as BookSide, o.yesPrice, this.levelTotal(o.bookSide, o.yesPrice));
    }
    return due.length;
  }

  halt(): boolean {
    if (this.state !== 'OPEN') return false;
    this.state = 'HALTED';
    return true;
  }
  resume(): boolean {
    if (this.state !== 'HALTED') return false;
    this.state = 'OPEN';
    return true;
  }
  close(): number {
    if (this.state === 'CLOSED') return 0;
    this.state = 'CLOSED';
    return this.sweep(() => true, CancelReason.CLOSED);
  }

  snapshot(): BookSnapshot {
    const orders: RestingOrder[] = this.priorityOrder().map((o) => ({
      id: o.id,
      owner: o.owner,
      outcome: o.outcome === 0 ? 'YES' : 'NO',
      side: o.side === 0 ? 'buy' : 'sell',
      price: o.outcome === 0 ? o.yesPrice : 100 - o.yesPrice,
      qty: o.qty,
      tif: o.gtd ? 'GTD' : 'GTC',
      expiresAt: o.gtd ? o.expiresAt : null,
      postOnly: o.postOnly,
      stp: STP_NAMES[o.stp]!,
    }));
    return { version: 1, tick: this.tick, state: this.state, clock: this.clock === -Infinity ? null : this.clock, orders };
  }
}
