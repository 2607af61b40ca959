import { z } from 'zod';
import { common, recordFields, resourceSpec, sortOrderSchema, statusSchema, updateSchemaOf } from '../resources/spec.js';
import { imageUrlSchema } from './uploads.js';

// ── Card catalogue: tiers, categories, characters; the cards users own ──────
const idString = z.string({ error: 'Choose one' }).trim().regex(/^\d{1,18}$/, 'Choose one');
const name = (max: number) => z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(max, `At most ${max} characters`);

/** A tier: how rare a card is (Common … Legendary). Drop weights are relative: weight 2 drops twice as often as weight 1. */
export const cardTierCreate = z.object({
  name: name(40),
  color: z
    .string({ error: 'Choose a colour' })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, 'A colour such as #3b82f6')
    .transform((v) => v.toLowerCase()),
  dropWeight: z.number({ error: 'A whole number' }).int('A whole number').min(0, 'Cannot be negative').max(1_000_000, 'At most 1000000'),
  sortOrder: sortOrderSchema,
  status: statusSchema.default('active'),
});
export const cardTierUpdate = updateSchemaOf(cardTierCreate);

export const cardTierRecord = z.object({
  _id: recordFields.id, name: z.string(), color: z.string(), dropWeight: z.number().int(), sortOrder: z.number().int(),
  characterCount: z.number().int(), status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const cardTiersResource = resourceSpec(cardTierRecord, {
  name: 'card-tiers', label: 'Card tier', plural: 'Card tiers', restriction: 'CardTier',
  pages: { list: '/card-tier', add: '/add-tier', update: '/update-tier/{id}' },
  titleField: 'name',
  columns: [
    { key: 'color', label: 'Colour', type: 'color' },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'dropWeight', label: 'Drop weight', type: 'number', sortable: true },
    common.orderColumn,
    { key: 'characterCount', label: 'Characters', type: 'number' },
    common.statusColumn,
    common.createdColumn,
  ],
  filters: [common.statusFilter, common.createdFilter],
  search: 'name',
  defaultSort: 'sortOrder',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true, placeholder: 'Legendary' },
    { key: 'color', label: 'Colour', type: 'color', required: true, initial: '#868e96' },
    { key: 'dropWeight', label: 'Drop weight', type: 'number', required: true, description: 'Relative: a tier of weight 2 drops twice as often as one of weight 1 (a pack may set its own odds)' },
    common.orderField,
    common.statusField,
  ],
  create: cardTierCreate,
  update: cardTierUpdate,
});

/** A category groups characters (a series, a world); its slug is its address on the platform. */
export const cardCategoryCreate = z.object({
  name: name(60),
  slug: z
    .string({ error: 'Slug is required' })
    .trim()
    .min(2, 'At least 2 characters')
    .max(60, 'At most 60 characters')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Lower-case letters, digits and single hyphens (e.g. deep-sea)'),
  imageUrl: imageUrlSchema.default(''),
  status: statusSchema.default('active'),
});
export const cardCategoryUpdate = updateSchemaOf(cardCategoryCreate);

export const cardCategoryRecord = z.object({
  _id: recordFields.id, name: z.string(), slug: z.string(), imageUrl: z.string(), characterCount: z.number().int(),
  status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const cardCategoriesResource = resourceSpec(cardCategoryRecord, {
  name: 'card-categories', label: 'Card category', plural: 'Card categories', restriction: 'Category',
  pages: { list: '/card-category', add: '/add-category', update: '/update-category/{id}' },
  titleField: 'name',
  columns: [
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'slug', label: 'Slug', type: 'code', sortable: true },
    { key: 'characterCount', label: 'Characters', type: 'number' },
    common.statusColumn,
    common.createdColumn,
  ],
  filters: [common.statusFilter, common.createdFilter],
  search: 'name or slug',
  defaultSort: 'name',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'slug', label: 'Slug', type: 'text', required: true, description: 'Its address on the platform: lower-case letters, digits and hyphens', placeholder: 'deep-sea' },
    { key: 'imageUrl', label: 'Image', type: 'image' },
    common.statusField,
  ],
  create: cardCategoryCreate,
  update: cardCategoryUpdate,
  children: [{ resource: 'card-characters', label: 'Characters', filter: 'categoryId' }],
});

/** Largest supply of one character. */
export const CARD_MAX_SUPPLY = 10_000_000;

const attribute = z.object({
  key: z.string({ error: 'Name the attribute' }).trim().min(1, 'Name the attribute').max(40, 'At most 40 characters'),
  value: z.string({ error: 'A value' }).trim().max(200, 'At most 200 characters'),
}).strict();

