
import { bigint, boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

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
    /** Where the session began (ISO country, city), located at sign-in. */
    countryCode: text('country_code'),
    city: text('city'),
    revokedAt: ts('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [uniqueIndex('admin_sessions_token_uq').on(t.tokenHash), index('admin_sessions_admin_idx').on(t.adminId)],
);

/**
 * Every address a session was used from (its sign-in address included), recorded at the first
 * request from it and kept fresh as the session is touched: the blocked-IP rule protects each
 * address a higher admin worked from in the last days, not only where they signed in.
 */
export const adminSessionAddresses = pgTable(
  'admin_session_addresses',
  {
    sessionId: bigint('session_id', { mode: 'number' }).notNull().references(() => adminSessions.id, { onDelete: 'cascade' }),
    adminId: bigint('admin_id', { mode: 'number' }).notNull().references(() => admins.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_session_addresses_uq').on(t.sessionId, t.ip), index('admin_session_addresses_seen_idx').on(t.lastSeenAt)],
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
    /** Located at sign-in time (docs/using.md, "Where sign-ins come from"): history does not change with the database. */
    countryCode: text('country_code'),
    city: text('city'),
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
