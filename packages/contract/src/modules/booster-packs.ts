import { z } from 'zod';
import { endpoint, PLATFORM_ACCESS } from '../resources/endpoint.js';
import { minorUnitsInput, units } from '../lib/fields.js';
import { imageUrlSchema } from './uploads.js';
import { ODDS_TOTAL_BPS, formatBps, oddsProblem, percentToBps } from '../lib/pack-draw.js';
import { singleSpec } from '../resources/single.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec, updateSchemaOf } from '../resources/spec.js';

// ── Booster packs (docs/cards-and-packs.md, "Booster packs") ─────────────────────────────────

/** Odds as the API takes and gives them: per tier id, a percentage with at most two decimals (stored as basis points). */
export const tierOddsEntry = z
  .object({
    tierId: z.string({ error: 'A tier id' }).regex(/^\d{1,18}$/, 'A tier id'),
    percent: z
      .union([z.string(), z.number()], { error: 'A percentage, e.g. 12.50' })
      .transform((v, ctx) => {
        const bps = percentToBps(v);
        if (bps === null) {
          ctx.addIssue({ code: 'custom', message: 'A percentage from 0 to 100 with at most two decimals' });
          return z.NEVER;
        }
        return formatBps(bps);
      }),
  })
  .strict();
export type TierOddsEntry = z.output<typeof tierOddsEntry>;

