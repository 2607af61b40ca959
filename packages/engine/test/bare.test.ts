// The benchmark's bare reference (test/bare.ts) is an honest matcher: on random streams of GTC and
// IOC orders, cancels and moves it makes exactly the engine's trades (maker, taker, price, qty, in
// order) and leaves exactly the engine's depth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventCollector, MarketBook, Outcome, Tif, type FillEvent } from '../src/index.js';
import { BareBook } from './bare.js';

type Raw = { t: 'gtc' | 'ioc'; side: number; price: number; qty: number } | { t: 'cancel' | 'move'; pick: number; price: number };

const rawArb: fc.Arbitrary<Raw> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('gtc' as const), side: fc.integer({ min: 0, max: 1 }), price: fc.integer({ min: 35, max: 65 }), qty: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('ioc' as const), side: fc.integer({ min: 0, max: 1 }), price: fc.integer({ min: 1, max: 99 }), qty: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('cancel' as const), pick: fc.nat(), price: fc.constant(0) }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('move' as const), pick: fc.nat(), price: fc.integer({ min: 30, max: 70 }) }) },
);

/** Runs the stream through both; returns both trade lists and both depths. */
function run(raws: Raw[]) {
  const ev = new EventCollector(false);
  const engine = new MarketBook(ev, { capacity: 16 });
  const bare = new BareBook(raws.length + 1);
  bare.log = [];
  const engineTrades: number[] = [];
  let nextId = 1;
  for (const r of raws) {
    if (r.t === 'gtc' || r.t === 'ioc') {
      const id = nextId++;
      engine.place(id, id % 7, Outcome.YES, r.side, r.price, r.qty, r.t === 'gtc' ? Tif.GTC : Tif.IOC, 0, 0, 0);
      bare.place(id, r.side, r.price, r.qty, r.t === 'ioc');
    } else {
      const live = engine.orders();
      if (live.length === 0) continue;
      const id = live[(r as { pick: number }).pick % live.length]!.id;
      if (r.t === 'cancel') {
        engine.cancel(id);
        bare.cancel(id);
      } else {
        engine.move(id, r.price, 0);
        bare.move(id, r.price);
      }
    }
    for (const e of ev.drain()) {
      if (e.type === 'fill') engineTrades.push((e as FillEvent).makerId, e.takerId, e.price, e.qty);
    }
    expect([bare.bestBid, bare.bestAsk]).toEqual([engine.bestBid, engine.bestAsk]);
  }
  return { engineTrades, bareTrades: bare.log, engine, bare };
}

describe('bare reference of the engine benchmark', () => {
  it('makes the same trades and leaves the same depth as the engine on random streams', () => {
    fc.assert(
      fc.property(fc.array(rawArb, { minLength: 10, maxLength: 300 }), (raws) => {
        const { engineTrades, bareTrades, engine, bare } = run(raws);
        expect(bareTrades).toEqual(engineTrades);
        expect(bare.levels(0)).toEqual(engine.levels(0));
        expect(bare.levels(1)).toEqual(engine.levels(1));
        expect(bare.trades).toBe(engineTrades.length / 4);
      }),
      { numRuns: 300, seed: 31337 },
    );
  });

  it('trades on a long stream (the check above is not vacuous)', () => {
    const raws = fc.sample(rawArb, { numRuns: 5000, seed: 7 });
    const { engineTrades, bareTrades, bare } = run(raws);
    expect(engineTrades.length).toBeGreaterThan(400);
    expect(bareTrades).toEqual(engineTrades);
    expect(bare.tradedQty).toBe(engineTrades.reduce((a, v, i) => (i % 4 === 3 ? a + v : a), 0));
  });
});
