import { describe, expect, it } from 'vitest';
import {
  BookSide,
  EventCollector,
  Flags,
  MarketBook,
  NullListener,
  Outcome,
  RejectReason,
  Side,
  Stp,
  Tif,
  makerPrice,
  priceInOutcome,
  takerPrice,
  toYesPrice,
  type EngineEvent,
  type FillEvent,
  type OrderInput,
} from '../src/index.js';

function setup(tick = 1) {
  const ev = new EventCollector();
  const book = new MarketBook(ev, { tick, capacity: 16 });
  return { book, ev };
}

const o = (id: number, owner: number, outcome: 'YES' | 'NO', side: 'buy' | 'sell', price: number, qty: number, extra: Partial<OrderInput> = {}): OrderInput => ({
  id,
  owner,
  outcome,
  side,
  price,
  qty,
  ...extra,
});

const fills = (events: EngineEvent[]): FillEvent[] => events.filter((e): e is FillEvent => e.type === 'fill');
const types = (events: EngineEvent[]): string[] => events.map((e) => e.type);

describe('four order kinds on one YES book', () => {
  it('buy YES at p rests as a bid at p', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 10));
    expect(book.bestBid).toBe(40);
    expect(book.levels(BookSide.BID)).toEqual([[40, 10]]);
    expect(book.depthAt(BookSide.BID, 40)).toBe(10);
    expect(book.depthAt(BookSide.BID, 40.5)).toBe(0);
    expect(book.depthAt(BookSide.ASK, 40)).toBe(0);
    expect(ev.drain()).toEqual([
      { type: 'accepted', id: 1, owner: 1 },
      { type: 'level', side: 'bid', price: 40, total: 10 },
    ]);
  });

  it('sell NO at q rests as a bid at 100 - q', () => {
    const { book } = setup();
    book.submit(o(1, 1, 'NO', 'sell', 70, 5));
    expect(book.bestBid).toBe(30);
    expect(book.order(1)).toMatchObject({ outcome: 'NO', side: 'sell', price: 70, qty: 5 });
  });

  it('sell YES at p rests as an ask at p', () => {
    const { book } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 65, 5));
    expect(book.bestAsk).toBe(65);
    expect(book.levels(BookSide.ASK)).toEqual([[65, 5]]);
  });

  it('buy NO at q rests as an ask at 100 - q', () => {
    const { book } = setup();
    book.submit(o(1, 1, 'NO', 'buy', 20, 5));
    expect(book.bestAsk).toBe(80);
  });

  it('price conversion helpers map outcome cents to YES cents and back', () => {
    expect(toYesPrice(Outcome.YES, 37)).toBe(37);
    expect(toYesPrice(Outcome.NO, 37)).toBe(63);
    expect(priceInOutcome(63, Outcome.NO)).toBe(37);
    expect(priceInOutcome(63, Outcome.YES)).toBe(63);
  });
});

