import type { FillKindName, OutcomeName, SideName } from './constants.js';

/** The parts of a fill that position accounting needs (an `EventCollector` FillEvent fits). */
export interface FillLike {
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
}

/** One owner's holding of one outcome. All money in integer cents. */
export interface Position {
  owner: number;
  outcome: OutcomeName;
  /** Shares held. */
  qty: number;
  /** Cost basis of the shares held (cents). */
  cost: number;
  /** cost / qty, for display only (0 when flat). The exact value is the pair (cost, qty). */
  avgPrice: number;
  /** Realised P&L from sales (cents). */
  realized: number;
}

interface Leg {
  qty: number;
  cost: number;
  realized: number;
}
interface OwnerState {
  legs: [Leg, Leg]; // YES, NO
  paid: number; // cents paid for buys
  received: number; // cents received for sales
}

/**
 * Position accounting from fills, average-cost method, integer cents.
 *
 * Buy q at x (cents of that outcome): qty += q, cost += q·x.
 * Sell q at x: released = floor(cost · q / qty) (exact BigInt maths), cost -= released,
 * realized += q·x − released, qty -= q. Truncation leaves any sub-cent remainder in
 * the cost of the shares still held; it is released with the last share, so over
 * any round trip realised P&L is exact: when qty returns to 0,
 * realized == proceeds − cost paid, and at every moment
 * realized − (proceeds − paid) == −cost.
 *
 * Selling more shares than held throws (the server must check holdings, counting
 * open sell orders, before placing a sell); the fill is then not applied.
 *
 * Collateral: a MINT locks 100 cents per share, a MERGE releases 100 per share,
 * so collateral == 100 × (minted − merged) == 100 × YES outstanding == 100 × NO outstanding.
 */
export class PositionBook {
  private readonly owners_ = new Map<number, OwnerState>();
  private minted = 0;
  private merged = 0;

  /** Pairs currently outstanding (minted − merged). */
  get pairs(): number {
    return this.minted - this.merged;
  }
  /** Collateral locked, in cents. */
  get collateral(): number {
    return 100 * (this.minted - this.merged);
  }
  get mintedPairs(): number {
    return this.minted;
  }
  get mergedPairs(): number {
    return this.merged;
  }

  /** Apply one fill to both parties. Throws (and changes nothing) if a seller does not hold the shares. */
  applyFill(f: FillLike): void {
    const mo = f.makerOutcome === 'YES' ? 0 : 1;
    const to = f.takerOutcome === 'YES' ? 0 : 1;
    const ms = f.makerSide === 'buy' ? 0 : 1;
    const ts = f.takerSide === 'buy' ? 0 : 1;
    if (!Number.isSafeInteger(f.qty) || f.qty <= 0) throw new RangeError(`bad fill qty ${f.qty}`);
    if (!Number.isInteger(f.price) || f.price < 1 || f.price > 99) throw new RangeError(`bad fill price ${f.price}`);
    const maker = this.state(f.makerOwner);
    const taker = this.state(f.takerOwner);
    if (ms === 1 && maker.legs[mo].qty < f.qty) throw new RangeError(`owner ${f.makerOwner} sells ${f.qty} ${f.makerOutcome} but holds ${maker.legs[mo].qty}`);
    if (ts === 1 && taker.legs[to].qty < f.qty) throw new RangeError(`owner ${f.takerOwner} sells ${f.qty} ${f.takerOutcome} but holds ${taker.legs[to].qty}`);
    const mx = mo === 0 ? f.price : 100 - f.price;
    const tx = to === 0 ? f.price : 100 - f.price;
    trade(maker, mo, ms, mx, f.qty);
    trade(taker, to, ts, tx, f.qty);
    if (f.kind === 'mint') this.minted += f.qty;
    else if (f.kind === 'merge') this.merged += f.qty;
  }

  /** Position of `owner` in `outcome` (zeros if none). */
  position(owner: number, outcome: OutcomeName): Position {
    const st = this.owners_.get(owner);
    const leg = st?.legs[outcome === 'YES' ? 0 : 1] ?? { qty: 0, cost: 0, realized: 0 };
    return { owner, outcome, qty: leg.qty, cost: leg.cost, avgPrice: leg.qty === 0 ? 0 : leg.cost / leg.qty, realized: leg.realized };
  }

  /** Owners that ever traded, ascending. */
  owners(): number[] {
    return [...this.owners_.keys()].sort((a, b) => a - b);
  }

  /** Cash an owner paid for buys and received for sales (cents, fees excluded). */
  cashFlow(owner: number): { paid: number; received: number } {
    const st = this.owners_.get(owner);
    return { paid: st?.paid ?? 0, received: st?.received ?? 0 };
  }

  /** Total shares of `outcome` held by everyone. */
  outstanding(outcome: OutcomeName): number {
    const i = outcome === 'YES' ? 0 : 1;
    let n = 0;
    for (const st of this.owners_.values()) n += st.legs[i].qty;
    return n;
  }

  private state(owner: number): OwnerState {
    let st = this.owners_.get(owner);
    if (st === undefined) {
      st = { legs: [{ qty: 0, cost: 0, realized: 0 }, { qty: 0, cost: 0, realized: 0 }], paid: 0, received: 0 };
      this.owners_.set(owner, st);
    }
    return st;
  }
}

function trade(st: OwnerState, outcome: number, side: number, px: number, q: number): void {
  const leg = st.legs[outcome as 0 | 1];
  const value = q * px;
  if (side === 0) {
    leg.qty += q;
    leg.cost += value;
    st.paid += value;
  } else {
    const released = leg.qty === q ? leg.cost : Number((BigInt(leg.cost) * BigInt(q)) / BigInt(leg.qty));
    leg.cost -= released;
    leg.realized += value - released;
    leg.qty -= q;
    st.received += value;
  }
}
