import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';

/** Content blocks of the public reward-card page, shown in `sort_order` while active. */
export const rewardCardCmsBlocks = pgTable('reward_card_cms_blocks', {
  id: id(),
  title: text('title').notNull(),
  /** Sanitised HTML (the FAQ's allowlist). */
  body: text('body').notNull().default(''),
  imageUrl: text('image_url').notNull().default(''),
  sortOrder: integer('sort_order').notNull().default(0),
  status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
