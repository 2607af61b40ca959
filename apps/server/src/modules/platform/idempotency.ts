import { createHash } from 'node:crypto';
import { ERROR_CODES, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_TTL_HOURS, type ApiEnvelope } from '@pitboss/contract';
import { and, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { AppError, badRequest } from '../../http/errors.js';
import { textArray } from '../../db/bulk.js';
import { idempotencyKeys } from './table.js';

/**
 * Idempotent writes of the platform API (`Idempotency-Key`), in the manner of Stripe's:
 *
 * - The key is claimed by inserting its row (key, method, path, body hash) in the transaction that
 *   then runs the service, and the answer is written into that row before the same transaction
 *   commits: the service's writes and their stored answer commit together or not at all.
 * - A second request with the key waits on the row's primary key while the first is in flight
 *   (`INSERT … ON CONFLICT` waits for the other transaction), then finds the committed answer and
 *   replays it: same status, same JSON text, plus `Idempotent-Replayed: true`. Twenty at once
 *   run the service once.
 * - The same key with another body: 422, nothing done. Another method or path (ids filled in:
 *   `idempotencyPath`) is another key.
 * - 2xx and 4xx answers of the service are stored (a refused withdrawal stays refused for its
 *   key); the service's own writes of a 4xx are rolled back to a savepoint first. A 5xx rolls
 *   everything back, the claim included, so a retry with the key runs again. Requests refused
 *   before the service ran (authentication, the key itself, schema validation) store nothing.
 * - A key lives 24 hours: an older row is taken over by the next request with the key.
 */

/** The interval a key lives, as a parameter's text and as SQL. */
export const IDEMPOTENCY_TTL_TEXT = `${IDEMPOTENCY_KEY_TTL_HOURS} hours`;
export const IDEMPOTENCY_TTL = sql.raw(`interval '${IDEMPOTENCY_TTL_TEXT}'`);

/** The request's key, or a 400 when it is missing or malformed. */
export function requireIdempotencyKey(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers[IDEMPOTENCY_KEY_HEADER];
  const field = 'Idempotency-Key';
  if (raw === undefined || raw === '') throw badRequest('The Idempotency-Key header is required on every write', { [field]: 'Required: a unique key per request (e.g. a UUID)' });
  if (Array.isArray(raw) || !IDEMPOTENCY_KEY_PATTERN.test(raw)) {
    throw badRequest('The Idempotency-Key header must be 1–255 printable ASCII characters', { [field]: '1–255 printable ASCII characters' });
  }
  return raw;
}

/** JSON with object keys sorted at every level: equal bodies give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  }) ?? 'null';
}

export const requestHash = (body: unknown) => createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');

/** What a route answers: the status and the envelope. */
export interface Answer {
  status: number;
  body: ApiEnvelope;
}

/** What goes on the wire: the stored JSON text, and whether it is a replay. */
export interface IdempotentResult {
  status: number;
  json: string;
  replayed: boolean;
}

/** The envelope the app's error handler sends for an AppError (the same fields, the same order). */
export function errorAnswer(err: AppError): Answer {
  const body: ApiEnvelope & { code?: string } = { success: false, message: err.message };
  if (err.errors) body.errors = err.errors;
  body.code = err.code;
  return { status: err.status, body };
}

export interface IdempotentRequest {
  key: string;
  method: string;
  /** The matched route with its params filled in (`idempotencyPath`), not the raw URL. */
  path: string;
  body: unknown;
}

/**
 * Runs `execute` once per (key, method, path) and body, in one transaction with the stored answer.
 * `execute` gets a savepoint: its writes are undone when it throws a 4xx AppError, whose answer is
 * then stored instead; any other error rolls back everything and propagates (nothing is stored).
 */
export async function runIdempotent(db: Db, req: IdempotentRequest, execute: (tx: Tx) => Promise<Answer>): Promise<IdempotentResult> {
  const hash = requestHash(req.body);
  const where = and(eq(idempotencyKeys.key, req.key), eq(idempotencyKeys.method, req.method), eq(idempotencyKeys.path, req.path));
  return db.transaction(async (tx) => {
    // Claim the key, or take over an expired claim. When another transaction holds the key
    // uncommitted, this waits for it: committed, its row is returned by the select below;
    // rolled back (a 5xx), this insert goes through and the request runs.
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ key: req.key, method: req.method, path: req.path, requestHash: hash, expiresAt: sql`now() + ${IDEMPOTENCY_TTL}` })
      .onConflictDoUpdate({
        target: [idempotencyKeys.key, idempotencyKeys.method, idempotencyKeys.path],
        set: { requestHash: hash, responseStatus: null, responseBody: null, createdAt: sql`now()`, completedAt: null, expiresAt: sql`now() + ${IDEMPOTENCY_TTL}` },
        setWhere: sql`${idempotencyKeys.expiresAt} <= now()`,
      })
      .returning({ key: idempotencyKeys.key });

    if (claimed.length === 0) {
      const [stored] = await tx.select().from(idempotencyKeys).where(where);
      if (!stored) throw new Error('Idempotency key neither claimed nor found');
      if (stored.requestHash !== hash) {
        throw new AppError(422, ERROR_CODES.CONFLICT, 'This Idempotency-Key was already used with a different request body: use a new key for a new request', {
          'Idempotency-Key': 'Already used with a different request body',
        });
      }
      // A committed claim always carries its answer (a CHECK); this is only a guard.
      if (stored.responseStatus === null || stored.responseBody === null) {
        throw new AppError(409, ERROR_CODES.CONFLICT, 'A request with this Idempotency-Key is still in progress: retry shortly');
      }
      return { status: stored.responseStatus, json: stored.responseBody, replayed: true };
    }

    let answer: Answer;
    try {
      answer = await tx.transaction((sp) => execute(sp));
    } catch (err) {
      if (!(err instanceof AppError) || err.status < 400 || err.status >= 500) throw err;
      answer = errorAnswer(err);
    }
    const json = JSON.stringify(answer.body);
    await tx.update(idempotencyKeys).set({ responseStatus: answer.status, responseBody: json, completedAt: sql`now()` }).where(where);
    return { status: answer.status, json, replayed: false };
  });
}

