import { cmsPageStates } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';

export const cmsPages = pgTable(
  'cms_pages',
  {
    id: id(),
    /** The page's address for the platform (`GET /api/public/cms/:slug`): lowercase words joined by dashes. */
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    /** Sanitised rich text (what the platform shows as is). */
    body: text('body').notNull(),
    status: text('status').notNull().$type<'draft' | 'published'>().default('draft'),
    metaTitle: text('meta_title').notNull().default(''),
    metaDescription: text('meta_description').notNull().default(''),
    /** When it was last published (kept when it goes back to draft). */
    publishedAt: ts('published_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    statusCheck('cms_pages_status_ck', t.status, cmsPageStates),
    check('cms_pages_slug_ck', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    index('cms_pages_status_idx').on(t.status, t.title),
  ],
);
