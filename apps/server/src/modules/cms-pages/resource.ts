import { cmsPagesResource, cmsPageStates } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { cmsPages } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { sanitizeRichText } from '../../lib/sanitize.js';
import { assertTransition } from '../../resources/states.js';
import { iso, defineResource, isoOrNull, type Row } from '../../resources/define.js';

/** The body as stored and served: the rich-text allowlist (as FAQ answers), refused when nothing is left. */
export function sanitizeCmsBody(body: string): string {
  const clean = sanitizeRichText(body);
  if (!clean.replace(/<[^>]*>/g, '').trim()) throw badRequest('Body is required', { body: 'The body is empty once unsafe content is removed' });
  return clean;
}

function prepare(input: Row): Row {
  return input.body === undefined ? input : { ...input, body: sanitizeCmsBody(String(input.body)) };
}

/**
 * CMS pages: written as drafts, published for the platform (`GET /api/public/cms/:slug`), unpublished
 * back to draft. The slug is fixed once published (links point at it); only drafts can be deleted.
 */
export const cmsPagesDef = defineResource({
  spec: cmsPagesResource,
  table: cmsPages,
  idColumn: cmsPages.id,
  columns: { title: cmsPages.title, slug: cmsPages.slug, status: cmsPages.status, publishedAt: cmsPages.publishedAt, updatedAt: cmsPages.updatedAt },
  nullable: ['publishedAt'],
  searchColumns: [cmsPages.title, cmsPages.slug],
  toRecord: (r) => ({
    _id: String(r.id), slug: r.slug, title: r.title, body: r.body, status: r.status, metaTitle: r.metaTitle, metaDescription: r.metaDescription,
    publishedAt: isoOrNull(r.publishedAt), createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: prepare,
  prepareUpdate: prepare,
  uniqueErrors: { cms_pages_slug_unique: { field: 'slug', message: 'Another page has this slug' } },
  actions: {
    publish: async (tx, _actor, record) => {
      assertTransition(cmsPageStates, 'publish', record.status as 'draft');
      await tx.update(cmsPages).set({ status: 'published', publishedAt: new Date(), updatedAt: new Date() }).where(eq(cmsPages.id, Number(record._id)));
      return `“${String(record.title)}” is published at /api/public/cms/${String(record.slug)}`;
    },
    unpublish: async (tx, _actor, record) => {
      assertTransition(cmsPageStates, 'unpublish', record.status as 'published');
      await tx.update(cmsPages).set({ status: 'draft', updatedAt: new Date() }).where(eq(cmsPages.id, Number(record._id)));
      return `“${String(record.title)}” is back to draft: the platform no longer gets it`;
    },
  },
});
