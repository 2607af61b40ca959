// Property-based tests over random command streams. After EVERY command:
// - the engine emits exactly the reference implementation's events, and has the same state;
// - a book restored from a snapshot taken mid-stream behaves identically;
// - the book is never crossed and its internal structure is consistent;
// - no quantity is created or lost, per order and in total;
// - YES outstanding == NO outstanding == minted − merged, collateral == 100 × pairs;
// - fees are never negative; settlement (YES, NO, VOID) pays out exactly the collateral.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EventCollector,
  FeeSchedule,
  MarketBook,
  PositionBook,
  settle,
  type EngineEvent,
  type FeeRate,
  type FillEvent,
} from '../src/index.js';
import { apply, Concretizer, Pair, rawCommandArb, type Command, type RawCommand } from './harness.js';

interface OrderRecord {
  id: number;
  placed: number;
  filled: number;
  cancelled: number;
  expired: number;
  reduced: number;
}

function sameJson(a: unknown, b: unknown): void {
  if (JSON.stringify(a) !== JSON.stringify(b)) expect(a).toEqual(b);
}

const feeRateArb: fc.Arbitrary<FeeRate> = fc.oneof(
  fc.integer({ min: 0, max: 2000 }),
  fc.record({ num: fc.integer({ min: 0, max: 50 }), den: fc.integer({ min: 1, max: 400 }) }),
);