describe('validation', () => {
  it('rejects prices that are not multiples of the tick, or outside tick..100-tick', () => {
    const { book, ev } = setup(5);
    expect(book.submit(o(1, 1, 'YES', 'buy', 52, 1))).toBe(RejectReason.INVALID_PRICE);
    expect(book.submit(o(2, 1, 'YES', 'buy', 0, 1))).toBe(RejectReason.INVALID_PRICE);
    expect(book.submit(o(3, 1, 'YES', 'buy', 100, 1))).toBe(RejectReason.INVALID_PRICE);
    expect(book.submit(o(4, 1, 'YES', 'buy', 55.5, 1))).toBe(RejectReason.INVALID_PRICE);
    expect(book.submit(o(5, 1, 'YES', 'buy', 55, 1))).toBe(0);
    expect(book.submit(o(6, 1, 'NO', 'buy', 40, 1))).toBe(0); // ask at 60
    expect(book.bestAsk).toBe(60);
    expect(ev.drain().filter((e) => e.type === 'rejected')).toHaveLength(4);
  });

  it('rejects a tick that does not divide 100', () => {
    expect(() => new MarketBook(new NullListener(), { tick: 3 })).toThrow(RangeError);
    expect(() => new MarketBook(new NullListener(), { tick: 0 })).toThrow(RangeError);
  });

  it('rejects bad quantity, side, id, owner, time in force and flags with reason codes', () => {
    const { book, ev } = setup();
    const L = (...a: Parameters<MarketBook['place']>) => book.place(...a);
    expect(L(1, 1, 0, 0, 50, 0, Tif.GTC, 0, 0, 0)).toBe(RejectReason.INVALID_QUANTITY);
    expect(L(1, 1, 0, 0, 50, 1.5, Tif.GTC, 0, 0, 0)).toBe(RejectReason.INVALID_QUANTITY);
    expect(L(1, 1, 2, 0, 50, 1, Tif.GTC, 0, 0, 0)).toBe(RejectReason.INVALID_SIDE);
    expect(L(1, 1, 0, 5, 50, 1, Tif.GTC, 0, 0, 0)).toBe(RejectReason.INVALID_SIDE);
    expect(L(1.5, 1, 0, 0, 50, 1, Tif.GTC, 0, 0, 0)).toBe(RejectReason.INVALID_ID);
    expect(L(1, NaN, 0, 0, 50, 1, Tif.GTC, 0, 0, 0)).toBe(RejectReason.INVALID_OWNER);
    expect(L(1, 1, 0, 0, 50, 1, 9, 0, 0, 0)).toBe(RejectReason.INVALID_TIF);
    expect(L(1, 1, 0, 0, 50, 1, Tif.GTD, NaN, 0, 0)).toBe(RejectReason.INVALID_TIF);
    expect(L(1, 1, 0, 0, 50, 1, Tif.GTC, 0, 8, 0)).toBe(RejectReason.INVALID_FLAGS);
    expect(L(1, 1, 0, 0, 50, 1, Tif.IOC, 0, Flags.POST_ONLY, 0)).toBe(RejectReason.INVALID_FLAGS);
    expect(L(1, 1, 0, 0, 50, 1, Tif.FOK, 0, Flags.POST_ONLY, 0)).toBe(RejectReason.INVALID_FLAGS);
    const events = ev.drain();
    expect(events.every((e) => e.type === 'rejected')).toBe(true);
    expect(events[0]).toEqual({ type: 'rejected', id: 1, owner: 1, reason: 'INVALID_QUANTITY' });
    expect(book.size).toBe(0);
  });

  it('rejects an id that is resting; a finished id may be reused', () => {
    const { book, ev } = setup();
    book.submit(o(7, 1, 'YES', 'buy', 40, 1));
    expect(book.submit(o(7, 2, 'YES', 'buy', 41, 1))).toBe(RejectReason.DUPLICATE_ID);
    book.cancel(7);
    expect(book.submit(o(7, 2, 'YES', 'buy', 41, 1))).toBe(0);
    expect(ev.drain().map((e) => e.type)).toEqual(['accepted', 'level', 'rejected', 'cancelled', 'level', 'accepted', 'level']);
  });
});

