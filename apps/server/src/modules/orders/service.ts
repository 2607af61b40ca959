import { randomBytes } from 'node:crypto';
import { orderStates } from '@pitboss/contract';
import { EventCollector, MarketBook, MAX_QUANTITY, tradingFee, type EngineEvent, type FillEvent } from '@pitboss/engine';
import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type Db, type DbOrTx } from '../../db/client.js';
import { idArray, rowOf } from '../../db/bulk.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { assertTransition } from '../../resources/states.js';
import { coinBySymbol } from '../coins/service.js';
import { coins, type CoinRow } from '../coins/table.js';
import { balanceOf, INSUFFICIENT_BALANCE, postTransaction, type AccountRef, type PostingInput } from '../ledger/service.js';
import { publishMarketChange } from '../market-overview/service.js';
import { type ClaimedKey, claimsJson, IDEMPOTENCY_TTL_TEXT, type KeyClaim } from '../platform/idempotency.js';
import { markets, type MarketRow } from '../markets/table.js';
import { siteSettings } from '../site-settings/table.js';
import { users } from '../users/table.js';
import {
  LIVE_ORDER_STATUSES, orders, positions, trades,
  type OrderOutcome, type OrderRow, type OrderSide, type OrderStatus, type OrderTif, type PositionRow, type TradeKind,
} from './table.js';

/*
 * Orders through the engine, durably (docs/markets.md, "Orders and trades").
 *
 * Every command (place, cancel, expire, close) runs in ONE database transaction:
 * 1. the market row is locked (FOR NO KEY UPDATE) and `pg_advisory_xact_lock` taken on the market,
 *    so commands on one market are serialised across connections and instances;
 * 2. the market's in-memory `MarketBook` is taken from this process's cache only if its token equals
 *    the market row's `book_token` (written by every committed book change); otherwise the book is
 *    rebuilt from the database's live orders in priority (id) order;
 * 3. the command runs on the book; its events become rows (order, trades, positions, market figures)
 *    and ONE ledger transaction (hold, fills, fees, releases), and a fresh token is written.
 * If the transaction rolls back, the row keeps the old token, the cached book (which already took
 * the change) no longer matches and the next command rebuilds it: only committed changes survive.
 */

/** The coin every market settles in: one share pays 1 USDC (100 cents; a cent is `unit` minor units). */
export const SETTLEMENT_COIN = 'USDC';
/** Largest order quantity accepted (shares). */
export const MAX_ORDER_QUANTITY = 1_000_000;
/** First half of the advisory lock key of a market's book (the second is the market id). */
const BOOK_LOCK_SPACE = 7_301;

export interface CachedBook {
  token: string;
  book: MarketBook;
  events: EventCollector;
  /**
   * The rows behind the book, kept by the group commit (group-commit.ts) so that a group's fills
   * need no read of their resting orders: every live order of the market, and the positions in it
   * read or written since (by user and outcome). Valid only while `rows.token` equals `token`: any
   * other writer of the book sets a new token without touching them, and a rebuild starts afresh.
   */
  rows?: { token: string; orders: Map<number, OrderRow>; positions: Map<string, PositionRow> };
}
/** This process's books, by market id. Valid only while their token matches the market row's. */
const books = new Map<number, CachedBook>();

export const newToken = () => randomBytes(12).toString('hex');

/** Forget every cached book (tests: a "restart"). */
export function dropCachedBooks(): void {
  books.clear();
}

/** Tests: the rows this process keeps behind a market's book for the next group, when they are current. */
export function keptBookRows(marketId: number): CachedBook['rows'] | undefined {
  const entry = books.get(marketId);
  return entry?.rows && entry.rows.token === entry.token ? entry.rows : undefined;
}

export interface PlaceOrderInput {
  userId: number;
  marketId: number;
  outcome: OrderOutcome;
  side: OrderSide;
  /** Limit price in cents of the outcome, 1..99. */
  price: number;
  quantity: number;
  timeInForce: OrderTif;
  expiresAt?: Date | null;
  postOnly?: boolean;
}

export interface OrderResult {
  order: OrderRow;
  trades: number;
  message: string;
}

export async function settlementCoin(tx: DbOrTx): Promise<CoinRow & { unit: bigint }> {
  return withShareUnit(await coinBySymbol(tx, SETTLEMENT_COIN));
}

