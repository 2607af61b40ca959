import { z } from 'zod';
import { minorUnitsInput, units } from '../lib/fields.js';
import { reasonCoded, reasonCodes, reasonOptions } from '../lib/reasons.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec } from '../resources/spec.js';

// ── Balance adjustments ─────────────────────────────────────────────────────
/**
 * A manual correction of one user's available balance in one coin (signed: + credits, − debits),
 * against the platform's `adjustments` account, with a reason code. Below its coin's
 * two-approval threshold it is applied at once; at or above, it is created `pending` and applied
 * only when a second admin holding Users › adjust-balance approves it (never the one who asked);
 * either may reject it. An applied adjustment is never edited: it is reversed by a linked
 * adjustment of the opposite amount, which goes through the same rule. docs/money-controls.md.
 */
export const balanceAdjustmentStates = defineStates({
  noun: 'Adjustment',
  states: [
    { value: 'pending', label: 'Awaiting second approval', color: 'orange' },
    { value: 'applied', label: 'Applied', color: 'green' },
    { value: 'rejected', label: 'Rejected', color: 'gray' },
  ],
  initial: 'pending',
  transitions: {
    approve: { from: ['pending'], to: 'applied' },
    reject: { from: ['pending'], to: 'rejected' },
  },
});

/** Why a balance is corrected by hand. */
export const BALANCE_ADJUSTMENT_REASONS = reasonCodes([
  { code: 'correction', label: 'Correction of an error' },
  { code: 'goodwill', label: 'Goodwill credit' },
  { code: 'promotion', label: 'Promotion or bonus' },
  { code: 'missed_deposit', label: 'Deposit credited by hand' },
  { code: 'chargeback', label: 'Chargeback or recovery' },
  { code: 'house_funding', label: 'House account funding' },
]);
/** Why an applied adjustment is reversed. */
export const ADJUSTMENT_REVERSAL_REASONS = reasonCodes([
  { code: 'entered_in_error', label: 'Entered in error' },
  { code: 'wrong_user', label: 'Wrong user or coin' },
  { code: 'wrong_amount', label: 'Wrong amount (enter the right one after)' },
  { code: 'recovered', label: 'Recovered from the user' },
]);
/** Why a pending adjustment is not applied. */
export const ADJUSTMENT_REJECT_REASONS = reasonCodes([
  { code: 'not_justified', label: 'Not justified by the evidence' },
  { code: 'wrong_amount', label: 'Wrong amount' },
  { code: 'wrong_user', label: 'Wrong user or coin' },
  { code: 'duplicate', label: 'Duplicate request' },
]);

/** What an adjustment asks (`adjust-balance` on a user): the coin, the signed amount in minor units, a reason code and note. */
export const adjustBalance = reasonCoded(BALANCE_ADJUSTMENT_REASONS, {
  coinId: z.string({ error: 'Choose a coin' }).regex(/^\d{1,18}$/, 'Choose a coin'),
  amount: minorUnitsInput('An amount', { negative: true }),
});
export const adjustBalanceInput = adjustBalance.input;

export const balanceAdjustmentRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), coin: z.string(), decimals: z.number().int(),
  /** Signed minor units: + credits the user, − debits. */
  amount: units, amountText: z.string(),
  status: z.enum(stateValues(balanceAdjustmentStates)),
  reasonCode: z.string(), reason: z.string().nullable(),
  requestedByEmail: z.string().nullable(), decidedByEmail: z.string().nullable(), decidedAt: recordFields.atOrNull,
  /** A rejection's reason code and note. */
  decisionReasonCode: z.string().nullable(), decisionReason: z.string().nullable(),
  /** The ledger transaction that applied it. */
  transactionId: recordFields.id.nullable(),
  /** The adjustment this one reverses, and the one reversing this one (not rejected) with its state. */
  reversesId: recordFields.id.nullable(), reversedById: recordFields.id.nullable(), reversal: z.enum(['none', 'pending', 'applied']),
  /** Applied, not itself a reversal, and not reversed: what Reverse is offered on. */
  reversible: z.boolean(),
  createdAt: recordFields.at,
}).strict();
export type BalanceAdjustmentRecord = z.infer<typeof balanceAdjustmentRecord>;

const reverse = reasonCoded(ADJUSTMENT_REVERSAL_REASONS);

export const balanceAdjustmentsResource = resourceSpec(balanceAdjustmentRecord, {
  name: 'balance-adjustments', label: 'Balance adjustment', plural: 'Balance adjustments', restriction: 'Users',
  pages: { list: '/balance-adjustments' },
  titleField: 'amountText', readOnly: true, keyset: true,
  amount: { key: 'amount', coin: 'coin', decimals: 'decimals' },
  columns: [
    { key: 'createdAt', label: 'Asked', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'amountText', label: 'Amount', type: 'money' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'reasonCode', label: 'Reason', type: 'text' },
    { key: 'reason', label: 'Note', type: 'text' },
    { key: 'requestedByEmail', label: 'Asked by', type: 'text' },
    { key: 'decidedByEmail', label: 'Decided by', type: 'text', hidden: true },
    { key: 'reversal', label: 'Reversal', type: 'text', hidden: true },
    { key: 'reversesId', label: 'Reverses #', type: 'code', hidden: true },
    { key: 'decisionReasonCode', label: 'Rejected for', type: 'text', hidden: true },
    { key: 'decisionReason', label: 'Rejection note', type: 'text', hidden: true },
    { key: 'transactionId', label: 'Ledger transaction', type: 'code', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(balanceAdjustmentStates) },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'coin', label: 'Coin', type: 'equals' },
    { key: 'reasonCode', label: 'Reason', type: 'oneOf', options: reasonOptions(BALANCE_ADJUSTMENT_REASONS, ADJUSTMENT_REVERSAL_REASONS) },
    { key: 'decisionReasonCode', label: 'Rejected for', type: 'oneOf', options: reasonOptions(ADJUSTMENT_REJECT_REASONS) },
    { key: 'reversal', label: 'Reversal', type: 'oneOf', options: [{ value: 'none', label: 'Not reversed' }, { value: 'pending', label: 'Reversal pending' }, { value: 'applied', label: 'Reversed' }] },
    { key: 'createdAt', label: 'Asked', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: balanceAdjustmentStates,
  actions: [
    {
      name: 'approve', label: 'Approve', right: { named: 'adjust-balance' }, subject: { title: 'Apply {amountText} to {username}' },
      confirm: 'The second approval: the adjustment is applied to the user’s available balance now. You cannot approve one you asked for.',
    },
    {
      name: 'reject', label: 'Reject', right: { named: 'adjust-balance' }, ...reasonCoded(ADJUSTMENT_REJECT_REASONS), danger: true, subject: { title: 'Reject {amountText} to {username}' },
      confirm: 'Nothing is applied; the request ends.',
    },
    {
      name: 'reverse', label: 'Reverse', right: { named: 'adjust-balance' }, ...reverse, danger: true, listed: false, shownWhen: { key: 'reversible', equals: true },
      subject: { title: 'Reverse {amountText} of {username}' },
      confirm: 'Posts the opposite amount as a new adjustment linked to this one (at or above the coin’s threshold it waits for a second admin). This one is never edited.',
    },
  ],
});
