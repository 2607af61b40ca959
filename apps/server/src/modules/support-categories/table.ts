import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex, } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from '../../db/columns.js';

export const supportCategories = pgTable(
  'support_categories',
  {
    id: id(),
    name: text('name').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    /** Categories are archived, not deleted: tickets keep pointing at them. */
    archivedAt: ts('archived_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('support_categories_name_uq').on(sql`lower(${t.name})`)],
);