describe('price-time priority and partial fills', () => {
  it('the better price trades first', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 55, 5));
    book.submit(o(2, 1, 'YES', 'sell', 53, 5));
    ev.drain();
    book.submit(o(3, 2, 'YES', 'buy', 60, 5));
    expect(fills(ev.drain()).map((f) => [f.makerId, f.price])).toEqual([[2, 53]]);
  });

  it('orders at the same price trade in arrival order (FIFO)', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 55, 2));
    book.submit(o(2, 3, 'YES', 'sell', 55, 2));
    book.submit(o(3, 4, 'YES', 'sell', 55, 2));
    ev.drain();
    book.submit(o(4, 2, 'YES', 'buy', 55, 5));
    expect(fills(ev.drain()).map((f) => [f.makerId, f.qty])).toEqual([
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
    expect(book.order(3)?.qty).toBe(1);
  });

  it('trades at the resting (maker) price', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 45, 3));
    ev.drain();
    book.submit(o(2, 2, 'YES', 'sell', 30, 3));
    expect(fills(ev.drain())[0]).toMatchObject({ makerId: 1, takerId: 2, price: 45, qty: 3 });
  });

  it('a partially filled maker keeps the rest of its quantity and its place in the queue', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 10));
    book.submit(o(2, 3, 'YES', 'sell', 50, 10));
    book.submit(o(3, 2, 'YES', 'buy', 50, 4));
    const f = fills(ev.drain());
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ makerId: 1, qty: 4, makerRemaining: 6, takerRemaining: 0 });
    book.submit(o(4, 2, 'YES', 'buy', 50, 7));
    expect(fills(ev.drain()).map((x) => [x.makerId, x.qty])).toEqual([
      [1, 6],
      [2, 1],
    ]);
  });

  it('an incoming order sweeps several levels and rests the remainder at its limit', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 51, 2));
    book.submit(o(2, 1, 'YES', 'sell', 52, 2));
    book.submit(o(3, 1, 'YES', 'sell', 54, 2));
    ev.drain();
    book.submit(o(4, 2, 'YES', 'buy', 53, 10));
    expect(ev.drain()).toEqual([
      { type: 'accepted', id: 4, owner: 2 },
      expect.objectContaining({ type: 'fill', makerId: 1, price: 51, qty: 2, takerRemaining: 8 }),
      { type: 'level', side: 'ask', price: 51, total: 0 },
      expect.objectContaining({ type: 'fill', makerId: 2, price: 52, qty: 2, takerRemaining: 6 }),
      { type: 'level', side: 'ask', price: 52, total: 0 },
      { type: 'level', side: 'bid', price: 53, total: 6 },
    ]);
    expect(book.bestBid).toBe(53);
    expect(book.bestAsk).toBe(54);
  });
});

describe('fill kinds: mint, transfer, merge', () => {
  it('buy YES against buy NO mints a pair', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'NO', 'buy', 40, 5)); // ask at 60
    book.submit(o(2, 2, 'YES', 'buy', 60, 5));
    const f = fills(ev.drain())[0]!;
    expect(f).toMatchObject({ kind: 'mint', price: 60, makerOutcome: 'NO', makerSide: 'buy', takerOutcome: 'YES', takerSide: 'buy' });
    expect(makerPrice(f)).toBe(40);
    expect(takerPrice(f)).toBe(60);
  });

  it('buy YES against sell YES transfers YES shares', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 60, 5));
    book.submit(o(2, 2, 'YES', 'buy', 60, 5));
    expect(fills(ev.drain())[0]).toMatchObject({ kind: 'transfer', makerOutcome: 'YES', takerOutcome: 'YES' });
  });

  it('buy NO against sell NO transfers NO shares', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'NO', 'sell', 30, 5)); // bid at 70
    book.submit(o(2, 2, 'NO', 'buy', 30, 5)); // ask at 70
    const f = fills(ev.drain())[0]!;
    expect(f).toMatchObject({ kind: 'transfer', price: 70, makerOutcome: 'NO', takerOutcome: 'NO' });
    expect(makerPrice(f)).toBe(30);
    expect(takerPrice(f)).toBe(30);
  });

  it('sell YES against sell NO merges a pair', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'NO', 'sell', 45, 5)); // bid at 55
    book.submit(o(2, 2, 'YES', 'sell', 55, 5));
    const f = fills(ev.drain())[0]!;
    expect(f).toMatchObject({ kind: 'merge', price: 55 });
    expect(makerPrice(f) + takerPrice(f)).toBe(100);
  });
});

