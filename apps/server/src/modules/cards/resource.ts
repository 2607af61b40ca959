import { cardCategoriesResource, cardCharactersResource, cardTiersResource, userCardsResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { outerColumn } from '../../db/bulk.js';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, } from '../../resources/define.js';
import { users } from '../users/table.js';
import { assertCharactersDeletable, assertNotInUse, assertTierNotInOdds, prepareCharacterUpdate } from './service.js';
import { cardCategories, cardCharacters, cardTiers, userCards } from './table.js';

// The outer table is named in full (outerColumn): a bare "id" inside the subquery is the character's own.
const tierCharacters = sql<number>`(select count(*)::int from ${cardCharacters} c where c.tier_id = ${outerColumn(cardTiers.id)})`;
const categoryCharacters = sql<number>`(select count(*)::int from ${cardCharacters} c where c.category_id = ${outerColumn(cardCategories.id)})`;

export const cardTiersDef = defineResource({
  spec: cardTiersResource,
  table: cardTiers,
  idColumn: cardTiers.id,
  columns: { name: cardTiers.name, dropWeight: cardTiers.dropWeight, sortOrder: cardTiers.sortOrder, status: cardTiers.status, createdAt: cardTiers.createdAt },
  searchColumns: [cardTiers.name],
  select: (db: DbOrTx) => db.select({ ...getTableColumns(cardTiers), characterCount: tierCharacters }).from(cardTiers),
  toRecord: (r) => ({
    _id: String(r.id), name: String(r.name), color: String(r.color), dropWeight: Number(r.dropWeight), sortOrder: Number(r.sortOrder),
    characterCount: Number(r.characterCount ?? 0), status: r.status as 'active', createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  uniqueErrors: { card_tiers_name_uq: { field: 'name', message: 'A tier with this name exists' } },
  beforeDelete: async (records, { tx }) => {
    await assertNotInUse(tx, 'tier', records);
    await assertTierNotInOdds(tx, records);
  },
  statusColumn: cardTiers.status,
});

export const cardCategoriesDef = defineResource({
  spec: cardCategoriesResource,
  table: cardCategories,
  idColumn: cardCategories.id,
  columns: { name: cardCategories.name, slug: cardCategories.slug, status: cardCategories.status, createdAt: cardCategories.createdAt },
  searchColumns: [cardCategories.name, cardCategories.slug],
  select: (db: DbOrTx) => db.select({ ...getTableColumns(cardCategories), characterCount: categoryCharacters }).from(cardCategories),
  toRecord: (r) => ({
    _id: String(r.id), name: String(r.name), slug: String(r.slug), imageUrl: String(r.imageUrl ?? ''), characterCount: Number(r.characterCount ?? 0),
    status: r.status as 'active', createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  uniqueErrors: {
    card_categories_name_uq: { field: 'name', message: 'A category with this name exists' },
    card_categories_slug_uq: { field: 'slug', message: 'A category with this slug exists' },
  },
  beforeDelete: (records, { tx }) => assertNotInUse(tx, 'category', records),
  statusColumn: cardCategories.status,
});

export const cardCharactersDef = defineResource({
  spec: cardCharactersResource,
  table: cardCharacters,
  idColumn: cardCharacters.id,
  columns: {
    name: cardCharacters.name, categoryId: cardCharacters.categoryId, tierId: cardCharacters.tierId, mintedCount: cardCharacters.mintedCount,
    maxSupply: cardCharacters.maxSupply, status: cardCharacters.status, createdAt: cardCharacters.createdAt,
  },
  searchColumns: [cardCharacters.name],
  // Inner joins on NOT NULL foreign keys: one row per character.
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(cardCharacters), categoryName: cardCategories.name, tierName: cardTiers.name, tierColor: cardTiers.color })
      .from(cardCharacters)
      .innerJoin(cardCategories, eq(cardCategories.id, cardCharacters.categoryId))
      .innerJoin(cardTiers, eq(cardTiers.id, cardCharacters.tierId)),
  toRecord: (r) => ({
    _id: String(r.id), name: String(r.name), categoryId: String(r.categoryId), categoryName: String(r.categoryName), tierId: String(r.tierId),
    tierName: String(r.tierName), tierColor: String(r.tierColor), imageUrl: String(r.imageUrl ?? ''), description: String(r.description ?? ''),
    attributes: (typeof r.attributes === 'string' ? JSON.parse(r.attributes) : (r.attributes ?? [])) as { key: string; value: string }[],
    maxSupply: Number(r.maxSupply), mintedCount: Number(r.mintedCount), status: r.status as 'active', createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareUpdate: (input, { existing }) => prepareCharacterUpdate(input, existing),
  uniqueErrors: { card_characters_category_name_uq: { field: 'name', message: 'This category has a character with this name' } },
  beforeDelete: (records, { tx }) => assertCharactersDeletable(tx, records),
  statusColumn: cardCharacters.status,
});

export const userCardsDef = defineResource({
  spec: userCardsResource,
  table: userCards,
  idColumn: userCards.id,
  columns: { userId: userCards.userId, characterId: userCards.characterId, source: userCards.source, createdAt: userCards.createdAt },
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(userCards), username: users.username, characterName: cardCharacters.name, imageUrl: cardCharacters.imageUrl, tierName: cardTiers.name })
      .from(userCards)
      .innerJoin(users, eq(users.id, userCards.userId))
      .innerJoin(cardCharacters, eq(cardCharacters.id, userCards.characterId))
      .innerJoin(cardTiers, eq(cardTiers.id, cardCharacters.tierId)),
  toRecord: (r) => ({
    _id: String(r.id), userId: String(r.userId), username: String(r.username), characterId: String(r.characterId), characterName: String(r.characterName),
    tierName: String(r.tierName), imageUrl: String(r.imageUrl ?? ''), source: r.source as 'reward', sourceId: (r.sourceId as string | null) ?? null,
    createdAt: iso(r.createdAt),
  }),
});