/** The settlement coin as read, checked, with the minor units of one cent. */
function withShareUnit(coin: CoinRow | undefined): CoinRow & { unit: bigint } {
  if (!coin) throw conflict(`Markets settle in ${SETTLEMENT_COIN}, which is not set up on this server`);
  if (coin.decimals < 2) throw conflict(`${SETTLEMENT_COIN} needs at least 2 decimals to price shares in cents`);
  return { ...coin, unit: 10n ** BigInt(coin.decimals - 2) };
}

/** The settlement coin (a row read as `json_row_exact` gives it, or none) and the fee rates, checked (409 when the coin is missing or has under 2 decimals). */
export function coinAndRatesOf(coin: Record<string, unknown> | null, taker: number | null, maker: number | null): { coin: CoinRow & { unit: bigint }; rates: { taker: number; maker: number } } {
  return { coin: withShareUnit(coin ? rowOf(coins, coin) : undefined), rates: { taker: Number(taker ?? 0), maker: Number(maker ?? 0) } };
}

export async function feeRates(tx: DbOrTx): Promise<{ taker: number; maker: number }> {
  const [s] = await tx.select({ taker: siteSettings.takerFeeBps, maker: siteSettings.makerFeeBps }).from(siteSettings).limit(1);
  return { taker: s?.taker ?? 0, maker: s?.maker ?? 0 };
}

/** Locks the market (row, then advisory lock) for one book command. */
export async function lockMarket(tx: DbOrTx, marketId: number): Promise<MarketRow> {
  const [market] = Number.isSafeInteger(marketId) ? await tx.select().from(markets).where(eq(markets.id, marketId)).for('no key update') : [];
  if (!market) throw notFound('Market');
  await queryRows(tx, sql`select pg_advisory_xact_lock(${BOOK_LOCK_SPACE}::int, ${marketId}::int)`);
  return market;
}

/** A group's user as `beginOrderGroup` reads it: a row per position held in the market (none: `position` null). */
export interface GroupUserRow {
  id: number;
  status: string;
  /** A house account: exempt from the market's trading limits. */
  house: boolean;
  balance: bigint;
  position: PositionRow | null;
}

/** What `beginOrderGroup` read: `market` null when there is no such market (then no ids, no users). */
export interface GroupStart {
  claimed: ClaimedKey[];
  coin: Record<string, unknown> | null;
  taker: number | null;
  maker: number | null;
  market: MarketRow | null;
  orderIds: number[];
  ledgerIds: number[];
  users: GroupUserRow[];
}

/**
 * The start of an order group (group-commit.ts) in one round trip (migration 0032,
 * `order_group_begin`): its keys claimed, the settlement coin and the fee rates read, then the
 * market locked as `lockMarket` locks it (row, then advisory lock), `n` ids reserved from the
 * orders' and the ledger transactions' sequences under the locks, and the users with their
 * available balance and their positions in this market read after the locks are held (each step
 * a statement of its own inside the function: it sees what the previous holder of the locks
 * committed).
 */
export async function beginOrderGroup(tx: DbOrTx, g: { claims: KeyClaim[]; marketId: number; n: number; userIds: number[] }): Promise<GroupStart> {
  type Raw = Record<string, unknown> & { _claimed: unknown; _coin: unknown; _taker: number | null; _maker: number | null; _ids: unknown; _users: unknown };
  const [row] = await queryRows<Raw>(
    tx,
    sql`select (r.o_market).*, r.o_claimed as _claimed, r.o_coin as _coin, r.o_taker as _taker, r.o_maker as _maker, r.o_ids as _ids, r.o_users as _users
      from order_group_begin(${claimsJson(g.claims)}::jsonb, ${IDEMPOTENCY_TTL_TEXT}::interval, ${SETTLEMENT_COIN}, ${Number.isSafeInteger(g.marketId) ? g.marketId : 0}::bigint,
        ${BOOK_LOCK_SPACE}::int, ${g.n}::int, ${idArray(g.userIds)}) r`,
  );
  const json = <T>(v: unknown, none: T): T => (v === null || v === undefined ? none : typeof v === 'string' ? JSON.parse(v) : v) as T;
  const ids = json<[number | string, number | string][]>(row?._ids, []);
  const users = json<{ id: number; status: string; house: boolean; balance: string | null; position: Record<string, unknown> | null }[]>(row?._users, []).map((u) => ({
    id: Number(u.id), status: u.status, house: u.house === true, balance: u.balance === null ? 0n : BigInt(u.balance), position: u.position ? rowOf(positions, u.position) : null,
  }));
  return {
    claimed: json<ClaimedKey[]>(row?._claimed, []), coin: json<Record<string, unknown> | null>(row?._coin, null), taker: row?._taker ?? null, maker: row?._maker ?? null,
    market: row && row.id !== null && row.id !== undefined ? rowOf(markets, row) : null,
    orderIds: ids.map((r) => Number(r[0])), ledgerIds: ids.map((r) => Number(r[1])), users,
  };
}