describe('time in force', () => {
  it('IOC never rests: the unfilled remainder is cancelled with IOC_REMAINDER', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 3));
    ev.drain();
    book.submit(o(2, 2, 'YES', 'buy', 50, 5, { tif: 'IOC' }));
    const events = ev.drain();
    expect(types(events)).toEqual(['accepted', 'fill', 'level', 'cancelled']);
    expect(events[3]).toEqual({ type: 'cancelled', id: 2, owner: 2, qty: 2, reason: 'IOC_REMAINDER' });
    expect(book.size).toBe(0);
    book.submit(o(3, 2, 'YES', 'buy', 50, 5, { tif: 'IOC' }));
    expect(types(ev.drain())).toEqual(['accepted', 'cancelled']);
  });

  it('FOK that cannot fill completely is cancelled and trades nothing', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 3));
    book.submit(o(2, 1, 'YES', 'sell', 52, 3));
    ev.drain();
    book.submit(o(3, 2, 'YES', 'buy', 51, 4, { tif: 'FOK' })); // only 3 within its limit
    expect(ev.drain()).toEqual([
      { type: 'accepted', id: 3, owner: 2 },
      { type: 'cancelled', id: 3, owner: 2, qty: 4, reason: 'FOK_NOT_FILLED' },
    ]);
    expect(book.size).toBe(2);
  });

  it('FOK that can fill completely trades everything', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 3));
    book.submit(o(2, 1, 'YES', 'sell', 52, 3));
    ev.drain();
    book.submit(o(3, 2, 'YES', 'buy', 52, 6, { tif: 'FOK' }));
    expect(fills(ev.drain()).reduce((a, f) => a + f.qty, 0)).toBe(6);
    expect(book.size).toBe(0);
  });

  it('post-only is rejected if it would cross and rests otherwise', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 3));
    ev.drain();
    expect(book.submit(o(2, 2, 'YES', 'buy', 50, 1, { postOnly: true }))).toBe(RejectReason.POST_ONLY_WOULD_CROSS);
    expect(book.submit(o(3, 2, 'NO', 'sell', 50, 1, { postOnly: true }))).toBe(RejectReason.POST_ONLY_WOULD_CROSS); // bid at 50
    expect(book.submit(o(4, 2, 'YES', 'buy', 49, 1, { postOnly: true }))).toBe(0);
    expect(types(ev.drain())).toEqual(['rejected', 'rejected', 'accepted', 'level']);
  });

  it('GTD rests until expire(now) reaches its expiry time', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 3, { tif: 'GTD', expiresAt: 100 }), 10);
    expect(book.expire(99)).toBe(0);
    expect(book.order(1)).toBeDefined();
    ev.drain();
    expect(book.expire(100)).toBe(1);
    expect(ev.drain()).toEqual([
      { type: 'expired', id: 1, owner: 1, qty: 3 },
      { type: 'level', side: 'bid', price: 40, total: 0 },
    ]);
    expect(book.size).toBe(0);
  });

  it('a GTD order already expired on arrival behaves as IOC: it trades, then its remainder expires', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 2));
    ev.drain();
    book.submit(o(2, 2, 'YES', 'buy', 50, 5, { tif: 'GTD', expiresAt: 5 }), 5);
    expect(ev.drain()).toEqual([
      { type: 'accepted', id: 2, owner: 2 },
      expect.objectContaining({ type: 'fill', qty: 2 }),
      { type: 'level', side: 'ask', price: 50, total: 0 },
      { type: 'expired', id: 2, owner: 2, qty: 3 },
    ]);
    expect(book.size).toBe(0);
  });

  it('expire removes due orders in (expiresAt, id) order and ignores time going back', () => {
    const { book, ev } = setup();
    book.submit(o(30, 1, 'YES', 'buy', 40, 1, { tif: 'GTD', expiresAt: 20 }), 0);
    book.submit(o(10, 1, 'YES', 'buy', 41, 1, { tif: 'GTD', expiresAt: 20 }), 0);
    book.submit(o(20, 1, 'YES', 'sell', 60, 1, { tif: 'GTD', expiresAt: 15 }), 0);
    book.submit(o(40, 1, 'YES', 'sell', 61, 1, { tif: 'GTD', expiresAt: 50 }), 0);
    ev.drain();
    expect(book.expire(30)).toBe(3);
    expect(ev.drain().filter((e) => e.type === 'expired').map((e) => (e as { id: number }).id)).toEqual([20, 10, 30]);
    expect(book.expire(10)).toBe(0);
    expect(book.clock).toBe(30);
    expect(book.order(40)).toBeDefined();
  });

  it('a command carrying a later time expires due orders before it runs', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 5, { tif: 'GTD', expiresAt: 10 }), 0);
    ev.drain();
    book.submit(o(2, 2, 'YES', 'buy', 50, 5), 10);
    expect(types(ev.drain())).toEqual(['expired', 'level', 'accepted', 'level']);
    expect(book.bestBid).toBe(50);
  });
});

