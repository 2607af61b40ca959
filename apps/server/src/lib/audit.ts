import type { AuditAction } from '@pitboss/contract';
import { auditLog } from '../db/schema.js';
import type { DbOrTx } from '../db/client.js';
import type { Actor } from '../context.js';

/**
 * Keys whose values never reach the audit log (passwords, tokens, secrets). An exact list: a
 * pattern such as /code|hash/ would also blank transaction hashes, seed hashes, currency and promo
 * codes, which the log must keep.
 */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'password', 'passwordHash', 'currentPassword', 'newPassword', 'confirmPassword',
  'token', 'tokenHash', 'resetToken', 'sessionToken', 'secret', 'apiKey',
  'totpSecret', 'totpCode', 'recoveryCodes', 'serverSeed', 'smtpPassword',
]);

/** Never a password, token or secret in the audit log. */
export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_KEYS.has(k) ? '[redacted]' : redact(v);
    return out;
  }
  return value;
}

export interface AuditEntry {
  action: AuditAction;
  resource: string;
  recordId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** When it happened, if not now (the demo seed's history). */
  at?: Date;
}

/** How an actor appears in the audit log. */
export function auditActor(actor: Actor): { actorKind: string; adminId: number | null; adminEmail: string; ip: string } {
  if (actor.kind === 'admin') return { actorKind: 'admin', adminId: actor.admin.id, adminEmail: actor.admin.email, ip: actor.ip };
  if (actor.kind === 'platform') return { actorKind: 'platform', adminId: null, adminEmail: 'platform', ip: actor.ip };
  return { actorKind: 'system', adminId: null, adminEmail: `system:${actor.job}`, ip: '' };
}

/** Written in the caller's transaction, so the change and its audit entry commit together. */
export async function writeAudit(tx: DbOrTx, actor: Actor, entry: AuditEntry): Promise<void> {
  await writeAudits(tx, [{ actor, entry }]);
}

/** Many entries in one statement, each as its own actor. */
export async function writeAudits(tx: DbOrTx, items: { actor: Actor; entry: AuditEntry }[]): Promise<void> {
  if (items.length === 0) return;
  await tx.insert(auditLog).values(auditRows(items));
  written.set(tx, auditCount(tx) + items.length);
}

/**
 * How many entries `writeAudit` has written in each transaction, held by the transaction object:
 * what tells the action mechanism whether the service it called audited the action itself.
 */
const written = new WeakMap<DbOrTx, number>();

/** How many audit entries were written in this transaction so far (by `writeAudit`). */
export function auditCount(tx: DbOrTx): number {
  return written.get(tx) ?? 0;
}

/** The rows of audit entries (for a caller that writes them with its own statement: group commit). */
export function auditRows(items: { actor: Actor; entry: AuditEntry }[]) {
  return (
    items.map(({ actor, entry }) => ({
      ...auditActor(actor),
      action: entry.action,
      resource: entry.resource,
      recordId: entry.recordId === undefined || entry.recordId === null ? null : String(entry.recordId),
      before: entry.before === undefined ? null : redact(entry.before),
      after: entry.after === undefined ? null : redact(entry.after),
      ...(entry.at ?? actor.at ? { createdAt: entry.at ?? actor.at } : {}),
    }))
  );
}
