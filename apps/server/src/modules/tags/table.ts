import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';

export const tags = pgTable(
  'tags',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('tags_name_uq').on(sql`lower(${t.name})`), uniqueIndex('tags_slug_uq').on(t.slug)],
);
