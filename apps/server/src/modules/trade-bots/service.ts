import { botLadder, tradeBotProblem, tradeBotStates, type FairSource } from '@pitboss/contract';
import { and, asc, eq, inArray, ne, notInArray } from 'drizzle-orm';
import { systemActor, type Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { Row, WriteContext } from '../../resources/define.js';
import { defineSubject, recordView, transition } from '../../resources/transition.js';
import { coinBySymbol } from '../coins/service.js';
import { balanceOf } from '../ledger/service.js';
import { bestQuotesOf, type BestQuotes } from '../market-overview/service.js';
import { markets, type MarketRow } from '../markets/table.js';
import { buyHold, cancelOrder, placeOrder, SETTLEMENT_COIN } from '../orders/service.js';
import { LIVE_ORDER_STATUSES, orders, positions, type OrderOutcome, type OrderRow, type OrderSide } from '../orders/table.js';
import { siteSettings } from '../site-settings/table.js';
import { users } from '../users/table.js';
import { tradeBotMarkets, tradeBots, type TradeBotRow } from './table.js';
import { assertBotsNotKilled } from '../kill-switches/guard.js';

/*
 * Trade bots (docs/markets.md, "Trade bots"): market makers that quote through the order service like any
 * platform user. A bot is one platform user (one bot per user), so "the bot's orders" are that
 * user's live orders. The job (`job.ts`) refreshes each running bot when it is due:
 *
 * per market, with the market row locked first (as every book command does), so its position and
 * quotes cannot move under it: a market that is not open gets its quotes cancelled and nothing new;
 * otherwise the wanted ladder is worked out from the fair price, the bot's net position (YES − NO
 * shares) and its max position; live orders that are exactly a wanted quote stay, the others are
 * cancelled (`cancelOrder`), and the missing ones are placed (`placeOrder`, GTC), each buy sized to
 * what the user's balance can hold. Refusals are recorded on the bot, never thrown out of the job.
 */

const MARKET_ENDED = ['closed', 'resolved', 'voided'] as const;

/** The system actor of one bot (audit entries of its orders and cancels name it). */
export const botActor = (bot: Pick<TradeBotRow, 'id'>): Actor => systemActor(`trade-bot:${bot.id}`);

// ── Records: create, update, markets ───────────────────────────────────────

const COLUMN_KEYS = ['name', 'userId', 'allOpenMarkets', 'fairSource', 'fairPrice', 'spread', 'size', 'levels', 'maxPosition', 'refreshSeconds'] as const;

function columnsOf(input: Row): Row {
  const out: Row = {};
  for (const k of COLUMN_KEYS) {
    if (input[k] === undefined) continue;
    out[k] = k === 'userId' ? Number(input[k]) : input[k];
  }
  return out;
}

/**
 * The user a bot trades as: active, and a house account (the platform's own: a bot never trades a
 * customer's money). Locked FOR SHARE, so it cannot be made a customer account meanwhile.
 */
async function checkUser(tx: DbOrTx, userId: number): Promise<void> {
  const [u] = Number.isSafeInteger(userId) ? await tx.select({ status: users.status, house: users.house, username: users.username }).from(users).where(eq(users.id, userId)).for('share') : [];
  if (u && u.status !== 'active') throw badRequest('The user is blocked: a bot cannot trade as them', { userId: 'Blocked user' });
  if (u && !u.house) {
    throw badRequest(`${u.username} is a customer: a bot trades only as a house account`, { userId: 'Not a house account (Users › Make house account, with the right to adjust balances)' });
  }
}

export async function prepareTradeBotCreate(input: Row, w: WriteContext): Promise<Row> {
  await checkUser(w.tx, Number(input.userId));
  return columnsOf(input);
}

/** A PATCH is checked together with what is stored (a fixed fair price with the new spread, the market list with the switch). */
export async function prepareTradeBotUpdate(input: Row, w: WriteContext & { existing: Row }): Promise<Row> {
  const e = w.existing as unknown as TradeBotRow;
  const marketIds =
    input.marketIds !== undefined
      ? (input.marketIds as string[])
      : (await w.tx.select({ id: tradeBotMarkets.marketId }).from(tradeBotMarkets).where(eq(tradeBotMarkets.botId, e.id))).map((r) => String(r.id));
  const merged = {
    fairSource: (input.fairSource ?? e.fairSource) as FairSource, fairPrice: Number(input.fairPrice ?? e.fairPrice), spread: Number(input.spread ?? e.spread),
    levels: Number(input.levels ?? e.levels), size: Number(input.size ?? e.size), maxPosition: Number(input.maxPosition ?? e.maxPosition),
    allOpenMarkets: Boolean(input.allOpenMarkets ?? e.allOpenMarkets), marketIds,
  };
  const problem = tradeBotProblem(merged);
  if (problem) throw badRequest(problem.message, { [problem.path]: problem.message });
  if (input.userId !== undefined && Number(input.userId) !== e.userId) await checkUser(w.tx, Number(input.userId));
  return columnsOf(input);
}

/**
 * Sets a bot's markets to exactly `ids`. A market added must exist and not have ended (closed,
 * resolved, voided: 400 on `marketIds`); one that ended while listed may stay. True when changed.
 */
export async function setBotMarkets(tx: DbOrTx, botId: number, ids: readonly string[]): Promise<boolean> {
  const wanted = [...new Set(ids.map(Number))];
  const current = (await tx.select({ id: tradeBotMarkets.marketId }).from(tradeBotMarkets).where(eq(tradeBotMarkets.botId, botId))).map((r) => r.id);
  const added = wanted.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !wanted.includes(id));
  if (added.length === 0 && removed.length === 0) return false;
  if (added.length) {
    const found = await tx.select({ id: markets.id, ticker: markets.ticker, status: markets.status }).from(markets).where(inArray(markets.id, added));
    const missing = added.filter((id) => !found.some((m) => m.id === id));
    if (missing.length) throw badRequest('Unknown market', { marketIds: `No market #${missing.join(', #')}` });
    const ended = found.filter((m) => (MARKET_ENDED as readonly string[]).includes(m.status));
    if (ended.length) {
      const message = `${ended.map((m) => `${m.ticker} is ${m.status}`).join(', ')}: a bot quotes only markets still trading or about to`;
      throw badRequest(message, { marketIds: message });
    }
    await tx.insert(tradeBotMarkets).values(added.map((marketId) => ({ botId, marketId })));
  }
  if (removed.length) await tx.delete(tradeBotMarkets).where(and(eq(tradeBotMarkets.botId, botId), inArray(tradeBotMarkets.marketId, removed)));
  return true;
}

