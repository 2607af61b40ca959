import { z } from 'zod';
import { common, recordFields, resourceSpec, } from '../resources/spec.js';
import { minorUnitsInput, units } from '../lib/fields.js';
import { ACCOUNT_ACCESS, endpoint } from '../resources/endpoint.js';
import { imageOrLegacyUrlSchema } from './uploads.js';

// ── Coins ──────────────────────────────────────────────────────────────────
export const coinRecord = z.object({
  _id: recordFields.id, symbol: z.string(), name: z.string(), network: z.string(), mintAddress: z.string().nullable(), decimals: z.number().int(),
  /** Decimals a table shows of the coin's amounts (rounded; the exact value on hover): 0 to `decimals`. */
  displayDecimals: z.number().int(),
  logoUrl: z.string(), depositEnabled: z.boolean(), withdrawEnabled: z.boolean(), minWithdrawal: units, withdrawalFee: units,
  minWithdrawalText: z.string(), withdrawalFeeText: z.string(),
  /** A whitelisted withdrawal up to this is approved at once ('0': always reviewed). */
  autoApproveLimit: units, autoApproveLimitText: z.string(),
  /** What one user may request over any 24 hours; null: no limit. */
  dailyWithdrawalLimit: units.nullable(), dailyWithdrawalLimitText: z.string().nullable(),
  /** A deposit at or above this notifies the admins who may view deposits; null: none. */
  largeDepositThreshold: units.nullable(), largeDepositThresholdText: z.string().nullable(),
  /** A withdrawal of at least this needs two approvals by two admins; null: one is enough. */
  secondApprovalThreshold: units.nullable(), secondApprovalThresholdText: z.string().nullable(),
  /** A balance adjustment of at least this (either sign) waits for a second admin's approval; null: applied at once. */
  adjustmentApprovalThreshold: units.nullable(), adjustmentApprovalThresholdText: z.string().nullable(),
  status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const coinUpdate = z
  .object({
    name: z.string().trim().min(2, 'At least 2 characters').max(60, 'At most 60 characters'),
    /** At most the coin's decimals (the server checks against the coin). */
    displayDecimals: z.number({ error: 'A whole number' }).int('A whole number').min(0, 'At least 0').max(18, 'At most 18'),
    logoUrl: imageOrLegacyUrlSchema,
    depositEnabled: z.boolean(),
    withdrawEnabled: z.boolean(),
    minWithdrawal: minorUnitsInput('The minimum withdrawal', { zero: true }),
    withdrawalFee: minorUnitsInput('The withdrawal fee', { zero: true }),
    autoApproveLimit: minorUnitsInput('The auto-approve limit', { zero: true }),
    dailyWithdrawalLimit: minorUnitsInput('The daily withdrawal limit').nullable(),
    largeDepositThreshold: minorUnitsInput('The large-deposit threshold').nullable(),
    secondApprovalThreshold: minorUnitsInput('The second-approval threshold').nullable(),
    adjustmentApprovalThreshold: minorUnitsInput('The adjustment approval threshold').nullable(),
    status: z.enum(['active', 'inactive']),
  })
  .partial()
  .strict();

export const coinsResource = resourceSpec(coinRecord, {
  name: 'coins', label: 'Coin', plural: 'Coins', restriction: 'Coin List',
  pages: { list: '/coin-list', update: '/update-coin/{id}' },
  titleField: 'symbol',
  columns: [
    { key: 'logoUrl', label: 'Logo', type: 'image' },
    { key: 'symbol', label: 'Symbol', type: 'code', sortable: true },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'network', label: 'Network', type: 'text' },
    { key: 'decimals', label: 'Decimals', type: 'number' },
    { key: 'displayDecimals', label: 'Shown decimals', type: 'number', hidden: true },
    { key: 'mintAddress', label: 'Mint', type: 'code', hidden: true },
    { key: 'depositEnabled', label: 'Deposits', type: 'bool', falseIsAlert: true },
    { key: 'withdrawEnabled', label: 'Withdrawals', type: 'bool', falseIsAlert: true },
    // Amounts read in the coin's decimals ("0.5 USDC"); the minor units the form takes are hidden columns.
    { key: 'minWithdrawalText', label: 'Min. withdrawal', type: 'money' },
    { key: 'withdrawalFeeText', label: 'Withdrawal fee', type: 'money' },
    { key: 'minWithdrawal', label: 'Min. withdrawal (minor units)', type: 'code', hidden: true },
    { key: 'withdrawalFee', label: 'Fee (minor units)', type: 'code', hidden: true },
    { key: 'autoApproveLimitText', label: 'Auto-approve up to', type: 'money', hidden: true },
    { key: 'dailyWithdrawalLimitText', label: 'Daily limit per user', type: 'money', hidden: true },
    { key: 'largeDepositThresholdText', label: 'Large deposit from', type: 'money', hidden: true },
    { key: 'secondApprovalThresholdText', label: 'Two approvals from', type: 'money', hidden: true },
    { key: 'adjustmentApprovalThresholdText', label: 'Adjustments: two approvals from', type: 'money', hidden: true },
    common.statusColumn,
  ],
  filters: [common.statusFilter],
  search: 'symbol or name',
  defaultSort: 'symbol',
  deleteMode: 'none',
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    {
      key: 'displayDecimals', label: 'Decimals shown in tables', type: 'number', required: true,
      description: 'Tables round amounts to this many decimals (2: 4,372.50 USDC) and show the exact amount on hover; from 0 to the coin’s decimals',
    },
    { key: 'logoUrl', label: 'Logo', type: 'image' },
    { key: 'depositEnabled', label: 'Deposits enabled', type: 'switch' },
    { key: 'withdrawEnabled', label: 'Withdrawals enabled', type: 'switch' },
    { key: 'minWithdrawal', label: 'Minimum withdrawal', type: 'money', money: { decimals: 'decimals', symbol: 'symbol', zero: true } },
    { key: 'withdrawalFee', label: 'Withdrawal fee', type: 'money', money: { decimals: 'decimals', symbol: 'symbol', zero: true } },
    {
      key: 'autoApproveLimit', label: 'Auto-approve withdrawals up to', type: 'money', money: { decimals: 'decimals', symbol: 'symbol', zero: true },
      description: 'A withdrawal to a whitelisted address up to this amount is approved at once; 0: every withdrawal is reviewed',
    },
    {
      key: 'secondApprovalThreshold', label: 'Two approvals from', type: 'money', money: { decimals: 'decimals', symbol: 'symbol' },
      description: 'A withdrawal of at least this needs a second admin holding the approve right; empty: one approval. Needs two such admins',
    },
    {
      key: 'adjustmentApprovalThreshold', label: 'Balance adjustments: two approvals from', type: 'money', money: { decimals: 'decimals', symbol: 'symbol' },
      description: 'A balance adjustment of at least this (credit or debit) waits for a second admin holding Users › adjust-balance; empty: applied at once. Needs two such admins',
    },
    {
      key: 'dailyWithdrawalLimit', label: 'Daily withdrawal limit per user', type: 'money', money: { decimals: 'decimals', symbol: 'symbol' },
      description: 'What one user may request over any 24 hours (rejected and failed requests aside); empty: no limit',
    },
    {
      key: 'largeDepositThreshold', label: 'Large-deposit notification from', type: 'money', money: { decimals: 'decimals', symbol: 'symbol' },
      description: 'A deposit of at least this notifies the admins who may view deposits; empty: none',
    },
    common.statusField,
  ],
  update: coinUpdate,
});

/** How a coin's amounts read: public facts every admin's tables need, whatever their rights. */
export const coinUnitSchema = z.object({ symbol: z.string(), decimals: z.number().int(), displayDecimals: z.number().int() }).strict();
export type CoinUnit = z.infer<typeof coinUnitSchema>;

export const coinEndpoints = {
  // Every signed-in admin: a deposits list shows amounts to an admin who may not open the coin list.
  coinUnits: endpoint('GET /api/admin/coin-units', {
    access: ACCOUNT_ACCESS,
    summary: 'Every coin\'s symbol, decimals and the decimals tables show (amounts are rounded to those, the exact value on hover)',
    result: z.object({ items: z.array(coinUnitSchema) }),
  }),
};
