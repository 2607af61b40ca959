import { MARKET_CHANGES_CHANNEL } from '../market-overview/service.js';
import type { EngineEvent } from '@pitboss/engine';
import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type Db } from '../../db/client.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { auditLog } from '../../db/schema.js';
import { bulkInsert, bulkUpdateById } from '../../db/bulk.js';
import { auditRows } from '../../lib/audit.js';
import { coins } from '../coins/table.js';
import { ledgerAccountIds, ledgerWrites, type PostInput } from '../ledger/service.js';
import { markets } from '../markets/table.js';
import {
  claimId, errorAnswer, followerResult, idempotentAnswersUpdate, requestHash, resolveClaims, runIdempotent,
  type Answer, type IdempotentRequest, type IdempotentResult,
} from '../platform/idempotency.js';
import {
  assertWithinLimits, beginOrderGroup, bookOf, buyHold, type CachedBook, checkInput, coinAndRatesOf, Effects, insufficientBalance, newToken, notEnoughShares, orderAuditView, orderMessage,
  placeOrder, type PlaceOrderInput, restingBuys,
} from './service.js';
import { LIVE_ORDER_STATUSES, orders, positions, trades, type OrderOutcome, type OrderRow, type PositionRow } from './table.js';

/*
 * Group commit of a market's orders from the platform API (docs/markets.md, "Orders and trades", and
 * issue 9 "Performance"). One transaction per order holds the market's lock for ~20 round trips
 * and a commit; a few dozen orders a second per market is all that allows. Here requests for one
 * market wait in a queue of this process; while a group's transaction runs, the next requests
 * gather, and the next group takes them all:
 *
 * 1. one transaction claims every Idempotency-Key of the group (keys already answered are replayed,
 *    as `runIdempotent` does), then locks the market (row + advisory lock, as every book command)
 *    and syncs its book by token (the durable-book scheme is unchanged);
 * 2. each command is checked on its own (input, user, market open, balance or shares), against the
 *    balances as read at the start of the group less what the group's earlier orders hold or offer
 *    (what their fills pay out within the same group is not counted: a group never spends money
 *    it has not seen committed); a refused command gets its 4xx answer, stored for its key, and
 *    changes nothing; an accepted one runs on the book at once, in arrival order;
 * 3. the rows the events touch come from what the previous group of this process kept (while the
 *    book's token is still the one it wrote) or are read in two statements for the whole group, the
 *    ledger accounts' ids come from a per-process map or are read, and then everything is written in ONE statement
 *    (data-modifying CTEs): orders (ids reserved from the sequence first), order updates, trades,
 *    positions, one ledger transaction per order (as before) with its postings and the balances,
 *    audit entries, the answers of the keys, and the market's figures and new book token;
 * 4. at commit every request is answered, and the next group begins with what arrived meanwhile.
 *    (Beginning it while this one commits, so that its claim overlapped the commit, was measured
 *    slower on 2 cores: 1,450-1,650 against 2,200-2,400 orders/s in alternating runs, the commit
 *    taking 4.3-4.7 ms instead of 0.7 while the next group's work competed with it.) If the transaction fails (a deadlock,
 *    a constraint, a lost connection) nothing of it is kept, the cached book no longer matches its
 *    token and is rebuilt, and the group's commands are retried one by one, each in its own
 *    transaction (`runIdempotent` + `placeOrder`), so one bad command cannot fail the others.
 *
 * Multi-instance safety is the same as for single commands: a group holds the market's locks for
 * its transaction, and another instance (or a trade bot, an admin, the expiry job) simply queues
 * on those locks and rebuilds its book when the token moved.
 */

/** Commands per group at most (one transaction). */
export const MAX_GROUP = 256;

export interface GroupedOrder {
  idem: IdempotentRequest;
  actor: Actor;
  input: PlaceOrderInput;
  /** The answer to send and store for a placed order (the platform's view of it). */
  answer: (order: OrderRow, message: string, ticker: string, coinSymbol: string) => Answer;
}

interface Pending extends GroupedOrder {
  hash: string;
  resolve: (r: IdempotentResult) => void;
  reject: (err: unknown) => void;
}

interface Queue {
  items: Pending[];
  running: boolean;
}

