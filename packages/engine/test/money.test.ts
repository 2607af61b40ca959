import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeeSchedule, PositionBook, settle, tradingFee, type FillLike } from '../src/index.js';

const fill = (makerOwner: number, maker: string, takerOwner: number, taker: string, price: number, qty: number): FillLike => {
  const [mo, ms] = maker.split(' ') as ['YES' | 'NO', 'buy' | 'sell'];
  const [to, ts] = taker.split(' ') as ['YES' | 'NO', 'buy' | 'sell'];
  const kind = ms !== ts ? 'transfer' : ts === 'buy' ? 'mint' : 'merge';
  return { makerOwner, takerOwner, price, qty, kind, makerOutcome: mo, makerSide: ms, takerOutcome: to, takerSide: ts };
};

describe('fees', () => {
  it('taker fee is ceil(rate x q x p x (100 - p) / 100) whole cents', () => {
    expect(tradingFee(700, 1, 50)).toBe(2); // 0.07 * 0.25 $ = 1.75 c
    expect(tradingFee(700, 100, 50)).toBe(175);
    expect(tradingFee(700, 1, 1)).toBe(1); // 0.0693 c rounds up
    expect(tradingFee(700, 3, 10)).toBe(2); // 1.89 c
    expect(tradingFee(0, 1000, 50)).toBe(0);
  });

  it('a rational rate gives the same fee as the equivalent basis points', () => {
    for (const [q, p] of [[1, 50], [17, 3], [250, 77], [1, 99]] as const) {
      expect(tradingFee({ num: 7, den: 100 }, q, p)).toBe(tradingFee(700, q, p));
    }
    expect(tradingFee({ num: 1n, den: 3n }, 3, 50)).toBe(25); // exactly 1/3 * 3 * 2500 / 100
  });

  it('the fee is symmetric in the price, so it is the same for either outcome', () => {
    for (let p = 1; p < 100; p++) expect(tradingFee(350, 13, p)).toBe(tradingFee(350, 13, 100 - p));
  });

  it('uses exact integer maths at large quantities', () => {
    expect(tradingFee(700, 1_000_000_000, 33)).toBe(1_547_700_000);
    // 9999 * 999999999 * 33 * 67 exceeds 2^53: a float computation would be off
    const exact = (9999n * 999_999_999n * 33n * 67n + 999_999n) / 1_000_000n;
    expect(BigInt(tradingFee(9999, 999_999_999, 33))).toBe(exact);
  });

  it('maker and taker rates are configured separately', () => {
    const f = new FeeSchedule({ taker: 700, maker: { num: 1, den: 100 } });
    expect(f.forFill({ qty: 100, price: 50 })).toEqual({ taker: 175, maker: 25 });
    expect(new FeeSchedule().forFill({ qty: 100, price: 50 })).toEqual({ taker: 0, maker: 0 });
  });

  it('negative or malformed rates are refused, so fees are never negative', () => {
    expect(() => tradingFee(-1, 1, 50)).toThrow(RangeError);
    expect(() => tradingFee(1.5, 1, 50)).toThrow(RangeError);
    expect(() => tradingFee({ num: -1, den: 2 }, 1, 50)).toThrow(RangeError);
    expect(() => tradingFee({ num: 1, den: 0 }, 1, 50)).toThrow(RangeError);
    expect(() => new FeeSchedule({ maker: -5 })).toThrow(RangeError);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 100 }), (bps, q, p) => {
        const fee = BigInt(tradingFee(bps, q, p));
        const num = BigInt(bps) * BigInt(q) * BigInt(p) * BigInt(100 - p); // fee = ceil(num / 1e6)
        return fee >= 0n && fee * 1_000_000n >= num && (fee - 1n) * 1_000_000n < num + (fee === 0n ? 1_000_000n : 0n);
      }),
    );
  });
});

