import { auditLogResource, } from '@pitboss/contract';
import { auditLog, } from '../../db/schema.js';
import { defineResource, isoOrNull, } from '../../resources/define.js';

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
    _id: String(r.id), actorKind: r.actorKind, adminId: r.adminId === null ? null : String(r.adminId), adminEmail: r.adminEmail, action: r.action, resource: r.resource,
    recordId: r.recordId, before: r.before, after: r.after, ip: r.ip, createdAt: isoOrNull(r.createdAt),
  }),
});
