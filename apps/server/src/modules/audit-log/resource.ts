import { auditLogResource, } from '@pitboss/contract';
import { auditLog, } from '../../db/schema.js';
import { iso, defineResource, } from '../../resources/define.js';

const ACTOR_KINDS = ['admin', 'platform', 'system'] as const;
/** The column's text as its kind (`writeAudit` writes only these three; anything else is a bug, said loudly). */
function actorKindOf(text: string): (typeof ACTOR_KINDS)[number] {
  const kind = ACTOR_KINDS.find((k) => k === text);
  if (!kind) throw new Error(`audit_log.actor_kind "${text}" is none of ${ACTOR_KINDS.join(', ')}`);
  return kind;
}

export const auditLogDef = defineResource({
  spec: auditLogResource,
  table: auditLog,
  idColumn: auditLog.id,
  columns: {
    createdAt: auditLog.createdAt, actorKind: auditLog.actorKind, adminEmail: auditLog.adminEmail, resource: auditLog.resource, recordId: auditLog.recordId, action: auditLog.action,
  },
  caseInsensitive: ['adminEmail', 'resource'],
  // Every CSV column is a column of the table: the database writes the export.
  sqlExport: {},
  toRecord: (r) => ({
    _id: String(r.id), actorKind: actorKindOf(r.actorKind), adminId: r.adminId === null ? null : String(r.adminId), adminEmail: r.adminEmail, action: r.action, resource: r.resource,
    recordId: r.recordId, before: r.before, after: r.after, ip: r.ip, createdAt: iso(r.createdAt),
  }),
});
