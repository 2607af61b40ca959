import { z } from 'zod';
import { common, recordFields, resourceSpec } from './spec.js';

/**
 * Users and money. Amounts are integer minor units of their coin (or fiat currency), sent as
 * strings of digits; each record also carries the amount formatted with its coin's decimals
 * (`amountText`), which is what lists show. States move only by the declared actions.
 */
const units = z.string().regex(/^-?\d{1,30}$/);
const reasonInput = z.object({ reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason (at least 3 characters)').max(500, 'At most 500 characters') }).strict();
const reasonField = { key: 'reason', label: 'Reason', type: 'textarea', required: true } as const;

// ── Users ──────────────────────────────────────────────────────────────────
export const userBalanceSchema = z.object({ coin: z.string(), decimals: z.number().int(), available: units, held: units }).strict();

export const userRecord = z.object({
  _id: recordFields.id, username: z.string(), email: z.string(), walletAddress: z.string().nullable(), status: z.enum(['active', 'blocked']),
  blockedReason: z.string().nullable(), emailVerified: z.boolean(), country: z.string().nullable(), signupIp: z.string(),
  balances: z.array(userBalanceSchema), createdAt: recordFields.at, lastLoginAt: recordFields.atOrNull,
}).strict();
export type UserRecord = z.infer<typeof userRecord>;

export const adjustBalanceInput = z
  .object({
    coin: z.string({ error: 'Choose a coin' }).trim().min(1, 'Choose a coin').max(10).toUpperCase(),
    amount: z.string({ error: 'An amount in minor units' }).trim().regex(/^-?\d{1,19}$/, 'A whole number of minor units, negative to debit').refine((v) => !/^-?\d{1,19}$/.test(v) || BigInt(v) !== 0n, 'Not zero'),
    reason: reasonInput.shape.reason,
  })
  .strict();

export const usersResource = resourceSpec(userRecord, {
  name: 'users', label: 'User', plural: 'Users', restriction: 'Users',
  pages: { list: '/user-list', update: '/user-history/{userid}' },
  titleField: 'username', readOnly: true, keyset: true,
  columns: [
    { key: 'username', label: 'Username', type: 'text', sortable: true },
    { key: 'email', label: 'Email', type: 'text', sortable: true },
    { key: 'walletAddress', label: 'Wallet', type: 'code', hidden: true },
    { key: 'status', label: 'Status', type: 'status', sortable: true },
    { key: 'country', label: 'Country', type: 'code' },
    { key: 'signupIp', label: 'Signup IP', type: 'code', hidden: true },
    { key: 'balances', label: 'Balances', type: 'balances', hidden: true },
    { key: 'createdAt', label: 'Signed up', type: 'date', sortable: true },
    { key: 'lastLoginAt', label: 'Last login', type: 'date', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: [{ value: 'active', label: 'Active' }, { value: 'blocked', label: 'Blocked' }] },
    { key: 'country', label: 'Country', type: 'equals' },
    { key: 'email', label: 'Email', type: 'equals' },
    { key: 'walletAddress', label: 'Wallet', type: 'equals' },
    { key: 'createdAt', label: 'Signed up', type: 'dateRange' },
  ],
  search: 'username or email',
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: { states: [{ value: 'active', label: 'Active', color: 'green' }, { value: 'blocked', label: 'Blocked', color: 'red' }] },
  actions: [
    { name: 'block', label: 'Block', right: 'edit', from: ['active'], to: 'blocked', input: reasonInput, fields: [reasonField], danger: true, confirm: 'The user can no longer request withdrawals.' },
    { name: 'unblock', label: 'Unblock', right: 'edit', from: ['blocked'], to: 'active', confirm: 'The user gets full access again.' },
    {
      name: 'adjust-balance', label: 'Adjust balance', right: { named: 'adjust-balance' }, input: adjustBalanceInput,
      fields: [
        { key: 'coin', label: 'Coin symbol', type: 'text', required: true, placeholder: 'USDC' },
        { key: 'amount', label: 'Amount (minor units, negative to debit)', type: 'text', required: true },
        reasonField,
      ],
      confirm: 'A manual ledger correction, recorded with your name and the reason.',
    },
  ],
  children: [
    { resource: 'deposits', label: 'Deposits', filter: 'userId' },
    { resource: 'withdrawals', label: 'Withdrawals', filter: 'userId' },
    { resource: 'fiat-payments', label: 'Payments', filter: 'userId' },
  ],
});

// ── Coins ──────────────────────────────────────────────────────────────────
export const coinRecord = z.object({
  _id: recordFields.id, symbol: z.string(), name: z.string(), network: z.string(), mintAddress: z.string().nullable(), decimals: z.number().int(),
  logoUrl: z.string(), depositEnabled: z.boolean(), withdrawEnabled: z.boolean(), minWithdrawal: units, withdrawalFee: units,
  status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

const minorUnits = z.string().trim().regex(/^\d{1,19}$/, 'A whole number of minor units');
export const coinUpdate = z
  .object({
    name: z.string().trim().min(2, 'At least 2 characters').max(60, 'At most 60 characters'),
    logoUrl: z.string().trim().max(500).refine((v) => v === '' || /^https?:\/\/\S+$/.test(v) || /^\/(?!\/)\S*$/.test(v), 'A full http(s) URL or a path'),
    depositEnabled: z.boolean(),
    withdrawEnabled: z.boolean(),
    minWithdrawal: minorUnits,
    withdrawalFee: minorUnits,
    status: z.enum(['active', 'inactive']),
  })
  .partial()
  .strict();

export const coinsResource = resourceSpec(coinRecord, {
  name: 'coins', label: 'Coin', plural: 'Coins', restriction: 'Coin List',
  pages: { list: '/coin-list', update: '/update-coin/{id}' },
  titleField: 'symbol',
  columns: [
    { key: 'symbol', label: 'Symbol', type: 'code', sortable: true },
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'network', label: 'Network', type: 'text' },
    { key: 'decimals', label: 'Decimals', type: 'number' },
    { key: 'mintAddress', label: 'Mint', type: 'code', hidden: true },
    { key: 'depositEnabled', label: 'Deposits', type: 'bool' },
    { key: 'withdrawEnabled', label: 'Withdrawals', type: 'bool' },
    { key: 'minWithdrawal', label: 'Min. withdrawal (minor units)', type: 'code' },
    { key: 'withdrawalFee', label: 'Fee (minor units)', type: 'code' },
    common.statusColumn,
  ],
  filters: [common.statusFilter],
  search: 'symbol or name',
  defaultSort: 'symbol',
  deleteMode: 'none',
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'logoUrl', label: 'Logo URL', type: 'text' },
    { key: 'depositEnabled', label: 'Deposits enabled', type: 'switch' },
    { key: 'withdrawEnabled', label: 'Withdrawals enabled', type: 'switch' },
    { key: 'minWithdrawal', label: 'Minimum withdrawal (minor units)', type: 'text' },
    { key: 'withdrawalFee', label: 'Withdrawal fee (minor units)', type: 'text' },
    common.statusField,
  ],
  update: coinUpdate,
});

// ── Deposits ───────────────────────────────────────────────────────────────
export const depositRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), coin: z.string(), decimals: z.number().int(), amount: units, amountText: z.string(),
  txSignature: z.string(), explorerUrl: z.string(), fromAddress: z.string().nullable(), status: z.enum(['pending', 'confirmed', 'failed']),
  failedReason: z.string().nullable(), confirmedAt: recordFields.atOrNull, createdAt: recordFields.at,
}).strict();

