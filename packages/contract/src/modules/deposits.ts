import { z } from 'zod';
import { defineStates, stateValues } from '../resources/states.js';
import { recordFields, resourceSpec, } from '../resources/spec.js';
import { reasonField, reasonInput, units } from '../lib/fields.js';

// ── Deposits ───────────────────────────────────────────────────────────────
/** A deposit seen on chain: pending until an admin (or the platform) confirms it, which credits the user once. */
export const depositStates = defineStates({
  noun: 'Deposit',
  states: [{ value: 'pending', label: 'Pending', color: 'yellow' }, { value: 'confirmed', label: 'Confirmed', color: 'green' }, { value: 'failed', label: 'Failed', color: 'red' }],
  initial: 'pending',
  transitions: { confirm: { from: ['pending'], to: 'confirmed' }, fail: { from: ['pending'], to: 'failed' } },
});

export const depositRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), coin: z.string(), decimals: z.number().int(), amount: units, amountText: z.string(),
  txSignature: z.string(), explorerUrl: z.string(), fromAddress: z.string().nullable(), status: z.enum(stateValues(depositStates)),
  failedReason: z.string().nullable(), confirmedAt: recordFields.atOrNull, createdAt: recordFields.at,
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
    { key: 'amountText', label: 'Amount', type: 'money' },
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
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'txSignature', label: 'Transaction', type: 'equals' },
    { key: 'createdAt', label: 'Seen', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: depositStates,
  actions: [
    { name: 'confirm', label: 'Confirm', right: 'edit', confirm: "Credits the user's balance once.", bulk: true, subject: { title: 'Credit {amountText} to {username}', ...ON_CHAIN } },
    { name: 'fail', label: 'Mark failed', right: 'edit', input: reasonInput, fields: [reasonField], danger: true, bulk: true, subject: { title: 'Mark failed: {amountText} from {username}', ...ON_CHAIN } },
  ],
});