/** The market's book as the database has it (cached when the token matches, else rebuilt). */
export async function bookOf(tx: DbOrTx, market: MarketRow): Promise<CachedBook> {
  const cached = books.get(market.id);
  if (cached && cached.token === (market.bookToken ?? 'none')) return cached;
  const live = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.marketId, market.id), inArray(orders.status, [...LIVE_ORDER_STATUSES])))
    .orderBy(asc(orders.id));
  const events = new EventCollector(false);
  const book = new MarketBook(events);
  for (const o of live) {
    const rc = book.submit({
      id: o.id, owner: o.userId, outcome: o.outcome, side: o.side, price: o.price, qty: o.remaining,
      tif: o.timeInForce === 'GTD' ? 'GTD' : 'GTC', ...(o.expiresAt ? { expiresAt: o.expiresAt.getTime() } : {}), postOnly: o.postOnly,
    });
    if (rc !== 0) throw new Error(`Rebuilding the book of market ${market.id}: order ${o.id} refused (${rc})`);
  }
  if (events.drain().some((e) => e.type === 'fill' || e.type === 'cancelled')) throw new Error(`Rebuilding the book of market ${market.id}: resting orders cross`);
  const token = market.bookToken ?? 'none';
  const entry: CachedBook = { token, book, events, rows: { token, orders: new Map(live.map((o) => [o.id, o])), positions: new Map() } };
  books.set(market.id, entry);
  return entry;
}

/** A read-only view of a market's book as this process holds it after syncing with the database (tests, diagnostics). */
export async function restingOrders(db: Db, marketId: number) {
  return db.transaction(async (tx) => {
    const market = await lockMarket(tx, marketId);
    return (await bookOf(tx, market)).book.orders();
  });
}

// ── Applying a command's events ────────────────────────────────────────────

export interface Ctx {
  tx: DbOrTx;
  market: MarketRow;
  coin: CoinRow & { unit: bigint };
  rates: { taker: number; maker: number };
}

export class Effects {
  readonly orders = new Map<number, OrderRow>();
  readonly changed = new Set<number>();
  readonly positions = new Map<string, PositionRow | (Omit<PositionRow, 'id' | 'createdAt' | 'updatedAt'> & { id?: undefined })>();
  readonly trades: (typeof trades.$inferInsert)[] = [];
  private readonly legs = new Map<string, PostingInput>();
  volume = 0;
  openInterest = 0;
  lastPrice: number | null = null;
  constructor(private readonly c: Ctx) {}

  leg(account: AccountRef, amount: bigint): void {
    if (amount === 0n) return;
    const key = 'user' in account ? `u${account.user}:${account.bucket}` : `p:${account.platform}`;
    const l = this.legs.get(key);
    if (l) l.amount += amount;
    else this.legs.set(key, { account, coin: this.c.coin.id, amount });
  }

  postings(): PostingInput[] {
    return [...this.legs.values()].filter((l) => l.amount !== 0n);
  }

  /** The postings so far, and start a new set (group commit: one ledger transaction per command). */
  takePostings(): PostingInput[] {
    const p = this.postings();
    this.legs.clear();
    return p;
  }

  pos(userId: number, outcome: OrderOutcome) {
    const key = `${userId}:${outcome}`;
    let p = this.positions.get(key);
    if (!p) {
      p = { userId, marketId: this.c.market.id, outcome, quantity: 0, reserved: 0, cost: 0n, realizedPnl: 0n, settlement: null, status: 'open', coinId: this.c.coin.id };
      this.positions.set(key, p);
    }
    return p;
  }