describe('self-trade prevention', () => {
  it('CANCEL_RESTING cancels the resting order of the same owner and keeps matching', () => {
    const { book, ev } = setup();
    book.submit(o(1, 7, 'YES', 'sell', 50, 2));
    book.submit(o(2, 8, 'YES', 'sell', 50, 2));
    ev.drain();
    book.submit(o(3, 7, 'YES', 'buy', 50, 2, { stp: 'CANCEL_RESTING' }));
    expect(ev.drain()).toEqual([
      { type: 'accepted', id: 3, owner: 7 },
      { type: 'cancelled', id: 1, owner: 7, qty: 2, reason: 'SELF_TRADE' },
      expect.objectContaining({ type: 'fill', makerId: 2, takerId: 3, qty: 2 }),
      { type: 'level', side: 'ask', price: 50, total: 0 },
    ]);
  });

  it('CANCEL_INCOMING cancels the incoming remainder and leaves the resting order', () => {
    const { book, ev } = setup();
    book.submit(o(1, 8, 'YES', 'sell', 49, 1));
    book.submit(o(2, 7, 'YES', 'sell', 50, 2));
    ev.drain();
    book.submit(o(3, 7, 'YES', 'buy', 50, 5, { stp: 'CANCEL_INCOMING' }));
    expect(ev.drain()).toEqual([
      { type: 'accepted', id: 3, owner: 7 },
      expect.objectContaining({ type: 'fill', makerId: 1, qty: 1 }),
      { type: 'level', side: 'ask', price: 49, total: 0 },
      { type: 'cancelled', id: 3, owner: 7, qty: 4, reason: 'SELF_TRADE' },
    ]);
    expect(book.order(2)?.qty).toBe(2);
  });

  it('CANCEL_BOTH cancels the resting order and the incoming remainder', () => {
    const { book, ev } = setup();
    book.submit(o(1, 7, 'YES', 'sell', 50, 2));
    ev.drain();
    book.submit(o(2, 7, 'YES', 'buy', 50, 5, { stp: 'CANCEL_BOTH' }));
    expect(types(ev.drain())).toEqual(['accepted', 'cancelled', 'level', 'cancelled']);
    expect(book.size).toBe(0);
  });

  it('without STP an owner can trade with itself', () => {
    const { book, ev } = setup();
    book.submit(o(1, 7, 'YES', 'sell', 50, 2));
    book.submit(o(2, 7, 'YES', 'buy', 50, 2));
    expect(fills(ev.drain())).toHaveLength(1);
  });

  it('the mode of the incoming order decides, not the resting one', () => {
    const { book, ev } = setup();
    book.submit(o(1, 7, 'YES', 'sell', 50, 2, { stp: 'CANCEL_BOTH' }));
    book.submit(o(2, 7, 'YES', 'buy', 50, 2, { stp: 'NONE' }));
    expect(fills(ev.drain())).toHaveLength(1);
  });

  it('FOK counts only the liquidity it could take under STP', () => {
    const { book, ev } = setup();
    book.submit(o(1, 7, 'YES', 'sell', 50, 5));
    book.submit(o(2, 8, 'YES', 'sell', 51, 2));
    ev.drain();
    book.submit(o(3, 7, 'YES', 'buy', 51, 3, { tif: 'FOK', stp: 'CANCEL_RESTING' }));
    expect(types(ev.drain())).toEqual(['accepted', 'cancelled']); // only 2 from owner 8: killed, nothing changes
    expect(book.size).toBe(2);
    book.submit(o(4, 7, 'YES', 'buy', 51, 2, { tif: 'FOK', stp: 'CANCEL_RESTING' }));
    expect(types(ev.drain())).toEqual(['accepted', 'cancelled', 'level', 'fill', 'level']);
  });
});

