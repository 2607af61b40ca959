
import type { AddressInfo } from 'node:net';
import { EventStreamParser, MARKET_OVERVIEW_EVENTS, type MarketOverviewEventName, type StreamEvent } from '@pitboss/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildApp, type BuiltApp } from '../../app.js';
import { openDatabase, type Database } from '../../db/client.js';
import { call, makeSubAdmin, type TestServer } from '../../../test/helpers.js';
import { newPlatformKey, platformCall, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';

/**
 * The market overview: the snapshot endpoints, the stream (on a real socket: it stays open), its
 * access, and a change made through a second app instance on the same database reaching a stream
 * of the first (on PostgreSQL: two pools, two LISTEN connections, the NOTIFY through the server).
 */
const KEY = newPlatformKey();
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;
let base: string;

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });
beforeAll(async () => {
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
});

const admin = (path: string, body: unknown = {}) => call(s, 'POST', `/api/admin/${path}`, { token, body });
const order = (body: Record<string, unknown>, server: { app: BuiltApp['app'] } = s) =>
  platformCall(server as TestServer, KEY, 'POST', 'orders', { body: { timeInForce: 'GTC', ...body } });

async function openMarket(): Promise<{ id: string; ticker: string; eventId: string }> {
  const m = await openTestMarket(admin, 'KXOV');
  return { id: String(m.id), ticker: m.ticker, eventId: String(m.eventId) };
}

const funded = async () => String(await fundedUser(f, usdc, 100_000_000n));

type Data = { [K in MarketOverviewEventName]: z.infer<(typeof MARKET_OVERVIEW_EVENTS)[K]> };
type Parsed = { event: MarketOverviewEventName; data: unknown };

