
import { index, integer, pgTable, text, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';

export const faqs = pgTable(
  'faqs',
  {
    id: id(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    category: text('category').notNull().default('General'),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('faqs_order_idx').on(t.sortOrder, t.id)],
);
