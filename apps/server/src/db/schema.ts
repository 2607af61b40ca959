import { sql } from 'drizzle-orm';
import {
  bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
// Millisecond precision, like a JS Date: a timestamp read back and sent as a cursor compares exactly.
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const createdAt = () => ts('created_at').notNull().defaultNow();
const updatedAt = () => ts('updated_at').notNull().defaultNow();

export interface RestrictionJson {
  name: string;
  canView: boolean;
  canEdit: boolean;
}

export const admins = pgTable(
  'admins',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().$type<'superadmin' | 'subadmin'>(),
    restriction: jsonb('restriction').notNull().$type<RestrictionJson[]>().default([]),
    status: text('status').notNull().$type<'active' | 'disabled'>().default('active'),
    lastLoginAt: ts('last_login_at'),
    passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
    /** Who created the account: a sub-admin manages only accounts below them in this tree. Null: a super admin (or before the tree). */
    createdBy: bigint('created_by', { mode: 'number' }).references((): AnyPgColumn => admins.id, { onDelete: 'set null' }),
    /** Who disabled it: only that admin or someone above them may undo it. */
    disabledBy: bigint('disabled_by', { mode: 'number' }).references((): AnyPgColumn => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('admins_email_lower_uq').on(sql`lower(${t.email})`),
    check('admins_role_ck', sql`${t.role} in ('superadmin','subadmin')`),
    check('admins_status_ck', sql`${t.status} in ('active','disabled')`),
  ],
);

export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull().references(() => admins.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [uniqueIndex('admin_sessions_token_uq').on(t.tokenHash), index('admin_sessions_admin_idx').on(t.adminId)],
);

export const loginHistory = pgTable(
  'login_history',
  {
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    success: boolean('success').notNull(),
    reason: text('reason'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_history_email_idx').on(t.email, t.createdAt),
    index('login_history_ip_idx').on(t.ip, t.createdAt),
    index('login_history_admin_idx').on(t.adminId, t.createdAt),
    index('login_history_created_idx').on(t.createdAt, t.id),
  ],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull().references(() => admins.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    ip: text('ip').notNull().default(''),
  },
  (t) => [uniqueIndex('password_resets_token_uq').on(t.tokenHash), index('password_resets_admin_idx').on(t.adminId, t.createdAt)],
);

export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey().default(1),
    siteName: text('site_name').notNull().default('Pitboss'),
    logoUrl: text('logo_url').notNull().default(''),
    faviconUrl: text('favicon_url').notNull().default(''),
    contactEmail: text('contact_email').notNull().default(''),
    supportEmail: text('support_email').notNull().default(''),
    socialLinks: jsonb('social_links').notNull().$type<Record<string, string>>().default({}),
    maintenanceMode: boolean('maintenance_mode').notNull().default(false),
    registrationOpen: boolean('registration_open').notNull().default(true),
    takerFeeBps: integer('taker_fee_bps').notNull().default(100),
    makerFeeBps: integer('maker_fee_bps').notNull().default(0),
    withdrawalAutoApproveLimit: bigint('withdrawal_auto_approve_limit', { mode: 'bigint' }).notNull().default(sql`0`),
    withdrawalsEnabled: boolean('withdrawals_enabled').notNull().default(true),
    footerText: text('footer_text').notNull().default(''),
    updatedAt: updatedAt(),
    updatedBy: bigint('updated_by', { mode: 'number' }),
  },
  (t) => [check('site_settings_single_ck', sql`${t.id} = 1`)],
);

export const permissionModules = pgTable('permission_modules', {
  id: id(),
  name: text('name').notNull().unique(),
  sortOrder: integer('sort_order').notNull().default(0),
  status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const permissionSubModules = pgTable(
  'permission_sub_modules',
  {
    id: id(),
    moduleId: bigint('module_id', { mode: 'number' }).notNull().references(() => permissionModules.id, { onDelete: 'restrict' }),
    name: text('name').notNull().unique(),
    pages: jsonb('pages').notNull().$type<string[]>().default([]),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('permission_sub_modules_module_idx').on(t.moduleId)],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    /** admin | platform | system: who acted (admin_email holds `platform` or `system:<job>` for the others). */
    actorKind: text('actor_kind').notNull().default('admin'),
    adminId: bigint('admin_id', { mode: 'number' }),
    adminEmail: text('admin_email').notNull().default(''),
    action: text('action').notNull(),
    resource: text('resource').notNull(),
    recordId: text('record_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt, t.id),
    index('audit_log_record_idx').on(t.resource, t.recordId, t.createdAt),
    index('audit_log_admin_idx').on(t.adminId, t.createdAt),
  ],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    templateKey: text('template_key'),
    /** pending → sent | failed; `held` when no SMTP is configured (it stays, unredacted, for the outbox page). */
    status: text('status').notNull().$type<'pending' | 'sent' | 'failed' | 'held'>().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.nextAttemptAt)],
);

export const emailTemplates = pgTable('email_templates', {
  id: id(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  variables: jsonb('variables').notNull().$type<string[]>().default([]),
  status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// ── Admin settings ──────────────────────────────────────────────────────────
export const blockedIps = pgTable(
  'blocked_ips',
  {
    id: id(),
    /** Normalised CIDR text (`203.0.113.7/32`, `2001:db8::/32`). */
    address: text('address').notNull(),
    reason: text('reason').notNull().default(''),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('blocked_ips_address_uq').on(t.address), index('blocked_ips_created_idx').on(t.createdAt, t.id)],
);

/** Blocked and whitelisted wallets have the same shape: a Solana address, label, reason. */
const walletList = (name: 'blocked_wallets' | 'whitelist_wallets') =>
  pgTable(
    name,
    {
      id: id(),
      address: text('address').notNull(),
      label: text('label').notNull().default(''),
      reason: text('reason').notNull().default(''),
      createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
      createdAt: createdAt(),
      updatedAt: updatedAt(),
    },
    (t) => [uniqueIndex(`${name}_address_uq`).on(t.address)],
  );
export const blockedWallets = walletList('blocked_wallets');
export const whitelistWallets = walletList('whitelist_wallets');

export const faqs = pgTable(
  'faqs',
  {
    id: id(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    category: text('category').notNull().default('General'),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('faqs_order_idx').on(t.sortOrder, t.id)],
);

export const tags = pgTable(
  'tags',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('tags_name_uq').on(sql`lower(${t.name})`), uniqueIndex('tags_slug_uq').on(t.slug)],
);

export const supportCategories = pgTable(
  'support_categories',
  {
    id: id(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    /** Categories are archived, not deleted: tickets keep pointing at them. */
    archivedAt: ts('archived_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('support_categories_name_uq').on(sql`lower(${t.name})`)],
);

/** Small key/value facts about this database (e.g. when demo data was seeded). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

// ── Platform users and money (tables live with their modules; re-exported for drizzle-kit) ──
export * from '../modules/users/table.js';
export * from '../modules/coins/table.js';
export * from '../modules/ledger/table.js';
export * from '../modules/deposits/table.js';
export * from '../modules/withdrawals/table.js';
export * from '../modules/fiat-payments/table.js';
export * from '../modules/platform/table.js';
