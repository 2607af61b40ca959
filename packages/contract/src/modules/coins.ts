import { z } from 'zod';
import { common, recordFields, resourceSpec, } from '../resources/spec.js';
import { minorUnitsInput, units } from '../lib/fields.js';
import { imageOrLegacyUrlSchema } from './uploads.js';

// ── Coins ──────────────────────────────────────────────────────────────────
export const coinRecord = z.object({
  _id: recordFields.id, symbol: z.string(), name: z.string(), network: z.string(), mintAddress: z.string().nullable(), decimals: z.number().int(),
  logoUrl: z.string(), depositEnabled: z.boolean(), withdrawEnabled: z.boolean(), minWithdrawal: units, withdrawalFee: units,
  minWithdrawalText: z.string(), withdrawalFeeText: z.string(),
  status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const coinUpdate = z
  .object({
    name: z.string().trim().min(2, 'At least 2 characters').max(60, 'At most 60 characters'),
    logoUrl: imageOrLegacyUrlSchema,
    depositEnabled: z.boolean(),
    withdrawEnabled: z.boolean(),
    minWithdrawal: minorUnitsInput('The minimum withdrawal', { zero: true }),
    withdrawalFee: minorUnitsInput('The withdrawal fee', { zero: true }),
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
    { key: 'mintAddress', label: 'Mint', type: 'code', hidden: true },
    { key: 'depositEnabled', label: 'Deposits', type: 'bool', falseIsAlert: true },
    { key: 'withdrawEnabled', label: 'Withdrawals', type: 'bool', falseIsAlert: true },
    // Amounts read in the coin's decimals ("0.5 USDC"); the minor units the form takes are hidden columns.
    { key: 'minWithdrawalText', label: 'Min. withdrawal', type: 'money' },
    { key: 'withdrawalFeeText', label: 'Withdrawal fee', type: 'money' },
    { key: 'minWithdrawal', label: 'Min. withdrawal (minor units)', type: 'code', hidden: true },
    { key: 'withdrawalFee', label: 'Fee (minor units)', type: 'code', hidden: true },
    common.statusColumn,
  ],
  filters: [common.statusFilter],
  search: 'symbol or name',
  defaultSort: 'symbol',
  deleteMode: 'none',
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'logoUrl', label: 'Logo', type: 'image' },
    { key: 'depositEnabled', label: 'Deposits enabled', type: 'switch' },
    { key: 'withdrawEnabled', label: 'Withdrawals enabled', type: 'switch' },
    { key: 'minWithdrawal', label: 'Minimum withdrawal', type: 'money', money: { decimals: 'decimals', symbol: 'symbol', zero: true } },
    { key: 'withdrawalFee', label: 'Withdrawal fee', type: 'money', money: { decimals: 'decimals', symbol: 'symbol', zero: true } },
    common.statusField,
  ],
  update: coinUpdate,
});