  async load(orderIds: number[], posKeys: { userId: number; outcome: OrderOutcome }[]): Promise<void> {
    const ids = orderIds.filter((id) => !this.orders.has(id));
    if (ids.length) for (const o of await this.c.tx.select().from(orders).where(inArray(orders.id, ids))) this.orders.set(o.id, o);
    const want = posKeys.filter((k) => !this.positions.has(`${k.userId}:${k.outcome}`));
    if (want.length) {
      const rows = await this.c.tx
        .select()
        .from(positions)
        .where(and(eq(positions.marketId, this.c.market.id), or(...want.map((k) => and(eq(positions.userId, k.userId), eq(positions.outcome, k.outcome))))));
      for (const p of rows) this.positions.set(`${p.userId}:${p.outcome}`, p);
    }
  }

  order(id: number): OrderRow {
    const o = this.orders.get(id);
    if (!o) throw new Error(`Order ${id} of the book is not in the database`);
    this.changed.add(id);
    return o;
  }

  /** An order leaves the book with `qty` unfilled: its hold or reserved shares go back. */
  end(o: OrderRow, status: OrderStatus, qty: number, reason: string | null): void {
    o.status = status;
    o.reason = reason;
    o.remaining = 0;
    if (o.side === 'buy' && o.held > 0n) {
      this.leg({ user: o.userId, bucket: 'held' }, -o.held);
      this.leg({ user: o.userId, bucket: 'available' }, o.held);
      o.held = 0n;
    }
    if (o.side === 'sell' && qty > 0) this.pos(o.userId, o.outcome).reserved -= qty;
  }

  /** One party of a fill. */
  private party(o: OrderRow, qty: number, yesPrice: number, rate: number, remaining: number): bigint {
    const { unit } = this.c.coin;
    const x = BigInt(o.outcome === 'YES' ? yesPrice : 100 - yesPrice);
    const q = BigInt(qty);
    const value = x * q * unit;
    let fee = BigInt(tradingFee(rate, qty, yesPrice)) * unit;
    const p = this.pos(o.userId, o.outcome);
    if (o.side === 'buy') {
      // A fee rate raised while the order rested is charged up to what the order still holds.
      if (value + fee > o.held) fee = o.held - value > 0n ? o.held - value : 0n;
      o.held -= value + fee;
      this.leg({ user: o.userId, bucket: 'held' }, -(value + fee));
      p.quantity += qty;
      p.cost += value;
    } else {
      if (fee > value) fee = value;
      this.leg({ user: o.userId, bucket: 'available' }, value - fee);
      const released = (p.cost * q) / BigInt(p.quantity);
      p.cost -= released;
      p.realizedPnl += value - released;
      p.quantity -= qty;
      p.reserved -= qty;
    }
    p.status = p.quantity === 0 && p.reserved === 0 ? 'closed' : 'open';
    o.filled += qty;
    o.remaining = remaining;
    o.fees += fee;
    o.status = remaining === 0 ? 'filled' : 'partially_filled';
    if (remaining === 0) this.end(o, 'filled', 0, null);
    return fee;
  }

  fill(f: FillEvent): void {
    const maker = this.order(f.makerId);
    const taker = this.order(f.takerId);
    const makerFee = this.party(maker, f.qty, f.price, this.c.rates.maker, f.makerRemaining);
    const takerFee = this.party(taker, f.qty, f.price, this.c.rates.taker, f.takerRemaining);
    this.leg({ platform: 'fees_income' }, makerFee + takerFee);
    const pairs = BigInt(f.qty) * 100n * this.c.coin.unit;
    if (f.kind === 'mint') {
      this.leg({ platform: 'market_collateral' }, pairs);
      this.openInterest += f.qty;
    } else if (f.kind === 'merge') {
      this.leg({ platform: 'market_collateral' }, -pairs);
      this.openInterest -= f.qty;
    }
    this.volume += f.qty;
    this.lastPrice = f.price;
    this.trades.push({
      marketId: this.c.market.id, makerOrderId: maker.id, takerOrderId: taker.id, makerUserId: maker.userId, takerUserId: taker.userId,
      makerOutcome: f.makerOutcome, makerSide: f.makerSide, takerOutcome: f.takerOutcome, takerSide: f.takerSide,
      price: f.price, quantity: f.qty, kind: f.kind as TradeKind, makerFee, takerFee, coinId: this.c.coin.id,
    });
  }

