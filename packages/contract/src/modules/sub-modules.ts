import { z } from 'zod';
import { common, recordFields, resourceSpec, sortOrderSchema, STATUS_OPTIONS, statusSchema, updateSchemaOf } from '../resources/spec.js';
import { RESTRICTION_NAMES } from '../restrictions.js';

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
    { key: 'moduleId', label: 'Module', type: 'equals', reference: { resource: 'modules', labelKey: 'name' } },
  ],
  search: 'name',
  defaultSort: 'sortOrder',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Restriction name', type: 'select', options: RESTRICTION_OPTIONS, required: true },
    { key: 'moduleId', label: 'Module', type: 'reference', reference: { resource: 'modules', labelKey: 'name' }, required: true },
    { key: 'pages', label: 'Pages', type: 'tags', description: 'Paths of the pages this right opens' },
    common.orderField,
    { key: 'status', label: 'Status', type: 'select', options: STATUS_OPTIONS, description: 'Inactive sub modules are hidden from the permission matrix' },
  ],
  create: subModuleCreate,
  update: subModuleUpdate,
});