// ── Start and stop ─────────────────────────────────────────────────────────

/** A bot's moves: through its declared machine, audited with the bot's record (as its list shows it). */
export const botSubject = defineSubject({ resource: 'trade-bots', table: tradeBots, machine: tradeBotStates, view: recordView(async () => (await import('./resource.js')).tradeBotsDef) });
/** A bot stopped or restarted by a kill switch: audited by its status, with the kill switch's id. */
const killSwitchBotSubject = defineSubject({ resource: 'trade-bots', table: tradeBots, machine: tradeBotStates, view: (row) => ({ status: row.status }) });

/** Whose move it is: an admin's (or a job's) own, or a kill switch's (`killSwitchId`), audited as such. */
const botMove = (killSwitchId: number | undefined) =>
  killSwitchId === undefined ? { subject: botSubject, audit: {} } : { subject: killSwitchBotSubject, audit: { extra: { killSwitchId } } };

/** Starts a bot: it is refreshed by the job's next tick (now), then every `refreshSeconds`. */
export async function startBot(tx: DbOrTx, actor: Actor, id: number, opts: { now?: Date; killSwitchId?: number } = {}): Promise<TradeBotRow> {
  const now = opts.now ?? new Date();
  const { subject, audit } = botMove(opts.killSwitchId);
  const { after } = await transition(tx, actor, subject, id, 'start', {
    check: async (bot) => {
      await assertBotsNotKilled(tx);
      const [u] = await tx.select({ status: users.status, username: users.username }).from(users).where(eq(users.id, bot.userId));
      if (u?.status !== 'active') throw conflict(`${u?.username ?? 'Its user'} is blocked: the bot cannot trade as them`, { userId: 'Blocked user' });
    },
    set: { startedAt: now, nextRunAt: now, lastError: null, lastErrorAt: null, updatedAt: now },
    audit,
  });
  return after;
}

