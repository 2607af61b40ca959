
import { bigint, index, pgTable, text, uniqueIndex, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

export const blockedIps = pgTable(
  'blocked_ips',
  {
    id: id(),
    /** Normalised CIDR text (`203.0.113.7/32`, `2001:db8::/32`). */
    address: text('address').notNull(),
    reason: text('reason').notNull().default(''),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('blocked_ips_address_uq').on(t.address), index('blocked_ips_created_idx').on(t.createdAt, t.id)],
);