  apply(events: EngineEvent[]): void {
    for (const e of events) {
      if (e.type === 'fill') this.fill(e);
      else if (e.type === 'cancelled') this.end(this.order(e.id), 'cancelled', e.qty, e.reason);
      else if (e.type === 'expired') this.end(this.order(e.id), 'expired', e.qty, 'GTD_EXPIRED');
      else if (e.type === 'rejected') {
        const o = this.orders.get(e.id);
        if (o) this.end(this.order(e.id), 'rejected', o.remaining, e.reason);
      }
    }
  }

  /** Writes everything of the command and a new book token; returns the token. */
  async commit(actor: Actor, cause: { type: 'order' | 'market'; id: number }): Promise<string> {
    const { tx, market } = this.c;
    const now = actor.at ?? new Date();
    for (const id of this.changed) {
      const o = this.orders.get(id)!;
      await tx.update(orders).set({ filled: o.filled, remaining: o.remaining, status: o.status, reason: o.reason, held: o.held, fees: o.fees, updatedAt: now }).where(eq(orders.id, id));
    }
    if (this.trades.length) await tx.insert(trades).values(actor.at ? this.trades.map((t) => ({ ...t, createdAt: now })) : this.trades);
    for (const p of this.positions.values()) {
      if (p.id === undefined) await tx.insert(positions).values({ ...p, updatedAt: now });
      else await tx.update(positions).set({ quantity: p.quantity, reserved: p.reserved, cost: p.cost, realizedPnl: p.realizedPnl, status: p.status, updatedAt: now }).where(eq(positions.id, p.id));
    }
    const postings = this.postings();
    if (postings.length) await postTransaction(tx, actor, { cause: 'order', ref: cause, postings });
    const token = newToken();
    await tx
      .update(markets)
      .set({
        bookToken: token,
        ...(this.volume ? { volume: sql`${markets.volume} + ${this.volume}`, lastPrice: this.lastPrice } : {}),
        ...(this.openInterest ? { openInterest: sql`${markets.openInterest} + ${this.openInterest}` } : {}),
      })
      .where(eq(markets.id, market.id));
    // Every instance's market overview hears of it when (and only if) this transaction commits.
    await publishMarketChange(tx, market.id);
    return token;
  }
}

/** Runs one command on the market's book and persists its events in the caller's transaction. */
async function runCommand(
  c: Ctx,
  actor: Actor,
  cause: { type: 'order' | 'market'; id: number },
  prepare: (fx: Effects) => void | Promise<void>,
  command: (book: MarketBook) => void,
): Promise<Effects> {
  const entry = await bookOf(c.tx, c.market);
  const fx = new Effects(c);
  await prepare(fx);
  entry.events.drain();
  // From here the cached book holds an uncommitted change: mark it stale until the new token is written.
  entry.token = '';
  command(entry.book);
  const events = entry.events.drain();
  const ids = new Set<number>();
  const pos: { userId: number; outcome: OrderOutcome }[] = [];
  for (const e of events) {
    if (e.type === 'fill') {
      ids.add(e.makerId).add(e.takerId);
      pos.push({ userId: e.makerOwner, outcome: e.makerOutcome }, { userId: e.takerOwner, outcome: e.takerOutcome });
    } else if (e.type === 'cancelled' || e.type === 'expired') ids.add(e.id);
  }
  await fx.load([...ids], pos);
  // Sells being cancelled or expired give their reserved shares back.
  const sells = [...ids].map((id) => fx.orders.get(id)!).filter((o) => o && o.side === 'sell');
  await fx.load([], sells.map((o) => ({ userId: o.userId, outcome: o.outcome })));
  fx.apply(events);
  entry.token = await fx.commit(actor, cause);
  return fx;
}

// ── Commands ───────────────────────────────────────────────────────────────