/** Stops a bot and cancels every live order of its user (holds and offered shares go back). Returns how many it cancelled. */
export async function stopBot(tx: DbOrTx, actor: Actor, id: number, opts: { now?: Date; killSwitchId?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const { subject, audit } = botMove(opts.killSwitchId);
  let cancelled = 0;
  await transition(tx, actor, subject, id, 'stop', {
    set: { nextRunAt: null, updatedAt: now },
    effects: async (bot) => {
      const live = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.userId, bot.userId), inArray(orders.status, [...LIVE_ORDER_STATUSES])))
        .orderBy(asc(orders.marketId), asc(orders.id));
      for (const o of live) await cancelOrder(tx, actor, { orderId: o.id });
      cancelled = live.length;
    },
    audit,
  });
  return cancelled;
}

// ── Quoting ────────────────────────────────────────────────────────────────

export interface Quote {
  outcome: OrderOutcome;
  side: OrderSide;
  /** Cents of the outcome. */
  price: number;
  quantity: number;
}

type QuoteParams = Pick<TradeBotRow, 'spread' | 'size' | 'levels' | 'maxPosition'>;

/**
 * The quotes a bot wants on one market, best level first, a bid and an ask per level. A bid at YES
 * price `b` sells NO shares the bot holds at `100 − b`, else buys YES at `b`; an ask at `a` sells
 * held YES at `a`, else buys NO at `100 − a`. With net = YES − NO held, the bids add up to at most
 * `maxPosition − net` and the asks to `maxPosition + net`, so no fill of them all takes the net
 * position past ±maxPosition.
 */
export function wantedQuotes(p: QuoteParams, fair: number, held: { yes: number; no: number }, book: BestQuotes = NO_BOOK): Quote[] {
  const { bids, asks } = insideBook(botLadder(fair, p.spread, p.levels), book);
  const net = held.yes - held.no;
  let bidRoom = Math.max(0, p.maxPosition - net);
  let askRoom = Math.max(0, p.maxPosition + net);
  let freeNo = held.no;
  let freeYes = held.yes;
  const out: Quote[] = [];
  for (let i = 0; i < Math.max(bids.length, asks.length); i++) {
    const b = bids[i];
    if (b !== undefined && bidRoom > 0) {
      const q = Math.min(p.size, bidRoom);
      bidRoom -= q;
      const sell = Math.min(q, freeNo);
      freeNo -= sell;
      if (sell > 0) out.push({ outcome: 'NO', side: 'sell', price: 100 - b, quantity: sell });
      if (q > sell) out.push({ outcome: 'YES', side: 'buy', price: b, quantity: q - sell });
    }
    const a = asks[i];
    if (a !== undefined && askRoom > 0) {
      const q = Math.min(p.size, askRoom);
      askRoom -= q;
      const sell = Math.min(q, freeYes);
      freeYes -= sell;
      if (sell > 0) out.push({ outcome: 'YES', side: 'sell', price: a, quantity: sell });
      if (q > sell) out.push({ outcome: 'NO', side: 'buy', price: 100 - a, quantity: q - sell });
    }
  }
  return out;
}

const NO_BOOK: BestQuotes = { bid: null, ask: null };

/**
 * A ladder kept off the other side of the book, so no quote takes (a bot makes a market, it does
 * not trade into one: a last trade long ago or a fixed price off the book would otherwise fill the
 * book's orders at its quotes). Bids at or above the book's best ask move down together until the
 * best is one cent below it; asks at or below its best bid move up alike; levels leaving 1..99 are
 * dropped. Each side only ever moves away from the trade, so the bot never pays more, or sells for
 * less, than its ladder said.
 */
export function insideBook(ladder: { bids: number[]; asks: number[] }, book: BestQuotes): { bids: number[]; asks: number[] } {
  const down = book.ask !== null && ladder.bids.length ? Math.max(0, ladder.bids[0]! - (book.ask - 1)) : 0;
  const up = book.bid !== null && ladder.asks.length ? Math.max(0, book.bid + 1 - ladder.asks[0]!) : 0;
  return { bids: ladder.bids.map((b) => b - down).filter((b) => b >= 1), asks: ladder.asks.map((a) => a + up).filter((a) => a <= 99) };
}

/** What one refresh did, for the bot's summary. */
export interface RefreshStats {
  markets: number;
  placed: number;
  cancelled: number;
  kept: number;
  left: number;
  errors: string[];
}
export const emptyStats = (): RefreshStats => ({ markets: 0, placed: 0, cancelled: 0, kept: 0, left: 0, errors: [] });

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function cancelQuietly(tx: DbOrTx, actor: Actor, o: Pick<OrderRow, 'id'>, what: string, stats: RefreshStats): Promise<void> {
  try {
    await tx.transaction((sp) => cancelOrder(sp, actor, { orderId: o.id }));
    stats.cancelled++;
  } catch (err) {
    stats.errors.push(`${what}: cancelling order ${o.id}: ${messageOf(err)}`);
  }
}