/** Per database (an app instance) and market. */
const queues = new WeakMap<Db, Map<number, Queue>>();

/**
 * Tests only: the next `failNextGroups` group transactions fail after their commands ran on the
 * book (as a lost connection or a deadlock would), so the retry path and the book rebuild run.
 */
export const groupCommitTesting = { failNextGroups: 0 };

/**
 * Where a group's time goes (the bench's diagnosis): with GROUP_COMMIT_TIMING set, the server adds
 * each phase's wall time (ms) over all groups and prints the totals when it stops. Phases from
 * `lock` to `commit` hold the market's locks: together they bound the groups per second.
 */
const phaseTimes = process.env.GROUP_COMMIT_TIMING ? new Map<string, number>() : null;
if (phaseTimes) {
  process.once('exit', () => {
    if (groupCommitStats.groups === 0) return;
    const per = (ms: number) => (ms / Math.max(1, groupCommitStats.groups)).toFixed(1);
    console.error(`group commit: ${groupCommitStats.groups} groups, ${groupCommitStats.commands} commands; ms per group: ${[...phaseTimes].map(([k, v]) => `${k} ${per(v)}`).join(', ')}`);
  });
}
function phaseClock(): (name: string) => void {
  let t = performance.now();
  return (name) => {
    if (!phaseTimes) return;
    const now = performance.now();
    phaseTimes.set(name, (phaseTimes.get(name) ?? 0) + now - t);
    t = now;
  };
}

/** Counters (tests and the bench: groups really form under concurrency). */
export const groupCommitStats: { groups: number; commands: number; retriedGroups: number; lastError: unknown } = { groups: 0, commands: 0, retriedGroups: 0, lastError: null };

/** Places an order through its market's group commit; resolves with the answer to send (and stored for its key). */
export function placeOrderGrouped(db: Db, cmd: GroupedOrder): Promise<IdempotentResult> {
  return new Promise((resolve, reject) => {
    let byMarket = queues.get(db);
    if (!byMarket) {
      byMarket = new Map();
      queues.set(db, byMarket);
    }
    let q = byMarket.get(cmd.input.marketId);
    if (!q) {
      q = { items: [], running: false };
      byMarket.set(cmd.input.marketId, q);
    }
    q.items.push({ ...cmd, hash: requestHash(cmd.idem.body), resolve, reject });
    if (!q.running) void drain(db, cmd.input.marketId, q);
  });
}

async function drain(db: Db, marketId: number, q: Queue): Promise<void> {
  q.running = true;
  try {
    // Let requests already under way (their reads ahead of this group in the database's queue) join it.
    await new Promise((r) => setImmediate(r));
    while (q.items.length > 0) {
      // The group is taken once the transaction has its connection: what arrived meanwhile joins it.
      let group: Pending[] = [];
      const take = () => {
        group = q.items.splice(0, MAX_GROUP);
        return group;
      };
      const results = await runGroup(db, marketId, take).then(
        (r) => r,
        (err: unknown) => {
          groupCommitStats.lastError = err;
          if (group.length === 0) take(); // failed before taking (no connection): the retry answers them
          return null;
        },
      );
      // The next group begins once this one has committed (see the note at the top); a failed
      // group's one-by-one retries run beside it.
      void settle(db, group, results);
    }
  } finally {
    q.running = false;
  }
}

/** Answers a group's requests once its transaction is over, or retries them one by one if it failed. */
async function settle(db: Db, group: Pending[], results: IdempotentResult[] | null): Promise<void> {
  groupCommitStats.groups++;
  groupCommitStats.commands += group.length;
  if (results) {
    // Answered after the I/O already at hand: the next group's locks are usually granted by this
    // commit, and its reply arrives with the commit's; handling it first (engine, write) keeps the
    // market's lock busy while the answers are sent (some 30 µs of socket writes each).
    setImmediate(() => {
      for (const [i, p] of group.entries()) p.resolve(results[i]!);
    });
    return;
  }
  groupCommitStats.retriedGroups++;
  for (const p of group) {
    try {
      p.resolve(await one(db, p));
    } catch (err) {
      p.reject(err);
    }
  }
}

