import { countOf, subAdminsResource, } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { admins, } from '../../db/schema.js';
import { iso, defineResource, isoOrNull, type ApiRecord, type Row } from '../../resources/define.js';
import { loadRecord } from '../../resources/register.js';
import type { Actor, AdminActor } from '../../context.js';
import { createSubAdmin, endSubAdminSessions, resetSubAdminTwoFactor, setSubAdminPassword, updateSubAdmin } from './service.js';

/** Only admins manage admins: the platform and jobs never do. */
function asAdmin(actor: Actor): AdminActor {
  if (actor.kind !== 'admin') throw new Error('Admin accounts are managed by admins only');
  return actor;
}


const emailOf = (column: 'created_by' | 'disabled_by') => sql<string | null>`(select c.email from admins c where c.id = "admins".${sql.raw(`"${column}"`)})`;
const liveSessions = sql<number>`(select count(*)::int from admin_sessions s where s.admin_id = "admins"."id" and s.revoked_at is null and s.expires_at > now())`;

function rightsSummary(restriction: { canView: boolean; canEdit: boolean }[]): string {
  const edit = restriction.filter((r) => r.canEdit).length;
  const view = restriction.filter((r) => r.canView && !r.canEdit).length;
  return `${edit} edit, ${view} view only`;
}

export const subAdminsDef = defineResource({
  spec: subAdminsResource,
  table: admins,
  idColumn: admins.id,
  baseWhere: eq(admins.role, 'subadmin'),
  columns: { name: admins.name, email: admins.email, status: admins.status, lastLoginAt: admins.lastLoginAt, createdAt: admins.createdAt },
  nullable: ['lastLoginAt'],
  searchColumns: [admins.name, admins.email],
  select: (db: DbOrTx) => {
    const { passwordHash: _omit, ...cols } = getTableColumns(admins);
    return db.select({ ...cols, liveSessions, createdByEmail: emailOf('created_by'), disabledByEmail: emailOf('disabled_by') }).from(admins);
  },
  toRecord: (r) => {
    const restriction = r.restriction ?? [];
    // The list's base condition keeps sub-admins only.
    if (r.role !== 'subadmin') throw new Error(`admin ${r.id} is no sub-admin`);
    return {
      _id: String(r.id), name: r.name, email: r.email, role: r.role, status: r.status, restriction, rights: rightsSummary(restriction),
      liveSessions: Number(r.liveSessions ?? 0), createdByEmail: r.createdByEmail ?? null, disabledByEmail: r.status === 'disabled' ? (r.disabledByEmail ?? null) : null,
      lastLoginAt: isoOrNull(r.lastLoginAt), createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  // The service holds the rules (grants, self-edits, sessions); the record comes back through the declared SELECT.
  create: async (input, w): Promise<ApiRecord> => {
    const id = await createSubAdmin(w.tx, w.actor, input as Parameters<typeof createSubAdmin>[2]);
    return (await loadRecord(subAdminsDef, w.tx, id)).record;
  },
  update: async (id, input, w): Promise<ApiRecord> => {
    await updateSubAdmin(w.tx, w.actor, id, input as Row);
    return (await loadRecord(subAdminsDef, w.tx, id)).record;
  },
  actions: {
    'set-password': async (tx, actor, record, input) => {
      await setSubAdminPassword(tx, asAdmin(actor), Number(record._id), String(input.password));
      return 'Password set; the sub-admin must sign in again';
    },
    'end-sessions': async (tx, actor, record) => `${countOf(await endSubAdminSessions(tx, asAdmin(actor), Number(record._id)), 'session')} ended`,
    'reset-2fa': async (tx, actor, record, _input, ctx) => {
      const wasOn = await resetSubAdminTwoFactor(tx, ctx.mailer, asAdmin(actor), Number(record._id));
      return wasOn ? '2FA reset: they sign in with their password and enrol again' : 'They had no 2FA; their sessions ended';
    },
  },
  uniqueErrors: { admins_email_lower_uq: { field: 'email', message: 'This email is already used by another admin' } },
  statusColumn: admins.status,
  csv: [
    { header: 'Name', value: (r) => r.name },
    { header: 'Email', value: (r) => r.email },
    { header: 'Status', value: (r) => r.status },
    { header: 'Rights', value: (r) => (r.restriction as { name: string; canView: boolean; canEdit: boolean }[]).map((g) => `${g.name}:${g.canEdit ? 'edit' : g.canView ? 'view' : 'none'}`).join('; ') },
    { header: 'Last sign-in', value: (r) => r.lastLoginAt },
    { header: 'Created', value: (r) => r.createdAt },
  ],
});
