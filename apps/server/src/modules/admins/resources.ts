import { auditLogResource, modulesResource, subAdminLoginsResource, subAdminsResource, subModulesResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { admins, auditLog, loginHistory, permissionModules, permissionSubModules } from '../../db/schema.js';
import { defineResource, isoOrNull, type ApiRecord, type ResourceDef, type Row } from '../../resources/define.js';
import { loadRecord } from '../../resources/register.js';
import type { Actor, AdminActor } from '../../context.js';
import { toLoginHistoryItem } from '../auth/sessions.js';
import { createSubAdmin, endSubAdminSessions, setSubAdminPassword, updateSubAdmin } from './service.js';

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

export const subAdminsDef: ResourceDef = defineResource({
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
    const restriction = (r.restriction ?? []) as { name: string; canView: boolean; canEdit: boolean }[];
    return {
      _id: String(r.id), name: r.name, email: r.email, role: r.role, status: r.status, restriction, rights: rightsSummary(restriction),
      liveSessions: Number(r.liveSessions ?? 0), createdByEmail: r.createdByEmail ?? null, disabledByEmail: r.status === 'disabled' ? (r.disabledByEmail ?? null) : null,
      lastLoginAt: isoOrNull(r.lastLoginAt), createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
    } as ApiRecord;
  },
  // The service holds the rules (grants, self-edits, sessions); the record comes back through the declared SELECT.
  create: async (input, w): Promise<ApiRecord> => {
    const id = await createSubAdmin(w.tx, w.req.actor() as AdminActor, input as Parameters<typeof createSubAdmin>[2]);
    return (await loadRecord(subAdminsDef, w.tx, id)).record;
  },
  update: async (id, input, w): Promise<ApiRecord> => {
    await updateSubAdmin(w.tx, w.req.actor() as AdminActor, id, input as Row);
    return (await loadRecord(subAdminsDef, w.tx, id)).record;
  },
  actions: {
    'set-password': async (tx, actor, record, input) => {
      await setSubAdminPassword(tx, asAdmin(actor), Number(record._id), String(input.password));
      return 'Password set; the sub-admin must sign in again';
    },
    'end-sessions': async (tx, actor, record) => `${await endSubAdminSessions(tx, asAdmin(actor), Number(record._id))} session(s) ended`,
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

const subModuleCount = sql<number>`(select count(*)::int from permission_sub_modules sm where sm.module_id = "permission_modules"."id")`;

export const modulesDef = defineResource({
  spec: modulesResource,
  table: permissionModules,
  idColumn: permissionModules.id,
  columns: { name: permissionModules.name, sortOrder: permissionModules.sortOrder, status: permissionModules.status },
  searchColumns: [permissionModules.name],
  select: (db: DbOrTx) => db.select({ ...getTableColumns(permissionModules), subModuleCount }).from(permissionModules),
  toRecord: (r) => ({
    _id: String(r.id), name: r.name, sortOrder: r.sortOrder, status: r.status, subModuleCount: Number(r.subModuleCount ?? 0),
    createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
  }),
  uniqueErrors: { permission_modules_name_unique: { field: 'name', message: 'A module with this name exists' } },
  statusColumn: permissionModules.status,
});

const moduleIdInput = (input: Row): Row => (input.moduleId === undefined ? input : { ...input, moduleId: Number(input.moduleId) });

export const subModulesDef = defineResource({
  spec: subModulesResource,
  table: permissionSubModules,
  idColumn: permissionSubModules.id,
  columns: {
    name: permissionSubModules.name, moduleName: permissionModules.name,
    sortOrder: permissionSubModules.sortOrder, status: permissionSubModules.status,
  },
  searchColumns: [permissionSubModules.name],
  caseInsensitive: ['moduleName'],
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(permissionSubModules), moduleName: permissionModules.name })
      .from(permissionSubModules)
      .innerJoin(permissionModules, eq(permissionModules.id, permissionSubModules.moduleId)),
  toRecord: (r) => ({
    _id: String(r.id), name: r.name, moduleId: String(r.moduleId), moduleName: r.moduleName, pages: r.pages, sortOrder: r.sortOrder, status: r.status,
    createdAt: isoOrNull(r.createdAt), updatedAt: isoOrNull(r.updatedAt),
  }),
  prepareCreate: moduleIdInput,
  prepareUpdate: moduleIdInput,
  uniqueErrors: { permission_sub_modules_name_unique: { field: 'name', message: 'This restriction name already has a sub module' } },
  statusColumn: permissionSubModules.status,
});

export const auditLogDef = defineResource({
  spec: auditLogResource,
  table: auditLog,
  idColumn: auditLog.id,
  columns: {
    createdAt: auditLog.createdAt, actorKind: auditLog.actorKind, adminEmail: auditLog.adminEmail, resource: auditLog.resource, recordId: auditLog.recordId, action: auditLog.action,
  },
  caseInsensitive: ['adminEmail', 'resource'],
  toRecord: (r) => ({
    _id: String(r.id), actorKind: r.actorKind, adminId: r.adminId === null ? null : String(r.adminId), adminEmail: r.adminEmail, action: r.action, resource: r.resource,
    recordId: r.recordId, before: r.before, after: r.after, ip: r.ip, createdAt: isoOrNull(r.createdAt),
  }),
});

export const subAdminLoginsDef = defineResource({
  spec: subAdminLoginsResource,
  table: loginHistory,
  idColumn: loginHistory.id,
  baseWhere: sql`${loginHistory.adminId} in (select id from admins where role = 'subadmin')`,
  columns: { createdAt: loginHistory.createdAt, email: loginHistory.email, adminId: loginHistory.adminId, ip: loginHistory.ip, success: loginHistory.success },
  caseInsensitive: ['email'],
  searchColumns: [loginHistory.email, loginHistory.ip, loginHistory.userAgent],
  toRecord: (r) => toLoginHistoryItem(r as typeof loginHistory.$inferSelect),
});