describe('cancel, cancel-all, reduce, move', () => {
  it('cancel removes a resting order; an unknown id is rejected', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 3));
    ev.drain();
    expect(book.cancel(1)).toBe(true);
    expect(book.cancel(1)).toBe(false);
    expect(ev.drain()).toEqual([
      { type: 'cancelled', id: 1, owner: 1, qty: 3, reason: 'USER' },
      { type: 'level', side: 'bid', price: 40, total: 0 },
      { type: 'rejected', id: 1, owner: -1, reason: 'UNKNOWN_ORDER' },
    ]);
    expect(book.bestBid).toBe(0);
  });

  it('cancelAll cancels only that owner, in priority order', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 1));
    book.submit(o(2, 2, 'YES', 'buy', 42, 1));
    book.submit(o(3, 1, 'YES', 'buy', 42, 1));
    book.submit(o(4, 1, 'YES', 'sell', 60, 1));
    book.submit(o(5, 1, 'NO', 'buy', 45, 1)); // ask at 55
    ev.drain();
    expect(book.cancelAll(1)).toBe(4);
    expect(ev.drain().filter((e) => e.type === 'cancelled').map((e) => (e as { id: number }).id)).toEqual([3, 1, 5, 4]);
    expect(book.orders().map((x) => x.id)).toEqual([2]);
    expect(book.cancelAll(NaN)).toBe(0);
    expect(book.cancelAll(99)).toBe(0);
    expect(book.size).toBe(1);
  });

  it('reduce lowers the quantity and keeps time priority', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 5));
    book.submit(o(2, 3, 'YES', 'sell', 50, 5));
    ev.drain();
    expect(book.reduce(1, 3)).toBe(0);
    expect(ev.drain()).toEqual([
      { type: 'reduced', id: 1, owner: 1, by: 3, remaining: 2 },
      { type: 'level', side: 'ask', price: 50, total: 7 },
    ]);
    book.submit(o(3, 2, 'YES', 'buy', 50, 2));
    expect(fills(ev.drain()).map((f) => f.makerId)).toEqual([1]);
  });

  it('reducing by the whole remaining quantity cancels; a bad amount is rejected', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 50, 5));
    ev.drain();
    expect(book.reduce(1, 0)).toBe(RejectReason.INVALID_QUANTITY);
    expect(book.reduce(1, 9)).toBe(0);
    expect(types(ev.drain())).toEqual(['rejected', 'cancelled', 'level']);
    expect(book.reduce(1, 1)).toBe(RejectReason.UNKNOWN_ORDER);
  });

  it('move re-prices an order, which loses its time priority', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 5));
    book.submit(o(2, 3, 'YES', 'buy', 41, 5));
    ev.drain();
    expect(book.move(1, 41)).toBe(0);
    expect(ev.drain()).toEqual([
      { type: 'moved', id: 1, owner: 1, price: 41, qty: 5 },
      { type: 'level', side: 'bid', price: 40, total: 0 },
      { type: 'level', side: 'bid', price: 41, total: 10 },
    ]);
    book.submit(o(3, 2, 'YES', 'sell', 41, 5));
    expect(fills(ev.drain()).map((f) => f.makerId)).toEqual([2]);
  });

  it('move to a crossing price trades as the incoming order; NO orders move in NO cents', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 60, 3));
    book.submit(o(2, 2, 'NO', 'sell', 50, 5)); // bid at 50
    ev.drain();
    book.move(2, 38); // bid at 62: crosses the ask at 60
    const events = ev.drain();
    expect(events[0]).toEqual({ type: 'moved', id: 2, owner: 2, price: 62, qty: 5 });
    expect(fills(events)[0]).toMatchObject({ makerId: 1, takerId: 2, price: 60, qty: 3, kind: 'merge' });
    expect(book.order(2)).toMatchObject({ price: 38, qty: 2 });
    expect(book.bestBid).toBe(62);
  });

  it('moving a post-only order to a crossing price is rejected and leaves it in place', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'sell', 60, 3));
    book.submit(o(2, 2, 'YES', 'buy', 50, 5, { postOnly: true }));
    ev.drain();
    expect(book.move(2, 60)).toBe(RejectReason.POST_ONLY_WOULD_CROSS);
    expect(book.order(2)?.price).toBe(50);
    expect(book.move(2, 59)).toBe(0);
    expect(book.move(99, 50)).toBe(RejectReason.UNKNOWN_ORDER);
  });
});