export function checkInput(input: PlaceOrderInput): void {
  const errors: Record<string, string> = {};
  if (!Number.isInteger(input.price) || input.price < 1 || input.price > 99) errors.price = 'Whole cents from 1 to 99';
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1 || input.quantity > Math.min(MAX_ORDER_QUANTITY, MAX_QUANTITY)) {
    errors.quantity = `Whole shares from 1 to ${MAX_ORDER_QUANTITY.toLocaleString('en')}`;
  }
  if (input.timeInForce === 'GTD') {
    if (!input.expiresAt) errors.expiresAt = 'A GTD order needs its expiry time';
    else if (input.expiresAt.getTime() <= Date.now()) errors.expiresAt = 'Must be in the future';
  } else if (input.expiresAt) errors.expiresAt = 'Only a GTD order has an expiry time';
  if (input.postOnly && (input.timeInForce === 'IOC' || input.timeInForce === 'FOK')) errors.postOnly = 'Post-only is for GTC and GTD orders';
  if (Object.keys(errors).length) throw badRequest('The order is not valid', errors);
}

/** What a buy holds: its maximum cost plus its maximum fee (minor units). */
export function buyHold(price: number, quantity: number, rates: { taker: number; maker: number }, unit: bigint): bigint {
  // The fee per share peaks at 50 cents (p × (100 − p)); a buy fills at its limit or better.
  const feePerShare = tradingFee(Math.max(rates.taker, rates.maker), 1, Math.min(price, 50));
  return BigInt(quantity) * BigInt(price + feePerShare) * unit;
}

/** Shares on order to buy in the book, by `${user}:${outcome}` (only `users`' orders when given). */
export function restingBuys(book: MarketBook, users?: ReadonlySet<number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of book.orders()) {
    if (o.side !== 'buy' || (users && !users.has(o.owner))) continue;
    const key = `${o.owner}:${o.outcome}`;
    out.set(key, (out.get(key) ?? 0) + o.qty);
  }
  return out;
}

const shares = (n: number) => `${n.toLocaleString('en')} share${n === 1 ? '' : 's'}`;

/**
 * The market's trading limits on a customer's order (docs/markets.md, "Trading limits"; house
 * accounts are exempt): its size, and for a buy the outcome's shares held plus already on order to
 * buy plus this order. `exposure` is asked only for a buy on a market with a position limit. Checked
 * under the market's lock, so concurrent orders of one user see each other.
 */
export function assertWithinLimits(market: MarketRow, input: PlaceOrderInput, exposure: () => { held: number; onOrder: number }): void {
  const { maxOrderSize, maxPosition } = market;
  if (maxOrderSize !== null && input.quantity > maxOrderSize) {
    throw conflict(`Orders on ${market.ticker} are limited to ${shares(maxOrderSize)}`, { quantity: `At most ${shares(maxOrderSize)} per order on ${market.ticker}` });
  }
  if (maxPosition === null || input.side !== 'buy') return;
  const { held, onOrder } = exposure();
  if (held + onOrder + input.quantity <= maxPosition) return;
  const room = Math.max(0, maxPosition - held - onOrder);
  throw conflict(`A position on ${market.ticker} is limited to ${shares(maxPosition)} of ${input.outcome}`, {
    quantity: `Holds ${shares(held)} of ${input.outcome} and has ${shares(onOrder)} on order to buy: ${room === 0 ? 'no more can be bought' : `at most ${room.toLocaleString('en')} more can be bought`}`,
  });
}

const FINAL_MESSAGE: Record<OrderStatus, string> = {
  open: 'Order placed: resting in the book',
  partially_filled: 'Order partly filled: the rest is resting in the book',
  filled: 'Order filled',
  cancelled: 'Order ended: its unfilled part was cancelled',
  expired: 'Order expired',
  rejected: 'Order rejected',
};

/**
 * Places an order: checks (open market, active user, balance or shares), holds what a buy may
 * spend, runs it on the book and commits the fills. In the caller's transaction, or its own.
 */