/** A full set of odds: each tier once, summing to exactly 100.00 %. */
export const tierOdds = z.array(tierOddsEntry, { error: 'A list of tiers with their percentage' }).max(50, 'At most 50 tiers').superRefine((odds, ctx) => {
  const problem = oddsProblem(odds.map((o) => ({ tierId: o.tierId, bps: percentToBps(o.percent) ?? -1 })));
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Odds entries as basis points. */
export const oddsToBps = (odds: readonly { tierId: string; percent: string }[]) => odds.map((o) => ({ tierId: o.tierId, bps: percentToBps(o.percent)! }));
export const bpsToOdds = (odds: readonly { tierId: string; bps: number }[]) => odds.map((o) => ({ tierId: o.tierId, percent: formatBps(o.bps) }));
export { ODDS_TOTAL_BPS };

/** Bounds of a pack's size. */
export const CARDS_PER_PACK = { min: 1, max: 20 } as const;
const cardsPerPack = z
  .number({ error: 'Cards per pack: a whole number' })
  .int('Cards per pack: a whole number')
  .min(CARDS_PER_PACK.min, `Cards per pack: at least ${CARDS_PER_PACK.min}`)
  .max(CARDS_PER_PACK.max, `Cards per pack: at most ${CARDS_PER_PACK.max}`);

/** Odds in a record: as the forms send them (names are in `oddsText`). */
const oddsRecord = z.array(z.object({ tierId: z.string(), percent: z.string() }).strict());

export const boosterPackSettingsRecord = z
  .object({
    _id: z.string(),
    cardsPerPack: z.number().int(),
    /** The default odds, from the most common tier to the rarest. */
    tierOdds: oddsRecord,
    oddsText: z.string(),
    guaranteedTierId: z.string().nullable(),
    openingEnabled: z.boolean(),
    updatedAt: z.string(),
  })
  .strict();
export type BoosterPackSettingsRecord = z.infer<typeof boosterPackSettingsRecord>;

export const updateBoosterPackSettingsBody = z
  .object({
    cardsPerPack,
    tierOdds,
    guaranteedTierId: z.string().regex(/^\d{1,18}$/, 'A tier id').nullable(),
    openingEnabled: z.boolean({ error: 'On or off' }),
  })
  .partial()
  .strict();

/** `/update-booster-pack`: the defaults every pack uses unless it overrides them. */
export const boosterPackSettingsResource = singleSpec(boosterPackSettingsRecord, {
  name: 'booster-pack-settings',
  label: 'Booster pack settings',
  description: 'Defaults of every booster pack: its size, the tier odds, the guaranteed tier, and whether packs can be opened at all.',
  restriction: 'Booster Packs',
  page: '/update-booster-pack',
  update: updateBoosterPackSettingsBody,
  sections: [
    {
      title: 'Packs', columns: 2,
      fields: [
        { key: 'cardsPerPack', label: 'Cards per pack', type: 'number', required: true, description: `${CARDS_PER_PACK.min}–${CARDS_PER_PACK.max}; a pack may set its own` },
        { key: 'openingEnabled', label: 'Opening enabled', type: 'switch', description: 'Off: the platform API refuses every opening (purchases still work)' },
      ],
    },
    {
      title: 'Tier odds', description: 'Percentages with two decimals, summing to exactly 100.00 %. Stored as basis points.', columns: 1,
      fields: [
        { key: 'tierOdds', label: 'Odds per tier', type: 'odds', required: true, optionsFrom: { resource: 'card-tiers', labelKey: 'name' } },
        {
          key: 'guaranteedTierId', label: 'Guaranteed minimum tier', type: 'select', optionsFrom: { resource: 'card-tiers', labelKey: 'name' },
          description: 'When no card of a pack reached this tier, its last card’s tier is drawn again among this tier and the rarer ones',
        },
      ],
    },
  ],
});

/** draft → active ⇄ paused; active → sold out when the last one is sold (or reserved for a store). */
export const boosterPackStates = defineStates({
  noun: 'Booster pack',
  states: [
    { value: 'draft', label: 'Draft', color: 'gray' },
    { value: 'active', label: 'On sale', color: 'green' },
    { value: 'paused', label: 'Paused', color: 'yellow' },
    { value: 'sold_out', label: 'Sold out', color: 'red' },
  ],
  initial: 'draft',
  transitions: {
    activate: { from: ['draft', 'paused'], to: 'active' },
    pause: { from: ['active'], to: 'paused' },
    sell_out: { from: ['active'], to: 'sold_out' },
  },
});
export type BoosterPackStatus = (typeof boosterPackStates.states)[number]['value'];

const price = minorUnitsInput('The price');
const supply = z.number({ error: 'Supply: a whole number' }).int('Supply: a whole number').min(1, 'Supply: at least 1').max(10_000_000, 'Supply: at most 10,000,000');

const boosterPackFields = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters'),
    imageUrl: imageUrlSchema.default(''),
    coinId: z.string({ error: 'Choose the coin it is sold in' }).regex(/^\d{1,18}$/, 'Choose the coin it is sold in'),
    price,
    /** Null: the settings' cards per pack. */
    cardsPerPack: cardsPerPack.nullable().default(null),
    /** Null: the settings' odds. */
    oddsOverride: tierOdds.nullable().default(null),
    supply,
  })
  .strict();
export const boosterPackCreate = boosterPackFields;
export const boosterPackUpdate = updateSchemaOf(boosterPackFields).strict();

export const boosterPackRecord = z
  .object({
    _id: recordFields.id, name: z.string(), imageUrl: z.string(), coinId: recordFields.id, coin: z.string(), decimals: z.number().int(),
    price: units, priceText: z.string(), cardsPerPack: z.number().int().nullable(), cards: z.number().int(),
    oddsOverride: oddsRecord.nullable(), oddsText: z.string(),
    supply: z.number().int(), sold: z.number().int(),
    /** Allocated to offline stores and not redeemed yet: kept out of online sales. */
    reserved: z.number().int(),
    available: z.number().int(), opened: z.number().int(),
    status: z.enum(stateValues(boosterPackStates)), createdAt: recordFields.at, updatedAt: recordFields.at,
  })
  .strict();
export type BoosterPackRecord = z.infer<typeof boosterPackRecord>;

const EDITABLE_WHILE_OFF_SALE = ['draft', 'paused'] as const;

