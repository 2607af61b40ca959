import { subAdminStates } from '@pitboss/contract';
import type { RestrictionName } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, jsonb, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';

export interface RestrictionJson {
  name: RestrictionName;
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
    statusCheck('admins_status_ck', t.status, subAdminStates),
  ],
);
