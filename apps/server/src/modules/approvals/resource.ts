import { approvalsResource, isSuperAdmin } from '@pitboss/contract';
import { and, eq, getTableColumns, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { defineResource, isoOrNull, } from '../../resources/define.js';
import { admins } from '../sub-admins/table.js';
import { whatOf } from './service.js';
import { secondApprovals } from './table.js';

const first = alias(admins, 'first_admin');
const decider = alias(admins, 'decider');

/**
 * "Awaiting my approval": the open first approvals the signed-in admin may decide: a super admin
 * any; a sub-admin those whose module and named right they hold. Never one they gave themselves.
 */
export const approvalsDef = defineResource({
  spec: approvalsResource,
  table: secondApprovals,
  idColumn: secondApprovals.id,
  baseWhere: eq(secondApprovals.status, 'open'),
  scope: (actor) => {
    const notMine = ne(secondApprovals.firstAdminId, actor.admin.id);
    if (isSuperAdmin(actor.admin)) return notMine;
    const held = sql`exists (select 1 from jsonb_array_elements(${JSON.stringify(actor.admin.restriction)}::jsonb) e where e->>'name' = ${secondApprovals.restriction} and coalesce(e->'rights', '[]'::jsonb) ? ${secondApprovals.right})`;
    return and(notMine, held);
  },
  columns: { firstAt: secondApprovals.firstAt, resource: secondApprovals.resource },
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(secondApprovals), firstAdminEmail: first.email, decidedByEmail: decider.email })
      .from(secondApprovals)
      .innerJoin(first, eq(first.id, secondApprovals.firstAdminId))
      .leftJoin(decider, eq(decider.id, secondApprovals.decidedBy)),
  toRecord: (r) => ({
    _id: String(r.id), resource: String(r.resource), what: whatOf(String(r.resource)), recordId: String(r.recordId), action: String(r.action),
    restriction: r.restriction as 'Withdraw', right: String(r.right), summary: String(r.summary), link: String(r.link),
    firstAdminEmail: String(r.firstAdminEmail), firstAt: isoOrNull(r.firstAt)!, status: r.status as 'open',
    decidedByEmail: (r.decidedByEmail as string | null) ?? null, decidedAt: isoOrNull(r.decidedAt),
  }),
});