interface Money {
  coinId: number;
  unit: bigint;
  rates: { taker: number; maker: number };
}

async function moneyOf(tx: DbOrTx): Promise<Money | null> {
  const coin = await coinBySymbol(tx, SETTLEMENT_COIN);
  if (!coin || coin.decimals < 2) return null;
  const [s] = await tx.select({ taker: siteSettings.takerFeeBps, maker: siteSettings.makerFeeBps }).from(siteSettings).limit(1);
  return { coinId: coin.id, unit: 10n ** BigInt(coin.decimals - 2), rates: { taker: s?.taker ?? 0, maker: s?.maker ?? 0 } };
}

/** Refreshes one bot's quotes on one market (in the caller's transaction). */
export async function refreshMarket(tx: DbOrTx, bot: TradeBotRow, marketId: number, money: Money, stats: RefreshStats): Promise<void> {
  const actor = botActor(bot);
  // The market row first, as every book command takes it: fills cannot move the position meanwhile.
  const [market] = await tx.select().from(markets).where(eq(markets.id, marketId)).for('no key update');
  if (!market) return;
  const live = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.userId, bot.userId), eq(orders.marketId, marketId), inArray(orders.status, [...LIVE_ORDER_STATUSES])))
    .orderBy(asc(orders.id));
  if (market.status !== 'open') {
    for (const o of live) await cancelQuietly(tx, actor, o, market.ticker, stats);
    stats.left++;
    return;
  }
  stats.markets++;
  const held = { yes: 0, no: 0 };
  for (const p of await tx.select().from(positions).where(and(eq(positions.userId, bot.userId), eq(positions.marketId, marketId)))) {
    if (p.outcome === 'YES') held.yes = p.quantity;
    else held.no = p.quantity;
  }
  // The book the quotes meet (read under the market row's lock), without the bot's own orders: they are being replaced.
  const book = (await bestQuotesOf(tx, [marketId], { exceptUserId: bot.userId })).get(marketId) ?? NO_BOOK;
  const want = wantedQuotes(bot, fairOf(bot, market, book), held, book);
  // Keep live orders that are exactly a wanted quote; cancel the rest (their holds and shares come back first).
  for (const o of live) {
    const i = want.findIndex((q) => q.outcome === o.outcome && q.side === o.side && q.price === o.price && q.quantity === o.remaining);
    if (i >= 0) {
      want.splice(i, 1);
      stats.kept++;
    } else await cancelQuietly(tx, actor, o, market.ticker, stats);
  }
  let short = 0;
  for (const q of want) {
    let quantity = q.quantity;
    if (q.side === 'buy') {
      const perShare = buyHold(q.price, 1, money.rates, money.unit);
      const { available } = await balanceOf(tx, bot.userId, money.coinId);
      const affordable = Number(available / perShare);
      if (affordable < quantity) {
        short += quantity - affordable;
        quantity = affordable;
      }
      if (quantity <= 0) continue;
    }
    try {
      // Post-only: a quote rests or is refused, it never takes (insideBook has kept it off the book's other side).
      const { order, message } = await tx.transaction((sp) =>
        placeOrder(sp, actor, { userId: bot.userId, marketId, outcome: q.outcome, side: q.side, price: q.price, quantity, timeInForce: 'GTC', postOnly: true }),
      );
      if (order.status === 'rejected') stats.errors.push(`${market.ticker}: ${q.side} ${quantity} ${q.outcome} at ${q.price}¢: ${message}`);
      else stats.placed++;
    } catch (err) {
      stats.errors.push(`${market.ticker}: ${q.side} ${quantity} ${q.outcome} at ${q.price}¢ refused: ${messageOf(err)}`);
    }
  }
  if (short > 0) stats.errors.push(`${market.ticker}: balance short for ${short} share${short === 1 ? '' : 's'} of bids (${SETTLEMENT_COIN})`);
}

/** The fair YES price of a market for this bot: fixed, or the last trade (before any, the middle of a two-sided book, else the bot's starting price). */
export function fairOf(bot: Pick<TradeBotRow, 'fairSource' | 'fairPrice'>, market: Pick<MarketRow, 'lastPrice'>, book: BestQuotes = NO_BOOK): number {
  if (bot.fairSource === 'fixed') return bot.fairPrice;
  if (market.lastPrice !== null) return market.lastPrice;
  return book.bid !== null && book.ask !== null ? Math.round((book.bid + book.ask) / 2) : bot.fairPrice;
}

