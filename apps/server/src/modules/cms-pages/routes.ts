import { cmsPageEndpoints as ep } from '@pitboss/contract';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { cmsPages } from '../../db/schema.js';
import { notModified } from '../../http/conditional.js';
import { ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { sanitizeCmsBody } from './resource.js';

/** How long the platform (and any cache between) may keep a published page without asking again. */
export const CMS_MAX_AGE_SECONDS = 60;

export function cmsPageRoutes(app: App, ctx: AppContext): void {
  // The body as it would be saved, for the editor's preview.
  route(app, ep.cmsPreview, async (req) => ok({ html: sanitizeCmsBody(req.body.body) }));

  /**
   * A published page for the platform: no session, the stored (sanitised) body. Cacheable for a
   * minute by anyone (`public`), revalidated with its ETag after that; a draft or unknown slug is a
   * 404 that is not cached, so a page shows up as soon as it is published.
   */
  route(app, ep.publicPage, async (req, reply) => {
    const [page] = await ctx.db
      .select()
      .from(cmsPages)
      .where(and(eq(cmsPages.slug, req.params.slug), eq(cmsPages.status, 'published')))
      .limit(1);
    if (!page) throw notFound('Page');
    const etag = `W/"cms-${page.id}-${page.updatedAt.getTime()}"`;
    reply
      .header('cache-control', `public, max-age=${CMS_MAX_AGE_SECONDS}, stale-while-revalidate=${CMS_MAX_AGE_SECONDS * 5}`)
      .header('etag', etag)
      .header('last-modified', page.updatedAt.toUTCString())
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('vary', 'Accept-Encoding');
    if (notModified(req.headers['if-none-match'], etag)) return reply.status(304).send();
    return ok({
      slug: page.slug, title: page.title, body: page.body, metaTitle: page.metaTitle || page.title, metaDescription: page.metaDescription,
      publishedAt: (page.publishedAt ?? page.updatedAt).toISOString(), updatedAt: page.updatedAt.toISOString(),
    });
  });
}
