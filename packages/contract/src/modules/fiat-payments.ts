import { z } from 'zod';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { recordFields, resourceSpec, } from '../resources/spec.js';
import { units } from '../lib/fields.js';
import { reasonCodes, reasonCoded, reasonOptions } from '../lib/reasons.js';

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

/** Why a payment is refunded. */
export const FIAT_REFUND_REASONS = reasonCodes([
  { code: 'customer_request', label: 'The customer asked' },
  { code: 'duplicate_charge', label: 'Charged twice' },
  { code: 'not_delivered', label: 'Coins or pack not delivered' },
  { code: 'suspected_fraud', label: 'Suspected fraud' },
  { code: 'dispute', label: 'Dispute or chargeback notice' },
]);

export const fiatPaymentRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), provider: z.string(), providerReference: z.string(), amount: units, currency: z.string(),
  amountText: z.string(), purpose: z.enum(['coin_topup', 'pack_purchase']), coinAmountText: z.string().nullable(),
  status: z.enum(stateValues(fiatPaymentStates)),
  /** The refund's reason code; the note (or the provider's failure reason). */
  reasonCode: z.string().nullable(), reason: z.string().nullable(), createdAt: recordFields.at,
}).strict();

export const fiatPaymentsResource = resourceSpec(fiatPaymentRecord, {
  name: 'fiat-payments', label: 'Payment', plural: 'Payments', restriction: 'Payment History', pages: { list: '/payment-history' },
  titleField: 'providerReference', readOnly: true, keyset: true,
  columns: [
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'provider', label: 'Provider', type: 'text' },
    { key: 'providerReference', label: 'Reference', type: 'code' },
    { key: 'amountText', label: 'Amount', type: 'money', sortable: true, sortWithin: 'currency' },
    { key: 'purpose', label: 'Purpose', type: 'status' },
    { key: 'coinAmountText', label: 'Coins', type: 'money', hidden: true },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'reasonCode', label: 'Reason', type: 'text', hidden: true },
    { key: 'reason', label: 'Note', type: 'text', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(fiatPaymentStates) },
    { key: 'provider', label: 'Provider', type: 'equals' },
    { key: 'providerReference', label: 'Reference', type: 'equals' },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'reasonCode', label: 'Reason', type: 'oneOf', options: reasonOptions(FIAT_REFUND_REASONS) },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: fiatPaymentStates,
  actions: [
    { name: 'refund', label: 'Refund', right: 'edit', ...reasonCoded(FIAT_REFUND_REASONS), danger: true, confirm: 'A coin top-up takes the coins back from the user; refused if they are spent.' },
  ],
});