export async function placeOrder(tx: DbOrTx | null, actor: Actor, input: PlaceOrderInput, db?: Db): Promise<OrderResult> {
  if (!tx) {
    if (!db) throw new Error('placeOrder needs a transaction or a database');
    return db.transaction((t) => placeOrder(t, actor, input));
  }
  checkInput(input);
  const [user] = Number.isSafeInteger(input.userId) ? await tx.select({ id: users.id, status: users.status, house: users.house }).from(users).where(eq(users.id, input.userId)) : [];
  if (!user) throw badRequest('Unknown user', { userId: 'No such user' });
  if (user.status !== 'active') throw conflict('The user is blocked: they cannot place orders', { userId: 'Blocked' });
  const market = await lockMarket(tx, input.marketId);
  if (market.status !== 'open') throw conflict(`Market ${market.ticker} is ${market.status}: only an open market takes orders`);
  const coin = await settlementCoin(tx);
  const rates = await feeRates(tx);
  // The book as committed, before this order's row exists (a rebuild reads the live rows).
  const { book } = await bookOf(tx, market);
  const positionOf = async () =>
    (await tx.select().from(positions).where(and(eq(positions.userId, input.userId), eq(positions.marketId, market.id), eq(positions.outcome, input.outcome))))[0];
  if (!user.house && (market.maxOrderSize !== null || market.maxPosition !== null)) {
    const held = input.side === 'buy' && market.maxPosition !== null ? ((await positionOf())?.quantity ?? 0) : 0;
    assertWithinLimits(market, input, () => ({ held, onOrder: restingBuys(book, new Set([input.userId])).get(`${input.userId}:${input.outcome}`) ?? 0 }));
  }

  let hold = 0n;
  if (input.side === 'buy') {
    hold = buyHold(input.price, input.quantity, rates, coin.unit);
    const { available } = await balanceOf(tx, input.userId, coin.id);
    if (available < hold) throw insufficientBalance(input, hold, available, coin);
  } else {
    const p = await positionOf();
    if ((p?.quantity ?? 0) - (p?.reserved ?? 0) < input.quantity) throw notEnoughShares(input, market, p);
  }
  const [order] = await tx
    .insert(orders)
    .values({
      marketId: market.id, userId: input.userId, outcome: input.outcome, side: input.side, price: input.price, quantity: input.quantity,
      remaining: input.quantity, timeInForce: input.timeInForce, expiresAt: input.expiresAt ?? null, postOnly: input.postOnly ?? false,
      coinId: coin.id, held: hold, ...(actor.at ? { createdAt: actor.at, updatedAt: actor.at } : {}),
    })
    .returning();
  const now = Date.now();
  const fx = await runCommand({ tx, market, coin, rates }, actor, { type: 'order', id: order!.id }, async (fx) => {
    fx.orders.set(order!.id, order!);
    fx.changed.add(order!.id);
    if (hold > 0n) {
      fx.leg({ user: input.userId, bucket: 'available' }, -hold);
      fx.leg({ user: input.userId, bucket: 'held' }, hold);
    }
    if (input.side === 'sell') {
      await fx.load([], [{ userId: input.userId, outcome: input.outcome }]);
      fx.pos(input.userId, input.outcome).reserved += input.quantity;
    }
  }, (book) => {
    book.submit({
      id: order!.id, owner: input.userId, outcome: input.outcome, side: input.side, price: input.price, qty: input.quantity,
      tif: input.timeInForce, ...(input.expiresAt ? { expiresAt: input.expiresAt.getTime() } : {}), postOnly: input.postOnly ?? false,
    }, now);
  });
  const placed = fx.orders.get(order!.id)!;
  await writeAudit(tx, actor, { action: 'place', resource: 'orders', recordId: placed.id, after: orderAuditView(placed) });
  return { order: placed, trades: fx.trades.length, message: orderMessage(placed) };
}

/** The refusal of a buy whose hold does not fit the available balance. */
export function insufficientBalance(input: PlaceOrderInput, hold: bigint, available: bigint, coin: CoinRow) {
  return conflict(INSUFFICIENT_BALANCE, { quantity: `Buying ${input.quantity} at ${input.price}¢ holds up to ${fmt(hold, coin)} ${coin.symbol} (cost and fees); available: ${fmt(available, coin)}` });
}

/** The refusal of a sell of more shares than are held and not already offered. */
export function notEnoughShares(input: PlaceOrderInput, market: MarketRow, p: { quantity: number; reserved: number } | undefined) {
  const free = (p?.quantity ?? 0) - (p?.reserved ?? 0);
  return conflict(`Not enough ${input.outcome} shares to sell`, { quantity: `Holds ${p?.quantity ?? 0} ${input.outcome} shares of ${market.ticker}, ${p?.reserved ?? 0} already offered: ${Math.max(free, 0)} can be sold` });
}

