import { z } from 'zod';
import { RESTRICTION_NAMES } from '../restrictions.js';
import { recordFields, resourceSpec } from '../resources/spec.js';

// ── Second approvals (four eyes) ────────────────────────────────────────────
/**
 * The state a record waits in between its first approval and its second: a withdrawal of at least
 * its coin's second-approval threshold, once one admin holding the right has approved it. Its
 * hold stays; a second admin holding the same right approves (never the first one), or either
 * rejects it.
 */
export const SECOND_APPROVAL_STATE = 'awaiting_second_approval';

/**
 * One decision waiting for a second admin: what (`resource`, `recordId`, `action`), who gave the
 * first approval and when, a sentence saying it ("Withdrawal of 8,432.23 USDC by omar_s"), and the
 * page that decides it. The queue (`/awaiting-approval`) lists the open ones the signed-in admin may
 * decide: holding the right, and not the first approver.
 */
export const approvalRecord = z.object({
  _id: recordFields.id,
  resource: z.string(),
  /** What kind of decision, as people say it ("Withdrawal"). */
  what: z.string(),
  recordId: recordFields.id,
  action: z.string(),
  restriction: z.enum(RESTRICTION_NAMES),
  right: z.string(),
  summary: z.string(),
  /** The in-app page where it is decided. */
  link: z.string(),
  firstAdminEmail: z.string(),
  firstAt: recordFields.at,
  status: z.enum(['open', 'approved', 'rejected']),
  decidedByEmail: z.string().nullable(),
  decidedAt: recordFields.atOrNull,
}).strict();
export type ApprovalRecord = z.infer<typeof approvalRecord>;

export const approvalsResource = resourceSpec(approvalRecord, {
  name: 'approvals', label: 'Approval', plural: 'Awaiting my approval',
  // Every admin: the list holds only what the signed-in admin may decide (the server's scope).
  restriction: null,
  pages: { list: '/awaiting-approval' },
  titleField: 'summary', readOnly: true, keyset: true,
  linkField: 'link',
  columns: [
    { key: 'firstAt', label: 'Waiting since', type: 'date', sortable: true },
    { key: 'what', label: 'What', type: 'text' },
    { key: 'summary', label: 'Decision', type: 'text' },
    { key: 'firstAdminEmail', label: 'First approval by', type: 'text' },
  ],
  filters: [{ key: 'resource', label: 'What', type: 'oneOf', options: [{ value: 'withdrawals', label: 'Withdrawals' }, { value: 'balance-adjustments', label: 'Balance adjustments' }, { value: 'markets', label: 'Market resolutions' }] }],
  defaultSort: '-firstAt',
  deleteMode: 'none',
});
