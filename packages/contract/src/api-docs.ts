import { z } from 'zod';
import { endpoint, PUBLIC_ACCESS } from './resources/endpoint.js';

/**
 * The API's own description: the OpenAPI 3.1 document generated from every endpoint declaration,
 * and a page that shows it (Swagger UI, served from this server). Public: integrators of the
 * platform API start there without an admin session, and the document holds shapes only (every
 * endpoint it lists still asks for its own credentials).
 */
export const API_DOCS_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js'] as const;
export type ApiDocsFile = (typeof API_DOCS_FILES)[number];

export const apiDocsEndpoints = {
  openapi: endpoint('GET /api/openapi.json', { access: PUBLIC_ACCESS, summary: 'The OpenAPI 3.1 description of this API (admin and platform), generated from the contract', raw: 'json' }),
  page: endpoint('GET /api/docs', { access: PUBLIC_ACCESS, summary: 'The API documentation page (Swagger UI over /api/openapi.json)', raw: 'html' }),
  file: endpoint('GET /api/docs/:file', {
    access: PUBLIC_ACCESS,
    summary: 'A file of the documentation page (the viewer\'s script and style, and its start script)',
    params: z.object({ file: z.enum(API_DOCS_FILES) }),
    raw: 'static',
  }),
};
