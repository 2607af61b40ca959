// The bare reference of the engine benchmark (bench/engine.ts): what the hardware allows for the
// same command stream. A flat array of price levels per side, each a FIFO queue of orders linked
// through typed arrays indexed directly by order id (the stream's ids are dense: no hash), price-
// time priority, trades at the maker's price, partial fills. No events, no listener, no owners,
// no self-trade prevention, no expiry, no validation, no level totals, no growth: only GTC and IOC
// limit orders on YES bids/asks, cancel, and move (cancel-and-replace that loses priority and may
// trade). Correctness is tested against the engine (test/bare.test.ts: same fills, same depth).

const LV = 101;
const NIL = -1;

export class BareBook {
  /** Trades and traded shares, counted (not reported: there are no events). */
  trades = 0;
  tradedQty = 0;
  /** Tests only: when set, every trade is appended as maker id, taker id, price, qty. */
  log: number[] | null = null;

  // per order id: remaining quantity (0 = not resting), price (YES cents), side (0 bid, 1 ask), FIFO links
  private readonly qty: Int32Array;
  private readonly px: Int32Array;
  private readonly sd: Uint8Array;
  private readonly nx: Int32Array;
  private readonly pv: Int32Array;
  // per level (side * LV + price): FIFO head and tail
  private readonly head = new Int32Array(2 * LV).fill(NIL);
  private readonly tail = new Int32Array(2 * LV).fill(NIL);
  /** best[0] = best bid (0 if none), best[1] = best ask (100 if none). */
  private readonly best = new Int32Array([0, 100]);

  /** `maxId`: the largest order id of the stream. */
  constructor(maxId: number) {
    this.qty = new Int32Array(maxId + 1);
    this.px = new Int32Array(maxId + 1);
    this.sd = new Uint8Array(maxId + 1);
    this.nx = new Int32Array(maxId + 1);
    this.pv = new Int32Array(maxId + 1);
  }

  get bestBid(): number {
    return this.best[0]!;
  }
  get bestAsk(): number {
    return this.best[1]!;
  }

  /** A limit order (side 0 = bid, 1 = ask) at a YES price; `ioc`: the unfilled rest is dropped. */
  place(id: number, side: number, price: number, qty: number, ioc: boolean): void {
    const rem = this.match(id, side, price, qty);
    if (rem > 0 && !ioc) this.rest(id, side, price, rem);
  }

  cancel(id: number): void {
    if (this.qty[id]! > 0) {
      this.unlink(id);
      this.qty[id] = 0;
    }
  }

  /** Moves a resting order to a new price: it leaves its queue, may trade, and rests at the tail. */
  move(id: number, price: number): void {
    const q = this.qty[id]!;
    if (q === 0) return;
    this.unlink(id);
    this.qty[id] = 0;
    const side = this.sd[id]!;
    const rem = this.match(id, side, price, q);
    if (rem > 0) this.rest(id, side, price, rem);
  }

  /** Resting quantity per non-empty level of one side, best first, as [price, total] (tests). */
  levels(side: number): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 1; i < 100; i++) {
      const p = side === 0 ? 100 - i : i;
      let t = 0;
      for (let o = this.head[side * LV + p]!; o !== NIL; o = this.nx[o]!) t += this.qty[o]!;
      if (t > 0) out.push([p, t]);
    }
    return out;
  }

  private match(id: number, side: number, price: number, qty: number): number {
    const head = this.head;
    const nx = this.nx;
    const oq = this.qty;
    let rem = qty;
    if (side === 0) {
      // a bid takes asks from the lowest up to its price
      let p = this.best[1]!;
      while (rem > 0 && p <= price) {
        const li = LV + p;
        let m = head[li]!;
        while (m !== NIL) {
          const mq = oq[m]!;
          if (mq <= rem) {
            rem -= mq;
            oq[m] = 0;
            this.trade(m, id, p, mq);
            m = nx[m]!;
            if (rem === 0) break;
          } else {
            oq[m] = mq - rem;
            this.trade(m, id, p, rem);
            rem = 0;
            break;
          }
        }
        head[li] = m;
        if (m !== NIL) {
          this.pv[m] = NIL;
          break;
        }
        this.tail[li] = NIL;
        p++;
        while (p < 100 && head[LV + p] === NIL) p++;
        this.best[1] = p;
      }
    } else {
      // an ask takes bids from the highest down to its price
      let p = this.best[0]!;
      while (rem > 0 && p >= price) {
        const li = p;
        let m = head[li]!;
        while (m !== NIL) {
          const mq = oq[m]!;
          if (mq <= rem) {
            rem -= mq;
            oq[m] = 0;
            this.trade(m, id, p, mq);
            m = nx[m]!;
            if (rem === 0) break;
          } else {
            oq[m] = mq - rem;
            this.trade(m, id, p, rem);
            rem = 0;
            break;
          }
        }
        head[li] = m;
        if (m !== NIL) {
          this.pv[m] = NIL;
          break;
        }
        this.tail[li] = NIL;
        p--;
        while (p > 0 && head[p] === NIL) p--;
        this.best[0] = p;
      }
    }
    return rem;
  }

  private trade(maker: number, taker: number, price: number, qty: number): void {
    this.trades++;
    this.tradedQty += qty;
    if (this.log !== null) this.log.push(maker, taker, price, qty);
  }

  private rest(id: number, side: number, price: number, qty: number): void {
    const li = side * LV + price;
    const t = this.tail[li]!;
    this.qty[id] = qty;
    this.px[id] = price;
    this.sd[id] = side;
    this.nx[id] = NIL;
    this.pv[id] = t;
    if (t === NIL) this.head[li] = id;
    else this.nx[t] = id;
    this.tail[li] = id;
    if (side === 0) {
      if (price > this.best[0]!) this.best[0] = price;
    } else if (price < this.best[1]!) this.best[1] = price;
  }

  private unlink(id: number): void {
    const side = this.sd[id]!;
    const price = this.px[id]!;
    const li = side * LV + price;
    const p = this.pv[id]!;
    const n = this.nx[id]!;
    if (p === NIL) this.head[li] = n;
    else this.nx[p] = n;
    if (n === NIL) this.tail[li] = p;
    else this.pv[n] = p;
    if (p === NIL && n === NIL) {
      // the level emptied: if it was the best, find the next one
      if (side === 0) {
        if (price === this.best[0]) {
          let q = price - 1;
          while (q > 0 && this.head[q] === NIL) q--;
          this.best[0] = q;
        }
      } else if (price === this.best[1]) {
        let q = price + 1;
        while (q < 100 && this.head[LV + q] === NIL) q++;
        this.best[1] = q;
      }
    }
  }
}
