import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { apiDocsEndpoints as ep, type ApiDocsFile } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { buildOpenApiDocument } from './openapi.js';

/**
 * The API's documentation: `GET /api/openapi.json` (generated once, on first ask, from the
 * contract) and `GET /api/docs`, Swagger UI served from its npm package (`swagger-ui-dist`), so
 * nothing comes from another host. The page loads only files of this server and starts the viewer
 * from a file (`init.js`), not an inline script: it runs under the app's CSP unchanged.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pitboss API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // No call to the public validator service: the page talks to this server only.
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const FILES: Record<ApiDocsFile, { type: string; read: () => Buffer | string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', read: () => fs.readFileSync(path.join(swaggerDir, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', read: () => fs.readFileSync(path.join(swaggerDir, 'swagger-ui-bundle.js')) },
  'init.js': { type: 'text/javascript; charset=utf-8', read: () => INIT },
};

export function apiDocsRoutes(app: App, _ctx: AppContext): void {
  let document: string | null = null;
  route(app, ep.openapi, async (_req, reply) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    return reply.type('application/json; charset=utf-8').send(document);
  });
  route(app, ep.page, async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  const cache = new Map<ApiDocsFile, Buffer | string>();
  route(app, ep.file, async (req, reply) => {
    const file = FILES[req.params.file];
    let body = cache.get(req.params.file);
    if (body === undefined) {
      body = file.read();
      cache.set(req.params.file, body);
    }
    return reply.header('cache-control', 'public, max-age=3600').type(file.type).send(body);
  });
}
