import { resolutionsResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { events } from '../events/table.js';
import { unitsText } from '../ledger/format.js';
import { markets } from '../markets/table.js';
import { admins } from '../sub-admins/table.js';
import { resolutions } from './table.js';

/** The resolution history (`/resolution-history`): read-only, written by the markets' `resolve` action. */
export const resolutionsDef = defineResource({
  spec: resolutionsResource,
  table: resolutions,
  idColumn: resolutions.id,
  columns: {
    createdAt: resolutions.createdAt, marketId: resolutions.marketId, eventId: markets.eventId, result: resolutions.result,
    adminId: resolutions.adminId, holders: resolutions.holders, pairs: resolutions.pairs,
  },
  // The event filter's choices: events with a resolved market (the event is its market's).
  referencedBy: {
    eventId: (id) =>
      sql`exists (select 1 from ${resolutions} where ${resolutions.marketId} in (select ${markets.id} from ${markets} where ${markets.eventId} = ${id}))`,
  },
  searchColumns: [markets.ticker, resolutions.source, resolutions.evidence],
  select: (db: DbOrTx) =>
    db
      .select({
        ...getTableColumns(resolutions), marketTicker: markets.ticker, marketTitle: markets.title, eventId: markets.eventId, eventTicker: events.ticker,
        adminName: admins.name, symbol: coins.symbol, decimals: coins.decimals,
      })
      .from(resolutions)
      .innerJoin(markets, eq(markets.id, resolutions.marketId))
      .innerJoin(events, eq(events.id, markets.eventId))
      .innerJoin(coins, eq(coins.id, resolutions.coinId))
      .leftJoin(admins, eq(admins.id, resolutions.adminId)),
  toRecord: (r) => {
    const decimals = Number(r.decimals);
    const symbol = String(r.symbol);
    return {
      _id: String(r.id), marketId: String(r.marketId), marketTicker: String(r.marketTicker), marketTitle: String(r.marketTitle),
      eventId: String(r.eventId), eventTicker: String(r.eventTicker), result: r.result as 'YES', source: String(r.source), evidence: String(r.evidence), evidenceUrls: (r.evidenceUrls as string[] | null) ?? [],
      adminId: r.adminId === null || r.adminId === undefined ? null : String(r.adminId), adminName: r.adminName ? String(r.adminName) : r.actorKind === 'system' ? 'System' : `Admin ${String(r.adminId)}`,
      coin: symbol, collateral: String(r.collateral), collateralText: unitsText(r.collateral as bigint, decimals, symbol)!,
      totalPaid: String(r.totalPaid), totalPaidText: unitsText(r.totalPaid as bigint, decimals, symbol)!,
      holders: Number(r.holders), positions: Number(r.positions), pairs: Number(r.pairs), createdAt: iso(r.createdAt),
    };
  },
});