/** A stream read as the web reads it: fetch with the Authorization header, parsed event by event (each checked against its declared schema). */
async function openStream(url: string, bearer: string | null) {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {}, signal: ctrl.signal });
  const events: Parsed[] = [];
  let wake = null as (() => void) | null;
  let done = false;
  const parser = new EventStreamParser((e: StreamEvent) => {
    const schema = MARKET_OVERVIEW_EVENTS[e.event as MarketOverviewEventName];
    if (!schema) throw new Error(`undeclared event ${e.event}`);
    events.push({ event: e.event as MarketOverviewEventName, data: schema.parse(JSON.parse(e.data)) });
    wake?.();
  });
  if (res.ok && res.body) {
    void (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) break;
          parser.push(decoder.decode(value, { stream: true }));
        }
      } catch {
        // aborted
      }
      done = true;
      wake?.();
    })();
  }
  // One cursor per event name: waiting for a depth does not skip the rows that came before it.
  const cursors = new Map<string, number>();
  return {
    res,
    events,
    /** The next event of that name (after those of that name already taken) that `pred` accepts; fails if the stream ends or nothing comes for 15 s. */
    async next<K extends MarketOverviewEventName>(event: K, pred: (data: Data[K]) => boolean = () => true): Promise<Data[K]> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        let cursor = cursors.get(event) ?? 0;
        while (cursor < events.length) {
          const e = events[cursor++]!;
          cursors.set(event, cursor);
          if (e.event === event && pred(e.data as Data[K])) return e.data as Data[K];
        }
        if (done) throw new Error(`the stream ended before a ${event} event came; got ${events.map((x) => x.event).join(', ')}`);
        if (Date.now() > deadline) throw new Error(`no ${event} event came; got ${events.map((x) => x.event).join(', ')}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
        wake = null;
      }
    },
    close: () => ctrl.abort(),
  };
}

const streamUrl = (market?: string) => `${base}/api/admin/market-overview/stream${market ? `?market=${market}` : ''}`;

describe('snapshot endpoints', () => {
  it('list open markets with best bid and ask in YES cents (NO orders at 100 − their price), and the depth by price level', async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    expect((await order({ userId: a, market: m.id, outcome: 'YES', side: 'buy', price: 40, quantity: 5 })).status).toBe(200);
    expect((await order({ userId: b, market: m.id, outcome: 'YES', side: 'buy', price: 40, quantity: 2 })).status).toBe(200);
    expect((await order({ userId: b, market: m.id, outcome: 'YES', side: 'buy', price: 38, quantity: 1 })).status).toBe(200);
    // A NO buy at 55 offers YES at 45.
    expect((await order({ userId: a, market: m.id, outcome: 'NO', side: 'buy', price: 55, quantity: 3 })).status).toBe(200);

    const overview = await call(s, 'GET', '/api/admin/market-overview', { token });
    expect(overview.status).toBe(200);
    const row = overview.body.result.markets.find((x: { _id: string }) => x._id === m.id);
    expect(row).toMatchObject({ ticker: m.ticker, status: 'open', bestBid: 40, bestAsk: 45, lastPrice: null, volume24h: 0, openInterest: 0, restingOrders: 4 });
    // The market record carries the same best prices (its list, its page).
    const record = await call(s, 'GET', `/api/admin/markets/${m.id}`, { token });
    expect(record.body.result).toMatchObject({ bestBid: 40, bestAsk: 45, lastPrice: null });
    const listed = await call(s, 'GET', '/api/admin/markets', { token, query: { q: m.ticker } });
    expect(listed.body.result.items[0]).toMatchObject({ _id: m.id, bestBid: 40, bestAsk: 45 });

    const depth = await call(s, 'GET', `/api/admin/market-overview/${m.id}/depth`, { token });
    expect(depth.status).toBe(200);
    expect(depth.body.result.bids).toEqual([{ price: 40, quantity: 7, orders: 2, fromNo: 0 }, { price: 38, quantity: 1, orders: 1, fromNo: 0 }]);
    expect(depth.body.result.asks).toEqual([{ price: 45, quantity: 3, orders: 1, fromNo: 3 }]);

    // A YES buy at 45 meets the NO buy at 55: a mint of 2 pairs at 45.
    expect((await order({ userId: b, market: m.id, outcome: 'YES', side: 'buy', price: 45, quantity: 2, timeInForce: 'IOC' })).status).toBe(200);
    const after = (await call(s, 'GET', '/api/admin/market-overview', { token })).body.result.markets.find((x: { _id: string }) => x._id === m.id);
    expect(after).toMatchObject({ bestBid: 40, bestAsk: 45, lastPrice: 45, volume24h: 2, volume: 2, openInterest: 2 });
    expect((await call(s, 'GET', `/api/admin/market-overview/${m.id}/depth`, { token })).body.result.asks).toEqual([{ price: 45, quantity: 1, orders: 1, fromNo: 1 }]);

    expect((await call(s, 'GET', '/api/admin/market-overview/999999999/depth', { token })).status).toBe(404);
    expect((await call(s, 'GET', '/api/admin/market-overview/abc/depth', { token })).status).toBe(400);
  });
});

describe('the stream', () => {
  it('sends a snapshot, then the depth and the row as orders are placed through the platform API, trades happen and the market halts and closes', async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    const stream = await openStream(streamUrl(m.id), token);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const snap = await stream.next('snapshot');
    expect(snap.depth).toMatchObject({ marketId: m.id, bids: [], asks: [] });
    expect(snap.markets.markets.some((x) => x._id === m.id)).toBe(true);

    expect((await order({ userId: a, market: m.id, outcome: 'YES', side: 'buy', price: 31, quantity: 4 })).status).toBe(200);
    expect(await stream.next('depth', (d) => d.bids.length > 0)).toMatchObject({ bids: [{ price: 31, quantity: 4, orders: 1 }] });
    expect((await stream.next('markets', (d) => d.items.some((x) => x._id === m.id && x.bestBid === 31))).removed).toEqual([]);

    // A NO buy at 69 crosses the YES bid at 31: a trade, the book empties.
    expect((await order({ userId: b, market: m.id, outcome: 'NO', side: 'buy', price: 69, quantity: 4 })).status).toBe(200);
    await stream.next('depth', (d) => d.bids.length === 0 && d.asks.length === 0);
    const traded = await stream.next('markets', (d) => d.items.some((x) => x._id === m.id && x.lastPrice === 31));
    expect(traded.items.find((x) => x._id === m.id)).toMatchObject({ volume24h: 4, openInterest: 4, bestBid: null, bestAsk: null });

    expect((await admin(`markets/${m.id}/halt`, { reasonCode: 'incident' })).status).toBe(200);
    await stream.next('markets', (d) => d.items.some((x) => x._id === m.id && x.status === 'halted'));
    expect((await admin(`markets/${m.id}/close`, { confirm: true })).status).toBe(200);
    await stream.next('markets', (d) => d.removed.includes(m.id));
    stream.close();
  });

  it('a stream without a selected market gets the rows only; a cancel through the platform API updates them', async () => {
    const m = await openMarket();
    const a = await funded();
    const stream = await openStream(streamUrl(), token);
    const snap = await stream.next('snapshot');
    expect(snap.depth).toBeNull();
    const placed = await order({ userId: a, market: m.id, outcome: 'YES', side: 'sell', price: 70, quantity: 1 });
    // No shares to sell: refused, nothing changes.
    expect(placed.status).toBe(409);
    const bid = await order({ userId: a, market: m.id, outcome: 'NO', side: 'buy', price: 20, quantity: 6 });
    await stream.next('markets', (d) => d.items.some((x) => x._id === m.id && x.bestAsk === 80));
    const cancel = await platformCall(s, KEY, 'DELETE', `orders/${bid.body.result._id}`);
    expect(cancel.status).toBe(200);
    await stream.next('markets', (d) => d.items.some((x) => x._id === m.id && x.bestAsk === null && x.restingOrders === 0));
    expect(stream.events.some((e) => e.event === 'depth')).toBe(false);
    stream.close();
  });

  it('refuses an unknown market (404), a bad id (400), an anonymous caller (401) and an admin without the Markets right (403), before streaming anything', async () => {
    const unknown = await fetch(streamUrl('999999999'), { headers: { authorization: `Bearer ${token}` } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { success: boolean }).success).toBe(false);
    const bad = await fetch(`${base}/api/admin/market-overview/stream?market=abc`, { headers: { authorization: `Bearer ${token}` } });
    expect(bad.status).toBe(400);
    await bad.body?.cancel();
    const anon = await fetch(streamUrl(), {});
    expect(anon.status).toBe(401);
    await anon.body?.cancel();
    // A token in the URL is no way in: only the header counts.
    const inUrl = await fetch(`${streamUrl()}?access_token=${token}`);
    expect(inUrl.status).toBe(401);
    await inUrl.body?.cancel();

    const events = await makeSubAdmin(s, [{ name: 'Events', canView: true, canEdit: true }], token);
    const refused = await fetch(streamUrl(), { headers: { authorization: `Bearer ${events.token}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/json/);
    expect(((await refused.json()) as { success: boolean }).success).toBe(false);
    expect((await call(s, 'GET', '/api/admin/market-overview', { token: events.token })).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/market-overview/1/depth', { token: events.token })).status).toBe(403);

    // View on Markets is enough to watch.
    const viewer = await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: false }], token);
    const watching = await openStream(streamUrl(), viewer.token);
    expect(watching.res.status).toBe(200);
    await watching.next('snapshot');
    watching.close();
  });
});