export const depositsResource = resourceSpec(depositRecord, {
  name: 'deposits', label: 'Deposit', plural: 'Deposits', restriction: 'Deposit', pages: { list: '/deposit' },
  titleField: 'txSignature', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Seen', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'amountText', label: 'Amount', type: 'text' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'txSignature', label: 'Transaction', type: 'code' },
    { key: 'explorerUrl', label: 'Explorer', type: 'text', hidden: true },
    { key: 'fromAddress', label: 'From', type: 'code', hidden: true },
    { key: 'failedReason', label: 'Reason', type: 'text', hidden: true },
    { key: 'confirmedAt', label: 'Confirmed', type: 'date', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: [{ value: 'pending', label: 'Pending' }, { value: 'confirmed', label: 'Confirmed' }, { value: 'failed', label: 'Failed' }] },
    { key: 'coin', label: 'Coin', type: 'equals' },
    { key: 'userId', label: 'User id', type: 'equals' },
    { key: 'txSignature', label: 'Transaction', type: 'equals' },
    { key: 'createdAt', label: 'Seen', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: { states: [{ value: 'pending', label: 'Pending', color: 'yellow' }, { value: 'confirmed', label: 'Confirmed', color: 'green' }, { value: 'failed', label: 'Failed', color: 'red' }] },
  actions: [
    { name: 'confirm', label: 'Confirm', right: 'edit', from: ['pending'], to: 'confirmed', confirm: "Credits the user's balance once." },
    { name: 'fail', label: 'Mark failed', right: 'edit', from: ['pending'], to: 'failed', input: reasonInput, fields: [reasonField], danger: true },
  ],
});

// ── Withdrawals ────────────────────────────────────────────────────────────
export const withdrawalRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), coin: z.string(), decimals: z.number().int(), amount: units, fee: units,
  amountText: z.string(), feeText: z.string(), toAddress: z.string(), status: z.enum(['requested', 'approved', 'completed', 'rejected', 'failed']),
  autoApproved: z.boolean(), reviewedByEmail: z.string().nullable(), reviewedAt: recordFields.atOrNull, reason: z.string().nullable(),
  txSignature: z.string().nullable(), explorerUrl: z.string().nullable(), createdAt: recordFields.at,
}).strict();

