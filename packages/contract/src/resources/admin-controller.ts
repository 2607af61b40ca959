import { z } from 'zod';
import { RESTRICTION_NAMES } from '../restrictions.js';
import { createSubAdminBody, setAdminPasswordBody, updateSubAdminBody } from '../schemas/admins.js';
import { loginAttemptRecord } from './account.js';
import { common, recordFields, resourceSpec, sortOrderSchema, STATUS_OPTIONS, statusSchema, updateSchemaOf } from './spec.js';

const ADMIN_STATUS = [
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
] as const;

const grant = z.object({ name: z.string(), canView: z.boolean(), canEdit: z.boolean(), rights: z.array(z.string()).optional() }).strict();
export const subAdminRecord = z.object({
  _id: recordFields.id, name: z.string(), email: z.string(), role: z.literal('subadmin'), status: z.enum(['active', 'disabled']),
  restriction: z.array(grant), rights: z.string(), liveSessions: z.number().int(), createdByEmail: z.string().nullable(), disabledByEmail: z.string().nullable(),
  lastLoginAt: recordFields.atOrNull, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const subAdminsResource = resourceSpec(subAdminRecord, {
  name: 'sub-admins',
  label: 'Sub admin',
  plural: 'Sub admins',
  restriction: 'Sub Admin',
  pages: { list: '/sub-admin', add: '/add-admin', update: '/update-admin/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'email', label: 'Email', type: 'text', sortable: true },
    common.statusColumn,
    { key: 'rights', label: 'Rights', type: 'text' },
    { key: 'liveSessions', label: 'Live sessions', type: 'number' },
    { key: 'createdByEmail', label: 'Created by', type: 'text', hidden: true },
    { key: 'disabledByEmail', label: 'Disabled by', type: 'text', hidden: true },
    { key: 'lastLoginAt', label: 'Last sign-in', type: 'date', sortable: true },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: ADMIN_STATUS },
    { key: 'lastLoginAt', label: 'Last sign-in', type: 'dateRange' },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  search: 'name or email',
  defaultSort: 'name',
  // Admins are disabled, never deleted: their audit trail stays attached.
  deleteMode: 'none',
  bulkStatuses: ['active', 'disabled'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'email', label: 'Email', type: 'email', required: true },
    { key: 'password', label: 'Password', type: 'password', createOnly: true, required: true, description: '8 to 128 characters, hard to guess: a few uncommon words work well' },
    { key: 'status', label: 'Status', type: 'select', options: ADMIN_STATUS },
    { key: 'restriction', label: 'Permissions', type: 'permissions' },
  ],
  create: createSubAdminBody,
  update: updateSubAdminBody,
  states: {
    states: [
      { value: 'active', label: 'Active', color: 'green' },
      { value: 'disabled', label: 'Disabled', color: 'red' },
    ],
  },
  actions: [
    {
      name: 'set-password', label: 'Set new password', right: 'edit', input: setAdminPasswordBody,
      fields: [{ key: 'password', label: 'New password', type: 'password', required: true, description: '8 to 128 characters, hard to guess: a few uncommon words work well' }],
      confirm: 'Their current sessions end; they sign in again with the new password.',
    },
    { name: 'end-sessions', label: 'End sessions', right: 'edit', confirm: 'They are signed out everywhere at their next request.' },
  ],
  children: [{ resource: 'sub-admin-logins', label: 'Sign-ins', filter: 'adminId' }],
});

export const moduleCreate = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(60, 'At most 60 characters'),
  sortOrder: sortOrderSchema,
  status: statusSchema.default('active'),
});
export const moduleUpdate = updateSchemaOf(moduleCreate);

