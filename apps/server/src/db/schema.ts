import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts, updatedAt } from './columns.js';

/*
 * Every table, for drizzle-kit and for code that needs many of them. Each table is declared in its
 * module's folder (`modules/<name>/table.ts`); only this database's own facts live here.
 */
/** Small key/value facts about this database (e.g. when demo data was seeded). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Request counters of the rate limits (`@fastify/rate-limit`'s store when REDIS_URL is not set):
 * one row per route and caller key, counting hits until `expires_at`, shared by every instance.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);

export * from '../modules/sub-admins/table.js';
export * from '../modules/auth/table.js';
export * from '../modules/two-factor/table.js';
export * from '../modules/site-settings/table.js';
export * from '../modules/modules/table.js';
export * from '../modules/sub-modules/table.js';
export * from '../modules/audit-log/table.js';
export * from '../modules/mail-outbox/table.js';
export * from '../modules/email-templates/table.js';
export * from '../modules/blocked-ips/table.js';
export * from '../modules/blocked-wallets/table.js';
export * from '../modules/whitelist-wallets/table.js';
export * from '../modules/faqs/table.js';
export * from '../modules/cms-pages/table.js';
export * from '../modules/tags/table.js';
export * from '../modules/support-categories/table.js';
export * from '../modules/users/table.js';
export * from '../modules/coins/table.js';
export * from '../modules/ledger/table.js';
export * from '../modules/deposits/table.js';
export * from '../modules/withdrawals/table.js';
export * from '../modules/fiat-payments/table.js';
export * from '../modules/platform/table.js';
export * from '../modules/series/table.js';
export * from '../modules/events/table.js';
export * from '../modules/markets/table.js';
export * from '../modules/orders/table.js';
export * from '../modules/resolutions/table.js';
export * from '../modules/trade-bots/table.js';
export * from '../modules/cards/table.js';
export * from '../modules/reward-card-cms/table.js';
export * from '../modules/tickets/table.js';
export * from '../modules/notifications/table.js';
export * from '../modules/booster-packs/table.js';
export * from '../modules/offline-stores/table.js';
export * from '../modules/reward-cards/table.js';
export * from '../modules/approvals/table.js';
export * from '../modules/balance-adjustments/table.js';
export * from '../modules/kill-switches/table.js';
export * from '../modules/reconciliation/table.js';
export * from '../modules/saved-views/table.js';
