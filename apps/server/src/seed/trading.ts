import { and, asc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { actingAt, adminActor, systemActor, type Actor } from '../context.js';
import { queryRows, type Db, type DbOrTx } from '../db/client.js';
import { admins, appMeta, markets } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { coinBySymbol } from '../modules/coins/service.js';
import { closeMarket } from '../modules/markets/service.js';
import { placeOrder, SETTLEMENT_COIN, type PlaceOrderInput } from '../modules/orders/service.js';
import { resolveMarket } from '../modules/resolutions/service.js';
import { SETTLE_PLAN_KEY, type SettlePlanItem } from './markets.js';
import { Random } from './money.js';

/*
 * The demo's trading: players with USDC place orders on the open markets through the order service
 * (the same path as the platform API: holds, the engine, fills, positions and ledger postings), so
 * every book, trade, position and market figure is real. Resting bids and asks sit around a fair
 * price per market; some orders cross and trade; some holders sell. The simulator places more as it
 * runs (`demoOrder`). Markets of past events (seedMarkets' plan) are traded the same way, then closed
 * through the market service and, for settled events, resolved through the settlement: closed
 * markets await resolution with real positions, resolved ones paid their holders in the ledger.
 * Every order, close and resolution is placed by its actor acting at its time in the story
 * (`actingAt`): orders and their trades, ledger entries and audit entries carry it, so the price
 * charts and the admin profit report show the past weeks, not the minute the seed ran.
 */

const META_KEY = 'demo_trading_seeded_at';
const PLATFORM: Actor = { kind: 'platform', ip: '203.0.113.10' };

const clamp = (p: number) => Math.max(1, Math.min(99, Math.round(p)));

/** A market's fair YES price for the demo: its last trade, or a stable figure from its id. */
export function fairPrice(market: { id: number; lastPrice: number | null }): number {
  return market.lastPrice ?? 15 + ((market.id * 37) % 70);
}

/** Players holding at least `minUnits` USDC available, richest first. */
async function fundedTraders(db: DbOrTx, limit: number): Promise<number[]> {
  const coin = await coinBySymbol(db, SETTLEMENT_COIN);
  if (!coin) return [];
  const min = 50n * 10n ** BigInt(coin.decimals);
  const rows = await queryRows<{ user_id: number | string }>(db, sql`
    select a.user_id from ledger_accounts a join users u on u.id = a.user_id
    where a.owner_kind = 'user' and a.bucket = 'available' and a.coin_id = ${coin.id} and a.balance >= ${min} and u.status = 'active'
    order by a.balance desc limit ${limit}`);
  return rows.map((r) => Number(r.user_id));
}

/**
 * One believable order on a market: mostly resting limit orders a few cents off the fair price on
 * either side (a YES bid, or a NO bid that is a YES ask), sometimes one that crosses (IOC), and a
 * holder now and then offering shares back a little above fair.
 */
export function demoOrder(r: Random, market: { id: number; lastPrice: number | null }, userId: number, holding?: { outcome: 'YES' | 'NO'; free: number }): PlaceOrderInput {
  const fair = fairPrice(market);
  const quantity = r.int(1, 12) * 5;
  if (holding && holding.free > 0 && r.chance(0.5)) {
    const price = holding.outcome === 'YES' ? clamp(fair + r.int(1, 6)) : clamp(100 - fair + r.int(1, 6));
    return { userId, marketId: market.id, outcome: holding.outcome, side: 'sell', price, quantity: Math.min(quantity, holding.free), timeInForce: 'GTC' };
  }
  const outcome = r.chance(0.5) ? 'YES' : 'NO';
  const fairOfOutcome = outcome === 'YES' ? fair : 100 - fair;
  if (r.chance(0.25)) return { userId, marketId: market.id, outcome, side: 'buy', price: clamp(fairOfOutcome + r.int(2, 6)), quantity, timeInForce: 'IOC' };
  return { userId, marketId: market.id, outcome, side: 'buy', price: clamp(fairOfOutcome - r.int(1, 7)), quantity, timeInForce: 'GTC' };
}

/** A holder's free shares in a market (for a sell), or undefined. */
export async function holdingOf(db: DbOrTx, userId: number, marketId: number): Promise<{ outcome: 'YES' | 'NO'; free: number } | undefined> {
  const [row] = await queryRows<{ outcome: 'YES' | 'NO'; free: number | string }>(db, sql`
    select outcome, quantity - reserved as free from positions where user_id = ${userId} and market_id = ${marketId} and quantity > reserved
    order by quantity - reserved desc limit 1`);
  return row ? { outcome: row.outcome, free: Number(row.free) } : undefined;
}

/** Places the demo's orders once per database; true when it did. */
export async function seedTrading(db: Db, log: Pick<Logger, 'info'>, opts: { ordersPerMarket?: number } = {}): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, META_KEY));
  if (done) return false;
  const perMarket = opts.ordersPerMarket ?? 40;
  const traders = await fundedTraders(db, 80);
  const open = await db.select({ id: markets.id, openedAt: markets.openedAt }).from(markets).where(and(eq(markets.status, 'open')));
  const r = new Random(20261125);
  let placed = 0;
  let trades = 0;
  const planRow = (await db.select().from(appMeta).where(eq(appMeta.key, SETTLE_PLAN_KEY)))[0];
  const plan = planRow ? (JSON.parse(planRow.value) as SettlePlanItem[]) : [];
  const closes = new Map(plan.map((p) => [p.marketId, Date.parse(p.closedAt)]));
  if (traders.length >= 2) {
    // Each market's orders spread over its trading time in the story: a past market (still open
    // until the plan below closes it; fewer orders) from its opening to its close, a current one
    // over its last three days; all markets' orders placed in time order, each at its time.
    const now = Date.now();
    const slots: { marketId: number; at: number }[] = [];
    for (const m of open) {
      const closedAt = closes.get(m.id);
      const end = closedAt === undefined ? now - 2 * 60_000 : closedAt - 60_000;
      const opened = m.openedAt?.getTime() ?? end - 3 * 86_400_000;
      const start = closedAt === undefined ? Math.max(opened, end - 3 * 86_400_000) : opened;
      const count = closedAt === undefined ? perMarket : Math.ceil(perMarket / 4);
      for (let i = 0; i < count; i++) slots.push({ marketId: m.id, at: start + Math.floor(((i + r.next()) * Math.max(0, end - start)) / count) });
    }
    slots.sort((a, b) => a.at - b.at);
    for (const slot of slots) {
      const userId = traders[r.int(0, traders.length - 1)]!;
      const [market] = await db.select({ id: markets.id, lastPrice: markets.lastPrice }).from(markets).where(eq(markets.id, slot.marketId));
      try {
        const res = await placeOrder(null, actingAt(PLATFORM, slot.at), demoOrder(r, market!, userId, await holdingOf(db, userId, slot.marketId)), db);
        placed++;
        trades += res.trades;
      } catch (err) {
        // A player short of funds is refused as the platform would be: the demo goes on.
        if (!(err instanceof AppError) || err.status >= 500) throw err;
      }
    }
  }
  const settled = await settlePastMarkets(db, plan);
  if (planRow) await db.delete(appMeta).where(eq(appMeta.key, SETTLE_PLAN_KEY));
  await db.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() }).onConflictDoNothing();
  log.info(`demo trading: ${placed} orders on ${open.length} open markets, ${trades} trades; ${settled.closed} past markets closed, ${settled.resolved} resolved`);
  return placed > 0;
}