/** The markets a bot quotes now: every open one, or its list (any state: those not open get their quotes cancelled). */
async function marketsOf(tx: DbOrTx, bot: TradeBotRow): Promise<number[]> {
  if (bot.allOpenMarkets) return (await tx.select({ id: markets.id }).from(markets).where(eq(markets.status, 'open')).orderBy(asc(markets.id))).map((r) => r.id);
  return (await tx.select({ id: tradeBotMarkets.marketId }).from(tradeBotMarkets).where(eq(tradeBotMarkets.botId, bot.id)).orderBy(asc(tradeBotMarkets.marketId))).map((r) => r.id);
}

/** One refresh of one bot (row locked by the caller): its markets in id order, then its orders left on other markets. */
export async function refreshBot(tx: DbOrTx, bot: TradeBotRow, now: Date): Promise<RefreshStats> {
  const stats = emptyStats();
  const money = await moneyOf(tx);
  if (!money) {
    stats.errors.push(`${SETTLEMENT_COIN} is not set up (with at least 2 decimals): nothing can be quoted`);
  } else {
    const ids = await marketsOf(tx, bot);
    for (const id of ids) {
      try {
        await tx.transaction((sp) => refreshMarket(sp, bot, id, money, stats));
      } catch (err) {
        stats.errors.push(`market ${id}: ${messageOf(err)}`);
      }
    }
    // Quotes on markets the bot no longer quotes (removed from its list, or no longer open) go.
    const stray = await tx
      .select({ id: orders.id, marketId: orders.marketId })
      .from(orders)
      .where(and(eq(orders.userId, bot.userId), inArray(orders.status, [...LIVE_ORDER_STATUSES]), ids.length ? notInArray(orders.marketId, ids) : undefined))
      .orderBy(asc(orders.marketId), asc(orders.id));
    for (const o of stray) await cancelQuietly(tx, botActor(bot), o, `market ${o.marketId}`, stats);
  }
  const summary = `${stats.markets} open market${stats.markets === 1 ? '' : 's'}: ${stats.placed} placed, ${stats.cancelled} cancelled, ${stats.kept} kept${stats.left ? `; ${stats.left} not open` : ''}`;
  await tx
    .update(tradeBots)
    .set({
      lastRunAt: now, nextRunAt: new Date(now.getTime() + bot.refreshSeconds * 1000), lastRunSummary: summary,
      ...(stats.errors.length ? { lastError: stats.errors.slice(0, 5).join('\n') + (stats.errors.length > 5 ? `\n… and ${stats.errors.length - 5} more` : ''), lastErrorAt: now } : {}),
    })
    .where(eq(tradeBots.id, bot.id));
  return stats;
}

/**
 * Between refreshes: quotes of running bots on markets that are no longer open (halted, closed)
 * are cancelled at once (a closed market has cancelled them already). Returns how many.
 */
export async function cancelQuotesOnStoppedMarkets(tx: DbOrTx): Promise<number> {
  const rows = await tx
    .select({ id: orders.id, botId: tradeBots.id, ticker: markets.ticker })
    .from(orders)
    .innerJoin(tradeBots, eq(tradeBots.userId, orders.userId))
    .innerJoin(markets, eq(markets.id, orders.marketId))
    .where(and(eq(tradeBots.status, 'running'), inArray(orders.status, [...LIVE_ORDER_STATUSES]), ne(markets.status, 'open')))
    .orderBy(asc(orders.marketId), asc(orders.id));
  let n = 0;
  for (const r of rows) {
    const stats = emptyStats();
    await cancelQuietly(tx, systemActor(`trade-bot:${r.botId}`), r, r.ticker, stats);
    n += stats.cancelled;
    if (stats.errors.length) await tx.update(tradeBots).set({ lastError: stats.errors[0]!, lastErrorAt: new Date() }).where(eq(tradeBots.id, r.botId));
  }
  return n;
}

/** Records a failure of a whole tick on the bots it was refreshing (best effort, outside the failed transaction). */
export async function recordBotFailure(db: DbOrTx, botIds: number[], message: string, now: Date): Promise<void> {
  if (botIds.length === 0) return;
  await db.update(tradeBots).set({ lastError: `Refresh failed: ${message}`, lastErrorAt: now }).where(and(inArray(tradeBots.id, botIds), eq(tradeBots.status, 'running')));
}