export const withdrawalsResource = resourceSpec(withdrawalRecord, {
  name: 'withdrawals', label: 'Withdrawal', plural: 'Withdrawals', restriction: 'Withdraw', pages: { list: '/withdraw' },
  titleField: 'amountText', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Requested', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'amountText', label: 'Amount', type: 'text' },
    { key: 'feeText', label: 'Fee', type: 'text' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'toAddress', label: 'To', type: 'code' },
    { key: 'autoApproved', label: 'Auto-approved', type: 'bool', hidden: true },
    { key: 'reviewedByEmail', label: 'Reviewed by', type: 'text', hidden: true },
    { key: 'reason', label: 'Reason', type: 'text', hidden: true },
    { key: 'txSignature', label: 'Transaction', type: 'code', hidden: true },
    { key: 'explorerUrl', label: 'Explorer', type: 'text', hidden: true },
  ],
  filters: [
    {
      key: 'status', label: 'Status', type: 'oneOf',
      options: [{ value: 'requested', label: 'Awaiting review' }, { value: 'approved', label: 'Approved' }, { value: 'completed', label: 'Completed' }, { value: 'rejected', label: 'Rejected' }, { value: 'failed', label: 'Failed' }],
    },
    { key: 'coin', label: 'Coin', type: 'equals' },
    { key: 'userId', label: 'User id', type: 'equals' },
    { key: 'toAddress', label: 'To address', type: 'equals' },
    { key: 'createdAt', label: 'Requested', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: {
    states: [
      { value: 'requested', label: 'Awaiting review', color: 'yellow' }, { value: 'approved', label: 'Approved', color: 'blue' },
      { value: 'completed', label: 'Completed', color: 'green' }, { value: 'rejected', label: 'Rejected', color: 'gray' }, { value: 'failed', label: 'Failed', color: 'red' },
    ],
  },
  actions: [
    { name: 'approve', label: 'Approve', right: { named: 'approve' }, from: ['requested'], to: 'approved', confirm: 'The funds stay held until the transfer is completed.' },
    { name: 'reject', label: 'Reject', right: { named: 'approve' }, from: ['requested'], to: 'rejected', input: reasonInput, fields: [reasonField], danger: true, confirm: 'The held amount and fee go back to the user.' },
    {
      name: 'complete', label: 'Complete', right: 'edit', from: ['approved'], to: 'completed',
      input: z.object({ txSignature: z.string({ error: 'The transaction signature' }).trim().regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, 'A base58 transaction signature') }).strict(),
      fields: [{ key: 'txSignature', label: 'Transaction signature', type: 'text', required: true }],
      confirm: 'Records the on-chain transfer; the fee becomes platform income.',
    },
    { name: 'fail', label: 'Mark failed', right: 'edit', from: ['approved'], to: 'failed', input: reasonInput, fields: [reasonField], danger: true, confirm: 'The held amount and fee go back to the user.' },
  ],
});

// ── Fiat payments ──────────────────────────────────────────────────────────
export const fiatPaymentRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), provider: z.string(), providerReference: z.string(), amount: units, currency: z.string(),
  amountText: z.string(), purpose: z.enum(['coin_topup', 'pack_purchase']), coinAmountText: z.string().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed', 'refunded']), reason: z.string().nullable(), createdAt: recordFields.at,
}).strict();

export const fiatPaymentsResource = resourceSpec(fiatPaymentRecord, {
  name: 'fiat-payments', label: 'Payment', plural: 'Payments', restriction: 'Payment History', pages: { list: '/payment-history' },
  titleField: 'providerReference', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'provider', label: 'Provider', type: 'text' },
    { key: 'providerReference', label: 'Reference', type: 'code' },
    { key: 'amountText', label: 'Amount', type: 'text' },
    { key: 'purpose', label: 'Purpose', type: 'status' },
    { key: 'coinAmountText', label: 'Coins', type: 'text', hidden: true },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'reason', label: 'Reason', type: 'text', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: [{ value: 'pending', label: 'Pending' }, { value: 'succeeded', label: 'Succeeded' }, { value: 'failed', label: 'Failed' }, { value: 'refunded', label: 'Refunded' }] },
    { key: 'provider', label: 'Provider', type: 'equals' },
    { key: 'providerReference', label: 'Reference', type: 'equals' },
    { key: 'userId', label: 'User id', type: 'equals' },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: {
    states: [
      { value: 'pending', label: 'Pending', color: 'yellow' }, { value: 'succeeded', label: 'Succeeded', color: 'green' },
      { value: 'failed', label: 'Failed', color: 'red' }, { value: 'refunded', label: 'Refunded', color: 'gray' },
    ],
  },
  actions: [
    { name: 'refund', label: 'Refund', right: 'edit', from: ['succeeded'], to: 'refunded', input: reasonInput, fields: [reasonField], danger: true, confirm: 'A coin top-up takes the coins back from the user; refused if they are spent.' },
  ],
});
