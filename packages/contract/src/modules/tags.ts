import { z } from 'zod';
import { common, recordFields, resourceSpec, statusSchema, updateSchemaOf } from '../resources/spec.js';

// ── Tags ───────────────────────────────────────────────────────────────────
export const tagCreate = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(50, 'At most 50 characters'),
  slug: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Lowercase letters, digits and dashes')
    .optional(),
  status: statusSchema.default('active'),
});
export const tagUpdate = updateSchemaOf(tagCreate);

export const tagRecord = z.object({
  _id: recordFields.id, name: z.string(), slug: z.string(), status: recordFields.status, createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const tagsResource = resourceSpec(tagRecord, {
  name: 'tags',
  label: 'Tag',
  plural: 'Tags',
  restriction: 'Tags',
  pages: { list: '/tags', add: '/add-tag', update: '/update-tag/{id}' },
  titleField: 'name',
  columns: [
    { key: 'name', label: 'Name', type: 'text', sortable: true },
    { key: 'slug', label: 'Slug', type: 'code', sortable: true },
    common.statusColumn,
    common.createdColumn,
  ],
  filters: [common.statusFilter, common.createdFilter],
  search: 'name or slug',
  defaultSort: 'name',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    { key: 'slug', label: 'Slug', type: 'text', description: 'Made from the name when left empty' },
    common.statusField,
  ],
  create: tagCreate,
  update: tagUpdate,
});
