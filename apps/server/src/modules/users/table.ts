import { userStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';

/** The declared machine's states (packages/contract/src/modules/users.ts): one list for the CHECK, the API and the services. */
export const USER_STATUSES = stateValues(userStates);
export type UserStatus = (typeof USER_STATUSES)[number];

/**
 * Platform users (the players), not admins. Balances are not here: they are ledger accounts.
 * Indexes serve a 1M-row list paged by keyset on (created_at, id), alone or after a status or
 * country filter, or on (username, id) and (email, id) when sorted by those; the case-insensitive
 * lookups by email and username; and the free-text search (`ILIKE '%…%'` on username or email)
 * through trigram indexes (the `pg_trgm` extension, created by the migration and loaded by PGlite).
 */
export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    /** Solana public key (base58); one user per wallet. */
    walletAddress: text('wallet_address'),
    status: text('status').notNull().$type<UserStatus>().default('active'),
    blockedReason: text('blocked_reason'),
    blockedAt: ts('blocked_at'),
    /** Admin who blocked (an admin id, like audit_log.admin_id: a historical reference, no foreign key). */
    blockedBy: ref('blocked_by'),
    emailVerified: boolean('email_verified').notNull().default(false),
    /**
     * A house account: the platform's own trading account, which trade bots trade as. Never a
     * customer's: set by an admin with the right to adjust balances (a bot moves the account's money).
     */
    house: boolean('house').notNull().default(false),
    /** ISO 3166-1 alpha-2, upper case. */
    country: text('country'),
    signupIp: text('signup_ip').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    uniqueIndex('users_wallet_uq').on(t.walletAddress),
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_status_created_idx').on(t.status, t.createdAt, t.id),
    index('users_country_created_idx').on(t.country, t.createdAt, t.id),
    index('users_username_idx').on(t.username, t.id),
    index('users_email_idx').on(t.email, t.id),
    // The few house accounts among a million users (the trade bot form's user picker).
    index('users_house_idx').on(t.username, t.id).where(sql`${t.house}`),
    // Substring search (`q`, the user picker of reference fields) over a million users: trigram indexes
    // answer `ilike '%marlo%'` in milliseconds where a scan takes seconds (pg_trgm, migration 0012).
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    statusCheck('users_status_ck', t.status, userStates),
    check('users_blocked_reason_ck', sql`(${t.status} = 'blocked') = (${t.blockedReason} is not null)`),
    check('users_country_ck', sql`${t.country} ~ '^[A-Z]{2}$'`),
    check('users_username_ck', sql`length(${t.username}) between 3 and 32`),
  ],
);

export type UserRow = typeof users.$inferSelect;
