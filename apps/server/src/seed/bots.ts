import { and, asc, eq, like, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { adminActor, systemActor, type Actor } from '../context.js';
import type { Db } from '../db/client.js';
import { admins, appMeta, markets, tradeBots } from '../db/schema.js';
import { writeAudit } from '../lib/audit.js';
import { coinBySymbol } from '../modules/coins/service.js';
import { confirmDeposit, recordDeposit } from '../modules/deposits/service.js';
import { SETTLEMENT_COIN } from '../modules/orders/service.js';
import { setBotMarkets } from '../modules/trade-bots/service.js';
import { createUser, setHouseAccount } from '../modules/users/service.js';
import { Random } from './money.js';

/*
 * The demo's trade bots: two market makers running from the first start, each trading as a platform
 * user of its own funded with USDC through a confirmed deposit, and one stopped bot with a fixed
 * fair price to start by hand. The job (modules/trade-bots/job.ts) quotes for the running ones from
 * its first tick, so the books are two-sided, and a market an admin opens later is quoted by the
 * house maker within its refresh interval (10 s). Created and started "by" the markets sub-admin
 * (audit entries as the form and the start action leave them). Once per database (app_meta).
 */

const META_KEY = 'demo_bots_seeded_at';
const PLATFORM: Actor = { kind: 'platform', ip: '203.0.113.10' };
const WATCHER = systemActor('deposit-watcher');

interface BotSeed {
  name: string;
  username: string;
  /** Whole USDC deposited for it. */
  funds: bigint;
  running: boolean;
  /** Every open market, or those whose ticker starts with one of these. */
  markets: 'all' | string[];
  params: Pick<typeof tradeBots.$inferInsert, 'fairSource' | 'fairPrice' | 'spread' | 'size' | 'levels' | 'maxPosition' | 'refreshSeconds'>;
}

const BOTS: BotSeed[] = [
  {
    name: 'House maker', username: 'mm_house', funds: 25_000n, running: true, markets: 'all',
    params: { fairSource: 'last', fairPrice: 50, spread: 4, size: 20, levels: 2, maxPosition: 200, refreshSeconds: 10 },
  },
  {
    name: 'Crypto desk', username: 'mm_crypto_desk', funds: 15_000n, running: true, markets: ['KXBTCW', 'KXSOLW'],
    params: { fairSource: 'last', fairPrice: 50, spread: 8, size: 40, levels: 3, maxPosition: 400, refreshSeconds: 15 },
  },
  {
    name: 'CPI fixed 30', username: 'mm_cpi_fixed', funds: 5_000n, running: false, markets: ['KXCPI'],
    params: { fairSource: 'fixed', fairPrice: 30, spread: 6, size: 25, levels: 2, maxPosition: 150, refreshSeconds: 30 },
  },
];

/** Creates the demo's trade bots once per database; true when it did. */
export async function seedBots(db: Db, log: Pick<Logger, 'info'>): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, META_KEY));
  if (done) return false;
  const coin = await coinBySymbol(db, SETTLEMENT_COIN);
  if (!coin) return false;
  // Created and started by the markets sub-admin (the super admin when there is none).
  const [sam] = await db.select().from(admins).where(eq(admins.email, 'sam.markets@pitboss.local'));
  const [root] = sam ? [sam] : await db.select().from(admins).where(eq(admins.role, 'superadmin')).limit(1);
  const by: Actor = root ? adminActor(root, '198.51.100.24') : systemActor('demo-seed');
  // The bots' users are made house accounts by the super admin (the right to adjust balances).
  const [superAdmin] = await db.select().from(admins).where(eq(admins.role, 'superadmin')).limit(1);
  const houseBy: Actor = superAdmin ? adminActor(superAdmin, '198.51.100.24') : systemActor('demo-seed');
  const r = new Random(20261126);
  let running = 0;
  await db.transaction(async (tx) => {
    for (const b of BOTS) {
      const user = await createUser(tx, PLATFORM, { username: b.username, email: `${b.username.replace(/_/g, '.')}@makers.pitboss.local`, country: 'IE', signupIp: '198.51.100.24', emailVerified: true });
      const d = await recordDeposit(tx, PLATFORM, { userId: user.id, coin: coin.id, amount: b.funds * 10n ** BigInt(coin.decimals), txSignature: r.signature(), fromAddress: r.address() });
      await confirmDeposit(tx, WATCHER, d.id);
      await setHouseAccount(tx, houseBy, user.id, { house: true, reason: 'Market-making account of the demo platform' });
      const now = new Date();
      const [bot] = await tx
        .insert(tradeBots)
        .values({ name: b.name, userId: user.id, allOpenMarkets: b.markets === 'all', ...b.params, status: 'stopped' })
        .returning();
      if (b.markets !== 'all') {
        const ids = await tx
          .select({ id: markets.id })
          .from(markets)
          .where(and(or(eq(markets.status, 'open'), eq(markets.status, 'halted')), or(...b.markets.map((t) => like(markets.ticker, `${t}-%`)))))
          .orderBy(asc(markets.id));
        await setBotMarkets(tx, bot!.id, ids.map((m) => String(m.id)));
      }
      await writeAudit(tx, by, { action: 'create', resource: 'trade-bots', recordId: bot!.id, after: { ...b.params, name: b.name, userId: user.id, allOpenMarkets: b.markets === 'all' } });
      if (b.running) {
        // Due at once: the job's first tick quotes its markets.
        await tx.update(tradeBots).set({ status: 'running', startedAt: now, nextRunAt: now }).where(eq(tradeBots.id, bot!.id));
        await writeAudit(tx, by, { action: 'start', resource: 'trade-bots', recordId: bot!.id, before: { status: 'stopped' }, after: { status: 'running' } });
        running++;
      }
    }
    await tx.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() }).onConflictDoNothing();
  });
  log.info(`demo trade bots: ${BOTS.length} bots, ${running} running (they quote from the job's first tick)`);
  return true;
}
