import { z } from 'zod';
import { common, recordFields, resourceSpec, sortOrderSchema, statusSchema, updateSchemaOf } from '../resources/spec.js';

// ── Support category ───────────────────────────────────────────────────────
export const supportCategoryCreate = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(2, 'At least 2 characters').max(80, 'At most 80 characters'),
  sortOrder: sortOrderSchema,
  status: statusSchema.default('active'),
});
export const supportCategoryUpdate = updateSchemaOf(supportCategoryCreate);

export const supportCategoryRecord = z.object({
  _id: recordFields.id, name: z.string(), sortOrder: z.number().int(), status: recordFields.status, archivedAt: recordFields.atOrNull,
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const supportCategoriesResource = resourceSpec(supportCategoryRecord, {
  name: 'support-categories',
  label: 'Support category',
  plural: 'Support categories',
  restriction: 'Support category',
  pages: { list: '/support-category', add: '/add-support-category', update: '/update-support-category/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    common.orderColumn,
    common.statusColumn,
    common.createdColumn,
    common.archivedColumn,
  ],
  filters: [common.statusFilter, common.archivedFilter, common.createdFilter],
  search: 'name',
  defaultSort: 'sortOrder',
  deleteMode: 'archive',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    common.orderField,
    common.statusField,
  ],
  create: supportCategoryCreate,
  update: supportCategoryUpdate,
});
