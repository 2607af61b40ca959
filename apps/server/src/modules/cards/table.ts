import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { UserCardSource } from '@pitboss/contract';
import { createdAt, id, ref, updatedAt } from '../../db/columns.js';
import { users } from '../users/table.js';

/** Card tiers (Common … Legendary): colour, relative drop weight, display order. */
export const cardTiers = pgTable(
  'card_tiers',
  {
    id: id(),
    name: text('name').notNull(),
    color: text('color').notNull(),
    dropWeight: integer('drop_weight').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('card_tiers_name_uq').on(sql`lower(${t.name})`),
    check('card_tiers_drop_weight_ck', sql`${t.dropWeight} >= 0`),
    check('card_tiers_color_ck', sql`${t.color} ~ '^#[0-9a-f]{6}$'`),
  ],
);

/** Card categories: name, slug (the platform's address), image. */
export const cardCategories = pgTable(
  'card_categories',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    imageUrl: text('image_url').notNull().default(''),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('card_categories_name_uq').on(sql`lower(${t.name})`), uniqueIndex('card_categories_slug_uq').on(t.slug)],
);

/**
 * Card characters: one design of a category and a tier, minted at most `max_supply` times.
 * `minted_count` changes only through `mintCharacter` (the draw, rewards); the check keeps it in
 * bounds whatever writes it.
 */
export const cardCharacters = pgTable(
  'card_characters',
  {
    id: id(),
    name: text('name').notNull(),
    categoryId: ref('category_id').notNull().references(() => cardCategories.id, { onDelete: 'restrict' }),
    tierId: ref('tier_id').notNull().references(() => cardTiers.id, { onDelete: 'restrict' }),
    imageUrl: text('image_url').notNull().default(''),
    description: text('description').notNull().default(''),
    attributes: jsonb('attributes').notNull().$type<{ key: string; value: string }[]>().default([]),
    maxSupply: integer('max_supply').notNull(),
    mintedCount: integer('minted_count').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('card_characters_category_name_uq').on(t.categoryId, sql`lower(${t.name})`),
    index('card_characters_tier_idx').on(t.tierId),
    check('card_characters_supply_ck', sql`${t.mintedCount} >= 0 and ${t.maxSupply} >= 1 and ${t.mintedCount} <= ${t.maxSupply}`),
  ],
);

/** The cards users own: one row per minted card, with where it came from (a pack opening, a reward…). */
export const userCards = pgTable(
  'user_cards',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
    characterId: ref('character_id').notNull().references(() => cardCharacters.id, { onDelete: 'restrict' }),
    source: text('source').notNull().$type<UserCardSource>(),
    /** The id of what produced it (the opening, the reward grant, the redemption), as text. */
    sourceId: text('source_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('user_cards_user_idx').on(t.userId, t.createdAt, t.id),
    index('user_cards_character_idx').on(t.characterId),
    index('user_cards_created_idx').on(t.createdAt, t.id),
    check('user_cards_source_ck', sql`${t.source} in ('pack_opening', 'reward', 'store_redemption', 'admin_grant')`),
  ],
);
