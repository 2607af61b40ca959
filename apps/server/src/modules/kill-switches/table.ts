import { killSwitchStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';

export const KILL_SWITCH_STATUSES = stateValues(killSwitchStates);
export type KillSwitchStatus = (typeof KILL_SWITCH_STATUSES)[number];

/**
 * One pull of the kill switch (packages/contract/src/modules/kill-switches.ts): what it halted and
 * stopped, by id, so that its release resumes exactly those; released with who and what came back.
 */
export const killSwitches = pgTable(
  'kill_switches',
  {
    id: id(),
    status: text('status').notNull().$type<KillSwitchStatus>().default('engaged'),
    haltMarkets: boolean('halt_markets').notNull(),
    stopBots: boolean('stop_bots').notNull(),
    reasonCode: text('reason_code').notNull(),
    reason: text('reason'),
    /** The markets it halted and the bots it stopped (ids), in id order. */
    marketIds: bigint('market_ids', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    botIds: bigint('bot_ids', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    /** Admins by id (historical references, as ledger_transactions.admin_id). */
    engagedBy: ref('engaged_by'),
    releasedBy: ref('released_by'),
    releasedAt: ts('released_at'),
    marketsResumed: integer('markets_resumed'),
    botsRestarted: integer('bots_restarted'),
    /** At release: what did not come back, and why (one line each). */
    notResumed: text('not_resumed'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('kill_switches_created_idx').on(t.createdAt, t.id),
    statusCheck('kill_switches_status_ck', t.status, killSwitchStates),
    check('kill_switches_what_ck', sql`${t.haltMarkets} or ${t.stopBots}`),
    check('kill_switches_released_ck', sql`(${t.status} = 'released') = (${t.releasedAt} is not null)`),
  ],
);

export type KillSwitchRow = typeof killSwitches.$inferSelect;
