import { z } from 'zod';
import { AUDIT_ACTION_OPTIONS } from '../audit.js';
import { recordFields, resourceSpec } from '../resources/spec.js';

export const auditEntryRecord = z.object({
  _id: recordFields.id, actorKind: z.enum(['admin', 'platform', 'system']), adminId: recordFields.id.nullable(), adminEmail: z.string(), action: z.string(),
  resource: z.string(), recordId: z.string().nullable(), before: z.unknown(), after: z.unknown(), ip: z.string(), createdAt: recordFields.at,
}).strict();

export const auditLogResource = resourceSpec(auditEntryRecord, {
  name: 'audit-log',
  label: 'Audit entry',
  plural: 'Audit log',
  restriction: 'Audit Log',
  pages: { list: '/audit-log' },
  titleField: 'action',
  readOnly: true,
  keyset: true,
  columns: [
    { key: 'createdAt', label: 'Time', type: 'date', sortable: true },
    { key: 'adminEmail', label: 'Admin', type: 'text' },
    { key: 'action', label: 'Action', type: 'status' },
    { key: 'resource', label: 'Resource', type: 'text' },
    { key: 'recordId', label: 'Record', type: 'code' },
    { key: 'ip', label: 'IP', type: 'code' },
    { key: 'before', label: 'Before', type: 'json', hidden: true },
    { key: 'after', label: 'After', type: 'json', hidden: true },
    { key: 'actorKind', label: 'Actor', type: 'status', hidden: true },
  ],
  filters: [
    { key: 'adminEmail', label: 'Admin email', type: 'equals' },
    { key: 'actorKind', label: 'Actor', type: 'oneOf', options: [{ value: 'admin', label: 'Admin' }, { value: 'platform', label: 'Platform' }, { value: 'system', label: 'System' }] },
    { key: 'resource', label: 'Resource', type: 'equals', options: 'resources' },
    { key: 'recordId', label: 'Record id', type: 'equals' },
    { key: 'action', label: 'Action', type: 'oneOf', options: AUDIT_ACTION_OPTIONS },
    { key: 'createdAt', label: 'Time', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
