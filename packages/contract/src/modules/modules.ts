import { z } from 'zod';
import { common, recordFields, resourceSpec, sortOrderSchema, statusSchema, updateSchemaOf } from '../resources/spec.js';

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
