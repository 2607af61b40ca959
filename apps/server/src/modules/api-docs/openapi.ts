import fs from 'node:fs';
import { allEndpoints, ERROR_CODES, IDEMPOTENCY_KEY_TTL_HOURS, IDEMPOTENT_REPLAYED_HEADER, PLATFORM_API_PREFIX, type Endpoint } from '@pitboss/contract';
import { z } from 'zod';

type Json = Record<string, unknown>;

const ENVELOPE_DOC = `Every JSON answer is the envelope \`{ success, message, result }\`: \`result\` carries the data of a success;
a failure has \`success: false\`, a \`message\` for people, a stable \`code\` and, for bad input, \`errors\` by field.

**Admin API** (\`/api/admin/*\`): sign in with \`POST /api/admin/login\` and send the session token as
\`Authorization: Bearer <token>\`. Each endpoint names the restriction (module) and the access (read, write or a
named right) it needs; a sub-admin without it gets 403.

**Platform API** (\`${PLATFORM_API_PREFIX}/*\`): for the user-facing platform. Send \`Authorization: Bearer <PLATFORM_API_KEY>\`
on every call and an \`Idempotency-Key\` header (1–255 printable ASCII characters, a UUID is a good key) on every write:
the same key with the same body answers the first answer again for ${IDEMPOTENCY_KEY_TTL_HOURS} hours, and nothing is done twice.
Money travels as strings of digits in minor units, ids as strings of digits.`;