/**
 * Deletes keys past their 24 hours (they are no longer honoured anyway: the next request with an
 * expired key takes its row over). Not scheduled yet: call it from a job or by hand.
 */
export async function purgeExpiredIdempotencyKeys(db: DbOrTx): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`)).returning({ key: idempotencyKeys.key });
  return rows.length;
}

/** One request of a group claim: its key and the hash of its body. */
export interface KeyClaim {
  key: string;
  method: string;
  path: string;
  hash: string;
}

/** A key's identity (key, method, path) as one string. */
export const claimId = (c: { key: string; method: string; path: string }) => JSON.stringify([c.key, c.method, c.path]);

/*
 * Group commit (orders of one market in one transaction) claims many keys in one statement, as
 * `runIdempotent` claims one, in key order (two groups claiming the same keys queue, never
 * deadlock): migration 0032's `order_group_begin` inserts `claimsJson(claims)` and returns the keys
 * it took; `resolveClaims` then gives per request null when claimed (run it and store its answer
 * with `idempotentAnswersUpdate` in the same transaction), or what to answer instead: the stored
 * answer (a replay), a 422 when the key was used with another body, a 409 while another request
 * with it is in flight. Keys must be distinct.
 */

/** A key the group's claim took (new, or expired and taken over). */
export interface ClaimedKey {
  key: string;
  method: string;
  path: string;
}

/** The claims as the claim statement takes them: one JSON array in key order, `i` its position (the order of the inserts). */
export function claimsJson(claims: KeyClaim[]): string {
  const sorted = [...claims].sort((a, b) => (claimId(a) < claimId(b) ? -1 : claimId(a) > claimId(b) ? 1 : 0));
  return JSON.stringify(sorted.map((c, i) => ({ i, key: c.key, method: c.method, path: c.path, hash: c.hash })));
}

/** Per claim, null when `claimed` holds its key, else what to answer (a replay, a 422, a 409 while the other is in flight): the others are read in one statement. */
export async function resolveClaims(tx: DbOrTx, claims: KeyClaim[], claimed: ClaimedKey[]): Promise<(IdempotentResult | null)[]> {
  const mine = new Set(claimed.map(claimId));
  const others = claims.filter((c) => !mine.has(claimId(c)));
  const stored = new Map<string, typeof idempotencyKeys.$inferSelect>();
  if (others.length) {
    const rows = await tx
      .select()
      .from(idempotencyKeys)
      .where(or(...others.map((c) => and(eq(idempotencyKeys.key, c.key), eq(idempotencyKeys.method, c.method), eq(idempotencyKeys.path, c.path)))));
    for (const r of rows) stored.set(claimId(r), r);
  }
  return claims.map((c) => {
    if (mine.has(claimId(c))) return null;
    const s = stored.get(claimId(c));
    if (!s) throw new Error('Idempotency key neither claimed nor found');
    if (s.requestHash !== c.hash) return errorResult(KEY_REUSED());
    if (s.responseStatus === null || s.responseBody === null) return errorResult(new AppError(409, ERROR_CODES.CONFLICT, 'A request with this Idempotency-Key is still in progress: retry shortly'));
    return { status: s.responseStatus, json: s.responseBody, replayed: true };
  });
}

const KEY_REUSED = () =>
  new AppError(422, ERROR_CODES.CONFLICT, 'This Idempotency-Key was already used with a different request body: use a new key for a new request', {
    'Idempotency-Key': 'Already used with a different request body',
  });

/** An error sent as it is, not stored (the key belongs to another request). */
function errorResult(err: AppError): IdempotentResult {
  const a = errorAnswer(err);
  return { status: a.status, json: JSON.stringify(a.body), replayed: false };
}

/** What a request that shares its key with an earlier one of the same group gets: that one's answer replayed, or a 422 for another body. */
export function followerResult(leader: IdempotentResult, sameBody: boolean): IdempotentResult {
  if (!sameBody) return errorResult(KEY_REUSED());
  return { ...leader, replayed: true };
}

/** The statement storing the answers of claimed keys (one for the group; run by the caller with its other writes). */
export function idempotentAnswersUpdate(answers: { key: string; method: string; path: string; status: number; json: string }[]): SQL {
  const json = JSON.stringify(answers.map((a) => ({ key: a.key, method: a.method, path: a.path, status: a.status, body: a.json })));
  // The keys also as one array (the primary key's first column): the planner finds the rows through
  // the index instead of hashing the recordset it guesses at 100 rows and scanning the whole table.
  return sql`update idempotency_keys k set response_status = v.status, response_body = v.body, completed_at = now()
    from jsonb_to_recordset(${json}::jsonb) as v(key text, method text, path text, status int, body text)
    where k.key = v.key and k.method = v.method and k.path = v.path and k.key = any(${textArray(answers.map((a) => a.key))})`;
}
