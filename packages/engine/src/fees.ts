/**
 * Fee schedule. A fee on a fill of `qty` shares at YES price `p` cents is
 *
 *     fee = ceil(rate × qty × P × (1 − P))  dollars, with P = p / 100,
 *         = ceil(rate × qty × p × (100 − p) / 100)  cents (rounded up to a whole cent).
 *
 * p × (100 − p) is symmetric, so the fee is the same whichever outcome the
 * party trades. `rate` is exact: an integer number of basis points, or a
 * rational { num, den }. All arithmetic is BigInt: no floating point.
 * Example: 700 bps (7%), 1 share at 50 cents -> 0.07 × 0.25 $ = 1.75 c -> 2 cents.
 */
export type FeeRate = number | { num: number | bigint; den: number | bigint };

function toRational(rate: FeeRate): [bigint, bigint] {
  if (typeof rate === 'number') {
    if (!Number.isSafeInteger(rate) || rate < 0) throw new RangeError(`fee rate in basis points must be a non-negative integer, got ${rate}`);
    return [BigInt(rate), 10000n];
  }
  const num = BigInt(rate.num);
  const den = BigInt(rate.den);
  if (num < 0n || den <= 0n) throw new RangeError('fee rate must be num >= 0, den > 0');
  return [num, den];
}

/** Fee in whole cents (never negative) for `qty` shares at YES price `yesPrice` cents. */
export function tradingFee(rate: FeeRate, qty: number, yesPrice: number): number {
  const [num, den] = toRational(rate);
  return feeFromRational(num, den, qty, yesPrice);
}

function feeFromRational(num: bigint, den: bigint, qty: number, yesPrice: number): number {
  if (!Number.isSafeInteger(qty) || qty < 0) throw new RangeError(`qty must be a non-negative integer, got ${qty}`);
  if (!Number.isInteger(yesPrice) || yesPrice < 0 || yesPrice > 100) throw new RangeError(`price must be 0..100 cents, got ${yesPrice}`);
  const n = num * BigInt(qty) * BigInt(yesPrice) * BigInt(100 - yesPrice);
  const d = den * 100n;
  return Number((n + d - 1n) / d);
}

export interface FeeScheduleConfig {
  /** Taker rate (bps integer or rational). Default 0. */
  taker?: FeeRate;
  /** Maker rate (bps integer or rational). Default 0. */
  maker?: FeeRate;
}

/** A configured pair of maker/taker rates. Fees are charged per fill, each rounded up separately. */
export class FeeSchedule {
  private readonly tn: bigint;
  private readonly td: bigint;
  private readonly mn: bigint;
  private readonly md: bigint;
  constructor(config: FeeScheduleConfig = {}) {
    [this.tn, this.td] = toRational(config.taker ?? 0);
    [this.mn, this.md] = toRational(config.maker ?? 0);
  }
  /** Taker fee in cents for a fill of `qty` at YES price `yesPrice`. */
  takerFee(qty: number, yesPrice: number): number {
    return feeFromRational(this.tn, this.td, qty, yesPrice);
  }
  /** Maker fee in cents for a fill of `qty` at YES price `yesPrice`. */
  makerFee(qty: number, yesPrice: number): number {
    return feeFromRational(this.mn, this.md, qty, yesPrice);
  }
  /** Both fees of one fill. */
  forFill(fill: { qty: number; price: number }): { maker: number; taker: number } {
    return { maker: this.makerFee(fill.qty, fill.price), taker: this.takerFee(fill.qty, fill.price) };
  }
}
