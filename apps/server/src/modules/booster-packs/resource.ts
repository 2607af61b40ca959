import { boosterPackSettingsResource, boosterPacksResource, packOpeningsResource, packPurchasesResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { iso, defineResource, } from '../../resources/define.js';
import { defineSingle } from '../../resources/single.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { users } from '../users/table.js';
import { tierNamesOf } from './catalogue.js';
import { verifyOpening } from './opening.js';
import {
  activatePack, loadPackSettings, oddsRecord, oddsText, packSettingsRecord, pausePack, preparePackCreate, preparePackUpdate, updatePackSettings,
} from './service.js';
import { boosterPacks, packOpenings, packPurchases, packSeeds, type BoosterPackSettingsRow, type StoredCard, type StoredOdds } from './table.js';

/** `/update-booster-pack`. The record names the tiers, so it is read with the catalogue (toRecord is sync: names loaded in `load`). */
export const boosterPackSettingsDef = defineSingle<BoosterPackSettingsRow & { names?: Map<string, string> }>({
  spec: boosterPackSettingsResource,
  load: async (db, options) => ({ ...(await loadPackSettings(db, options)), names: await tierNamesOf(db) }),
  toRecord: (r) => {
    const names = r.names ?? new Map<string, string>();
    return {
      _id: String(r.id), cardsPerPack: r.cardsPerPack, tierOdds: oddsRecord(r.tierOdds, names), oddsText: oddsText(r.tierOdds, names),
      guaranteedTierId: r.guaranteedTierId === null ? null : String(r.guaranteedTierId), openingEnabled: r.openingEnabled, updatedAt: r.updatedAt.toISOString(),
    };
  },
  update: async (tx, actor, patch, before) => ({ ...(await updatePackSettings(tx, actor, patch, before)), names: await tierNamesOf(tx) }),
});
export { packSettingsRecord };

/** Each pack's openings, one query per page. */
async function openedOf(db: DbOrTx, ids: number[]): Promise<Map<number, unknown>> {
  const rows = await queryRows<{ pack_id: string | number; n: string | number }>(db, sql`
    select pack_id, count(*) as n from pack_openings where pack_id = any(${`{${ids.join(',')}}`}::bigint[]) group by pack_id`);
  return new Map(rows.map((r) => [Number(r.pack_id), Number(r.n)]));
}

/** The settings' size and odds and the tiers' names, once per page (the packs that do not override them show these). */
async function defaultsOf(db: DbOrTx, ids: number[]): Promise<Map<number, unknown>> {
  const settings = await loadPackSettings(db);
  const names = await tierNamesOf(db);
  return new Map(ids.map((id) => [id, { settings, names }]));
}

export const boosterPacksDef = defineResource({
  spec: boosterPacksResource,
  table: boosterPacks,
  idColumn: boosterPacks.id,
  columns: { name: boosterPacks.name, status: boosterPacks.status, supply: boosterPacks.supply, sold: boosterPacks.sold, createdAt: boosterPacks.createdAt, coinId: boosterPacks.coinId },
  searchColumns: [boosterPacks.name],
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db.select({ ...getTableColumns(boosterPacks), symbol: coins.symbol, decimals: coins.decimals }).from(boosterPacks).innerJoin(coins, eq(coins.id, boosterPacks.coinId)),
  batchFields: { opened: openedOf, defaults: defaultsOf },
  toRecord: (r) => {
    const { settings, names } = (r.defaults as { settings: BoosterPackSettingsRow; names: Map<string, string> } | null) ?? { settings: null, names: new Map<string, string>() };
    const override = (r.oddsOverride as StoredOdds | null) ?? null;
    const decimals = Number(r.decimals);
    const supply = Number(r.supply);
    const sold = Number(r.sold);
    const reserved = Number(r.reserved);
    return {
      _id: String(r.id), name: String(r.name), imageUrl: String(r.imageUrl), coinId: String(r.coinId), coin: String(r.symbol), decimals,
      price: String(r.price), priceText: unitsText(r.price as bigint, decimals, String(r.symbol))!,
      cardsPerPack: r.cardsPerPack === null ? null : Number(r.cardsPerPack), cards: r.cardsPerPack === null ? (settings?.cardsPerPack ?? 0) : Number(r.cardsPerPack),
      oddsOverride: override ? oddsRecord(override, names) : null,
      oddsText: override ? oddsText(override, names) : `Settings: ${oddsText(settings?.tierOdds ?? [], names)}`,
      supply, sold, reserved, available: r.status === 'active' ? supply - sold - reserved : 0, opened: Number(r.opened ?? 0),
      status: r.status as 'draft', createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  prepareCreate: preparePackCreate,
  prepareUpdate: preparePackUpdate,
  uniqueErrors: { booster_packs_name_uq: { field: 'name', message: 'A booster pack with this name exists' } },
  beforeDelete: async (records, { tx }) => {
    for (const r of records) {
      const [used] = await tx.select({ id: packPurchases.id }).from(packPurchases).where(eq(packPurchases.packId, Number(r._id))).limit(1);
      if (used) throw conflict(`${r.name} has been bought: it cannot be deleted`);
    }
  },
  actions: {
    activate: async (tx, _actor, record) => {
      await activatePack(tx, Number(record._id));
      return `${record.name} is on sale`;
    },
    pause: async (tx, _actor, record) => {
      await pausePack(tx, Number(record._id));
      return `${record.name}: sales paused`;
    },
  },
});

export const packPurchasesDef = defineResource({
  spec: packPurchasesResource,
  table: packPurchases,
  idColumn: packPurchases.id,
  columns: {
    createdAt: packPurchases.createdAt, packId: packPurchases.packId, userId: packPurchases.userId, source: packPurchases.source,
    opened: sql`exists (select 1 from pack_openings o where o.purchase_id = ${packPurchases.id})`,
  },
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({
        ...getTableColumns(packPurchases), pack: boosterPacks.name, username: users.username, symbol: coins.symbol, decimals: coins.decimals,
        openingId: sql<string | null>`(select o.id::text from pack_openings o where o.purchase_id = ${packPurchases.id})`,
        store: sql<string | null>`(select s.name from store_codes c join store_allocations a on a.id = c.allocation_id join offline_stores s on s.id = a.store_id where c.id = ${packPurchases.storeCodeId})`,
      })
      .from(packPurchases)
      .innerJoin(boosterPacks, eq(boosterPacks.id, packPurchases.packId))
      .innerJoin(users, eq(users.id, packPurchases.userId))
      .innerJoin(coins, eq(coins.id, packPurchases.coinId)),
  toRecord: (r) => ({
    _id: String(r.id), packId: String(r.packId), pack: String(r.pack), userId: String(r.userId), username: String(r.username), source: r.source as 'platform',
    store: (r.store as string | null) ?? null, price: String(r.price), priceText: unitsText(r.price as bigint, Number(r.decimals), String(r.symbol))!,
    opened: r.openingId !== null && r.openingId !== undefined, openingId: r.openingId === null || r.openingId === undefined ? null : String(r.openingId), createdAt: iso(r.createdAt),
  }),
});

export const packOpeningsDef = defineResource({
  spec: packOpeningsResource,
  table: packOpenings,
  idColumn: packOpenings.id,
  columns: {
    createdAt: packOpenings.createdAt, packId: packOpenings.packId, userId: packOpenings.userId,
    revealed: sql`exists (select 1 from pack_seeds s where s.id = ${packOpenings.seedId} and s.revealed_at is not null)`,
  },
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({
        ...getTableColumns(packOpenings), pack: boosterPacks.name, username: users.username, serverSeedHash: packSeeds.serverSeedHash,
        serverSeed: sql<string | null>`case when ${packSeeds.revealedAt} is not null then ${packSeeds.serverSeed} end`,
      })
      .from(packOpenings)
      .innerJoin(boosterPacks, eq(boosterPacks.id, packOpenings.packId))
      .innerJoin(users, eq(users.id, packOpenings.userId))
      .innerJoin(packSeeds, eq(packSeeds.id, packOpenings.seedId)),
  batchFields: { names: async (db, ids) => { const names = await tierNamesOf(db); return new Map(ids.map((id) => [id, names])); } },
  toRecord: (r) => {
    const cards = (r.cards as StoredCard[]) ?? [];
    const names = (r.names as Map<string, string> | null) ?? new Map<string, string>();
    return {
      _id: String(r.id), packId: String(r.packId), pack: String(r.pack), purchaseId: String(r.purchaseId), userId: String(r.userId), username: String(r.username),
      cards: cards.map((c) => `${c.character} (${c.tier})`), serverSeedHash: String(r.serverSeedHash), serverSeed: (r.serverSeed as string | null) ?? null,
      revealed: r.serverSeed !== null && r.serverSeed !== undefined, clientSeed: String(r.clientSeed), nonce: Number(r.nonce),
      oddsText: oddsText(r.odds as StoredOdds, names), createdAt: iso(r.createdAt),
    };
  },
  actions: {
    verify: async (tx, _actor, record) => verifyOpening(tx, Number(record._id)),
  },
});