describe('market state', () => {
  it('halt rejects new orders and moves but allows cancel and reduce; resume re-opens', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 5));
    book.submit(o(2, 1, 'YES', 'buy', 41, 5));
    expect(book.halt()).toBe(true);
    expect(book.state).toBe('HALTED');
    ev.drain();
    expect(book.submit(o(3, 1, 'YES', 'buy', 40, 1))).toBe(RejectReason.HALTED);
    expect(book.move(1, 42)).toBe(RejectReason.HALTED);
    expect(book.reduce(1, 1)).toBe(0);
    expect(book.cancel(2)).toBe(true);
    expect(types(ev.drain())).toEqual(['rejected', 'rejected', 'reduced', 'level', 'cancelled', 'level']);
    expect(book.resume()).toBe(true);
    expect(book.submit(o(3, 1, 'YES', 'buy', 40, 1))).toBe(0);
  });

  it('close cancels every order with reason CLOSED and rejects further orders', () => {
    const { book, ev } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 5));
    book.submit(o(2, 2, 'NO', 'buy', 40, 5));
    ev.drain();
    expect(book.close()).toBe(2);
    expect(ev.drain()).toEqual([
      { type: 'cancelled', id: 1, owner: 1, qty: 5, reason: 'CLOSED' },
      { type: 'level', side: 'bid', price: 40, total: 0 },
      { type: 'cancelled', id: 2, owner: 2, qty: 5, reason: 'CLOSED' },
      { type: 'level', side: 'ask', price: 60, total: 0 },
    ]);
    expect(book.state).toBe('CLOSED');
    expect(book.submit(o(3, 1, 'YES', 'buy', 40, 1))).toBe(RejectReason.CLOSED);
    expect(book.resume()).toBe(false);
    expect(book.halt()).toBe(false);
  });
});