describe('position accounting', () => {
  it('tracks quantity, cost and realised P&L per owner and outcome from fills', () => {
    const pb = new PositionBook();
    pb.applyFill(fill(1, 'NO buy', 2, 'YES buy', 60, 10)); // mint: 2 pays 60 for YES, 1 pays 40 for NO
    expect(pb.position(2, 'YES')).toMatchObject({ qty: 10, cost: 600, avgPrice: 60, realized: 0 });
    expect(pb.position(1, 'NO')).toMatchObject({ qty: 10, cost: 400, avgPrice: 40, realized: 0 });
    pb.applyFill(fill(2, 'YES sell', 3, 'YES buy', 75, 4)); // transfer: 2 sells 4 YES at 75
    expect(pb.position(2, 'YES')).toMatchObject({ qty: 6, cost: 360, realized: 60 });
    expect(pb.position(3, 'YES')).toMatchObject({ qty: 4, cost: 300 });
    expect(pb.cashFlow(2)).toEqual({ paid: 600, received: 300 });
  });

  it('average cost: the released cost basis is truncated; the last share releases the remainder, so round trips are exact', () => {
    const pb = new PositionBook();
    pb.applyFill(fill(9, 'NO buy', 1, 'YES buy', 33, 1));
    pb.applyFill(fill(9, 'NO buy', 1, 'YES buy', 34, 2));
    expect(pb.position(1, 'YES')).toMatchObject({ qty: 3, cost: 101 });
    pb.applyFill(fill(1, 'YES sell', 8, 'YES buy', 40, 1)); // releases floor(101/3) = 33
    expect(pb.position(1, 'YES')).toMatchObject({ qty: 2, cost: 68, realized: 7 });
    pb.applyFill(fill(1, 'YES sell', 8, 'YES buy', 40, 2)); // releases the remaining 68
    expect(pb.position(1, 'YES')).toMatchObject({ qty: 0, cost: 0, avgPrice: 0, realized: 19 });
    const { paid, received } = pb.cashFlow(1);
    expect(received - paid).toBe(19);
  });

  it('mint locks 100 cents per pair, merge releases it, transfer changes nothing', () => {
    const pb = new PositionBook();
    pb.applyFill(fill(1, 'YES buy', 2, 'NO buy', 30, 5));
    expect(pb.collateral).toBe(500);
    pb.applyFill(fill(1, 'YES sell', 3, 'YES buy', 50, 2));
    expect(pb.collateral).toBe(500);
    pb.applyFill(fill(3, 'YES sell', 2, 'NO sell', 45, 2));
    expect(pb.collateral).toBe(300);
    expect(pb.outstanding('YES')).toBe(3);
    expect(pb.outstanding('NO')).toBe(3);
    expect([pb.mintedPairs, pb.mergedPairs, pb.pairs]).toEqual([5, 2, 3]);
  });

  it('selling more than is held throws and changes nothing', () => {
    const pb = new PositionBook();
    pb.applyFill(fill(1, 'YES buy', 2, 'NO buy', 50, 1));
    expect(() => pb.applyFill(fill(3, 'YES buy', 1, 'YES sell', 50, 2))).toThrow(RangeError);
    expect(pb.position(1, 'YES').qty).toBe(1);
    expect(pb.position(3, 'YES').qty).toBe(0);
  });
});

describe('settlement', () => {
  function market(): PositionBook {
    const pb = new PositionBook();
    pb.applyFill(fill(1, 'NO buy', 2, 'YES buy', 60, 10)); // 2: YES 10 @60, 1: NO 10 @40
    pb.applyFill(fill(2, 'YES sell', 3, 'YES buy', 70, 4)); // 2 realises +40
    pb.applyFill(fill(4, 'NO buy', 3, 'YES buy', 55, 2)); // 3: YES +2 @55, 4: NO 2 @45
    return pb;
  }

  it('YES pays 100 cents per YES share, exactly the collateral', () => {
    const s = settle(market(), 'YES');
    expect(s.collateral).toBe(1200);
    expect(s.payouts).toEqual([
      { owner: 1, amount: 0, pnl: -400 },
      { owner: 2, amount: 600, pnl: 600 + 280 - 600 },
      { owner: 3, amount: 600, pnl: 600 - 280 - 110 },
      { owner: 4, amount: 0, pnl: -90 },
    ]);
    expect(s.total).toBe(s.collateral);
  });

  it('NO pays 100 cents per NO share, exactly the collateral', () => {
    const s = settle(market(), 'NO');
    expect(s.payouts.map((p) => [p.owner, p.amount])).toEqual([
      [1, 1000],
      [2, 0],
      [3, 0],
      [4, 200],
    ]);
    expect(s.total).toBe(1200);
    expect(s.payouts.reduce((a, p) => a + p.pnl, 0)).toBe(0);
  });

  it('VOID refunds each owner the net cash they paid in, and the total is the collateral', () => {
    const s = settle(market(), 'VOID');
    expect(s.payouts).toEqual([
      { owner: 1, amount: 400, pnl: 0 },
      { owner: 2, amount: 600 - 280, pnl: 0 },
      { owner: 3, amount: 280 + 110, pnl: 0 },
      { owner: 4, amount: 90, pnl: 0 },
    ]);
    expect(s.total).toBe(1200);
  });

  it('an empty market settles to nothing', () => {
    expect(settle(new PositionBook(), 'YES')).toEqual({ resolution: 'YES', payouts: [], total: 0, collateral: 0 });
  });
});