export const moduleRecord = z.object({
  _id: recordFields.id, name: z.string(), sortOrder: z.number().int(), status: recordFields.status, subModuleCount: z.number().int(),
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const modulesResource = resourceSpec(moduleRecord, {
  name: 'modules',
  label: 'Module',
  plural: 'Modules',
  restriction: 'Modules',
  pages: { list: '/modules', add: '/add-modules', update: '/update-modules/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'subModuleCount', label: 'Sub modules', type: 'number' },
    common.orderColumn,
    common.statusColumn,
  ],
  filters: [common.statusFilter],
  search: 'name',
  defaultSort: 'sortOrder',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    common.orderField,
    common.statusField,
  ],
  create: moduleCreate,
  update: moduleUpdate,
});

const RESTRICTION_OPTIONS = RESTRICTION_NAMES.map((n) => ({ value: n, label: n }));

export const subModuleCreate = z.object({
  /** A sub module is one restriction name: the server checks rights by this name. */
  name: z.enum(RESTRICTION_NAMES, { error: 'Choose a restriction name' }),
  moduleId: z.string({ error: 'Choose a module' }).regex(/^\d{1,18}$/, 'Choose a module'),
  pages: z.array(z.string().trim().regex(/^\/[A-Za-z0-9\-/{}]*$/, 'A path such as /faq')).max(20).default([]),
  sortOrder: sortOrderSchema,
  status: statusSchema.default('active'),
});
export const subModuleUpdate = updateSchemaOf(subModuleCreate);

export const subModuleRecord = z.object({
  _id: recordFields.id, name: z.string(), moduleId: recordFields.id, moduleName: z.string(), pages: z.array(z.string()), sortOrder: z.number().int(),
  status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const subModulesResource = resourceSpec(subModuleRecord, {
  name: 'sub-modules',
  label: 'Sub module',
  plural: 'Sub modules',
  restriction: 'Sub Modules',
  pages: { list: '/sub-modules', add: '/add-sub-modules', update: '/update-sub-modules/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Restriction name', type: 'text', sortable: true },
    { key: 'moduleName', label: 'Module', type: 'text', sortable: true },
    { key: 'pages', label: 'Pages', type: 'tags' },
    common.orderColumn,
    common.statusColumn,
  ],
  filters: [
    common.statusFilter,
    { key: 'moduleName', label: 'Module', type: 'equals' },
  ],
  search: 'name',
  defaultSort: 'sortOrder',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Restriction name', type: 'select', options: RESTRICTION_OPTIONS, required: true },
    { key: 'moduleId', label: 'Module', type: 'select', optionsFrom: { resource: 'modules', labelKey: 'name' }, required: true },
    { key: 'pages', label: 'Pages', type: 'tags', description: 'Paths of the pages this right opens' },
    common.orderField,
    { key: 'status', label: 'Status', type: 'select', options: STATUS_OPTIONS, description: 'Inactive sub modules are hidden from the permission matrix' },
  ],
  create: subModuleCreate,
  update: subModuleUpdate,
});

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
    { key: 'resource', label: 'Resource', type: 'equals' },
    { key: 'recordId', label: 'Record id', type: 'equals' },
    {
      key: 'action', label: 'Action', type: 'oneOf',
      options: ['create', 'update', 'delete', 'archive', 'restore', 'denied', 'profile_update', 'password_change', 'password_reset', 'password_set', 'end_sessions', 'set-password', 'end-sessions']
        .map((v) => ({ value: v, label: v.replace(/_/g, ' ') })),
    },
    { key: 'createdAt', label: 'Time', type: 'dateRange' },
  ],
  defaultSort: '-createdAt',
  deleteMode: 'none',
});

const subAdminLoginRecord = loginAttemptRecord;

export const subAdminLoginsResource = resourceSpec(subAdminLoginRecord, {
  name: 'sub-admin-logins',
  label: 'Sign-in attempt',
  plural: 'Sub-admin login history',
  restriction: 'Sub Admin',
  pages: { list: '/sub-Admin-login-History' },
  titleField: 'email',
  readOnly: true,
  keyset: true,
  columns: [
    { key: 'createdAt', label: 'Time', type: 'date', sortable: true },
    { key: 'email', label: 'Email', type: 'text' },
    { key: 'success', label: 'Result', type: 'bool' },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'ip', label: 'IP', type: 'code' },
    { key: 'userAgent', label: 'User agent', type: 'longtext' },
  ],
  filters: [
    { key: 'success', label: 'Result', type: 'oneOf', options: [{ value: 'true', label: 'Success' }, { value: 'false', label: 'Failure' }] },
    { key: 'email', label: 'Email', type: 'equals' },
    { key: 'adminId', label: 'Admin id', type: 'equals' },
    { key: 'ip', label: 'IP', type: 'equals' },
    { key: 'createdAt', label: 'Time', type: 'dateRange' },
  ],
  search: 'email, IP or user agent',
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
