import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { boosterPacks } from '../booster-packs/table.js';
import { users } from '../users/table.js';

/** A shop selling packs with printed redemption codes. Coordinates in decimal degrees (numeric, not float). */
export const offlineStores = pgTable(
  'offline_stores',
  {
    id: id(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    country: text('country').notNull(),
    latitude: numeric('latitude', { precision: 9, scale: 6 }).notNull(),
    longitude: numeric('longitude', { precision: 9, scale: 6 }).notNull(),
    contact: text('contact').notNull(),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('offline_stores_name_uq').on(sql`lower(${t.name})`),
    check('offline_stores_status_ck', sql`${t.status} in ('active','inactive')`),
    check('offline_stores_coords_ck', sql`${t.latitude} between -90 and 90 and ${t.longitude} between -180 and 180`),
    check('offline_stores_country_ck', sql`${t.country} ~ '^[A-Z]{2}$'`),
  ],
);
export type OfflineStoreRow = typeof offlineStores.$inferSelect;

/**
 * Packs kept for a store out of the pack's supply (`booster_packs.reserved` counts what is allocated
 * and not redeemed yet), at the store's price. Codes are generated up to the quantity.
 */
export const storeAllocations = pgTable(
  'store_allocations',
  {
    id: id(),
    storeId: ref('store_id').notNull().references(() => offlineStores.id),
    packId: ref('pack_id').notNull().references(() => boosterPacks.id),
    quantity: integer('quantity').notNull(),
    /** Minor units of the pack's coin, paid at the store (not through the ledger). */
    price: money('price').notNull(),
    codesGenerated: integer('codes_generated').notNull().default(0),
    redeemed: integer('redeemed').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('store_allocations_store_pack_uq').on(t.storeId, t.packId),
    index('store_allocations_pack_idx').on(t.packId),
    index('store_allocations_created_idx').on(t.createdAt, t.id),
    check('store_allocations_ck', sql`${t.quantity} > 0 and ${t.price} >= 0 and ${t.redeemed} >= 0 and ${t.redeemed} <= ${t.codesGenerated} and ${t.codesGenerated} <= ${t.quantity}`),
  ],
);
export type StoreAllocationRow = typeof storeAllocations.$inferSelect;

/** A redemption code: only its SHA-256 (hex) and its last four characters are kept; redeemed once. */
export const storeCodes = pgTable(
  'store_codes',
  {
    id: id(),
    allocationId: ref('allocation_id').notNull().references(() => storeAllocations.id),
    codeHash: text('code_hash').notNull(),
    hint: text('hint').notNull(),
    status: text('status').notNull().$type<'unused' | 'redeemed'>().default('unused'),
    redeemedBy: ref('redeemed_by').references(() => users.id),
    redeemedAt: ts('redeemed_at'),
    purchaseId: ref('purchase_id'),
    createdBy: ref('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('store_codes_hash_uq').on(t.codeHash),
    index('store_codes_allocation_created_idx').on(t.allocationId, t.createdAt, t.id),
    index('store_codes_created_idx').on(t.createdAt, t.id),
    check('store_codes_status_ck', sql`${t.status} in ('unused','redeemed') and (${t.status} = 'redeemed') = (${t.redeemedBy} is not null and ${t.redeemedAt} is not null and ${t.purchaseId} is not null)`),
  ],
);
export type StoreCodeRow = typeof storeCodes.$inferSelect;
