import { z } from 'zod';
import { isCountryCode, minorUnitsInput, units } from '../lib/fields.js';
import { common, recordFields, resourceSpec, statusSchema, updateSchemaOf } from '../resources/spec.js';

// ── Offline stores (docs/cards-and-packs.md, "Offline stores and redemption codes") ───────────

const coordinate = (label: string, max: number) =>
  z
    .string({ error: `${label}: decimal degrees` })
    .trim()
    .regex(/^-?\d{1,3}(?:\.\d{1,6})?$/, `${label}: decimal degrees with at most 6 decimals`)
    .refine((v) => Math.abs(Number(v)) <= max, `${label}: between -${max} and ${max}`);

const text = (label: string, max: number, min = 1) =>
  z.string({ error: `${label} is required` }).trim().min(min, min > 1 ? `${label}: at least ${min} characters` : `${label} is required`).max(max, `${label}: at most ${max} characters`);

const offlineStoreFields = z
  .object({
    name: text('Name', 80, 2),
    address: text('Address', 200),
    city: text('City', 80),
    /** ISO 3166-1 alpha-2. */
    country: z.string({ error: 'A two-letter country code' }).trim().toUpperCase().regex(/^[A-Z]{2}$/, 'A two-letter country code (FR, US…)').refine(isCountryCode, 'No country has this code (ISO 3166: FR, US…)'),
    latitude: coordinate('Latitude', 90),
    longitude: coordinate('Longitude', 180),
    contact: text('Contact', 200),
    status: statusSchema.default('active'),
  })
  .strict();
export const offlineStoreCreate = offlineStoreFields;
export const offlineStoreUpdate = updateSchemaOf(offlineStoreFields).strict();

export const offlineStoreRecord = z
  .object({
    _id: recordFields.id, name: z.string(), address: z.string(), city: z.string(), country: z.string(), latitude: z.string(), longitude: z.string(),
    contact: z.string(), status: recordFields.status, packsAllocated: z.number().int(), packsRedeemed: z.number().int(),
    createdAt: recordFields.at, updatedAt: recordFields.at,
  })
  .strict();

export const offlineStoresResource = resourceSpec(offlineStoreRecord, {
  name: 'offline-stores', label: 'Offline store', plural: 'Offline stores', restriction: 'OfflineStore',
  pages: { list: '/offline-store', add: '/add-offline-store', update: '/update-offline-store/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'city', label: 'City', type: 'text', sortable: true },
    { key: 'country', label: 'Country', type: 'code', sortable: true },
    { key: 'address', label: 'Address', type: 'text', hidden: true },
    { key: 'latitude', label: 'Latitude', type: 'code', hidden: true },
    { key: 'longitude', label: 'Longitude', type: 'code', hidden: true },
    { key: 'contact', label: 'Contact', type: 'text' },
    { key: 'packsAllocated', label: 'Packs allocated', type: 'number' },
    { key: 'packsRedeemed', label: 'Redeemed', type: 'number' },
    common.statusColumn,
    common.createdColumn,
  ],
  figures: ['packsAllocated', 'packsRedeemed'],
  filters: [common.statusFilter, { key: 'country', label: 'Country', type: 'equals', options: 'countries' }, common.createdFilter],
  search: 'name or city',
  defaultSort: 'name',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'address', label: 'Address', type: 'text', required: true },
    { key: 'city', label: 'City', type: 'text', required: true },
    { key: 'country', label: 'Country', type: 'select', options: 'countries', required: true, placeholder: 'Type to search: France, FR…' },
    { key: 'latitude', label: 'Latitude', type: 'text', required: true, placeholder: '48.856613' },
    { key: 'longitude', label: 'Longitude', type: 'text', required: true, placeholder: '2.352222' },
    { key: 'contact', label: 'Contact', type: 'text', required: true, placeholder: 'Name, phone or email' },
    common.statusField,
  ],
  children: [{ resource: 'store-allocations', label: 'Pack allocations', filter: 'storeId', hideColumns: ['store'] }],
  create: offlineStoreCreate,
  update: offlineStoreUpdate,
});

// ── Allocations: packs reserved for a store, with its price ─────────────────

/** How many codes one generation makes at most. */
export const CODES_PER_GENERATION_MAX = 1_000;

const allocationFields = z
  .object({
    storeId: z.string({ error: 'Choose the store' }).regex(/^\d{1,18}$/, 'Choose the store'),
    packId: z.string({ error: 'Choose the pack' }).regex(/^\d{1,18}$/, 'Choose the pack'),
    quantity: z.number({ error: 'Quantity: a whole number' }).int('Quantity: a whole number').min(1, 'Quantity: at least 1').max(1_000_000, 'Quantity: at most 1,000,000'),
    /** What the store sells one for, in minor units of the pack's coin (paid at the store, not through the ledger). */
    price: minorUnitsInput('The store price', { zero: true }),
  })
  .strict();
export const storeAllocationCreate = allocationFields;
export const storeAllocationUpdate = updateSchemaOf(allocationFields.omit({ storeId: true, packId: true })).strict();

export const storeAllocationRecord = z
  .object({
    _id: recordFields.id, storeId: recordFields.id, store: z.string(), packId: recordFields.id, pack: z.string(),
    /** The page's title: `Genesis Booster at Le Comptoir des Cartes`. */
    title: z.string(),
    quantity: z.number().int(),
    price: units, priceText: z.string(), codesGenerated: z.number().int(), redeemed: z.number().int(), codesLeft: z.number().int(),
    createdAt: recordFields.at, updatedAt: recordFields.at,
  })
  .strict();

