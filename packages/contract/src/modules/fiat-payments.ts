import { z } from 'zod';
import { defineStates, stateValues } from '../resources/states.js';
import { recordFields, resourceSpec, } from '../resources/spec.js';
import { reasonField, reasonInput, units } from '../lib/fields.js';

// ── Fiat payments ──────────────────────────────────────────────────────────
/** pending → succeeded | failed (reported by the provider through the platform); succeeded → refunded (an admin). */
export const fiatPaymentStates = defineStates({
  noun: 'Payment',
  states: [
    { value: 'pending', label: 'Pending', color: 'yellow' }, { value: 'succeeded', label: 'Succeeded', color: 'green' },
    { value: 'failed', label: 'Failed', color: 'red' }, { value: 'refunded', label: 'Refunded', color: 'gray' },
  ],
  initial: 'pending',
  transitions: {
    succeed: { from: ['pending'], to: 'succeeded' },
    fail: { from: ['pending'], to: 'failed' },
    refund: { from: ['succeeded'], to: 'refunded' },
  },
  done: { succeed: 'marked succeeded', fail: 'marked failed' },
});

export const fiatPaymentRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), provider: z.string(), providerReference: z.string(), amount: units, currency: z.string(),
  amountText: z.string(), purpose: z.enum(['coin_topup', 'pack_purchase']), coinAmountText: z.string().nullable(),
  status: z.enum(stateValues(fiatPaymentStates)), reason: z.string().nullable(), createdAt: recordFields.at,
}).strict();

export const fiatPaymentsResource = resourceSpec(fiatPaymentRecord, {
  name: 'fiat-payments', label: 'Payment', plural: 'Payments', restriction: 'Payment History', pages: { list: '/payment-history' },
  titleField: 'providerReference', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'provider', label: 'Provider', type: 'text' },
    { key: 'providerReference', label: 'Reference', type: 'code' },
    { key: 'amountText', label: 'Amount', type: 'money' },
    { key: 'purpose', label: 'Purpose', type: 'status' },
    { key: 'coinAmountText', label: 'Coins', type: 'money', hidden: true },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'reason', label: 'Reason', type: 'text', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: [{ value: 'pending', label: 'Pending' }, { value: 'succeeded', label: 'Succeeded' }, { value: 'failed', label: 'Failed' }, { value: 'refunded', label: 'Refunded' }] },
    { key: 'provider', label: 'Provider', type: 'equals' },
    { key: 'providerReference', label: 'Reference', type: 'equals' },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: fiatPaymentStates,
  actions: [
    { name: 'refund', label: 'Refund', right: 'edit', input: reasonInput, fields: [reasonField], danger: true, confirm: 'A coin top-up takes the coins back from the user; refused if they are spent.' },
  ],
});
