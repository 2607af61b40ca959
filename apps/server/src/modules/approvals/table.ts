import type { RestrictionName } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, ts } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

/**
 * Decisions that take two admins (four eyes): one row per first approval of a record's action,
 * open until a second admin holding the same right decides it (`approved`) or either rejects it
 * (`rejected`). At most one open row per record and action. The queue of what waits for an admin
 * reads the open rows whose right they hold and whose first approver they are not.
 */
export const secondApprovals = pgTable(
  'second_approvals',
  {
    id: id(),
    resource: text('resource').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    /** The right the second admin must hold: the module and its named right (`Withdraw`, `approve`). */
    restriction: text('restriction').notNull().$type<RestrictionName>(),
    right: text('right').notNull(),
    summary: text('summary').notNull(),
    link: text('link').notNull(),
    firstAdminId: bigint('first_admin_id', { mode: 'number' }).notNull().references(() => admins.id),
    firstAt: ts('first_at').notNull().defaultNow(),
    status: text('status').notNull().$type<'open' | 'approved' | 'rejected'>().default('open'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => admins.id),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    uniqueIndex('second_approvals_open_uq').on(t.resource, t.recordId, t.action).where(sql`${t.status} = 'open'`),
    index('second_approvals_open_idx').on(t.firstAt, t.id).where(sql`${t.status} = 'open'`),
    index('second_approvals_record_idx').on(t.resource, t.recordId),
    check('second_approvals_status_ck', sql`${t.status} in ('open','approved','rejected')`),
  ],
);

export type SecondApprovalRow = typeof secondApprovals.$inferSelect;
