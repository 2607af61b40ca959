import { boosterPackStates, type BoosterPackStatus } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { cardTiers } from '../cards/table.js';
import { coins } from '../coins/table.js';
import { users } from '../users/table.js';

const list = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(','));

/** Odds as stored: basis points per tier id, from the most common tier to the rarest. */
export type StoredOdds = { tierId: string; bps: number }[];

/** `/update-booster-pack`: one row, the defaults of every pack. */
export const boosterPackSettings = pgTable(
  'booster_pack_settings',
  {
    id: integer('id').primaryKey().default(1),
    cardsPerPack: integer('cards_per_pack').notNull().default(5),
    tierOdds: jsonb('tier_odds').notNull().$type<StoredOdds>().default([]),
    guaranteedTierId: ref('guaranteed_tier_id').references(() => cardTiers.id, { onDelete: 'restrict' }),
    openingEnabled: boolean('opening_enabled').notNull().default(true),
    updatedAt: updatedAt(),
    updatedBy: bigint('updated_by', { mode: 'number' }),
  },
  (t) => [check('booster_pack_settings_single_ck', sql`${t.id} = 1`), check('booster_pack_settings_cards_ck', sql`${t.cardsPerPack} between 1 and 20`)],
);
export type BoosterPackSettingsRow = typeof boosterPackSettings.$inferSelect;

/**
 * A pack on sale: `sold` (online and redeemed store codes) + `reserved` (allocated to stores, not
 * redeemed yet) never pass `supply` (a CHECK behind the conditional UPDATEs of the services).
 */
export const boosterPacks = pgTable(
  'booster_packs',
  {
    id: id(),
    name: text('name').notNull(),
    imageUrl: text('image_url').notNull().default(''),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    /** Minor units of the coin. */
    price: money('price').notNull(),
    /** Null: the settings' cards per pack. */
    cardsPerPack: integer('cards_per_pack'),
    /** Null: the settings' odds. */
    oddsOverride: jsonb('odds_override').$type<StoredOdds>(),
    supply: integer('supply').notNull(),
    sold: integer('sold').notNull().default(0),
    reserved: integer('reserved').notNull().default(0),
    status: text('status').notNull().$type<BoosterPackStatus>().default('draft'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('booster_packs_name_uq').on(sql`lower(${t.name})`),
    index('booster_packs_created_idx').on(t.createdAt, t.id),
    statusCheck('booster_packs_status_ck', t.status, boosterPackStates),
    check('booster_packs_price_ck', sql`${t.price} > 0`),
    check('booster_packs_cards_ck', sql`${t.cardsPerPack} is null or ${t.cardsPerPack} between 1 and 20`),
    check('booster_packs_supply_ck', sql`${t.supply} > 0 and ${t.sold} >= 0 and ${t.reserved} >= 0 and ${t.sold} + ${t.reserved} <= ${t.supply}`),
  ],
);
export type BoosterPackRow = typeof boosterPacks.$inferSelect;

export const PURCHASE_SOURCE_VALUES = ['platform', 'store_code'] as const;
export type PurchaseSource = (typeof PURCHASE_SOURCE_VALUES)[number];

/** One pack a user owns (bought on the platform, or redeemed at a store); opened at most once. */
export const packPurchases = pgTable(
  'pack_purchases',
  {
    id: id(),
    packId: ref('pack_id').notNull().references(() => boosterPacks.id),
    userId: ref('user_id').notNull().references(() => users.id),
    source: text('source').notNull().$type<PurchaseSource>(),
    /** What the user paid (minor units of the pack's coin); 0 for a store code (paid at the store). */
    price: money('price').notNull(),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    /** The redeemed code (store_codes.id) of a store purchase; no foreign key: the code's table names the purchase. */
    storeCodeId: ref('store_code_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('pack_purchases_pack_created_idx').on(t.packId, t.createdAt, t.id),
    index('pack_purchases_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('pack_purchases_created_idx').on(t.createdAt, t.id),
    uniqueIndex('pack_purchases_store_code_uq').on(t.storeCodeId),
    check('pack_purchases_source_ck', sql`${t.source} in (${list(PURCHASE_SOURCE_VALUES)})`),
    check('pack_purchases_price_ck', sql`${t.price} >= 0 and (${t.source} = 'platform') = (${t.price} > 0)`),
  ],
);
export type PackPurchaseRow = typeof packPurchases.$inferSelect;

/**
 * A user's provably fair seed pair: the server seed (32 random bytes, hex) is committed by its
 * SHA-256 hash before any opening uses it and revealed when the user rotates it; the nonce counts
 * the openings made with it. One active seed per user.
 */
export const packSeeds = pgTable(
  'pack_seeds',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id),
    serverSeed: text('server_seed').notNull(),
    serverSeedHash: text('server_seed_hash').notNull(),
    clientSeed: text('client_seed').notNull(),
    /** The nonce of the next opening. */
    nonce: integer('nonce').notNull().default(0),
    revealedAt: ts('revealed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pack_seeds_active_uq').on(t.userId).where(sql`${t.revealedAt} is null`),
    index('pack_seeds_user_idx').on(t.userId, t.id),
    uniqueIndex('pack_seeds_hash_uq').on(t.serverSeedHash),
    check('pack_seeds_seed_ck', sql`${t.serverSeed} ~ '^[0-9a-f]{64}$' and ${t.serverSeedHash} ~ '^[0-9a-f]{64}$' and ${t.nonce} >= 0`),
  ],
);
export type PackSeedRow = typeof packSeeds.$inferSelect;

/** A card drawn, as stored with its opening (the draw's output and the character's name and tier at the time). */
export interface StoredCard {
  index: number;
  characterId: string;
  character: string;
  tierId: string;
  tier: string;
  rolledTierId: string;
  userCardId: string | null;
}

/**
 * One opening of one purchase: everything needed to recompute its draw (the seed, client seed,
 * nonce, odds, guaranteed tier and the pool of characters that could be minted when it started) and
 * what it gave.
 */
export const packOpenings = pgTable(
  'pack_openings',
  {
    id: id(),
    purchaseId: ref('purchase_id').notNull().references(() => packPurchases.id),
    packId: ref('pack_id').notNull().references(() => boosterPacks.id),
    userId: ref('user_id').notNull().references(() => users.id),
    seedId: ref('seed_id').notNull().references(() => packSeeds.id),
    clientSeed: text('client_seed').notNull(),
    nonce: integer('nonce').notNull(),
    odds: jsonb('odds').notNull().$type<StoredOdds>(),
    guaranteedTierId: text('guaranteed_tier_id'),
    /** The characters that could be minted at the start: `{ characterId, tierId, remaining }` (remaining capped at the pack's size). */
    pool: jsonb('pool').notNull().$type<{ characterId: string; tierId: string; remaining: number }[]>(),
    cards: jsonb('cards').notNull().$type<StoredCard[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pack_openings_purchase_uq').on(t.purchaseId),
    uniqueIndex('pack_openings_seed_nonce_uq').on(t.seedId, t.nonce),
    index('pack_openings_pack_created_idx').on(t.packId, t.createdAt, t.id),
    index('pack_openings_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('pack_openings_created_idx').on(t.createdAt, t.id),
  ],
);
export type PackOpeningRow = typeof packOpenings.$inferSelect;
