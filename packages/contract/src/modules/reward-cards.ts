import { z } from 'zod';
import { units } from '../lib/fields.js';
import { imageUrlSchema } from './uploads.js';
import { clearHiddenFields, common, recordFields, resourceSpec, statusSchema, updateSchemaOf, type FormFieldSpec } from '../resources/spec.js';

// ── Reward cards (docs/cards-and-packs.md, "Reward cards") ───────────────────────────────────

export const REWARD_CONDITIONS = [
  { value: 'trading_volume', label: 'Trading volume over a period (shares traded)' },
  { value: 'packs_opened', label: 'Packs opened' },
  { value: 'total_deposits', label: 'Total confirmed deposits in a coin' },
] as const;
export type RewardCondition = (typeof REWARD_CONDITIONS)[number]['value'];

export const REWARD_KINDS = [
  { value: 'coin', label: 'An amount of a coin' },
  { value: 'card', label: 'A character card' },
] as const;
export type RewardKind = (typeof REWARD_KINDS)[number]['value'];

const idString = (msg: string) => z.string({ error: msg }).regex(/^\d{1,18}$/, msg);
const digits = (msg: string) => z.string({ error: msg }).trim().regex(/^\d{1,18}$/, msg);

/**
 * A reward card's parameters, typed per condition and reward:
 * - `trading_volume`: `threshold` shares traded (as maker or taker) within the last `periodDays` days;
 * - `packs_opened`: `threshold` packs opened, ever;
 * - `total_deposits`: `threshold` minor units of `conditionCoinId` deposited and confirmed, ever.
 * The reward is `rewardAmount` minor units of `rewardCoinId`, or one card of `rewardCharacterId`.
 */
const rewardCardFields = z
  .object({
    name: z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters'),
    imageUrl: imageUrlSchema.default(''),
    description: z.string().trim().max(2000, 'At most 2000 characters').default(''),
    condition: z.enum(['trading_volume', 'packs_opened', 'total_deposits'], { error: 'Choose the condition' }),
    threshold: digits('The threshold: a whole number').refine((v) => /^\d{1,18}$/.test(v) && BigInt(v) > 0n, 'The threshold must be above zero'),
    periodDays: z.number({ error: 'Days: a whole number' }).int('Days: a whole number').min(1, 'At least 1 day').max(3650, 'At most 3650 days').nullable().default(null),
    conditionCoinId: idString('Choose the coin').nullable().default(null),
    rewardKind: z.enum(['coin', 'card'], { error: 'A coin amount or a card' }),
    rewardCoinId: idString('Choose the coin').nullable().default(null),
    rewardAmount: digits('The amount in minor units').nullable().default(null),
    rewardCharacterId: idString('Choose the character').nullable().default(null),
    supply: z.number({ error: 'Supply: a whole number' }).int('Supply: a whole number').min(1, 'Supply: at least 1').max(10_000_000, 'Supply: at most 10,000,000'),
    status: statusSchema.default('active'),
  })
  .strict();

/**
 * The form: the condition's and the reward's parameters are shown (and required) only for the
 * condition and reward they belong to (`visibleWhen`); the others are stored as null.
 */
const rewardCardForm: FormFieldSpec[] = [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'description', label: 'Description', type: 'textarea' },
    { key: 'condition', label: 'Condition', type: 'select', options: REWARD_CONDITIONS, required: true },
    {
      key: 'threshold', label: 'Threshold', type: 'money', required: true, description: 'Shares traded, packs opened, or the amount deposited',
      money: { field: 'conditionCoinId', decimals: 'decimals', symbol: 'symbol', when: { field: 'condition', is: ['total_deposits'] } },
    },
    { key: 'periodDays', label: 'Period (days)', type: 'number', required: true, description: 'Counted over the last this many days', visibleWhen: { field: 'condition', is: ['trading_volume'] } },
    { key: 'conditionCoinId', label: 'Deposit coin', type: 'reference', required: true, reference: { resource: 'coins', labelKey: 'symbol', extra: ['decimals', 'symbol'] }, description: 'Deposits are counted in this coin', visibleWhen: { field: 'condition', is: ['total_deposits'] } },
    { key: 'rewardKind', label: 'Reward', type: 'select', options: REWARD_KINDS, required: true },
    { key: 'rewardCoinId', label: 'Reward coin', type: 'reference', required: true, reference: { resource: 'coins', labelKey: 'symbol', extra: ['decimals', 'symbol'] }, visibleWhen: { field: 'rewardKind', is: ['coin'] } },
    { key: 'rewardAmount', label: 'Reward amount', type: 'money', required: true, money: { field: 'rewardCoinId', decimals: 'decimals', symbol: 'symbol' }, visibleWhen: { field: 'rewardKind', is: ['coin'] } },
    { key: 'rewardCharacterId', label: 'Reward character', type: 'reference', required: true, reference: { resource: 'card-characters', labelKey: 'name', filter: { status: 'active' } }, visibleWhen: { field: 'rewardKind', is: ['card'] } },
    { key: 'supply', label: 'Supply', type: 'number', required: true, description: 'How many users can get it; never below how many already did' },
    common.statusField,
];

