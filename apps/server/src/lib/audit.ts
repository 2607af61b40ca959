import { auditLog } from '../db/schema.js';
import type { DbOrTx } from '../db/client.js';
import type { Actor } from '../context.js';

const SECRET_KEYS = /password|token|secret|hash|code/i;

/** Never a password, token or code in the audit log. */
export function redact(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v);
    return out;
  }
  return value;
}

export interface AuditEntry {
  action: string;
  resource: string;
  recordId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Written in the caller's transaction, so the change and its audit entry commit together. */
export async function writeAudit(tx: DbOrTx, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    adminId: actor.adminId,
    adminEmail: actor.email,
    action: entry.action,
    resource: entry.resource,
    recordId: entry.recordId === undefined || entry.recordId === null ? null : String(entry.recordId),
    before: entry.before === undefined ? null : redact(entry.before),
    after: entry.after === undefined ? null : redact(entry.after),
    ip: actor.ip,
  });
}
