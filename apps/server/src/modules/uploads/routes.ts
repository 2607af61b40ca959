import multipart from '@fastify/multipart';
import { IMAGE_LIMITS, uploadsEndpoints, type Endpoint } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { notModified } from '../../http/conditional.js';
import { ok } from '../../http/envelope.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { storeImage, tooLarge } from './images.js';
import { imageStore } from './storage.js';

/**
 * Stored images, public: names are hashes of their bytes, so an answer never changes (cached a
 * year, `immutable`). Served as WebP with `nosniff`, a CSP that runs nothing, and readable from
 * other origins (the user-facing platform shows card images).
 */
export function uploadsRoutes(app: App, ctx: AppContext): void {
  route(app, uploadsEndpoints.serve, async (req, reply) => {
    const name = req.params.file;
    const etag = `"${name.slice(0, 64)}${name.includes('.thumb') ? '-t' : ''}"`;
    reply
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'cross-origin');
    if (notModified(req.headers['if-none-match'], etag)) {
      const stored = await imageStore(ctx.config).get(name);
      if (stored) return reply.status(304).header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable').send();
    }
    const body = await imageStore(ctx.config).get(name);
    if (!body) throw notFound('Image');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('content-disposition', `inline; filename="${name}"`)
      .type('image/webp')
      .send(body);
  });
}

/**
 * The upload endpoint of a form with an image field (`POST <base>/images`, declared by the
 * contract with the form's write right): one multipart part `file`, at most
 * `IMAGE_LIMITS.maxBytes`; refused files change nothing. The multipart parser lives in this route's
 * own scope, so no other route accepts multipart bodies.
 */
export function registerImageUpload(app: App, ctx: AppContext, ep: Endpoint): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: IMAGE_LIMITS.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 40 },
      throwFileSizeLimit: true,
    });
    route(scope as App, ep, async (req) => {
      if (!req.isMultipart()) throw badRequest('Send the image as multipart/form-data, in a part named "file"', { file: 'Choose an image' });
      let buf: Buffer | null = null;
      try {
        for await (const part of req.parts()) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'file' || buf) {
            await part.toBuffer().catch(() => undefined);
            throw badRequest('Send one image, in a part named "file"', { file: 'One image' });
          }
          buf = await part.toBuffer();
        }
      } catch (err) {
        // Only the body's parsing runs in here: whatever fails is the request's (a malformed or cut-off multipart body), never a 5xx.
        if (err instanceof AppError) throw err;
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw badRequest(`The upload could not be read: ${(err as Error).message || 'malformed multipart body'}`, { file: 'Unreadable upload' });
      }
      if (!buf) throw badRequest('Choose an image: the request has no part named "file"', { file: 'Choose an image' });
      const stored = await storeImage(imageStore(ctx.config), buf);
      return ok(stored, `Image stored (${stored.width} × ${stored.height})`);
    });
  });
}
