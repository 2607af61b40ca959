import { z } from 'zod';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { idParam, recordFields, resourceSpec, } from '../resources/spec.js';
import { endpoint, readAccess } from '../resources/endpoint.js';
import { units } from '../lib/fields.js';
import { reasonCodes, reasonCoded, reasonOptions } from '../lib/reasons.js';

// ── Withdrawals ────────────────────────────────────────────────────────────
/**
 * requested (funds held) → approved → completed | failed; requested → rejected (funds released).
 * At or above its coin's second-approval threshold, the first approval moves it to
 * awaiting_second_approval (`approve_first`, which the service makes, holds unchanged) and a second
 * admin's approval to approved; either may reject it.
 */
export const withdrawalStates = defineStates({
  noun: 'Withdrawal',
  states: [
    { value: 'requested', label: 'Awaiting review', color: 'yellow' }, { value: 'awaiting_second_approval', label: 'Awaiting second approval', color: 'orange' },
    { value: 'approved', label: 'Approved', color: 'blue' },
    { value: 'completed', label: 'Completed', color: 'green' }, { value: 'rejected', label: 'Rejected', color: 'gray' }, { value: 'failed', label: 'Failed', color: 'red' },
  ],
  initial: 'requested',
  transitions: {
    approve: { from: ['requested', 'awaiting_second_approval'], to: 'approved' },
    approve_first: { from: ['requested'], to: 'awaiting_second_approval' },
    reject: { from: ['requested', 'awaiting_second_approval'], to: 'rejected' },
    complete: { from: ['approved'], to: 'completed' },
    fail: { from: ['approved'], to: 'failed' },
  },
});

/** Why a withdrawal is rejected (before it is sent). */
export const WITHDRAWAL_REJECT_REASONS = reasonCodes([
  { code: 'suspected_fraud', label: 'Suspected fraud or account takeover' },
  { code: 'destination_risk', label: 'Destination flagged or sanctioned' },
  { code: 'identity_check', label: 'Identity check needed' },
  { code: 'over_limit', label: 'Over the user’s limits' },
  { code: 'user_request', label: 'The user asked to cancel' },
  { code: 'duplicate', label: 'Duplicate request' },
]);
/** Why an approved withdrawal did not go out. */
export const WITHDRAWAL_FAIL_REASONS = reasonCodes([
  { code: 'chain_error', label: 'Transaction failed on chain' },
  { code: 'hot_wallet_short', label: 'Hot wallet short of funds' },
  { code: 'invalid_destination', label: 'Destination cannot receive it' },
  { code: 'expired', label: 'Transaction expired unsent' },
]);

export const withdrawalRecord = z.object({
  _id: recordFields.id, userId: recordFields.id, username: z.string(), coin: z.string(), decimals: z.number().int(), amount: units, fee: units,
  amountText: z.string(), feeText: z.string(), toAddress: z.string(), status: z.enum(stateValues(withdrawalStates)),
  autoApproved: z.boolean(), reviewedByEmail: z.string().nullable(), reviewedAt: recordFields.atOrNull,
  /** The rejection's or failure's reason code, and its note. */
  reasonCode: z.string().nullable(), reason: z.string().nullable(),
  /** Who gave the first of two approvals, and when (a withdrawal at or above its coin's threshold). */
  firstApprovedByEmail: z.string().nullable(), firstApprovedAt: recordFields.atOrNull,
  txSignature: z.string().nullable(), explorerUrl: z.string().nullable(), createdAt: recordFields.at,
}).strict();