/** Cheap assertion for the per-command checks (vitest's expect is too slow to call ~50 times per command). */
function check(cond: boolean, what: string, detail?: unknown): void {
  if (!cond) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

function runStream(tick: number, raws: RawCommand[], snapAt: number, taker: FeeRate, maker: FeeRate): void {
  const pair = new Pair(tick);
  const conc = new Concretizer(() => pair.engine.orders().map((o) => o.id));
  const pos = new PositionBook();
  const fees = new FeeSchedule({ taker, maker });
  const latest = new Map<number, OrderRecord>();
  let placedTotal = 0;
  let doneTotal = 0; // filled + cancelled + expired + reduced, over all orders
  let minted = 0;
  let merged = 0;
  let restored: { book: MarketBook; ev: EventCollector } | undefined;

  raws.forEach((raw, i) => {
    if (i === snapAt) {
      const snap = JSON.parse(JSON.stringify(pair.engine.snapshot()));
      const ev = new EventCollector();
      restored = { book: MarketBook.restore(snap, ev), ev };
      sameJson(restored.book.snapshot(), pair.engine.snapshot());
    }
    let c: Command = conc.concrete(raw);
    // Server-side rule the engine does not enforce: only sell shares you hold and have not offered already.
    if (c.t === 'place' && c.side === 1 && (c.outcome === 0 || c.outcome === 1)) {
      const outcome = c.outcome === 0 ? 'YES' : 'NO';
      const held = pos.position(c.owner, outcome).qty;
      const owner = c.owner;
      const offered = pair.engine
        .orders()
        .filter((o) => o.owner === owner && o.outcome === outcome && o.side === 'sell')
        .reduce((a, o) => a + o.qty, 0);
      if (held - offered < c.qty) c = { ...c, side: 0 };
    }

    const [ev, refEv] = pair.step(c);
    sameJson(ev, refEv);
    sameJson(pair.engine.snapshot(), pair.ref.snapshot());
    check(pair.engine.bestBid === pair.ref.bestBid && pair.engine.bestAsk === pair.ref.bestAsk, 'best prices differ from reference');
    if (restored) {
      apply(restored.book, c);
      sameJson(restored.ev.drain(), ev);
    }

    // never crossed, internally consistent
    pair.engine.validate();
    check(pair.engine.bestBid < pair.engine.bestAsk, 'book crossed');

    // per-order quantity accounting, positions, fees
    const touched = new Set<OrderRecord>();
    const rec = (id: number): OrderRecord => {
      const r = latest.get(id);
      check(r !== undefined, 'event for an order never accepted', id);
      touched.add(r!);
      return r!;
    };
    for (const e of ev as EngineEvent[]) {
      switch (e.type) {
        case 'accepted': {
          check(c.t === 'place', 'accepted outside place');
          const placed = c.t === 'place' ? c.qty : NaN;
          const r = { id: e.id, placed, filled: 0, cancelled: 0, expired: 0, reduced: 0 };
          latest.set(e.id, r);
          touched.add(r);
          placedTotal += placed;
          break;
        }
        case 'fill': {
          rec(e.makerId).filled += e.qty;
          rec(e.takerId).filled += e.qty;
          doneTotal += 2 * e.qty;
          checkFillKind(e);
          if (e.kind === 'mint') minted += e.qty;
          if (e.kind === 'merge') merged += e.qty;
          pos.applyFill(e);
          const f = fees.forFill(e);
          check(Number.isInteger(f.maker) && Number.isInteger(f.taker) && f.maker >= 0 && f.taker >= 0, 'fee negative or fractional', f);
          break;
        }
        case 'cancelled':
          rec(e.id).cancelled += e.qty;
          doneTotal += e.qty;
          break;
        case 'expired':
          rec(e.id).expired += e.qty;
          doneTotal += e.qty;
          break;
        case 'reduced':
          rec(e.id).reduced += e.by;
          doneTotal += e.by;
          break;
        default:
          break;
      }
    }
    // every order whose quantity changed: placed == filled + cancelled + expired + reduced + resting
    for (const r of touched) {
      const resting = latest.get(r.id) === r ? (pair.engine.order(r.id)?.qty ?? 0) : 0;
      check(r.filled + r.cancelled + r.expired + r.reduced + resting === r.placed, 'order quantity not conserved', { ...r, resting });
    }
    // and in total
    const restingTotal = pair.engine.orders().reduce((a, o) => a + o.qty, 0);
    check(doneTotal + restingTotal === placedTotal, 'total quantity not conserved', { placedTotal, doneTotal, restingTotal });

    // supply and collateral
    const pairs = minted - merged;
    check(pos.outstanding('YES') === pairs && pos.outstanding('NO') === pairs, 'YES/NO outstanding != minted - merged');
    check(pos.pairs === pairs && pos.collateral === 100 * pairs, 'collateral != 100 x pairs');
    let netCash = 0;
    for (const o of pos.owners()) {
      const { paid, received } = pos.cashFlow(o);
      netCash += paid - received;
      check(pos.position(o, 'YES').qty >= 0 && pos.position(o, 'NO').qty >= 0, 'negative holding');
    }
    check(netCash === pos.collateral, 'net cash paid in != collateral');

    // settlement pays out exactly the collateral, and is zero-sum in P&L
    for (const res of ['YES', 'NO', 'VOID'] as const) {
      const s = settle(pos, res);
      check(s.total === s.collateral && s.total === 100 * pairs, 'settlement does not balance', s);
      check(s.payouts.reduce((a, p) => a + p.pnl, 0) === 0, 'settlement P&L not zero-sum', s);
      if (res !== 'VOID') check(s.payouts.every((p) => p.amount >= 0), 'negative payout', s);
    }
  });
}

function checkFillKind(e: FillEvent): void {
  const expected = e.makerSide !== e.takerSide ? 'transfer' : e.takerSide === 'buy' ? 'mint' : 'merge';
  check(e.kind === expected, 'fill kind', e);
  // transfers are within one outcome, mints and merges pair a YES order with a NO order
  check(e.kind === 'transfer' ? e.makerOutcome === e.takerOutcome : e.makerOutcome !== e.takerOutcome, 'fill outcomes', e);
  check(e.qty > 0 && e.price >= 1 && e.price <= 99, 'fill qty/price', e);
}

const streamArb = (tick: number, maxLength: number, closeWeight?: number) =>
  fc.record({
    raws: fc.array(rawCommandArb(tick, closeWeight), { minLength: Math.ceil(maxLength / 2), maxLength }),
    snapAt: fc.nat({ max: maxLength }),
    taker: feeRateArb,
    maker: feeRateArb,
  });

describe('random command streams', () => {
  it('tick 1: engine matches the reference event for event, and all invariants hold after every command', () => {
    fc.assert(
      fc.property(streamArb(1, 60), ({ raws, snapAt, taker, maker }) => runStream(1, raws, snapAt, taker, maker)),
      { numRuns: 1500, seed: 424242 },
    );
  });

  it('tick 5: same properties on a coarser price grid', () => {
    fc.assert(
      fc.property(streamArb(5, 60), ({ raws, snapAt, taker, maker }) => runStream(5, raws, snapAt, taker, maker)),
      { numRuns: 500, seed: 777 },
    );
  });

  it('long streams (deep books): same properties over 600 commands', () => {
    fc.assert(
      fc.property(streamArb(1, 600, 0), ({ raws, snapAt, taker, maker }) => runStream(1, raws, snapAt, taker, maker)),
      { numRuns: 25, seed: 99 },
    );
  });
});
