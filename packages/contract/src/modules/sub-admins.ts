import { z } from 'zod';
import { defineStates, stateOptions, stateValues } from '../resources/states.js';
import { endpoint, readAccess } from '../resources/endpoint.js';
import { common, recordFields, resourceSpec, } from '../resources/spec.js';
import { isRestrictionName, namedRightsOf, RESTRICTION_NAMES } from '../restrictions.js';
import { emailSchema, passwordSchema } from './auth.js';

/** One row of the permission matrix; the name must be a known restriction name. canEdit implies canView. */
export const restrictionGrantSchema = z
  .object({
    name: z.string().refine(isRestrictionName, 'Unknown restriction name'),
    canView: z.boolean(),
    canEdit: z.boolean(),
    rights: z.array(z.string().max(50)).max(20).optional(),
  })
  .refine((g) => (g.rights ?? []).every((r) => namedRightsOf(g.name).some((n) => n.key === r)), { message: 'Unknown right for this name', path: ['rights'] })
  .transform((g) => {
    const rights = [...new Set(g.rights ?? [])].sort();
    // Any right implies viewing the name's pages.
    const canView = g.canView || g.canEdit || rights.length > 0;
    return rights.length ? { name: g.name, canView, canEdit: g.canEdit, rights } : { name: g.name, canView, canEdit: g.canEdit };
  });

export const restrictionListSchema = z
  .array(restrictionGrantSchema)
  .max(100)
  .refine((list) => new Set(list.map((g) => g.name)).size === list.length, 'Each restriction name may appear once');

export const adminStatusSchema = z.enum(['active', 'disabled']);

export const createSubAdminBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(2, 'Name must be at least 2 characters').max(100, 'Name is too long'),
  email: emailSchema,
  password: passwordSchema,
  restriction: restrictionListSchema.default([]),
  status: adminStatusSchema.default('active'),
});

export const updateSubAdminBody = z
  .object({
    name: createSubAdminBody.shape.name,
    email: emailSchema,
    restriction: restrictionListSchema,
    status: adminStatusSchema,
  })
  .partial()
  .strict();

export const setAdminPasswordBody = z.object({ password: passwordSchema }).strict();

export interface SubAdminRecord {
  _id: string;
  name: string;
  email: string;
  role: string;
  status: 'active' | 'disabled';
  restriction: { name: string; canView: boolean; canEdit: boolean }[];
  lastLoginAt: string | null;
  liveSessions: number;
  /** Who created the account (null: a super admin, or before this was recorded). */
  createdByEmail: string | null;
  /** Who disabled it, while it is disabled. */
  disabledByEmail: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A sub-admin's status: moved through the form and bulk status (disable/enable), not through actions. */
export const subAdminStates = defineStates({
  noun: 'Sub-admin',
  states: [{ value: 'active', label: 'Active', color: 'green' }, { value: 'disabled', label: 'Disabled', color: 'red' }],
  initial: 'active',
  transitions: { disable: { from: ['active'], to: 'disabled' }, enable: { from: ['disabled'], to: 'active' } },
});

const ADMIN_STATUS = stateOptions(subAdminStates);

const grant = z.object({ name: z.string(), canView: z.boolean(), canEdit: z.boolean(), rights: z.array(z.string()).optional() }).strict();
export const subAdminRecord = z.object({
  _id: recordFields.id, name: z.string(), email: z.string(), role: z.literal('subadmin'), status: z.enum(stateValues(subAdminStates)),
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
  bulkStatuses: stateValues(subAdminStates),
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'email', label: 'Email', type: 'email', required: true },
    { key: 'password', label: 'Password', type: 'password', createOnly: true, required: true, description: '8 to 128 characters, hard to guess: a few uncommon words work well' },
    { key: 'status', label: 'Status', type: 'select', options: ADMIN_STATUS },
    { key: 'restriction', label: 'Permissions', type: 'permissions' },
  ],
  create: createSubAdminBody,
  update: updateSubAdminBody,
  states: subAdminStates,
  actions: [
    {
      name: 'set-password', label: 'Set new password', right: 'edit', input: setAdminPasswordBody,
      fields: [{ key: 'password', label: 'New password', type: 'password', required: true, description: '8 to 128 characters, hard to guess: a few uncommon words work well' }],
      confirm: 'Their current sessions end; they sign in again with the new password.',
    },
    { name: 'end-sessions', label: 'End sessions', right: 'edit', confirm: 'They are signed out everywhere at their next request.', bulk: true },
    {
      name: 'reset-2fa', label: 'Reset 2FA', right: 'edit', danger: true,
      confirm: 'Their authenticator and recovery codes stop working and their sessions end; they sign in with the password alone and enrol again.',
    },
  ],
  children: [{ resource: 'sub-admin-logins', label: 'Sign-ins', filter: 'adminId' }],
});

/** The rights matrix's rows: active sub modules grouped by their active module, in catalogue order. */
export const permissionCatalogueSchema = z.object({ groups: z.array(z.object({ module: z.string(), names: z.array(z.enum(RESTRICTION_NAMES)) })) });
export type PermissionCatalogue = z.infer<typeof permissionCatalogueSchema>;

export const subAdminEndpoints = {
  // Readable with "Sub Admin" alone, so editing admins needs no right on the catalogue pages themselves.
  permissionCatalogue: endpoint('GET /api/admin/permission-catalogue', { access: readAccess('Sub Admin'), summary: 'The permission matrix\'s rows', result: permissionCatalogueSchema }),
};
