// Shared test helpers: a command type, a driver that applies a command to the
// engine or to the reference, and random command generation with fast-check.
import fc from 'fast-check';
import { EventCollector, MarketBook, type BookSnapshot, type EngineEvent } from '../src/index.js';
import { ReferenceBook } from './reference.js';

export type Command =
  | { t: 'place'; id: number; owner: number; outcome: number; side: number; price: number; qty: number; tif: number; expiresAt: number; flags: number; now: number }
  | { t: 'move'; id: number; price: number; now?: number }
  | { t: 'cancel'; id: number }
  | { t: 'reduce'; id: number; by: number }
  | { t: 'cancelAll'; owner: number }
  | { t: 'expire'; now: number }
  | { t: 'halt' }
  | { t: 'resume' }
  | { t: 'close' };

export interface BookLike {
  place(id: number, owner: number, outcome: number, side: number, price: number, qty: number, tif: number, expiresAt: number, flags: number, now: number): number;
  move(id: number, price: number, now?: number): number;
  cancel(id: number): boolean;
  reduce(id: number, by: number): number;
  cancelAll(owner: number): number;
  expire(now: number): number;
  halt(): boolean;
  resume(): boolean;
  close(): number;
  snapshot(): BookSnapshot;
  readonly bestBid: number;
  readonly bestAsk: number;
}

export function apply(b: BookLike, c: Command): void {
  switch (c.t) {
    case 'place':
      b.place(c.id, c.owner, c.outcome, c.side, c.price, c.qty, c.tif, c.expiresAt, c.flags, c.now);
      break;
    case 'move':
      b.move(c.id, c.price, c.now);
      break;
    case 'cancel':
      b.cancel(c.id);
      break;
    case 'reduce':
      b.reduce(c.id, c.by);
      break;
    case 'cancelAll':
      b.cancelAll(c.owner);
      break;
    case 'expire':
      b.expire(c.now);
      break;
    case 'halt':
      b.halt();
      break;
    case 'resume':
      b.resume();
      break;
    case 'close':
      b.close();
      break;
  }
}

/** An engine and the reference, fed the same commands, each with its own event collector. */
export class Pair {
  readonly ev = new EventCollector();
  readonly refEv = new EventCollector();
  engine: MarketBook;
  ref: ReferenceBook;
  constructor(tick: number) {
    this.engine = new MarketBook(this.ev, { tick, capacity: 16 });
    this.ref = new ReferenceBook(this.refEv, tick);
  }
  /** Apply to both; return the engine's events and the reference's events. */
  step(c: Command): [EngineEvent[], EngineEvent[]] {
    apply(this.engine, c);
    apply(this.ref, c);
    return [this.ev.drain(), this.refEv.drain()];
  }
}

// ---------------------------------------------------------------- generation

/** Raw random command; ids are small keys (so duplicates and unknown ids happen), times are deltas. */
export type RawCommand =
  | { t: 'place'; key: number; owner: number; outcome: number; side: number; price: number; qty: number; tif: number; ttl: number; stp: number; postOnly: boolean; dt: number }
  | { t: 'move'; key: number; pick: number; price: number; dt: number }
  | { t: 'cancel'; key: number; pick: number }
  | { t: 'reduce'; key: number; pick: number; by: number }
  | { t: 'cancelAll'; owner: number }
  | { t: 'expire'; dt: number }
  | { t: 'halt' }
  | { t: 'resume' }
  | { t: 'close' };

const KEYS = 40;

function priceArb(tick: number): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.integer({ min: Math.ceil(40 / tick), max: Math.floor(60 / tick) }).map((k) => k * tick) },
    { weight: 8, arbitrary: fc.integer({ min: 1, max: Math.floor(99 / tick) }).map((k) => k * tick).filter((p) => p < 100) },
    { weight: 1, arbitrary: fc.constantFrom(0, 100, 50.5, -5, NaN, 51, 101, 99.99) },
  );
}