export const storeAllocationsResource = resourceSpec(storeAllocationRecord, {
  name: 'store-allocations', label: 'Pack allocation', plural: 'Pack allocations', restriction: 'OfflineStore',
  pages: { list: '/store-allocations', add: '/add-pack-offline-store', update: '/update-pack-offline-store/{id}' },
  titleField: 'title',
  columns: [
    { key: 'store', label: 'Store', type: 'text' },
    { key: 'pack', label: 'Pack', type: 'text' },
    { key: 'quantity', label: 'Quantity', type: 'number', sortable: true },
    { key: 'priceText', label: 'Store price', type: 'money' },
    { key: 'codesGenerated', label: 'Codes generated', type: 'number' },
    { key: 'redeemed', label: 'Redeemed', type: 'number' },
    { key: 'codesLeft', label: 'Codes still to generate', type: 'number', hidden: true },
    { key: 'createdAt', label: 'Allocated', type: 'date', sortable: true },
  ],
  figures: ['quantity', 'priceText', 'codesGenerated', 'redeemed', 'codesLeft'],
  filters: [
    { key: 'storeId', label: 'Store', type: 'equals', reference: { resource: 'offline-stores', labelKey: 'name' } },
    { key: 'packId', label: 'Pack', type: 'equals', reference: { resource: 'booster-packs', labelKey: 'name' } },
    { key: 'createdAt', label: 'Allocated', type: 'dateRange' },
  ],
  // Also what an allocation is picked by elsewhere (the codes' Allocation filter): its pack or store.
  search: 'store or pack',
  defaultSort: '-createdAt',
  deleteMode: 'delete',
  actions: [
    {
      name: 'generate-codes', label: 'Generate codes', right: 'edit',
      input: z.object({ count: z.number({ error: 'How many codes' }).int('A whole number').min(1, 'At least 1').max(CODES_PER_GENERATION_MAX, `At most ${CODES_PER_GENERATION_MAX} at once`) }).strict(),
      fields: [{ key: 'count', label: 'How many codes', type: 'number', required: true, description: `Up to the allocation’s quantity; at most ${CODES_PER_GENERATION_MAX} at once` }],
      confirm: 'The codes are shown once, now: download them before closing. Only their SHA-256 hashes are kept.',
      output: {
        title: 'Redemption codes', note: 'Shown once: only their hashes are stored, nobody can show them again. Download or copy them now.',
        columns: [{ key: 'code', label: 'Code' }, { key: 'pack', label: 'Pack' }, { key: 'store', label: 'Store' }], csv: 'redemption-codes.csv',
      },
    },
  ],
  form: [
    { key: 'storeId', label: 'Store', type: 'reference', required: true, createOnly: true, reference: { resource: 'offline-stores', labelKey: 'name', filter: { status: 'active' } } },
    { key: 'packId', label: 'Pack', type: 'reference', required: true, createOnly: true, reference: { resource: 'booster-packs', labelKey: 'name', extra: ['decimals', 'coin'] } },
    { key: 'quantity', label: 'Quantity', type: 'number', required: true, description: 'Packs kept for this store out of the pack’s supply; never below the codes generated' },
    { key: 'price', label: 'Store price', type: 'money', required: true, money: { field: 'packId', decimals: 'decimals', symbol: 'coin', zero: true }, description: 'In the pack’s coin; paid at the store, recorded for the store’s figures' },
  ],
  children: [{ resource: 'store-codes', label: 'Codes', filter: 'allocationId', hideColumns: ['store', 'pack'] }],
  create: storeAllocationCreate,
  update: storeAllocationUpdate,
});

// ── Codes (only their hash is kept) ─────────────────────────────────────────

export const storeCodeRecord = z
  .object({
    _id: recordFields.id, allocationId: recordFields.id, store: z.string(), pack: z.string(), hint: z.string(), status: z.enum(['unused', 'redeemed']),
    redeemedByUserId: z.string().nullable(), redeemedBy: z.string().nullable(), redeemedAt: recordFields.atOrNull, purchaseId: z.string().nullable(),
    createdAt: recordFields.at,
  })
  .strict();

export const storeCodesResource = resourceSpec(storeCodeRecord, {
  name: 'store-codes', label: 'Redemption code', plural: 'Redemption codes', restriction: 'OfflineStore',
  pages: { list: '/store-codes' },
  titleField: 'hint', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Generated', type: 'date', sortable: true },
    { key: 'hint', label: 'Code (last 4)', type: 'code' },
    { key: 'store', label: 'Store', type: 'text' },
    { key: 'pack', label: 'Pack', type: 'text' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'redeemedBy', label: 'Redeemed by', type: 'text' },
    { key: 'redeemedAt', label: 'Redeemed', type: 'date' },
  ],
  filters: [
    { key: 'allocationId', label: 'Allocation', type: 'equals', reference: { resource: 'store-allocations', labelKey: 'title' } },
    { key: 'status', label: 'Status', type: 'oneOf', options: [{ value: 'unused', label: 'Unused' }, { value: 'redeemed', label: 'Redeemed' }] },
    { key: 'createdAt', label: 'Generated', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
});

/** The alphabet of redemption codes: Crockford's base 32 (no I, L, O, U: nothing to misread). */
export const STORE_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 20 characters × 5 bits = 100 random bits, printed as XXXXX-XXXXX-XXXXX-XXXXX. */
export const STORE_CODE_LENGTH = 20;

/** A code as typed (any case, dashes and spaces anywhere, I/L read as 1, O as 0) in its stored form, or null when it cannot be one. */
export function normalizeStoreCode(input: string): string | null {
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (s.length !== STORE_CODE_LENGTH) return null;
  for (const ch of s) if (!STORE_CODE_ALPHABET.includes(ch)) return null;
  return s;
}

export const formatStoreCode = (normalized: string) => normalized.match(/.{1,5}/g)!.join('-');