/** Closes the plan's markets and resolves those of settled events, through the services, as the markets sub-admin. */
async function settlePastMarkets(db: Db, plan: SettlePlanItem[]): Promise<{ closed: number; resolved: number }> {
  const [who] = await db.select().from(admins).where(eq(admins.email, 'sam.markets@pitboss.local'));
  const [root] = await db.select().from(admins).where(eq(admins.role, 'superadmin')).orderBy(asc(admins.id)).limit(1);
  const admin = who ?? root;
  const actor: Actor = admin ? adminActor(admin, '81.2.69.142') : systemActor('demo-seed');
  let closed = 0;
  let resolved = 0;
  for (const item of plan) {
    await db.transaction(async (tx) => {
      const [m] = await tx.select({ status: markets.status }).from(markets).where(eq(markets.id, item.marketId));
      if (!m) return;
      if (m.status === 'open') {
        await closeMarket(tx, actingAt(actor, Date.parse(item.closedAt)), item.marketId);
        await tx.update(markets).set({ closedAt: new Date(item.closedAt) }).where(eq(markets.id, item.marketId));
        closed++;
      }
      if (item.resolve && (m.status === 'open' || m.status === 'closed')) {
        const { at, ...input } = item.resolve;
        await resolveMarket(tx, actingAt(actor, Date.parse(at)), item.marketId, input, { at: new Date(at) });
        resolved++;
      }
    });
  }
  return { closed, resolved };
}