export const boosterPacksResource = resourceSpec(boosterPackRecord, {
  name: 'booster-packs', label: 'Booster pack', plural: 'Booster packs', restriction: 'Boostercards',
  pages: { list: '/booster-pack-cards', add: '/add-booster-pack-card', update: '/booster-pack-cards/{id}' },
  titleField: 'name',
  columns: [
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'priceText', label: 'Price', type: 'money' },
    { key: 'coin', label: 'Coin', type: 'code', hidden: true },
    { key: 'cards', label: 'Cards', type: 'number' },
    { key: 'oddsText', label: 'Odds', type: 'text', hidden: true },
    { key: 'supply', label: 'Supply', type: 'number', sortable: true },
    { key: 'sold', label: 'Sold', type: 'number', sortable: true },
    { key: 'reserved', label: 'In stores', type: 'number' },
    { key: 'available', label: 'Available', type: 'number' },
    { key: 'opened', label: 'Opened', type: 'number' },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
  ],
  figures: ['priceText', 'cards', 'oddsText', 'supply', 'sold', 'reserved', 'available', 'opened'],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(boosterPackStates) },
    { key: 'coinId', label: 'Coin', type: 'equals', reference: { resource: 'coins', labelKey: 'symbol' } },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  search: 'name',
  defaultSort: '-createdAt',
  deleteMode: 'delete',
  deletableIn: ['draft'],
  states: boosterPackStates,
  actions: [
    { name: 'activate', label: 'Put on sale', right: 'edit', confirm: 'The platform can sell it from now on.' },
    { name: 'pause', label: 'Pause sales', right: 'edit', danger: true, confirm: 'The platform can no longer sell it; packs already bought can still be opened.' },
  ],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'coinId', label: 'Coin', type: 'reference', required: true, reference: { resource: 'coins', labelKey: 'symbol', filter: { status: 'active' }, extra: ['decimals', 'symbol'] }, editableIn: EDITABLE_WHILE_OFF_SALE },
    { key: 'price', label: 'Price', type: 'money', required: true, money: { field: 'coinId', decimals: 'decimals', symbol: 'symbol' }, editableIn: EDITABLE_WHILE_OFF_SALE },
    { key: 'supply', label: 'Supply', type: 'number', required: true, description: 'How many can ever be sold (online and in stores); never below what is sold and reserved' },
    { key: 'cardsPerPack', label: 'Cards per pack', type: 'number', editableIn: EDITABLE_WHILE_OFF_SALE, description: 'Empty: the settings’ value' },
    {
      key: 'oddsOverride', label: 'Tier odds (override)', type: 'odds', optionsFrom: { resource: 'card-tiers', labelKey: 'name' }, editableIn: EDITABLE_WHILE_OFF_SALE,
      description: 'Empty: the settings’ odds. Otherwise percentages with two decimals summing to 100.00 %',
    },
  ],
  children: [
    { resource: 'pack-purchases', label: 'Purchases', filter: 'packId', hideColumns: ['pack'] },
    { resource: 'pack-openings', label: 'Openings', filter: 'packId', hideColumns: ['pack'] },
  ],
  create: boosterPackCreate,
  update: boosterPackUpdate,
});

// ── Purchases and openings (the pack's history) ─────────────────────────────

export const PURCHASE_SOURCES = [
  { value: 'platform', label: 'Bought on the platform' },
  { value: 'store_code', label: 'Store code' },
] as const;

export const packPurchaseRecord = z
  .object({
    _id: recordFields.id, packId: recordFields.id, pack: z.string(), userId: recordFields.id, username: z.string(),
    source: z.enum(['platform', 'store_code']), store: z.string().nullable(), price: units, priceText: z.string(),
    opened: z.boolean(), openingId: z.string().nullable(), createdAt: recordFields.at,
  })
  .strict();

