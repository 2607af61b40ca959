
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, } from 'drizzle-orm/pg-core';
import { createdAt, id, } from '../../db/columns.js';

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
    // The list's resource and admin email filters are case-insensitive (`lower(x) = lower(v)`):
    // these serve them, newest first, and their capped total, without a scan of the log. The column
    // itself comes last so the count can be an index-only scan (PostgreSQL needs the column, not
    // only the expression, in the index for that).
    index('audit_log_resource_lower_idx').on(sql`lower(${t.resource})`, t.createdAt, t.id, t.resource),
    index('audit_log_admin_email_lower_idx').on(sql`lower(${t.adminEmail})`, t.createdAt, t.id, t.adminEmail),
  ],
);
