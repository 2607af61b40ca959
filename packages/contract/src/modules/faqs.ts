import { z } from 'zod';
import { common, recordFields, resourceSpec, sortOrderSchema, statusSchema, updateSchemaOf } from '../resources/spec.js';

// ── FAQ ────────────────────────────────────────────────────────────────────
export const faqCreate = z.object({
  question: z.string({ error: 'Question is required' }).trim().min(3, 'At least 3 characters').max(300, 'At most 300 characters'),
  /** Rich text; sanitised on the server. */
  answer: z.string({ error: 'Answer is required' }).trim().min(1, 'Answer is required').max(20_000, 'Too long'),
  category: z.string().trim().max(60, 'At most 60 characters').default('General'),
  sortOrder: sortOrderSchema,
  status: statusSchema.default('active'),
});
export const faqUpdate = updateSchemaOf(faqCreate);

export const faqRecord = z.object({
  _id: recordFields.id, question: z.string(), answer: z.string(), category: z.string(), sortOrder: z.number().int(), status: recordFields.status,
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const faqsResource = resourceSpec(faqRecord, {
  name: 'faqs',
  label: 'FAQ',
  plural: 'FAQ',
  restriction: 'FAQ',
  pages: { list: '/faq', add: '/add-faq', update: '/update-faq/{id}' },
  titleField: 'question',
  columns: [
    { key: 'question', label: 'Question', type: 'text', sortable: true },
    { key: 'category', label: 'Category', type: 'text', sortable: true },
    common.orderColumn,
    common.statusColumn,
    { key: 'updatedAt', label: 'Updated', type: 'date', sortable: true },
  ],
  filters: [
    common.statusFilter,
    { key: 'category', label: 'Category', type: 'equals' },
    { key: 'sortOrder', label: 'Order', type: 'range' },
    { key: 'updatedAt', label: 'Updated', type: 'dateRange' },
  ],
  search: 'question or answer',
  defaultSort: 'sortOrder',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'question', label: 'Question', type: 'text', required: true },
    { key: 'answer', label: 'Answer', type: 'richtext', required: true, description: 'Basic formatting and links; scripts and styles are removed.' },
    { key: 'category', label: 'Category', type: 'text' },
    common.orderField,
    common.statusField,
  ],
  create: faqCreate,
  update: faqUpdate,
});