type Fields = Partial<z.infer<typeof rewardCardFields>>;
/** What is missing from a reward card's parameters taken together, on the field to fill (the server checks the merged record too). */
export function rewardCardProblem(values: Fields): { path: keyof Fields; message: string } | null {
  // What does not apply to the condition and reward chosen is not asked for (and stored as null).
  const v = clearHiddenFields(rewardCardForm, values);
  if (v.condition === 'trading_volume' && !v.periodDays) return { path: 'periodDays', message: 'Trading volume is counted over a period: give it in days' };
  if (v.condition === 'total_deposits' && !v.conditionCoinId) return { path: 'conditionCoinId', message: 'Deposits are counted in one coin: choose it' };
  if (v.rewardKind === 'coin' && !v.rewardCoinId) return { path: 'rewardCoinId', message: 'A coin reward names its coin' };
  if (v.rewardKind === 'coin' && (!v.rewardAmount || !/^\d{1,18}$/.test(String(v.rewardAmount)) || BigInt(v.rewardAmount) <= 0n)) return { path: 'rewardAmount', message: 'A coin reward gives an amount above zero' };
  if (v.rewardKind === 'card' && !v.rewardCharacterId) return { path: 'rewardCharacterId', message: 'A card reward names its character' };
  return null;
}

export const rewardCardCreate = rewardCardFields.superRefine((v, ctx) => {
  const p = rewardCardProblem(v);
  if (p) ctx.addIssue({ code: 'custom', path: [p.path], message: p.message });
});
export const rewardCardUpdate = updateSchemaOf(rewardCardFields).strict();

export const rewardCardRecord = z
  .object({
    _id: recordFields.id, name: z.string(), imageUrl: z.string(), description: z.string(),
    condition: z.enum(['trading_volume', 'packs_opened', 'total_deposits']), threshold: z.string(), periodDays: z.number().int().nullable(),
    conditionCoinId: z.string().nullable(), conditionText: z.string(),
    rewardKind: z.enum(['coin', 'card']), rewardCoinId: z.string().nullable(), rewardAmount: z.string().nullable(), rewardCharacterId: z.string().nullable(),
    rewardText: z.string(), supply: z.number().int(), granted: z.number().int(), status: recordFields.status,
    createdAt: recordFields.at, updatedAt: recordFields.at,
  })
  .strict();

export const rewardCardsResource = resourceSpec(rewardCardRecord, {
  name: 'reward-cards', label: 'Reward card', plural: 'Reward cards', restriction: 'Rewardcards',
  pages: { list: '/reward-cards', add: '/add-reward-card', update: '/update-reward-card/{id}' },
  titleField: 'name',
  columns: [
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'conditionText', label: 'Condition', type: 'text' },
    { key: 'rewardText', label: 'Reward', type: 'text' },
    { key: 'supply', label: 'Supply', type: 'number', sortable: true },
    { key: 'granted', label: 'Granted', type: 'number', sortable: true },
    { key: 'description', label: 'Description', type: 'longtext', hidden: true },
    common.statusColumn,
    common.createdColumn,
  ],
  figures: ['conditionText', 'rewardText', 'supply', 'granted'],
  filters: [
    common.statusFilter,
    { key: 'condition', label: 'Condition', type: 'oneOf', options: REWARD_CONDITIONS },
    { key: 'rewardKind', label: 'Reward', type: 'oneOf', options: REWARD_KINDS },
    common.createdFilter,
  ],
  search: 'name',
  defaultSort: 'name',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: rewardCardForm,
  children: [{ resource: 'reward-grants', label: 'Granted to', filter: 'rewardCardId' }],
  create: rewardCardCreate,
  update: rewardCardUpdate,
});

export const rewardGrantRecord = z
  .object({
    _id: recordFields.id, rewardCardId: recordFields.id, rewardCard: z.string(), userId: recordFields.id, username: z.string(),
    rewardText: z.string(), amount: units.nullable(), userCardId: z.string().nullable(), createdAt: recordFields.at,
  })
  .strict();

export const rewardGrantsResource = resourceSpec(rewardGrantRecord, {
  name: 'reward-grants', label: 'Reward granted', plural: 'Rewards granted', restriction: 'Rewardcards',
  pages: { list: '/reward-grants' },
  titleField: 'rewardCard', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Granted', type: 'date', sortable: true },
    { key: 'rewardCard', label: 'Reward card', type: 'text' },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'rewardText', label: 'Reward', type: 'text' },
  ],
  filters: [
    { key: 'rewardCardId', label: 'Reward card', type: 'equals', reference: { resource: 'reward-cards', labelKey: 'name' } },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'createdAt', label: 'Granted', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