/** A character: one card design, of a category and a tier, minted up to its supply. */
export const cardCharacterCreate = z.object({
  name: name(80),
  categoryId: idString,
  tierId: idString,
  imageUrl: imageUrlSchema.default(''),
  description: z.string().trim().max(2000, 'At most 2000 characters').default(''),
  attributes: z
    .array(attribute, { error: 'A list of name/value pairs' })
    .max(20, 'At most 20 attributes')
    .refine((list) => new Set(list.map((a) => a.key.toLowerCase())).size === list.length, 'Each attribute name once')
    .default([]),
  maxSupply: z.number({ error: 'A whole number' }).int('A whole number').min(1, 'At least 1').max(CARD_MAX_SUPPLY, `At most ${CARD_MAX_SUPPLY}`),
  status: statusSchema.default('active'),
});
export const cardCharacterUpdate = updateSchemaOf(cardCharacterCreate);

export const cardCharacterRecord = z.object({
  _id: recordFields.id, name: z.string(), categoryId: recordFields.id, categoryName: z.string(), tierId: recordFields.id, tierName: z.string(),
  tierColor: z.string(), imageUrl: z.string(), description: z.string(), attributes: z.array(z.object({ key: z.string(), value: z.string() })),
  maxSupply: z.number().int(), mintedCount: z.number().int(), status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const cardCharactersResource = resourceSpec(cardCharacterRecord, {
  name: 'card-characters', label: 'Card character', plural: 'Card characters', restriction: 'Character',
  pages: { list: '/card-characters', add: '/add-character', update: '/update-character/{id}' },
  titleField: 'name',
  columns: [
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'categoryName', label: 'Category', type: 'text' },
    { key: 'tierName', label: 'Tier', type: 'text' },
    { key: 'mintedCount', label: 'Minted', type: 'number', sortable: true },
    { key: 'maxSupply', label: 'Max supply', type: 'number', sortable: true },
    { key: 'description', label: 'Description', type: 'longtext', hidden: true },
    { key: 'attributes', label: 'Attributes', type: 'json', hidden: true },
    common.statusColumn,
    common.createdColumn,
  ],
  filters: [
    { key: 'categoryId', label: 'Category', type: 'equals', reference: { resource: 'card-categories', labelKey: 'name' } },
    { key: 'tierId', label: 'Tier', type: 'equals', reference: { resource: 'card-tiers', labelKey: 'name' } },
    common.statusFilter,
    common.createdFilter,
  ],
  search: 'name',
  defaultSort: 'name',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'categoryId', label: 'Category', type: 'reference', reference: { resource: 'card-categories', labelKey: 'name', filter: { status: 'active' } }, required: true },
    { key: 'tierId', label: 'Tier', type: 'reference', reference: { resource: 'card-tiers', labelKey: 'name', filter: { status: 'active' } }, required: true },
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'description', label: 'Description', type: 'textarea' },
    { key: 'attributes', label: 'Attributes', type: 'keyvalue', description: 'Name and value pairs shown on the card (power, element…)' },
    { key: 'maxSupply', label: 'Max supply', type: 'number', required: true, description: 'How many of this card can ever be minted; not below the number already minted' },
    common.statusField,
  ],
  create: cardCharacterCreate,
  update: cardCharacterUpdate,
  figures: ['mintedCount', 'maxSupply'],
  children: [{ resource: 'user-cards', label: 'Owners', filter: 'characterId' }],
});

/** How a user came to own a card. */
export const USER_CARD_SOURCES = [
  { value: 'pack_opening', label: 'Pack opening' },
  { value: 'reward', label: 'Reward' },
  { value: 'store_redemption', label: 'Store redemption' },
  { value: 'admin_grant', label: 'Granted by an admin' },
] as const;
export type UserCardSource = (typeof USER_CARD_SOURCES)[number]['value'];

export const userCardRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), characterId: recordFields.id, characterName: z.string(), tierName: z.string(),
  imageUrl: z.string(), source: z.enum(USER_CARD_SOURCES.map((s) => s.value) as [UserCardSource, ...UserCardSource[]]), sourceId: z.string().nullable(),
  createdAt: recordFields.at,
}).strict();

/** The cards users own: one row per minted card, written by the draw, rewards and redemptions (never by hand). */
export const userCardsResource = resourceSpec(userCardRecord, {
  name: 'user-cards', label: 'Owned card', plural: 'Owned cards', restriction: 'Character',
  pages: { list: '/owned-cards' },
  titleField: 'characterName',
  readOnly: true,
  keyset: true,
  columns: [
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'characterName', label: 'Character', type: 'text' },
    { key: 'tierName', label: 'Tier', type: 'text' },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'source', label: 'Source', type: 'status' },
    { key: 'sourceId', label: 'Source id', type: 'code' },
    { key: 'createdAt', label: 'Received', type: 'date', sortable: true },
  ],
  filters: [
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'characterId', label: 'Character', type: 'equals', reference: { resource: 'card-characters', labelKey: 'name' } },
    { key: 'source', label: 'Source', type: 'oneOf', options: USER_CARD_SOURCES },
    { key: 'createdAt', label: 'Received', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
});