/** One command in its own transaction: the path every order took before group commit. */
function one(db: Db, p: Pending): Promise<IdempotentResult> {
  return runIdempotent(db, p.idem, async (tx) => {
    const { order, message } = await placeOrder(tx, p.actor, p.input);
    const [m] = await tx.select({ ticker: markets.ticker }).from(markets).where(eq(markets.id, order.marketId));
    const [c] = await tx.select({ symbol: coins.symbol }).from(coins).where(eq(coins.id, order.coinId));
    return p.answer(order, message, m?.ticker ?? '', c?.symbol ?? '');
  });
}


interface Placed {
  index: number;
  order: OrderRow;
  hold: bigint;
  events: EngineEvent[];
}

/** Ledger account ids by key, per database: accounts are never deleted or re-keyed, so a committed id stays true. */
const accountIdsByDb = new WeakMap<Db, Map<string, number>>();
function accountsOf(db: Db): Map<string, number> {
  let m = accountIdsByDb.get(db);
  if (!m) {
    m = new Map();
    accountIdsByDb.set(db, m);
  }
  return m;
}

async function runGroup(db: Db, marketId: number, take: () => Pending[]): Promise<IdempotentResult[]> {
  let newAccounts = new Map<string, number>();
  const phase = phaseClock();
  const results = await db.transaction(async (tx) => {
    phase('begin');
    const group = take();
    const results: (IdempotentResult | null)[] = group.map(() => null);
    // Requests sharing a key: the first runs, the others get its answer.
    const leaderOf = new Map<string, number>();
    const leaders: number[] = [];
    group.forEach((p, i) => {
      if (!leaderOf.has(claimId(p.idem))) {
        leaderOf.set(claimId(p.idem), i);
        leaders.push(i);
      }
    });
    // One round trip: the keys claimed, the coin and the fee rates read, the market locked, the ids
    // reserved and the users read (`beginOrderGroup`); a key another request holds costs one more
    // read (its stored answer). From the lock to the commit the group makes three round trips (that
    // one, the writes, commit), more when the rows its events touch or new ledger accounts must be read.
    const claimsOf = leaders.map((i) => ({ key: group[i]!.idem.key, method: group[i]!.idem.method, path: group[i]!.idem.path, hash: group[i]!.hash }));
    const userIds = [...new Set(leaders.map((i) => group[i]!.input.userId).filter((u) => Number.isSafeInteger(u)))];
    const start = await beginOrderGroup(tx, { claims: claimsOf, marketId, n: leaders.length, userIds });
    const claims = await resolveClaims(tx, claimsOf, start.claimed);
    const toRun: number[] = [];
    leaders.forEach((i, k) => {
      if (claims[k]) results[i] = claims[k];
      else toRun.push(i);
    });
    const { coin, rates } = coinAndRatesOf(start.coin, start.taker, start.maker);
    const market = start.market;
    if (!market) throw notFound('Market');
    const { orderIds: ids, ledgerIds, users: userRows } = start;
    const inputs = toRun.map((i) => group[i]!.input);
    phase('begin the group: keys, coin, locks, users (waits for the previous group)');
    const entry = await bookOf(tx, market);
    const fx = new Effects({ tx, market, coin, rates });
    // The rows behind the book as the last group of this process left them (none if another writer
    // came since); taken off the book until this group has written.
    const cache = entry.rows && entry.rows.token === entry.token ? entry.rows : null;
    entry.rows = undefined;

    const userStatus = new Map(userRows.map((u) => [u.id, u.status]));
    const house = new Set(userRows.filter((u) => u.house).map((u) => u.id));
    const available = new Map(userRows.map((u) => [u.id, u.balance ?? 0n]));
    // Positions known so far by key (kept from earlier groups, then as just read); a group user's
    // key missing here has no position yet.
    const known = new Map<string, PositionRow>(cache?.positions);
    for (const u of userRows) if (u.position) known.set(`${u.position.userId}:${u.position.outcome}`, u.position);
    const use = (keys: { userId: number; outcome: OrderOutcome }[]) => {
      const missing: typeof keys = [];
      for (const k of keys) {
        const key = `${k.userId}:${k.outcome}`;
        if (fx.positions.has(key)) continue;
        const p = known.get(key);
        if (p) fx.positions.set(key, p);
        else if (!userStatus.has(k.userId)) missing.push(k);
      }
      return missing;
    };
    use(inputs.filter((x) => x.side === 'sell' && userStatus.has(x.userId)).map((x) => ({ userId: x.userId, outcome: x.outcome })));

    // Check and run each command in arrival order; a refused one gets its answer and changes nothing.
    entry.events.drain();
    entry.token = ''; // the cached book now holds uncommitted changes until the new token is written
    const now = Date.now();
    const at = new Date(now);
    const spent = new Map<number, bigint>();
    const offered = new Map<string, number>();
    // The position limit: shares held and on order to buy as the group found them (the book before
    // its first order), plus what the group's accepted buys add (each counted whole, filled or not).
    const limited = market.maxPosition !== null && inputs.some((x) => x.side === 'buy' && !house.has(x.userId));
    const onBook = limited ? restingBuys(entry.book, new Set(inputs.filter((x) => !house.has(x.userId)).map((x) => x.userId))) : new Map<string, number>();
    const bought = new Map<string, number>();
    const placed: Placed[] = [];
    const refused: { index: number; answer: Answer }[] = [];
    toRun.forEach((index, k) => {
      const p = group[index]!;
      const input = p.input;
      let hold = 0n;
      try {
        checkInput(input);
        const status = userStatus.get(input.userId);
        if (!status) throw badRequest('Unknown user', { userId: 'No such user' });
        if (status !== 'active') throw conflict('The user is blocked: they cannot place orders', { userId: 'Blocked' });
        if (market.status !== 'open') throw conflict(`Market ${market.ticker} is ${market.status}: only an open market takes orders`);
        const key = `${input.userId}:${input.outcome}`;
        if (!house.has(input.userId)) {
          assertWithinLimits(market, input, () => ({ held: known.get(key)?.quantity ?? 0, onOrder: (onBook.get(key) ?? 0) + (bought.get(key) ?? 0) }));
        }
        if (input.side === 'buy') {
          hold = buyHold(input.price, input.quantity, rates, coin.unit);
          const left = (available.get(input.userId) ?? 0n) - (spent.get(input.userId) ?? 0n);
          if (left < hold) throw insufficientBalance(input, hold, left, coin);
          spent.set(input.userId, (spent.get(input.userId) ?? 0n) + hold);
          bought.set(key, (bought.get(key) ?? 0) + input.quantity);
        } else {
          const pos = fx.positions.get(key);
          const already = offered.get(key) ?? 0;
          const view = pos ? { quantity: pos.quantity, reserved: pos.reserved + already } : undefined;
          if ((view?.quantity ?? 0) - (view?.reserved ?? 0) < input.quantity) throw notEnoughShares(input, market, view);
          offered.set(key, already + input.quantity);
        }
      } catch (err) {
        if (err instanceof AppError && err.status >= 400 && err.status < 500) {
          refused.push({ index, answer: errorAnswer(err) });
          return;
        }
        throw err;
      }
      const order: OrderRow = {
        id: ids[k]!, marketId: market.id, userId: input.userId, outcome: input.outcome, side: input.side, price: input.price, quantity: input.quantity,
        filled: 0, remaining: input.quantity, timeInForce: input.timeInForce, expiresAt: input.expiresAt ?? null, postOnly: input.postOnly ?? false,
        status: 'open', reason: null, coinId: coin.id, held: hold, fees: 0n, createdAt: at, updatedAt: at,
      };
      fx.orders.set(order.id, order);
      entry.book.submit({
        id: order.id, owner: input.userId, outcome: input.outcome, side: input.side, price: input.price, qty: input.quantity,
        tif: input.timeInForce, ...(input.expiresAt ? { expiresAt: input.expiresAt.getTime() } : {}), postOnly: input.postOnly ?? false,
      }, now);
      placed.push({ index, order, hold, events: entry.events.drain() });
    });

    // The rows the events touch (resting orders of earlier groups, positions), in two reads for the whole group.
    const touched = new Set<number>();
    const posKeys: { userId: number; outcome: OrderOutcome }[] = [];
    for (const c of placed) {
      if (c.order.side === 'sell') posKeys.push({ userId: c.order.userId, outcome: c.order.outcome });
      for (const e of c.events) {
        if (e.type === 'fill') {
          touched.add(e.makerId).add(e.takerId);
          posKeys.push({ userId: e.makerOwner, outcome: e.makerOutcome }, { userId: e.takerOwner, outcome: e.takerOutcome });
        } else if (e.type === 'cancelled' || e.type === 'expired') touched.add(e.id);
      }
    }
    phase('engine');
    // Resting orders of earlier groups, kept from the last group when it was this process's; the
    // others with their owner's position in this market (a maker's fill or a sell's release touches
    // exactly that one), in one read.
    if (cache) {
      for (const id of touched) {
        const o = fx.orders.has(id) ? undefined : cache.orders.get(id);
        if (o) fx.orders.set(id, o);
      }
    }
    const older = [...touched].filter((id) => !fx.orders.has(id));
    if (older.length) {
      const rows = await tx
        .select({ order: orders, position: positions })
        .from(orders)
        .leftJoin(positions, and(eq(positions.marketId, orders.marketId), eq(positions.userId, orders.userId), eq(positions.outcome, orders.outcome)))
        .where(inArray(orders.id, older));
      for (const r of rows) {
        fx.orders.set(r.order.id, r.order);
        if (r.position && !known.has(`${r.position.userId}:${r.position.outcome}`)) known.set(`${r.position.userId}:${r.position.outcome}`, r.position);
      }
    }
    const sells = [...touched].map((id) => fx.orders.get(id)).filter((o): o is OrderRow => o !== undefined && o.side === 'sell');
    // Keys neither read above nor a group user's (none expected): read them as before.
    const joined = new Set(older.map((id) => fx.orders.get(id)).filter((o) => o !== undefined).map((o) => `${o.userId}:${o.outcome}`));
    const missing = use([...posKeys, ...sells.map((o) => ({ userId: o.userId, outcome: o.outcome }))]).filter((k) => !joined.has(`${k.userId}:${k.outcome}`));
    if (missing.length) await fx.load([], missing);

    phase('touched rows');
    // Apply each command's events in order; each order gets its own ledger transaction.
    const ledger: { actor: Actor; input: PostInput; id: number }[] = [];
    for (const c of placed) {
      const { order } = c;
      fx.changed.add(order.id);
      if (c.hold > 0n) {
        fx.leg({ user: order.userId, bucket: 'available' }, -c.hold);
        fx.leg({ user: order.userId, bucket: 'held' }, c.hold);
      }
      if (order.side === 'sell') fx.pos(order.userId, order.outcome).reserved += order.quantity;
      fx.apply(c.events);
      const postings = fx.takePostings();
      if (postings.length) ledger.push({ actor: group[c.index]!.actor, input: { cause: 'order', ref: { type: 'order', id: order.id }, postings }, id: ledgerIds[ledger.length]! });
    }

    // The answers, stored for their keys in the same transaction.
    const stored: { key: string; method: string; path: string; status: number; json: string }[] = [];
    const answerOf = (index: number, a: Answer) => {
      const json = JSON.stringify(a.body);
      results[index] = { status: a.status, json, replayed: false };
      const { key, method, path } = group[index]!.idem;
      stored.push({ key, method, path, status: a.status, json });
    };
    for (const r of refused) answerOf(r.index, r.answer);
    for (const c of placed) {
      const o = fx.orders.get(c.order.id)!;
      answerOf(c.index, group[c.index]!.answer(o, orderMessage(o), market.ticker, coin.symbol));
    }

    if (groupCommitTesting.failNextGroups > 0) {
      groupCommitTesting.failNextGroups--;
      throw new Error('group commit: injected failure (test)');
    }

    // The ledger accounts' ids (known ones without a round trip); then every write of the group in
    // ONE statement, whose balance update locks the accounts in id order.
    const accounts = ledger.length ? await ledgerAccountIds(tx, accountsOf(db), ledger.flatMap((l) => l.input.postings)) : { idByKey: new Map<string, number>(), fresh: new Map<string, number>() };
    const idByKey = accounts.idByKey;
    newAccounts = accounts.fresh;
    phase('apply, answers, accounts');
    const writes: SQLWrapper[] = [];
    const fresh = new Set(placed.map((c) => c.order.id));
    if (placed.length) writes.push(bulkInsert(orders, placed.map((c) => fx.orders.get(c.order.id)!), { overridingSystemValue: true }));
    const updated = [...fx.changed].filter((id) => !fresh.has(id)).map((id) => fx.orders.get(id)!);
    if (updated.length) writes.push(bulkUpdateById(orders, updated, ['filled', 'remaining', 'status', 'reason', 'held', 'fees']));
    if (fx.trades.length) writes.push(bulkInsert(trades, fx.trades));
    writes.push(...positionWrites(fx));
    writes.push(...ledgerWrites(ledger, idByKey));
    if (placed.length) {
      writes.push(bulkInsert(auditLog, auditRows(placed.map((c) => ({ actor: group[c.index]!.actor, entry: { action: 'place' as const, resource: 'orders', recordId: c.order.id, after: orderAuditView(fx.orders.get(c.order.id)!) } })))));
    }
    const token = newToken();
    writes.push(
      tx
        .update(markets)
        .set({
          bookToken: token,
          ...(fx.volume ? { volume: sql`${markets.volume} + ${fx.volume}`, lastPrice: fx.lastPrice } : {}),
          ...(fx.openInterest ? { openInterest: sql`${markets.openInterest} + ${fx.openInterest}` } : {}),
        })
        .where(eq(markets.id, market.id)),
    );
    if (stored.length) writes.push(idempotentAnswersUpdate(stored));
    phase('build the statement');
    // The live overview hears of the group's changes once it commits (one notice per transaction, in the same statement).
    await queryRows(tx, sql`with ${sql.join(writes.map((w, i) => sql`${sql.raw(`w${i}`)} as (${w.getSQL()})`), sql`, `)} select pg_notify(${MARKET_CHANGES_CHANNEL}, ${String(market.id)})`);
    entry.token = token;
    entry.rows = keptRows(cache, fx, known, token);
    phase('write statement');

    group.forEach((p, i) => {
      if (results[i] === null) {
        const leader = leaderOf.get(claimId(p.idem))!;
        results[i] = followerResult(results[leader]!, group[leader]!.hash === p.hash);
      }
    });
    return results as IdempotentResult[];
  });
  phase('commit');
  // Committed: the accounts this group created are known from now on.
  for (const [k, id] of newAccounts) accountsOf(db).set(k, id);
  return results;
}

