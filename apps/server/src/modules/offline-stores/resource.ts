import { offlineStoresResource, storeAllocationsResource, storeCodesResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { iso, defineResource, isoOrNull, } from '../../resources/define.js';
import { boosterPacks } from '../booster-packs/table.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { users } from '../users/table.js';
import { beforeAllocationDelete, generateCodes, prepareAllocationCreate, prepareAllocationUpdate } from './service.js';
import { offlineStores, storeAllocations, storeCodes } from './table.js';

/** Coordinates as typed: numeric strings trimmed of trailing zeros (`48.856600` → `48.8566`). */
const coord = (v: unknown) => String(v).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

async function figuresOf(db: DbOrTx, ids: number[]): Promise<Map<number, unknown>> {
  const rows = await queryRows<{ store_id: string | number; allocated: string | number; redeemed: string | number }>(db, sql`
    select store_id, coalesce(sum(quantity), 0) as allocated, coalesce(sum(redeemed), 0) as redeemed from store_allocations
    where store_id = any(${`{${ids.join(',')}}`}::bigint[]) group by store_id`);
  return new Map(rows.map((r) => [Number(r.store_id), { allocated: Number(r.allocated), redeemed: Number(r.redeemed) }]));
}

export const offlineStoresDef = defineResource({
  spec: offlineStoresResource,
  table: offlineStores,
  idColumn: offlineStores.id,
  columns: { name: offlineStores.name, city: offlineStores.city, country: offlineStores.country, status: offlineStores.status, createdAt: offlineStores.createdAt },
  caseInsensitive: ['country'],
  searchColumns: [offlineStores.name, offlineStores.city],
  statusColumn: offlineStores.status,
  batchFields: { figures: figuresOf },
  toRecord: (r) => {
    const f = (r.figures as { allocated: number; redeemed: number } | null) ?? { allocated: 0, redeemed: 0 };
    return {
      _id: String(r.id), name: String(r.name), address: String(r.address), city: String(r.city), country: String(r.country),
      latitude: coord(r.latitude), longitude: coord(r.longitude), contact: String(r.contact), status: r.status as 'active',
      packsAllocated: f.allocated, packsRedeemed: f.redeemed, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  uniqueErrors: { offline_stores_name_uq: { field: 'name', message: 'A store with this name exists' } },
  beforeDelete: async (records, { tx }) => {
    for (const r of records) {
      const [a] = await tx.select({ id: storeAllocations.id }).from(storeAllocations).where(eq(storeAllocations.storeId, Number(r._id))).limit(1);
      if (a) throw conflict(`${r.name} has pack allocations: set it inactive instead`);
    }
  },
});

export const storeAllocationsDef = defineResource({
  spec: storeAllocationsResource,
  table: storeAllocations,
  idColumn: storeAllocations.id,
  columns: { storeId: storeAllocations.storeId, packId: storeAllocations.packId, quantity: storeAllocations.quantity, createdAt: storeAllocations.createdAt },
  // The title is "<pack> at <store>": either name finds it (the codes' Allocation picker types here).
  searchColumns: [offlineStores.name, boosterPacks.name],
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(storeAllocations), store: offlineStores.name, pack: boosterPacks.name, symbol: coins.symbol, decimals: coins.decimals })
      .from(storeAllocations)
      .innerJoin(offlineStores, eq(offlineStores.id, storeAllocations.storeId))
      .innerJoin(boosterPacks, eq(boosterPacks.id, storeAllocations.packId))
      .innerJoin(coins, eq(coins.id, boosterPacks.coinId)),
  toRecord: (r) => ({
    _id: String(r.id), storeId: String(r.storeId), store: String(r.store), packId: String(r.packId), pack: String(r.pack), title: `${String(r.pack)} at ${String(r.store)}`, quantity: Number(r.quantity),
    price: String(r.price), priceText: unitsText(r.price as bigint, Number(r.decimals), String(r.symbol))!, codesGenerated: Number(r.codesGenerated),
    redeemed: Number(r.redeemed), codesLeft: Number(r.quantity) - Number(r.codesGenerated), createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: prepareAllocationCreate,
  prepareUpdate: prepareAllocationUpdate,
  beforeDelete: beforeAllocationDelete,
  uniqueErrors: { store_allocations_store_pack_uq: { field: 'packId', message: 'This pack is already allocated to this store: change that allocation’s quantity' } },
  actions: {
    'generate-codes': async (tx, actor, record, input) => generateCodes(tx, actor, Number(record._id), Number(input.count)),
  },
});

export const storeCodesDef = defineResource({
  spec: storeCodesResource,
  table: storeCodes,
  idColumn: storeCodes.id,
  columns: { createdAt: storeCodes.createdAt, allocationId: storeCodes.allocationId, status: storeCodes.status },
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(storeCodes), store: offlineStores.name, pack: boosterPacks.name, username: users.username })
      .from(storeCodes)
      .innerJoin(storeAllocations, eq(storeAllocations.id, storeCodes.allocationId))
      .innerJoin(offlineStores, eq(offlineStores.id, storeAllocations.storeId))
      .innerJoin(boosterPacks, eq(boosterPacks.id, storeAllocations.packId))
      .leftJoin(users, eq(users.id, storeCodes.redeemedBy)),
  toRecord: (r) => ({
    _id: String(r.id), allocationId: String(r.allocationId), store: String(r.store), pack: String(r.pack), hint: `…${String(r.hint)}`, status: r.status as 'unused',
    redeemedByUserId: r.redeemedBy === null ? null : String(r.redeemedBy), redeemedBy: (r.username as string | null) ?? null, redeemedAt: isoOrNull(r.redeemedAt),
    purchaseId: r.purchaseId === null ? null : String(r.purchaseId), createdAt: iso(r.createdAt),
  }),
});