describe('several instances on one database', () => {
  let second: { built: BuiltApp; database: Database | null } | null = null;
  afterAll(async () => {
    await second?.built.app.close();
    await second?.database?.close();
  });

  it('an order placed through another instance reaches this instance\'s stream', async () => {
    // On PostgreSQL the second instance has its own pool and LISTEN connection, as another process would.
    const database = s.config.databaseUrl ? await openDatabase({ databaseUrl: s.config.databaseUrl }) : null;
    const built = await buildApp({ config: s.config, db: database?.db ?? s.database.db, mailer: s.mailer }, { logger: false });
    second = { built, database };
    await built.app.ready();

    const m = await openMarket();
    const a = await funded();
    const stream = await openStream(streamUrl(m.id), token);
    await stream.next('snapshot');
    const placed = await order({ userId: a, market: m.id, outcome: 'NO', side: 'buy', price: 58, quantity: 9 }, { app: built.app });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(await stream.next('depth', (d) => d.asks.length > 0)).toMatchObject({ asks: [{ price: 42, quantity: 9, orders: 1, fromNo: 9 }] });
    await stream.next('markets', (d) => d.items.some((x) => x._id === m.id && x.bestAsk === 42));
    stream.close();
  });
});

describe('event history', () => {
  it('lists the event\'s and its markets\' moves in order and each market\'s trades; admins\' addresses only for audit-log readers; 403 without Events', async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    await order({ userId: a, market: m.id, outcome: 'YES', side: 'buy', price: 61, quantity: 3 });
    await order({ userId: b, market: m.id, outcome: 'NO', side: 'buy', price: 39, quantity: 3, timeInForce: 'IOC' });
    await order({ userId: a, market: m.id, outcome: 'YES', side: 'buy', price: 64, quantity: 2 });
    await order({ userId: b, market: m.id, outcome: 'NO', side: 'buy', price: 36, quantity: 1, timeInForce: 'IOC' });
    expect((await admin(`markets/${m.id}/halt`, { reasonCode: 'incident' })).status).toBe(200);
    expect((await admin(`markets/${m.id}/close`, { confirm: true })).status).toBe(200);

    const res = await call(s, 'GET', `/api/admin/events/${m.eventId}/history`, { token });
    expect(res.status).toBe(200);
    const h = res.body.result;
    expect(h.timeline.map((e: { kind: string; action: string; to: string | null }) => `${e.kind}:${e.action}:${e.to}`)).toEqual([
      'event:create:draft', 'event:open:open', 'market:create:draft', 'market:open:open', 'market:halt:halted', 'market:close:closed',
    ]);
    expect(h.timeline[0].by).toBe('root@pitboss.test');
    expect(h.markets).toHaveLength(1);
    expect(h.markets[0]).toMatchObject({ _id: m.id, status: 'closed', trades: 2, bucketed: false, lastPrice: 64 });
    expect(h.markets[0].points.map((p: { price: number; quantity: number }) => [p.price, p.quantity])).toEqual([[61, 3], [64, 1]]);

    const events = await makeSubAdmin(s, [{ name: 'Events', canView: true, canEdit: false }], token);
    const seen = await call(s, 'GET', `/api/admin/events/${m.eventId}/history`, { token: events.token });
    expect(seen.status).toBe(200);
    expect(new Set(seen.body.result.timeline.map((e: { by: string }) => e.by))).toEqual(new Set(['an admin']));
    const markets = await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: true }], token);
    expect((await call(s, 'GET', `/api/admin/events/${m.eventId}/history`, { token: markets.token })).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/events/999999999/history', { token })).status).toBe(404);
  });
});