/** What the caller is told about a placed order, by its state after the command. */
export function orderMessage(placed: OrderRow): string {
  if (placed.status === 'rejected' && placed.reason === 'POST_ONLY_WOULD_CROSS') return 'Order rejected: a post-only order would have crossed the book';
  if (placed.status === 'cancelled' && placed.reason === 'FOK_NOT_FILLED') return 'Order cancelled: fill-or-kill could not be filled completely';
  return FINAL_MESSAGE[placed.status];
}

export const fmt = (v: bigint, coin: CoinRow) => {
  const s = v.toString().padStart(coin.decimals + 1, '0');
  return `${s.slice(0, -coin.decimals)}.${s.slice(-coin.decimals)}`;
};

export const orderAuditView = (o: OrderRow) => ({
  marketId: o.marketId, userId: o.userId, outcome: o.outcome, side: o.side, price: o.price, quantity: o.quantity, filled: o.filled,
  remaining: o.remaining, timeInForce: o.timeInForce, expiresAt: o.expiresAt, postOnly: o.postOnly, status: o.status, reason: o.reason, held: o.held, fees: o.fees,
});

/** Cancels a live order (its owner through the platform, or an admin); releases its hold or reserved shares. */
export async function cancelOrder(tx: DbOrTx, actor: Actor, input: { orderId: number; userId?: number }): Promise<OrderRow> {
  const [row] = Number.isSafeInteger(input.orderId) ? await tx.select().from(orders).where(eq(orders.id, input.orderId)) : [];
  if (!row || (input.userId !== undefined && row.userId !== input.userId)) throw notFound('Order');
  const market = await lockMarket(tx, row.marketId);
  const [current] = await tx.select().from(orders).where(eq(orders.id, row.id));
  // The declared machine decides, for the platform's cancel as for an admin's (409 naming the state).
  assertTransition(orderStates, 'cancel', current!.status);
  const coin = await settlementCoin(tx);
  const fx = await runCommand({ tx, market, coin, rates: await feeRates(tx) }, actor, { type: 'order', id: row.id }, () => undefined, (book) => {
    book.cancel(row.id);
  });
  const after = fx.orders.get(row.id);
  if (!after || LIVE_ORDER_STATUSES.includes(after.status)) throw new Error(`Order ${row.id} is live in the database but not in the book`);
  await writeAudit(tx, actor, { action: 'cancel', resource: 'orders', recordId: row.id, before: orderAuditView(current!), after: orderAuditView(after) });
  return after;
}

/** Closing a market: every resting order is cancelled (reason CLOSED) and its hold released. Called by `closeMarket`. */
export async function cancelRestingOrders(tx: DbOrTx, actor: Actor, marketId: number): Promise<number> {
  const market = await lockMarket(tx, marketId);
  const [live] = await tx.select({ id: orders.id }).from(orders).where(and(eq(orders.marketId, marketId), inArray(orders.status, [...LIVE_ORDER_STATUSES]))).limit(1);
  if (!live) {
    books.delete(marketId);
    return 0;
  }
  const coin = await settlementCoin(tx);
  const fx = await runCommand({ tx, market, coin, rates: await feeRates(tx) }, actor, { type: 'market', id: marketId }, () => undefined, (book) => {
    book.close();
  });
  // A closed book takes nothing more; a market that is not open never reaches it again.
  books.delete(marketId);
  return fx.changed.size;
}

/** Expires every GTD order of one market whose time has come (advances the book's clock to `now`). */
export async function expireMarketOrders(tx: DbOrTx, actor: Actor, marketId: number, now: number): Promise<number> {
  const market = await lockMarket(tx, marketId);
  const coin = await settlementCoin(tx);
  const fx = await runCommand({ tx, market, coin, rates: await feeRates(tx) }, actor, { type: 'market', id: marketId }, () => undefined, (book) => {
    book.expire(now);
  });
  return fx.changed.size;
}

/** Markets holding a live GTD order past its expiry. */
export async function marketsWithExpiredOrders(db: DbOrTx, now: Date): Promise<number[]> {
  const rows = await db
    .selectDistinct({ marketId: orders.marketId })
    .from(orders)
    .where(and(eq(orders.timeInForce, 'GTD'), inArray(orders.status, [...LIVE_ORDER_STATUSES]), lte(orders.expiresAt, now)));
  return rows.map((r) => r.marketId);
}
