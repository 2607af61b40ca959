import { z } from 'zod';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec, } from '../resources/spec.js';
import { units } from '../lib/fields.js';
import { reasonCodes, reasonCoded, reasonOptions } from '../lib/reasons.js';

// ── Deposits ───────────────────────────────────────────────────────────────
/** A deposit seen on chain: pending until an admin (or the platform) confirms it, which credits the user once. */
export const depositStates = defineStates({
  noun: 'Deposit',
  states: [{ value: 'pending', label: 'Pending', color: 'yellow' }, { value: 'confirmed', label: 'Confirmed', color: 'green' }, { value: 'failed', label: 'Failed', color: 'red' }],
  initial: 'pending',
  transitions: { confirm: { from: ['pending'], to: 'confirmed' }, fail: { from: ['pending'], to: 'failed' } },
});

/** Why a deposit seen on chain is not credited. */
export const DEPOSIT_FAIL_REASONS = reasonCodes([
  { code: 'not_found', label: 'Transaction not found on chain' },
  { code: 'reverted', label: 'Transaction failed or reverted' },
  { code: 'wrong_token', label: 'Wrong token or mint' },
  { code: 'amount_mismatch', label: 'Amount differs from the chain' },
  { code: 'duplicate', label: 'Already credited' },
]);

export const depositRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), coin: z.string(), decimals: z.number().int(), amount: units, amountText: z.string(),
  txSignature: z.string(), explorerUrl: z.string(), fromAddress: z.string().nullable(), status: z.enum(stateValues(depositStates)),
  /** The failure's reason code, and its note. */
  reasonCode: z.string().nullable(), failedReason: z.string().nullable(), confirmedAt: recordFields.atOrNull, createdAt: recordFields.at,
}).strict();

/** The deposit's transaction in its dialogs: the signature by its ends (copied whole) and its explorer page. */
const ON_CHAIN = { code: 'txSignature', link: { key: 'explorerUrl', label: 'View on the explorer' } } as const;

export const depositsResource = resourceSpec(depositRecord, {
  name: 'deposits', label: 'Deposit', plural: 'Deposits', restriction: 'Deposit', pages: { list: '/deposit' },
  titleField: 'txSignature', readOnly: true, keyset: true,
  amount: { key: 'amount', coin: 'coin', decimals: 'decimals' },
  columns: [
    { key: 'createdAt', label: 'Seen', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'amountText', label: 'Amount', type: 'money', sortable: true, sortWithin: 'coin' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'txSignature', label: 'Transaction', type: 'code' },
    { key: 'explorerUrl', label: 'Explorer', type: 'text', hidden: true },
    { key: 'fromAddress', label: 'From', type: 'code', hidden: true },
    { key: 'reasonCode', label: 'Reason', type: 'text', hidden: true },
    { key: 'failedReason', label: 'Note', type: 'text', hidden: true },
    { key: 'confirmedAt', label: 'Confirmed', type: 'date', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(depositStates) },
    { key: 'coin', label: 'Coin', type: 'equals' },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'txSignature', label: 'Transaction', type: 'equals' },
    { key: 'reasonCode', label: 'Reason', type: 'oneOf', options: reasonOptions(DEPOSIT_FAIL_REASONS) },
    { key: 'createdAt', label: 'Seen', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: depositStates,
  actions: [
    { name: 'confirm', label: 'Confirm', right: 'edit', confirm: "Credits the user's balance once.", bulk: true, subject: { title: 'Credit {amountText} to {username}', ...ON_CHAIN } },
    { name: 'fail', label: 'Mark failed', right: 'edit', ...reasonCoded(DEPOSIT_FAIL_REASONS), danger: true, bulk: true, subject: { title: 'Mark failed: {amountText} from {username}', ...ON_CHAIN } },
  ],
});
