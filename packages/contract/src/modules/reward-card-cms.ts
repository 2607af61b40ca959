import { z } from 'zod';
import { endpoint, PLATFORM_ACCESS } from '../resources/endpoint.js';
import { common, recordFields, resourceSpec, sortOrderSchema, statusSchema, updateSchemaOf } from '../resources/spec.js';
import { imageUrlSchema } from './uploads.js';

// ── Reward card CMS: the content blocks of the public reward-card page ─────
export const rewardCardCmsCreate = z.object({
  title: z.string({ error: 'Title is required' }).trim().min(2, 'At least 2 characters').max(150, 'At most 150 characters'),
  /** Rich text; sanitised on the server (the FAQ's allowlist). */
  body: z.string().trim().max(20_000, 'Too long').default(''),
  imageUrl: imageUrlSchema.default(''),
  sortOrder: sortOrderSchema,
  status: statusSchema.default('active'),
});
export const rewardCardCmsUpdate = updateSchemaOf(rewardCardCmsCreate);

export const rewardCardCmsRecord = z.object({
  _id: recordFields.id, title: z.string(), body: z.string(), imageUrl: z.string(), sortOrder: z.number().int(), status: recordFields.status,
  createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export type RewardCardCmsBlock = z.infer<typeof rewardCardCmsRecord>;

/** The public reward-card page is its active blocks in order: title, image, text. The record page previews the whole page. */
export const rewardCardCmsResource = resourceSpec(rewardCardCmsRecord, {
  name: 'reward-card-cms', label: 'Reward card page block', plural: 'Reward card page', restriction: 'Crypto Reward Card CMS',
  pages: { list: '/crypto-rewardcard-cms', add: '/add-crypto-rewardcard-cms', update: '/crypto-rewardcard-cms-update/{id}' },
  titleField: 'title',
  columns: [
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'title', label: 'Title', type: 'text', sortable: true },
    { key: 'body', label: 'Text', type: 'longtext', hidden: true },
    common.orderColumn,
    common.statusColumn,
    { key: 'updatedAt', label: 'Updated', type: 'date', sortable: true },
  ],
  filters: [common.statusFilter],
  search: 'title or text',
  defaultSort: 'sortOrder',
  deleteMode: 'delete',
  bulkStatuses: ['active', 'inactive'],
  form: [
    { key: 'title', label: 'Title', type: 'text', required: true },
    { key: 'body', label: 'Text', type: 'richtext' },
    { key: 'imageUrl', label: 'Image', type: 'image' },
    { key: 'sortOrder', label: 'Order', type: 'number', description: 'Blocks show in this order, lowest first' },
    { key: 'status', label: 'Status', type: 'select', options: [{ value: 'active', label: 'Active (shown)' }, { value: 'inactive', label: 'Inactive (hidden)' }] },
  ],
  create: rewardCardCmsCreate,
  update: rewardCardCmsUpdate,
});

/** The reward-card page as the platform shows it: its active blocks in order (the stored, sanitised text). */
export const platformRewardCardPageSchema = z.object({
  blocks: z.array(z.object({ _id: z.string(), title: z.string(), body: z.string(), imageUrl: z.string(), sortOrder: z.number().int(), updatedAt: z.string() }).strict()),
  /** The latest change of any shown block (null: no block shown). */
  updatedAt: z.string().nullable(),
}).strict();
export type PlatformRewardCardPage = z.infer<typeof platformRewardCardPageSchema>;

export const rewardCardCmsEndpoints = {
  platformRewardCardPage: endpoint('GET /api/platform/v1/reward-card-page', {
    access: PLATFORM_ACCESS,
    summary: 'The public reward-card page: its active content blocks by order (inactive ones are left out)',
    result: platformRewardCardPageSchema,
  }),
};
