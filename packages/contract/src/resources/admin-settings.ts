import { z } from 'zod';
import { isIpOrCidr } from './ip.js';
import { isSolanaAddress } from './solana.js';
import { common, recordFields, resourceSpec, sortOrderSchema, statusSchema, updateSchemaOf } from './spec.js';

const reason = z.string().trim().max(500, 'At most 500 characters').default('');

// ── Block IP ────────────────────────────────────────────────────────────────
export const blockedIpCreate = z.object({
  address: z.string({ error: 'Address is required' }).trim().min(1, 'Address is required').refine(isIpOrCidr, 'Enter an IPv4/IPv6 address or a CIDR range'),
  reason,
  /** Needed when the range holds the caller's own address or a super admin's recent one (the server answers CONFIRM_REQUIRED). */
  confirm: z.boolean().optional(),
});
export const blockedIpUpdate = updateSchemaOf(blockedIpCreate);

export const blockedIpRecord = z.object({
  _id: recordFields.id, address: z.string(), reason: z.string(), createdByEmail: z.string().nullable(), createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const blockedIpsResource = resourceSpec(blockedIpRecord, {
  name: 'blocked-ips',
  label: 'Blocked IP',
  plural: 'Blocked IPs',
  restriction: 'Ip Address',
  pages: { list: '/ip-address', add: '/add-block-ip', update: '/update-block-ip/{id}' },
  titleField: 'address',
  columns: [
    { key: 'address', label: 'Address / range', type: 'code', sortable: true },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'createdByEmail', label: 'Blocked by', type: 'text' },
    common.createdColumn,
    { key: 'updatedAt', label: 'Updated', type: 'date', sortable: true, hidden: true },
  ],
  filters: [common.createdFilter],
  search: 'address or reason',
  defaultSort: '-createdAt',
  deleteMode: 'delete',
  form: [
    { key: 'address', label: 'Address or CIDR range', type: 'text', placeholder: '203.0.113.7 or 198.51.100.0/24 or 2001:db8::/32', required: true },
    { key: 'reason', label: 'Reason', type: 'textarea' },
  ],
  create: blockedIpCreate,
  update: blockedIpUpdate,
});

// ── Block Wallet / Whitelist Wallet ────────────────────────────────────────
export const walletCreate = z.object({
  address: z.string({ error: 'Address is required' }).trim().refine(isSolanaAddress, 'Enter a Solana public key (base58, 32 bytes)'),
  label: z.string().trim().max(100, 'At most 100 characters').default(''),
  reason,
});
export const walletUpdate = updateSchemaOf(walletCreate);

const walletColumns = [
  { key: 'address', label: 'Address', type: 'code', sortable: true },
  { key: 'label', label: 'Label', type: 'text', sortable: true },
  { key: 'reason', label: 'Reason', type: 'text' },
  { key: 'createdByEmail', label: 'Added by', type: 'text', hidden: true },
  { key: 'createdAt', label: 'Created', type: 'date', sortable: true },
] as const;
const walletForm = [
  { key: 'address', label: 'Wallet address', type: 'text', placeholder: 'Solana public key', required: true },
  { key: 'label', label: 'Label', type: 'text' },
  { key: 'reason', label: 'Reason', type: 'textarea' },
] as const;

export const walletRecord = z.object({
  _id: recordFields.id, address: z.string(), label: z.string(), reason: z.string(), createdByEmail: z.string().nullable(), createdAt: recordFields.at, updatedAt: recordFields.at,
}).strict();

export const blockedWalletsResource = resourceSpec(walletRecord, {
  name: 'blocked-wallets',
  label: 'Blocked wallet',
  plural: 'Blocked wallets',
  restriction: 'Wallet Address',
  pages: { list: '/wallet-address', add: '/add-wallet-address', update: '/update-wallet-address/{id}' },
  titleField: 'address',
  columns: walletColumns,
  filters: [common.createdFilter],
  search: 'address, label or reason',
  defaultSort: '-createdAt',
  deleteMode: 'delete',
  form: walletForm,
  create: walletCreate,
  update: walletUpdate,
});

export const whitelistWalletsResource: typeof blockedWalletsResource = {
  ...blockedWalletsResource,
  name: 'whitelist-wallets',
  label: 'Whitelisted wallet',
  plural: 'Whitelisted wallets',
  restriction: 'Whitelist Wallet Address',
  pages: { list: '/white-list', add: '/add-white-list', update: '/update-white-list/{id}' },
};

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
