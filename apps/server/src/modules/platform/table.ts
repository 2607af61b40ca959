import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from '../../db/columns.js';

/**
 * The platform API's idempotency keys: one row per (key, method, path), holding a SHA-256 of the
 * request's canonical body and the answer given (status and the exact JSON text sent), so a retry
 * with the same key and body gets the same answer and nothing is done twice.
 *
 * The row is inserted first, in the same transaction as the service's writes, and its answer is
 * filled in before that transaction commits: a committed row always has its answer (the CHECK),
 * and a write never commits without one. A concurrent request with the same key waits on the
 * primary key until the first commits, then replays it. 5xx answers are never stored (their
 * transaction rolls back, the row with it). Rows older than `expires_at` are reused by the next
 * request with the key; `purgeExpiredIdempotencyKeys` deletes them.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text('key').notNull(),
    method: text('method').notNull(),
    /** The matched route (`/api/platform/v1/deposits`), not the raw URL. */
    path: text('path').notNull(),
    /** Hex SHA-256 of the request body as canonical JSON (keys sorted). */
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status'),
    /** The answer's JSON text, byte for byte as first sent. */
    responseBody: text('response_body'),
    createdAt: createdAt(),
    completedAt: ts('completed_at'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [t.key, t.method, t.path] }),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    check('idempotency_keys_key_ck', sql`length(${t.key}) between 1 and 255`),
    check('idempotency_keys_hash_ck', sql`${t.requestHash} ~ '^[0-9a-f]{64}$'`),
    check('idempotency_keys_answer_ck', sql`(${t.responseStatus} is null) = (${t.responseBody} is null) and (${t.responseStatus} is null) = (${t.completedAt} is null)`),
    check('idempotency_keys_status_ck', sql`${t.responseStatus} is null or ${t.responseStatus} between 200 and 499`),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