/** `closeWeight` out of ~1000: chance per command of closing the market. */
export function rawCommandArb(tick: number, closeWeight = 5): fc.Arbitrary<RawCommand> {
  const key = fc.integer({ min: 0, max: KEYS - 1 });
  // most cancels/moves/reduces target a live order (pick < 0.8), the rest a random key
  const pick = fc.integer({ min: 0, max: 999 }).map((x) => x / 1000);
  const owner = fc.integer({ min: 1, max: 3 });
  const dt = fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.constant(-2) });
  const place = fc.record({
    t: fc.constant('place' as const),
    key,
    owner,
    outcome: fc.oneof({ weight: 60, arbitrary: fc.integer({ min: 0, max: 1 }) }, { weight: 1, arbitrary: fc.constant(2) }),
    side: fc.integer({ min: 0, max: 1 }),
    price: priceArb(tick),
    qty: fc.oneof({ weight: 50, arbitrary: fc.integer({ min: 1, max: 20 }) }, { weight: 1, arbitrary: fc.constantFrom(0, -1, 2.5, 1e10) }),
    tif: fc.oneof({ weight: 24, arbitrary: fc.constant(0) }, { weight: 9, arbitrary: fc.constant(1) }, { weight: 9, arbitrary: fc.constant(2) }, { weight: 6, arbitrary: fc.constant(3) }, { weight: 1, arbitrary: fc.constantFrom(7, 1.5) }),
    ttl: fc.integer({ min: -2, max: 8 }),
    stp: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) }),
    postOnly: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
    dt,
  });
  return fc.oneof(
    { weight: 550, arbitrary: place },
    { weight: 200, arbitrary: fc.record({ t: fc.constant('move' as const), key, pick, price: priceArb(tick), dt }) },
    { weight: 100, arbitrary: fc.record({ t: fc.constant('cancel' as const), key, pick }) },
    { weight: 60, arbitrary: fc.record({ t: fc.constant('reduce' as const), key, pick, by: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 25 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 1.5) }) }) },
    { weight: 15, arbitrary: fc.record({ t: fc.constant('cancelAll' as const), owner }) },
    { weight: 50, arbitrary: fc.record({ t: fc.constant('expire' as const), dt }) },
    { weight: 3, arbitrary: fc.constant({ t: 'halt' as const }) },
    { weight: 60, arbitrary: fc.constant({ t: 'resume' as const }) },
    { weight: closeWeight, arbitrary: fc.constant({ t: 'close' as const }) },
  );
}

/** Turns raw commands into concrete ones: keys -> ids, time deltas -> a (mostly) increasing clock. */
export class Concretizer {
  now = 0;
  /** `live` returns the ids currently resting (used to aim cancels, moves and reduces). */
  constructor(
    private readonly live: () => number[] = () => [],
    private readonly idBase = 1000,
  ) {}
  private target(key: number, pick: number): number {
    if (pick < 0.8) {
      const ids = this.live();
      if (ids.length > 0) return ids[Math.floor((pick / 0.8) * ids.length)]!;
    }
    return this.idBase + key;
  }
  concrete(r: RawCommand): Command {
    switch (r.t) {
      case 'place': {
        this.now += r.dt;
        return {
          t: 'place',
          id: this.idBase + r.key,
          owner: r.owner,
          outcome: r.outcome,
          side: r.side,
          price: r.price,
          qty: r.qty,
          tif: r.tif,
          expiresAt: this.now + r.ttl,
          flags: r.stp | (r.postOnly ? 4 : 0),
          now: this.now,
        };
      }
      case 'move':
        this.now += r.dt;
        return { t: 'move', id: this.target(r.key, r.pick), price: r.price, now: this.now };
      case 'cancel':
        return { t: 'cancel', id: this.target(r.key, r.pick) };
      case 'reduce':
        return { t: 'reduce', id: this.target(r.key, r.pick), by: r.by };
      case 'expire':
        this.now += r.dt;
        return { t: 'expire', now: this.now };
      default:
        return r;
    }
  }
}
