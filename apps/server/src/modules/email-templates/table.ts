
import { jsonb, pgTable, text, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';

export const emailTemplates = pgTable('email_templates', {
  id: id(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  subject: text('subject').notNull(),
  html: text('html').notNull(),
  variables: jsonb('variables').notNull().$type<string[]>().default([]),
  status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
