import { bigint, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

/**
 * An admin's TOTP secret (AES-256-GCM, key from `TOTP_ENCRYPTION_KEY`). `enabledAt` null: enrolment
 * started, not confirmed. `lastUsedStep`: the 30 s step of the last accepted code (each code once).
 * `failedAttempts`/`lastFailedAt`: wrong codes since the last good one (growing delay after 5).
 */
export const adminTwoFactor = pgTable('admin_two_factor', {
  adminId: bigint('admin_id', { mode: 'number' }).primaryKey().references(() => admins.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  enabledAt: ts('enabled_at'),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }).notNull().default(0),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lastFailedAt: ts('last_failed_at'),
  createdAt: createdAt(),
});

/** One-time recovery codes, sha256 of a 60-bit random code; `usedAt` once spent. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull().references(() => admins.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('admin_recovery_codes_admin_idx').on(t.adminId), uniqueIndex('admin_recovery_codes_hash_uq').on(t.adminId, t.codeHash)],
);

/** The first sign-in step's challenge (token hashed): short-lived, single use, no session. */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: id(),
    adminId: bigint('admin_id', { mode: 'number' }).notNull().references(() => admins.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('two_factor_challenges_token_uq').on(t.tokenHash), index('two_factor_challenges_admin_idx').on(t.adminId)],
);