/** A zod schema as a JSON Schema (2020-12, the dialect of OpenAPI 3.1): what a request sends (`input`) or an answer carries (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', defs: Json): Json {
  // Values JSON cannot show (a bigint kept inside, a date object, a transform's output) become "any value".
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as Json;
  delete out.$schema;
  const local = out.$defs as Record<string, Json> | undefined;
  delete out.$defs;
  // Shared or recursive parts go to components.schemas, their references rewritten to point there.
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const copy: Json = {};
    for (const [k, v] of Object.entries(node)) {
      copy[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${v.slice('#/$defs/'.length)}` : rewrite(v);
    }
    return copy;
  };
  for (const [name, def] of Object.entries(local ?? {})) defs[name] = rewrite(def);
  return rewrite(out) as Json;
}

function accessText(ep: Endpoint): string {
  const a = ep.access;
  switch (a.kind) {
    case 'public':
      return 'Public: no credentials.';
    case 'account':
      return 'Any signed-in admin (session token).';
    case 'platform':
      return 'The platform API key.';
    case 'module':
      return `Needs the \`${a.restriction}\` restriction with ${a.right ? `the right \`${a.right}\`` : `${a.access} access`} (a super admin always may).`;
  }
}

function tagOf(ep: Endpoint): string {
  if (ep.access.kind === 'platform') return 'Platform API';
  const admin = /^\/api\/admin\/([^/]+)/.exec(ep.path)?.[1];
  if (admin) return admin;
  if (ep.raw) return 'API documentation';
  return 'Public';
}

const operationId = (ep: Endpoint) => `${ep.method.toLowerCase()}${ep.path.replace(/^\/api/, '').replace(/[:{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

/** Path and query parameters from an object schema (its properties, one parameter each). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', defs: Json): Json[] {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input', defs);
  const props = (js.properties ?? {}) as Record<string, Json>;
  const required = new Set((js.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => {
    const p: Json = { name, in: where, required: where === 'path' || required.has(name), schema: s };
    if (typeof s.description === 'string') p.description = s.description;
    // Objects in a query are sent as `name[key]=value`.
    if (where === 'query' && s.type === 'object') {
      p.style = 'deepObject';
      p.explode = true;
    }
    return p;
  });
}

function successResponse(ep: Endpoint, defs: Json): Json {
  if (ep.file === 'csv') return { description: 'A CSV file', content: { 'text/csv': { schema: { type: 'string' } } } };
  if (ep.stream === 'event-stream') return { description: 'Server-sent events, the connection stays open', content: { 'text/event-stream': { schema: { type: 'string' } } } };
  if (ep.raw === 'json') return { description: 'A JSON document', content: { 'application/json': { schema: { type: 'object' } } } };
  if (ep.raw === 'html') return { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } };
  if (ep.raw === 'image') return { description: 'A WebP image', content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } } };
  if (ep.raw === 'static') return { description: 'A file', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } };
  const properties: Json = { success: { const: true }, message: { type: 'string' } };
  const required = ['success', 'message'];
  if (ep.result) {
    properties.result = jsonSchema(ep.result, 'output', defs);
    required.push('result');
  }
  const response: Json = { description: 'Success: the envelope', content: { 'application/json': { schema: { type: 'object', required, properties } } } };
  if (ep.access.kind === 'platform' && ep.method !== 'GET') {
    response.headers = { 'Idempotent-Replayed': { description: `\`true\` when the answer is replayed from an earlier request with the same Idempotency-Key (header \`${IDEMPOTENT_REPLAYED_HEADER}\`)`, schema: { type: 'string', enum: ['true'] } } };
  }
  return response;
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function operation(ep: Endpoint, defs: Json): Json {
  const params = [...parameters(ep.params, 'path', defs), ...parameters(ep.query, 'query', defs)];
  const isWrite = ep.method !== 'GET';
  if (ep.access.kind === 'platform' && isWrite) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const responses: Json = { '200': successResponse(ep, defs) };
  if (ep.params || ep.query || ep.body || (ep.access.kind === 'platform' && isWrite)) responses['400'] = error('Bad input: nothing was changed');
  if (ep.access.kind !== 'public') responses['401'] = error(ep.access.kind === 'platform' ? 'No valid platform API key' : 'No valid session');
  if (ep.access.kind === 'module') responses['403'] = error('The admin lacks the restriction or right this endpoint needs');
  responses.default = error('Any other failure (404, 409, 429, 500…): the error envelope');
  const op: Json = {
    operationId: operationId(ep),
    summary: ep.summary,
    description: accessText(ep),
    tags: [tagOf(ep)],
    security: ep.access.kind === 'public' ? [] : ep.access.kind === 'platform' ? [{ platformApiKey: [] }] : [{ adminSession: [] }],
    'x-pitboss-access': ep.access,
    responses,
  };
  if (params.length) op.parameters = params;
  if (ep.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(ep.body, 'input', defs) } } };
  if (ep.upload === 'image') {
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or GIF' } } } } },
    };
  }
  return op;
}

function serverVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** The OpenAPI 3.1 document of every declared endpoint (`allEndpoints()`), built from their zod schemas. */
export function buildOpenApiDocument(endpoints: Endpoint[] = allEndpoints()): Json {
  const defs: Json = {};
  const paths: Record<string, Json> = {};
  for (const ep of [...endpoints].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const p = ep.path.replace(/:(\w+)/g, '{$1}');
    paths[p] ??= {};
    paths[p][ep.method.toLowerCase()] = operation(ep, defs);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Pitboss API', version: serverVersion(), description: ENVELOPE_DOC },
    servers: [{ url: '/' }],
    tags: [
      { name: 'Platform API', description: 'For the user-facing platform: API key and Idempotency-Key on writes' },
      { name: 'Public', description: 'Sign-in, password reset and health: no credentials' },
    ],
    paths,
    components: {
      securitySchemes: {
        adminSession: { type: 'http', scheme: 'bearer', description: 'The session token from POST /api/admin/login' },
        platformApiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'The PLATFORM_API_KEY configured on the server' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: `A unique key per write (a UUID is a good one): the same key and body answer the first answer again for ${IDEMPOTENCY_KEY_TTL_HOURS} hours`,
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]{1,255}$' },
        },
      },
      schemas: {
        ...defs,
        Error: {
          type: 'object',
          required: ['success', 'message', 'code'],
          properties: {
            success: { const: false },
            message: { type: 'string' },
            code: { type: 'string', enum: Object.values(ERROR_CODES) },
            errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Messages by field (dotted path)' },
          },
        },
      },
    },
  };
}
