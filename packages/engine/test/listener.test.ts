// A listener that throws must not corrupt the book: the engine catches the error, finishes the
// command (delivering every one of its events), then rethrows the listener's first error. Checked on a hand-made case (the ghost order a throwing onFill used to
// leave behind) and on random command streams against a twin book whose listener never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EventCollector,
  MarketBook,
  type BookSide,
  type CancelReason,
  type FillKind,
  type OrderKind,
  type RejectReason,
} from '../src/index.js';
import { apply, Concretizer, rawCommandArb } from './harness.js';

/** Records every event like EventCollector, then throws on the events whose ordinal is in `throwAt` (or on every event of `throwOn` type). */
class ThrowingListener extends EventCollector {
  seen = 0;
  constructor(
    private readonly throwAt: ReadonlySet<number> = new Set(),
    private readonly throwOn: string | null = null,
  ) {
    super();
  }
  private after(type: string): void {
    this.seen++;
    if (this.throwAt.has(this.seen) || type === this.throwOn) throw new Error(`listener failed on event ${this.seen} (${type})`);
  }
  override onAccepted(id: number, owner: number): void {
    super.onAccepted(id, owner);
    this.after('accepted');
  }
  override onRejected(id: number, owner: number, reason: RejectReason): void {
    super.onRejected(id, owner, reason);
    this.after('rejected');
  }
  override onFill(a: number, b: number, c: number, d: number, p: number, q: number, k: FillKind, mk: OrderKind, tk: OrderKind, mr: number, tr: number): void {
    super.onFill(a, b, c, d, p, q, k, mk, tk, mr, tr);
    this.after('fill');
  }
  override onCancelled(id: number, owner: number, qty: number, reason: CancelReason): void {
    super.onCancelled(id, owner, qty, reason);
    this.after('cancelled');
  }
  override onExpired(id: number, owner: number, qty: number): void {
    super.onExpired(id, owner, qty);
    this.after('expired');
  }
  override onReduced(id: number, owner: number, by: number, remaining: number): void {
    super.onReduced(id, owner, by, remaining);
    this.after('reduced');
  }
  override onMoved(id: number, owner: number, price: number, qty: number): void {
    super.onMoved(id, owner, price, qty);
    this.after('moved');
  }
  override onLevel(side: BookSide, price: number, total: number): void {
    super.onLevel(side, price, total);
    this.after('level');
  }
}

describe('a listener that throws', () => {
  it('a throwing onFill leaves no ghost order: the filled maker is gone, the book is valid, the id is free again', () => {
    const l = new ThrowingListener(new Set(), 'fill');
    const book = new MarketBook(l, { capacity: 16 });
    book.submit({ id: 1, owner: 1, outcome: 'YES', side: 'sell', price: 50, qty: 10 });
    book.submit({ id: 3, owner: 1, outcome: 'YES', side: 'sell', price: 51, qty: 5 });
    l.drain();
    expect(() => book.submit({ id: 2, owner: 2, outcome: 'YES', side: 'buy', price: 51, qty: 12 })).toThrow(/event \d+ \(fill\)/);
    book.validate();
    expect(book.order(1)).toBeUndefined();
    expect(book.order(3)).toMatchObject({ qty: 3 });
    expect(book.size).toBe(1);
    expect(book.levels(1)).toEqual([[51, 3]]);
    // Every event of the command was still delivered, in order, the one that threw included.
    expect(l.drain().map((e) => e.type)).toEqual(['accepted', 'fill', 'level', 'fill', 'level']);
    // The maker's id is no longer taken: a new order with it rests.
    const ok = new EventCollector();
    book.setListener(ok);
    expect(book.submit({ id: 1, owner: 3, outcome: 'YES', side: 'buy', price: 40, qty: 1 })).toBe(0);
    expect(ok.drain().map((e) => e.type)).toEqual(['accepted', 'level']);
    book.validate();
  });

  it('a throwing onCancelled during close() still closes the whole book and reports every cancel', () => {
    const l = new ThrowingListener(new Set(), 'cancelled');
    const book = new MarketBook(l, { capacity: 16 });
    expect(() => {
      for (let i = 1; i <= 6; i++) book.submit({ id: i, owner: i, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 30 + i, qty: i });
    }).not.toThrow();
    l.drain();
    expect(() => book.close()).toThrow(/cancelled/);
    expect(book.size).toBe(0);
    expect(book.state).toBe('CLOSED');
    expect(l.drain().filter((e) => e.type === 'cancelled')).toHaveLength(6);
    book.validate();
  });

  it('on random command streams, a book whose listener throws stays identical to one whose listener never does', () => {
    const arb = fc.record({
      raws: fc.array(rawCommandArb(1), { minLength: 20, maxLength: 120 }),
      throwAt: fc.uniqueArray(fc.integer({ min: 1, max: 600 }), { maxLength: 80 }),
    });
    fc.assert(
      fc.property(arb, ({ raws, throwAt }) => {
        const bad = new ThrowingListener(new Set(throwAt));
        const good = new EventCollector();
        const b1 = new MarketBook(bad, { capacity: 16 });
        const b2 = new MarketBook(good, { capacity: 16 });
        const conc = new Concretizer(() => b2.orders().map((o) => o.id));
        for (const raw of raws) {
          const c = conc.concrete(raw);
          const before = bad.seen;
          let thrown: unknown = null;
          try {
            apply(b1, c);
          } catch (err) {
            thrown = err;
          }
          apply(b2, c);
          const want = good.drain();
          // The same events, all of them, in the same order.
          expect(bad.drain()).toEqual(want);
          // The command threw exactly when one of its events threw, with the first such error.
          const firstThrow = throwAt.filter((n) => n > before && n <= bad.seen).sort((x, y) => x - y)[0];
          if (firstThrow === undefined) expect(thrown).toBeNull();
          else expect((thrown as Error).message).toMatch(new RegExp(`on event ${firstThrow} `));
          // Same state, and a consistent one.
          expect(b1.snapshot()).toEqual(b2.snapshot());
          b1.validate();
        }
      }),
      { numRuns: 300, seed: 9090 },
    );
  });
});