export const packPurchasesResource = resourceSpec(packPurchaseRecord, {
  name: 'pack-purchases', label: 'Pack purchase', plural: 'Pack purchases', restriction: 'Boostercards',
  pages: { list: '/pack-purchases' },
  titleField: '_id', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Bought', type: 'date', sortable: true },
    { key: 'pack', label: 'Pack', type: 'text' },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'source', label: 'How', type: 'code' },
    { key: 'store', label: 'Store', type: 'text' },
    { key: 'priceText', label: 'Paid', type: 'money' },
    { key: 'opened', label: 'Opened', type: 'bool' },
    { key: 'openingId', label: 'Opening', type: 'code', hidden: true },
  ],
  filters: [
    { key: 'packId', label: 'Pack', type: 'equals', reference: { resource: 'booster-packs', labelKey: 'name' } },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'source', label: 'How', type: 'oneOf', options: PURCHASE_SOURCES },
    { key: 'opened', label: 'Opened', type: 'oneOf', options: [{ value: 'true', label: 'Opened' }, { value: 'false', label: 'Not opened' }] },
    { key: 'createdAt', label: 'Bought', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
});

export const packOpeningRecord = z
  .object({
    _id: recordFields.id, packId: recordFields.id, pack: z.string(), purchaseId: recordFields.id, userId: recordFields.id, username: z.string(),
    /** The cards drawn, `Name (Tier)`, in draw order. */
    cards: z.array(z.string()),
    serverSeedHash: z.string(),
    /** Null until the user rotates their seed. */
    serverSeed: z.string().nullable(),
    revealed: z.boolean(), clientSeed: z.string(), nonce: z.number().int(), oddsText: z.string(), createdAt: recordFields.at,
  })
  .strict();

export const packOpeningsResource = resourceSpec(packOpeningRecord, {
  name: 'pack-openings', label: 'Pack opening', plural: 'Pack openings', restriction: 'Boostercards',
  pages: { list: '/pack-openings' },
  titleField: '_id', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Opened', type: 'date', sortable: true },
    { key: 'pack', label: 'Pack', type: 'text' },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'cards', label: 'Cards', type: 'tags' },
    { key: 'revealed', label: 'Seed revealed', type: 'bool' },
    { key: 'nonce', label: 'Nonce', type: 'number' },
    { key: 'clientSeed', label: 'Client seed', type: 'code', hidden: true },
    { key: 'serverSeedHash', label: 'Server seed hash (SHA-256)', type: 'code', hidden: true },
    { key: 'serverSeed', label: 'Server seed', type: 'code', hidden: true },
    { key: 'oddsText', label: 'Odds', type: 'text', hidden: true },
  ],
  filters: [
    { key: 'packId', label: 'Pack', type: 'equals', reference: { resource: 'booster-packs', labelKey: 'name' } },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'revealed', label: 'Seed revealed', type: 'oneOf', options: [{ value: 'true', label: 'Revealed' }, { value: 'false', label: 'Not yet' }] },
    { key: 'createdAt', label: 'Opened', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  actions: [
    {
      name: 'verify', label: 'Verify', right: 'view',
      output: {
        title: 'Verification',
        note: 'Recomputed from the revealed server seed with the documented draw (docs/cards-and-packs.md, “Provably fair openings”).',
        columns: [
          { key: 'card', label: '#' }, { key: 'recorded', label: 'Recorded' }, { key: 'recomputed', label: 'Recomputed' },
          { key: 'tierRoll', label: 'Tier roll' }, { key: 'characterRoll', label: 'Character roll' }, { key: 'match', label: 'Match' },
        ],
      },
    },
  ],
});

// ── Platform API: buy, open, seeds (docs/cards-and-packs.md, "Booster packs › Platform API") ──

const platformDigits = z.string({ error: 'An id, as a string of digits' }).regex(/^\d{1,18}$/, 'An id, as a string of digits');
/** A client seed: 1–64 printable ASCII characters without spaces (part of the HMAC message). */
export const clientSeedSchema = z.string({ error: 'A client seed' }).regex(/^[\x21-\x7E]{1,64}$/, 'A client seed: 1–64 printable characters, no spaces');

