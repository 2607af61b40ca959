import { killSwitchStates, KILL_SWITCH_REASONS, reasonLabel, MARKET_HALT_REASONS, type ReasonInput } from '@pitboss/contract';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';
import { defineSubject, lockFor } from '../../resources/transition.js';
import { FieldErrors, requireReasonCode } from '../ledger/input.js';
import { haltMarket, resumeMarket } from '../markets/service.js';
import { markets } from '../markets/table.js';
import { startBot, stopBot } from '../trade-bots/service.js';
import { tradeBots } from '../trade-bots/table.js';
import { killSwitches, type KillSwitchRow } from './table.js';

/*
 * The kill switch (docs/markets.md, "Kill switch"). Engaging it, in one transaction: the trade-bot
 * job's lock is taken first (a tick under way finishes; none starts meanwhile), every running bot
 * is locked and stopped (its quotes cancelled, holds back), then every open market, locked in id
 * order (FOR UPDATE re-checks the state: one closed meanwhile is left out), is halted with the
 * reason `kill_switch`. The row keeps their ids. Releasing it resumes exactly those markets that are
 * still halted by it and restarts those bots that are still stopped, each in a savepoint: one that
 * cannot come back (closed since, its close time passed, its user blocked, another kill switch still
 * engaged) is listed with why, and the rest go on.
 */

export const killSwitchAuditView = (k: KillSwitchRow) => ({
  status: k.status, haltMarkets: k.haltMarkets, stopBots: k.stopBots, reasonCode: k.reasonCode, reason: k.reason,
  marketIds: k.marketIds, botIds: k.botIds, releasedAt: k.releasedAt, marketsResumed: k.marketsResumed, botsRestarted: k.botsRestarted, notResumed: k.notResumed,
});

export interface EngageInput extends ReasonInput {
  haltMarkets?: boolean;
  stopBots?: boolean;
}

const adminIdOf = (actor: Actor) => (actor.kind === 'admin' ? actor.admin.id : null);

const lockBotJob = (tx: DbOrTx) => queryRows(tx, sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS.tradeBots})`);

export async function engageKillSwitch(tx: DbOrTx, actor: Actor, input: EngageInput): Promise<KillSwitchRow> {
  const errors = new FieldErrors();
  const { reasonCode, note } = requireReasonCode(errors, input, KILL_SWITCH_REASONS);
  const haltMarkets = input.haltMarkets !== false;
  const stopBots = input.stopBots !== false;
  if (!haltMarkets && !stopBots) errors.add('haltMarkets', 'Choose what to stop: the markets, the bots, or both');
  errors.throwIfAny();
  await lockBotJob(tx);
  const [row] = await tx.insert(killSwitches).values({ haltMarkets, stopBots, reasonCode, reason: note, engagedBy: adminIdOf(actor) }).returning();
  const ks = row!;
  const botIds: number[] = [];
  if (stopBots) {
    const running = await tx.select({ id: tradeBots.id }).from(tradeBots).where(eq(tradeBots.status, 'running')).orderBy(asc(tradeBots.id)).for('update');
    for (const b of running) {
      await stopBot(tx, actor, b.id, { killSwitchId: ks.id });
      botIds.push(b.id);
    }
  }
  const marketIds: number[] = [];
  if (haltMarkets) {
    const open = await tx.select({ id: markets.id }).from(markets).where(eq(markets.status, 'open')).orderBy(asc(markets.id)).for('update');
    const why = `Kill switch #${ks.id}${note ? `: ${note}` : ''}`.slice(0, 500);
    for (const m of open) {
      await haltMarket(tx, actor, m.id, { reasonCode: 'kill_switch', reason: why });
      marketIds.push(m.id);
    }
  }
  const [after] = await tx.update(killSwitches).set({ marketIds, botIds }).where(eq(killSwitches.id, ks.id)).returning();
  await writeAudit(tx, actor, { action: 'engage', resource: 'kill-switches', recordId: ks.id, after: killSwitchAuditView(after!) });
  return after!;
}

/** Runs `fn` in a savepoint; a refusal (4xx) rolls back only it and comes back as its message. */
async function attempt(tx: DbOrTx, fn: (sp: DbOrTx) => Promise<unknown>): Promise<string | null> {
  try {
    await tx.transaction(async (sp) => {
      await fn(sp);
    });
    return null;
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return err.message;
    throw err;
  }
}

/** A kill switch's release: through its declared machine, audited with `killSwitchAuditView`. */
export const killSwitchSubject = defineSubject({ resource: 'kill-switches', table: killSwitches, machine: killSwitchStates, view: (row) => killSwitchAuditView(row) });

export async function releaseKillSwitch(tx: DbOrTx, actor: Actor, id: number): Promise<KillSwitchRow> {
  await lockBotJob(tx);
  const locked = await lockFor(tx, killSwitchSubject, id, 'release');
  const ks = locked.before;
  // Released first: what it took may come back (the guards refuse while it is engaged). Its audit
  // entry follows what came back.
  return locked.apply(actor, { set: { releasedBy: adminIdOf(actor), releasedAt: new Date(), updatedAt: new Date() }, effects: () => restore(tx, actor, ks), rewrites: true });
}

/** What a released kill switch gives back: its markets resumed, its bots restarted (each one that may), and what could not be, recorded on it. */
async function restore(tx: DbOrTx, actor: Actor, ks: KillSwitchRow): Promise<void> {
  const notResumed: string[] = [];
  // Another engaged kill switch keeps them: resumeMarket and startBot refuse then (kill-switches/guard.ts), and the refusal is listed.
  let marketsResumed = 0;
  if (ks.marketIds.length) {
    const rows = await tx.select().from(markets).where(inArray(markets.id, ks.marketIds)).orderBy(asc(markets.id)).for('update');
    for (const m of rows) {
      const why =
        m.status !== 'halted'
          ? `${m.status} now`
          : m.haltReasonCode !== 'kill_switch'
            ? `halted since for another reason (${reasonLabel([MARKET_HALT_REASONS], m.haltReasonCode)})`
            : await attempt(tx, (sp) => resumeMarket(sp, actor, m.id));
      if (why) notResumed.push(`Market ${m.ticker}: ${why}`);
      else marketsResumed++;
    }
  }
  let botsRestarted = 0;
  if (ks.botIds.length) {
    const rows = await tx.select().from(tradeBots).where(inArray(tradeBots.id, ks.botIds)).orderBy(asc(tradeBots.id)).for('update');
    for (const b of rows) {
      const why =
        b.status !== 'stopped'
          ? 'already running'
          : await attempt(tx, (sp) => startBot(sp, actor, b.id, { killSwitchId: ks.id }));
      if (why) notResumed.push(`Bot ${b.name}: ${why}`);
      else botsRestarted++;
    }
  }
  await tx.update(killSwitches).set({ marketsResumed, botsRestarted, notResumed: notResumed.length ? notResumed.join('\n') : null }).where(eq(killSwitches.id, ks.id));
}