export const withdrawalsResource = resourceSpec(withdrawalRecord, {
  name: 'withdrawals', label: 'Withdrawal', plural: 'Withdrawals', restriction: 'Withdraw', pages: { list: '/withdraw' },
  titleField: 'amountText', readOnly: true, keyset: true,
  amount: { key: 'amount', coin: 'coin', decimals: 'decimals' },
  columns: [
    { key: 'createdAt', label: 'Requested', type: 'date', sortable: true },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'amountText', label: 'Amount', type: 'money', sortable: true, sortWithin: 'coin' },
    { key: 'feeText', label: 'Fee', type: 'money', sortable: true, sortWithin: 'coin' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'toAddress', label: 'To', type: 'code' },
    { key: 'autoApproved', label: 'Auto-approved', type: 'bool', hidden: true },
    { key: 'firstApprovedByEmail', label: 'First approval by', type: 'text', hidden: true },
    { key: 'reviewedByEmail', label: 'Reviewed by', type: 'text', hidden: true },
    { key: 'reasonCode', label: 'Reason', type: 'text', hidden: true },
    { key: 'reason', label: 'Note', type: 'text', hidden: true },
    { key: 'txSignature', label: 'Transaction', type: 'code', hidden: true },
    { key: 'explorerUrl', label: 'Explorer', type: 'text', hidden: true },
  ],
  filters: [
    {
      key: 'status', label: 'Status', type: 'oneOf',
      options: stateOptions(withdrawalStates),
    },
    { key: 'coin', label: 'Coin', type: 'equals' },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'toAddress', label: 'To address', type: 'equals' },
    { key: 'reasonCode', label: 'Reason', type: 'oneOf', options: reasonOptions(WITHDRAWAL_REJECT_REASONS, WITHDRAWAL_FAIL_REASONS) },
    { key: 'createdAt', label: 'Requested', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: withdrawalStates,
  actions: [
    {
      name: 'approve', label: 'Approve', right: { named: 'approve' }, bulk: true, subject: { title: 'Approve {amountText} to {username}', code: 'toAddress' },
      confirm: 'The funds stay held until the transfer is completed. At or above the coin’s second-approval threshold, a second admin must approve too.',
    },
    {
      name: 'reject', label: 'Reject', right: { named: 'approve' }, ...reasonCoded(WITHDRAWAL_REJECT_REASONS), danger: true, confirm: 'The held amount and fee go back to the user.', bulk: true,
      subject: { title: 'Reject {amountText} to {username}', code: 'toAddress' },
    },
    {
      name: 'complete', label: 'Complete', right: 'edit', input: z.object({ txSignature: z.string({ error: 'The transaction signature' }).trim().regex(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/, 'A base58 transaction signature') }).strict(),
      fields: [{ key: 'txSignature', label: 'Transaction signature', type: 'text', required: true }],
      confirm: 'Records the on-chain transfer; the fee becomes platform income.',
    },
    // In bulk too: a transfer batch that did not go out fails as a whole, with one reason.
    { name: 'fail', label: 'Mark failed', right: 'edit', ...reasonCoded(WITHDRAWAL_FAIL_REASONS), danger: true, confirm: 'The held amount and fee go back to the user.', bulk: true },
  ],
});

// ── Risk context (what an approver looks up before deciding) ────────────────
/** Reason-coded flags a withdrawal may carry, with what people read for each. */
export const WITHDRAWAL_FLAGS = {
  new_account: 'Account younger than 7 days',
  first_withdrawal: 'The user’s first withdrawal',
  new_destination: 'Destination never used by this user before',
  shared_destination: 'Destination used by other users',
  rapid: '3 or more withdrawals in 24 hours',
  two_approvals: 'At or above the coin’s two-approval threshold',
  user_blocked: 'User is blocked',
} as const;
export type WithdrawalFlag = keyof typeof WITHDRAWAL_FLAGS;

const perCoin = { coin: z.string(), decimals: z.number().int() };
/**
 * One withdrawal's risk context (`GET /api/admin/withdrawals/:id/risk`, under Withdraw view): the
 * user's balances and account age, lifetime confirmed deposits and completed withdrawals per coin,
 * withdrawals requested in the last 24 hours and 7 days (rejected and failed ones aside), the
 * destination (whitelisted, new for this user, used by how many other users), open tickets, and
 * reason-coded flags. Amounts in minor units.
 */
export const withdrawalRiskSchema = z.object({
  withdrawalId: recordFields.id,
  user: z.object({ _id: recordFields.id, username: z.string(), status: z.string(), signedUpAt: recordFields.at, accountAgeDays: z.number().int() }),
  balances: z.array(z.object({ ...perCoin, available: units, held: units })),
  lifetime: z.array(z.object({ ...perCoin, deposited: units, withdrawn: units })),
  recent: z.array(z.object({ ...perCoin, count24h: z.number().int(), amount24h: units, count7d: z.number().int(), amount7d: units })),
  destination: z.object({ address: z.string(), whitelisted: z.boolean(), newForUser: z.boolean(), otherUsers: z.number().int() }),
  openTickets: z.number().int(),
  flags: z.array(z.object({ code: z.enum(Object.keys(WITHDRAWAL_FLAGS) as [WithdrawalFlag, ...WithdrawalFlag[]]), label: z.string() })),
}).strict();
export type WithdrawalRisk = z.infer<typeof withdrawalRiskSchema>;

export const withdrawalEndpoints = {
  withdrawalRisk: endpoint('GET /api/admin/withdrawals/:id/risk', {
    access: readAccess('Withdraw'),
    summary: 'What an approver looks up before deciding: the user’s balances, age, flows, recent withdrawals, the destination, open tickets, flags',
    params: idParam,
    result: withdrawalRiskSchema,
  }),
};