export const platformPackParams = z.object({ id: platformDigits }).strict();
export const platformPurchaseBody = z.object({ userId: platformDigits }).strict();
export const platformOpeningBody = z.object({ userId: platformDigits, purchaseId: platformDigits, clientSeed: clientSeedSchema.optional() }).strict();
export const platformRotateSeedBody = z.object({ clientSeed: clientSeedSchema.optional() }).strict();
export const platformRedeemBody = z
  .object({ userId: platformDigits, code: z.string({ error: 'The code' }).trim().min(4, 'The code as printed').max(40, 'The code as printed') })
  .strict();

export const platformPurchaseRecord = z
  .object({
    _id: z.string(), packId: z.string(), pack: z.string(), userId: z.string(), source: z.enum(['platform', 'store_code']),
    coin: z.string(), price: z.string(), opened: z.boolean(), createdAt: z.string(),
  })
  .strict();
export type PlatformPurchaseRecord = z.infer<typeof platformPurchaseRecord>;

export const platformSeedCommitment = z
  .object({ seedId: z.string(), userId: z.string(), serverSeedHash: z.string(), clientSeed: z.string(), nonce: z.number().int() })
  .strict();
export type PlatformSeedCommitment = z.infer<typeof platformSeedCommitment>;

export const platformRotatedSeed = z
  .object({
    /** The seed just retired, with its server seed revealed: every opening made with it can now be recomputed. */
    revealed: z.object({ seedId: z.string(), serverSeed: z.string(), serverSeedHash: z.string(), clientSeed: z.string(), openings: z.number().int() }).strict().nullable(),
    current: platformSeedCommitment,
  })
  .strict();

export const platformOpeningRecord = z
  .object({
    _id: z.string(), purchaseId: z.string(), packId: z.string(), userId: z.string(), seedId: z.string(), serverSeedHash: z.string(), clientSeed: z.string(),
    nonce: z.number().int(),
    cards: z.array(z.object({ index: z.number().int(), characterId: z.string(), character: z.string(), tierId: z.string(), tier: z.string(), userCardId: z.string().nullable() }).strict()),
    createdAt: z.string(),
  })
  .strict();
export type PlatformOpeningRecord = z.infer<typeof platformOpeningRecord>;

export const packPlatformEndpoints = {
  purchasePack: endpoint('POST /api/platform/v1/packs/:id/purchase', {
    access: PLATFORM_ACCESS, summary: 'A user buys one pack: its price is debited from their available balance into pack sales', params: platformPackParams, body: platformPurchaseBody,
    result: platformPurchaseRecord,
  }),
  openPack: endpoint('POST /api/platform/v1/packs/:id/openings', {
    access: PLATFORM_ACCESS, summary: 'Opens a purchased pack: its cards drawn from the user’s committed seed (provably fair) and minted to the user', params: platformPackParams,
    body: platformOpeningBody, result: platformOpeningRecord,
  }),
  seed: endpoint('GET /api/platform/v1/users/:id/seed', {
    access: PLATFORM_ACCESS, summary: 'The user’s seed commitment (SHA-256 of the server seed, client seed, next nonce); created on first call', params: platformPackParams,
    result: platformSeedCommitment,
  }),
  rotateSeed: endpoint('POST /api/platform/v1/users/:id/seed/rotate', {
    access: PLATFORM_ACCESS, summary: 'Reveals the user’s server seed and commits a new one', params: platformPackParams, body: platformRotateSeedBody, result: platformRotatedSeed,
  }),
  redeemStoreCode: endpoint('POST /api/platform/v1/store-codes/redeem', {
    access: PLATFORM_ACCESS, summary: 'Redeems an offline store’s code once: the user gets the pack', body: platformRedeemBody, result: platformPurchaseRecord,
  }),
};