/** Positions kept for the next group at most (a market with more holders reads the rest as before). */
const KEPT_POSITIONS = 100_000;

/**
 * The rows behind the book once the group's writes are in: live orders and positions exactly as
 * written (the objects the group changed are the ones it wrote). Orders that left the book are
 * dropped; a position the group inserted is not kept (its id is the database's), it is read again.
 */
function keptRows(cache: CachedBook['rows'] | null, fx: Effects, known: Map<string, PositionRow>, token: string): NonNullable<CachedBook['rows']> {
  const orderRows = cache?.orders ?? new Map<number, OrderRow>();
  for (const o of fx.orders.values()) {
    if (LIVE_ORDER_STATUSES.includes(o.status as (typeof LIVE_ORDER_STATUSES)[number])) orderRows.set(o.id, o);
    else orderRows.delete(o.id);
  }
  const positionRows = known.size > KEPT_POSITIONS ? new Map<string, PositionRow>() : known;
  for (const [key, p] of fx.positions) {
    if (p.id === undefined) positionRows.delete(key);
    else if (positionRows.size < KEPT_POSITIONS) positionRows.set(key, p as PositionRow);
  }
  return { token, orders: orderRows, positions: positionRows };
}

/** The statements writing the positions the group changed: new ones inserted, the others updated. */
function positionWrites(fx: Effects): SQLWrapper[] {
  const all = [...fx.positions.values()];
  const fresh = all.filter((p) => p.id === undefined);
  const old = all.filter((p): p is typeof p & { id: number } => p.id !== undefined);
  const writes: SQLWrapper[] = [];
  if (fresh.length) writes.push(bulkInsert(positions, fresh.map((p) => ({ ...p, id: undefined }))));
  if (old.length) writes.push(bulkUpdateById(positions, old, ['quantity', 'reserved', 'cost', 'realizedPnl', 'status']));
  return writes;
}