describe('snapshot and restore', () => {
  it('snapshot lists resting orders in priority order as plain data', () => {
    const { book } = setup();
    book.submit(o(1, 1, 'YES', 'buy', 40, 5));
    book.submit(o(2, 2, 'YES', 'buy', 42, 1, { stp: 'CANCEL_RESTING' }));
    book.submit(o(3, 3, 'NO', 'sell', 58, 2, { tif: 'GTD', expiresAt: 99 }), 5); // bid at 42
    book.submit(o(4, 1, 'NO', 'buy', 30, 4, { postOnly: true })); // ask at 70
    const snap = book.snapshot();
    expect(snap).toEqual({
      version: 1,
      tick: 1,
      state: 'OPEN',
      clock: 5,
      orders: [
        { id: 2, owner: 2, outcome: 'YES', side: 'buy', price: 42, qty: 1, tif: 'GTC', expiresAt: null, postOnly: false, stp: 'CANCEL_RESTING' },
        { id: 3, owner: 3, outcome: 'NO', side: 'sell', price: 58, qty: 2, tif: 'GTD', expiresAt: 99, postOnly: false, stp: 'NONE' },
        { id: 1, owner: 1, outcome: 'YES', side: 'buy', price: 40, qty: 5, tif: 'GTC', expiresAt: null, postOnly: false, stp: 'NONE' },
        { id: 4, owner: 1, outcome: 'NO', side: 'buy', price: 30, qty: 4, tif: 'GTC', expiresAt: null, postOnly: true, stp: 'NONE' },
      ],
    });
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
  });

  it('a restored book behaves identically to the original', () => {
    const a = setup();
    for (let i = 0; i < 50; i++) a.book.submit(o(i, i % 3, i % 2 ? 'YES' : 'NO', i % 4 < 2 ? 'buy' : 'sell', 35 + ((i * 7) % 30), 1 + (i % 5), i % 5 === 0 ? { tif: 'GTD', expiresAt: 10 + i } : {}), i);
    const evB = new EventCollector();
    const b = MarketBook.restore(JSON.parse(JSON.stringify(a.book.snapshot())), evB);
    expect(b.snapshot()).toEqual(a.book.snapshot());
    a.ev.drain();
    const script = (book: MarketBook) => {
      book.submit(o(100, 9, 'YES', 'buy', 70, 40), 55);
      book.submit(o(101, 9, 'NO', 'buy', 70, 40), 56);
      book.move(3, 50);
      book.expire(80);
      book.cancelAll(1);
    };
    script(a.book);
    script(b);
    expect(evB.drain()).toEqual(a.ev.drain());
    expect(b.snapshot()).toEqual(a.book.snapshot());
  });

  it('restore refuses a crossed or malformed snapshot', () => {
    const snap = {
      version: 1 as const,
      tick: 1,
      state: 'OPEN' as const,
      clock: null,
      orders: [
        { id: 1, owner: 1, outcome: 'YES' as const, side: 'buy' as const, price: 60, qty: 1, tif: 'GTC' as const, expiresAt: null, postOnly: false, stp: 'NONE' as const },
        { id: 2, owner: 1, outcome: 'YES' as const, side: 'sell' as const, price: 55, qty: 1, tif: 'GTC' as const, expiresAt: null, postOnly: false, stp: 'NONE' as const },
      ],
    };
    expect(() => MarketBook.restore(snap, new NullListener())).toThrow(/crossed/);
    expect(() => MarketBook.restore({ ...snap, orders: [snap.orders[0]!, { ...snap.orders[0]!, price: 50 }] }, new NullListener())).toThrow(/duplicate/);
  });
});

describe('storage', () => {
  it('grows past its initial capacity and maps large, negative and sparse ids', () => {
    const { book } = setup();
    const ids: number[] = [];
    for (let i = 0; i < 5000; i++) ids.push(i % 3 === 0 ? Number.MAX_SAFE_INTEGER - i : i % 3 === 1 ? -i * 7919 : i * 2 ** 33);
    for (const [i, id] of ids.entries()) expect(book.place(id, i, Outcome.YES, Side.BUY, 1 + (i % 49), 1, Tif.GTC, 0, 0, 0)).toBe(0);
    expect(book.size).toBe(5000);
    book.validate();
    for (let i = 0; i < 5000; i += 2) expect(book.cancel(ids[i]!)).toBe(true);
    book.validate();
    for (let i = 1; i < 5000; i += 2) expect(book.order(ids[i]!)?.owner).toBe(i);
    // sweep everything with a single sell
    book.place(1, 0, Outcome.YES, Side.SELL, 1, 10_000, Tif.IOC, 0, 0, 0);
    expect(book.size).toBe(0);
    book.validate();
  });

  it('place() and submit() agree; Stp and post-only travel in the flags', () => {
    const a = setup();
    const b = setup();
    a.book.place(1, 5, Outcome.NO, Side.SELL, 30, 4, Tif.GTD, 100, Stp.CANCEL_BOTH | Flags.POST_ONLY, 3);
    b.book.submit(o(1, 5, 'NO', 'sell', 30, 4, { tif: 'GTD', expiresAt: 100, stp: 'CANCEL_BOTH', postOnly: true }), 3);
    expect(a.book.snapshot()).toEqual(b.book.snapshot());
    expect(a.ev.drain()).toEqual(b.ev.drain());
  });
});
