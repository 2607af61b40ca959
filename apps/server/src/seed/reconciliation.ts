import bs58 from 'bs58';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { actingAt, systemActor } from '../context.js';
import type { Db } from '../db/client.js';
import { appMeta, custodyReports, deposits, reconciliations, users } from '../db/schema.js';
import { coinBySymbol } from '../modules/coins/service.js';
import { confirmDeposit, recordDeposit } from '../modules/deposits/service.js';
import { checkCoin } from '../modules/reconciliation/service.js';

const META_KEY = 'demo_reconciliation_seeded_at';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PLATFORM = { kind: 'platform', ip: '203.0.113.10' } as const;
const WATCHER = systemActor('deposit-watcher');

/** Deterministic bytes for the story's on-chain ids. */
const bytes = (seed: number, n: number) => Uint8Array.from({ length: n }, (_, i) => (seed * 131 + i * 197 + 7) % 256);

/**
 * The custody side of the demo (after everything else that moves money): the platform reported its
 * custody balance of USDC and SOL each evening of the last week at 23:00 UTC, matching the ledger
 * plus the deposits then in flight; and three hours ago it reported USDC while one deposit of
 * 1,250 USDC had been seen on chain but was not confirmed until half an hour later: that check
 * reads "Explained difference", with the deposit that explains it.
 */
export async function seedReconciliation(db: Db, log: Pick<Logger, 'info'>): Promise<boolean> {
  const [done] = await db.select().from(appMeta).where(eq(appMeta.key, META_KEY));
  if (done) return false;
  const usdc = await coinBySymbol(db, 'USDC');
  const sol = await coinBySymbol(db, 'SOL');
  const [player] = await db.select({ id: users.id }).from(users).where(and(eq(users.status, 'active'), eq(users.house, false))).orderBy(users.id).limit(1);
  if (!usdc || !sol || !player) return false;
  const now = Date.now();
  const midnight = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  let stored = 0;
  await db.transaction(async (tx) => {
    // The deposit in flight at the last report: seen 20 minutes before it, confirmed 30 minutes after.
    const last = now - 3 * HOUR;
    const seen = last - 20 * 60_000;
    const confirmed = last + 30 * 60_000;
    const d = await recordDeposit(tx, actingAt(PLATFORM, seen), {
      userId: player.id, coin: usdc.id, amount: 1_250_000_000n, txSignature: bs58.encode(bytes(881, 64)), fromAddress: bs58.encode(bytes(882, 32)),
    });
    await confirmDeposit(tx, actingAt(WATCHER, confirmed), d.id);
    await tx.update(deposits).set({ createdAt: new Date(seen), confirmedAt: new Date(confirmed), reviewedAt: new Date(confirmed), updatedAt: new Date(confirmed) }).where(eq(deposits.id, d.id));
    // Its mail belongs to the story's past: not sent now.
    await tx.execute(sql`delete from mail_outbox where template_key = 'deposit_confirmed'`);
    await tx.execute(sql`update notifications set created_at = ${new Date(seen).toISOString()}::timestamptz where kind = 'large_deposit' and record_key = ${`deposit:${d.id}`}`);

    const points: { coin: typeof usdc; at: number }[] = [];
    for (let day = 7; day >= 1; day--) for (const coin of [usdc, sol]) points.push({ coin, at: midnight - day * DAY + 23 * HOUR });
    points.push({ coin: usdc, at: last });
    for (const p of points) {
      if (p.at <= p.coin.createdAt.getTime() || p.at > now) continue;
      // What the chain held then: the ledger's custody plus the deposits in flight.
      const [figures] = await checkCoin(tx, p.coin, [{ at: new Date(p.at), report: null }]);
      const amount = figures!.ledgerCustody + figures!.inFlight;
      const reported = new Date(p.at + 4 * 60_000);
      const [report] = await tx.insert(custodyReports).values({ coinId: p.coin.id, amount, asOf: new Date(p.at), createdAt: reported }).returning();
      const [check] = await checkCoin(tx, p.coin, [{ at: new Date(p.at), report: report! }]);
      await tx.insert(reconciliations).values({
        coinId: p.coin.id, asOf: check!.asOf, trigger: 'custody_report', status: check!.status, custodyReportId: report!.id, custody: check!.custody,
        ledgerCustody: check!.ledgerCustody, recordsNet: check!.recordsNet, inFlight: check!.inFlight, difference: check!.difference, unexplained: check!.unexplained,
        ledgerVsRecords: check!.ledgerVsRecords, usersAvailable: check!.usersAvailable, usersHeld: check!.usersHeld, house: check!.house, fees: check!.fees,
        collateral: check!.collateral, explanation: check!.explanation.join('\n'), createdAt: reported,
      });
      stored++;
    }
    await tx.insert(appMeta).values({ key: META_KEY, value: new Date().toISOString() });
  });
  const [explained] = await db.select({ n: sql<number>`count(*)::int` }).from(reconciliations).where(eq(reconciliations.status, 'explained'));
  log.info({ checks: stored, explained: explained?.n ?? 0 }, 'demo reconciliation seeded');
  return true;
}
