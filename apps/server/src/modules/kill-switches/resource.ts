import { killSwitchesResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, type ApiRecord, } from '../../resources/define.js';
import { loadRecord } from '../../resources/register.js';
import { reasonOf } from '../ledger/input.js';
import { admins } from '../sub-admins/table.js';
import { engageKillSwitch, releaseKillSwitch } from './service.js';
import { killSwitches } from './table.js';

const engager = alias(admins, 'engager');
const releaser = alias(admins, 'releaser');
const tickers = sql<string>`coalesce((select string_agg(m.ticker, ', ' order by m.id) from markets m where m.id = any(${killSwitches.marketIds})), '')`;
const botNames = sql<string>`coalesce((select string_agg(b.name, ', ' order by b.id) from trade_bots b where b.id = any(${killSwitches.botIds})), '')`;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The kill switch (Markets › kill-switch): engagements, and their release. docs/markets.md, "Kill switch". */
export const killSwitchesDef = defineResource({
  spec: killSwitchesResource,
  table: killSwitches,
  idColumn: killSwitches.id,
  columns: { createdAt: killSwitches.createdAt, status: killSwitches.status, reasonCode: killSwitches.reasonCode, releasedAt: killSwitches.releasedAt },
  nullable: ['releasedAt'],
  // The admins by primary key: one row per engagement.
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(killSwitches), engagedByEmail: engager.email, releasedByEmail: releaser.email, tickers, botNames })
      .from(killSwitches)
      .leftJoin(engager, eq(engager.id, killSwitches.engagedBy))
      .leftJoin(releaser, eq(releaser.id, killSwitches.releasedBy)),
  toRecord: (r) => {
    const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const halted = (r.marketIds as number[]).length;
    const stopped = (r.botIds as number[]).length;
    return {
      _id: String(r.id), status: r.status as 'engaged', title: `Kill switch #${r.id}: ${plural(halted, 'market')}, ${plural(stopped, 'bot')}`, haltMarkets: Boolean(r.haltMarkets), stopBots: Boolean(r.stopBots),
      reasonCode: String(r.reasonCode), reason: str(r.reason),
      marketsHalted: halted, botsStopped: stopped, markets: String(r.tickers ?? ''), bots: String(r.botNames ?? ''),
      engagedByEmail: str(r.engagedByEmail), createdAt: iso(r.createdAt), releasedByEmail: str(r.releasedByEmail), releasedAt: isoOrNull(r.releasedAt),
      marketsResumed: num(r.marketsResumed), botsRestarted: num(r.botsRestarted), notResumed: str(r.notResumed),
    };
  },
  // The service does the work and writes the audit entries (engage, each halt and stop, release).
  create: async (input, w): Promise<ApiRecord> => {
    const row = await engageKillSwitch(w.tx, w.actor, { ...reasonOf(input), haltMarkets: input.haltMarkets !== false, stopBots: input.stopBots !== false });
    return (await loadRecord(killSwitchesDef, w.tx, row.id)).record;
  },
  createdMessage: (r) => `Kill switch engaged: ${plural(Number(r.marketsHalted), 'market')} halted, ${plural(Number(r.botsStopped), 'bot')} stopped`,
  auditedByHandlers: true,
  actions: {
    release: async (tx, actor, record) => {
      const after = await releaseKillSwitch(tx, actor, Number(record._id));
      const back = `${plural(after.marketsResumed ?? 0, 'market')} resumed, ${plural(after.botsRestarted ?? 0, 'bot')} restarted`;
      return after.notResumed ? `Kill switch released: ${back}; not resumed: ${after.notResumed.split('\n').join('; ')}` : `Kill switch released: ${back}`;
    },
  },
});
