import type { z } from 'zod';
import type { ApiAccessKind } from '../access.js';
import type { RestrictionName } from '../restrictions.js';

/**
 * An API endpoint, declared once in the contract: its method and path (the key), who may call it,
 * the schemas of its params, query and body, and the schema of the envelope's `result`. The server
 * registers the route from it (access, validation, and a check of what it answers); the web's one
 * client calls it by its key, typed from the same declaration. Nothing about an endpoint is typed
 * by hand on either side.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call an endpoint. */
export type EndpointAccess =
  | { kind: 'public' }
  /** Any signed-in admin (own account, the dashboard). */
  | { kind: 'account' }
  /** The user-facing platform: its API key (`PLATFORM_API_KEY`), never an admin session. */
  | { kind: 'platform' }
  | { kind: 'module'; restriction: RestrictionName; access: ApiAccessKind; /** A named right, needed instead of canEdit. */ right?: string };

export const PUBLIC_ACCESS: EndpointAccess = { kind: 'public' };
export const ACCOUNT_ACCESS: EndpointAccess = { kind: 'account' };
export const PLATFORM_ACCESS: EndpointAccess = { kind: 'platform' };
export const readAccess = (restriction: RestrictionName): EndpointAccess => ({ kind: 'module', restriction, access: 'read' });
export const writeAccess = (restriction: RestrictionName): EndpointAccess => ({ kind: 'module', restriction, access: 'write' });
export const rightAccess = (restriction: RestrictionName, right: string): EndpointAccess => ({ kind: 'module', restriction, access: 'write', right });

export type EndpointKey = `${HttpMethod} /api/${string}`;

export interface EndpointSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The envelope's `result`; absent when the answer is a message only. */
  result?: z.ZodType;
}

export interface EndpointMeta<K extends string = string> {
  key: K;
  method: HttpMethod;
  /** Fastify-style path: `/api/admin/sub-admins/:id/set-password`. */
  path: string;
  access: EndpointAccess;
  summary: string;
  /** The answer is a file (CSV), not the envelope. */
  file?: 'csv';
  /** The answer is a stream of server-sent events (`text/event-stream`) that stays open, not the envelope. */
  stream?: 'event-stream';
  /** The answer is not the envelope: a JSON document (the OpenAPI description), an HTML page, a static file (the docs viewer) or a stored image. */
  raw?: 'json' | 'html' | 'static' | 'image';
  /** The body is `multipart/form-data` with one file part (`file`), not JSON. */
  upload?: 'image';
}

export type Endpoint<K extends string = string, S extends EndpointSchemas = EndpointSchemas> = EndpointMeta<K> & S;

/** Declares an endpoint: `endpoint('POST /api/admin/login', { access, summary, body, result })`. */
export function endpoint<const K extends EndpointKey, const D extends EndpointSchemas & { access: EndpointAccess; summary: string; file?: 'csv'; stream?: 'event-stream'; raw?: 'json' | 'html' | 'static' | 'image'; upload?: 'image' }>(
  key: K,
  def: D,
): EndpointMeta<K> & D {
  const space = key.indexOf(' ');
  return { ...def, key, method: key.slice(0, space) as HttpMethod, path: key.slice(space + 1) };
}

/** The parts of a key: `'POST /api/admin/x'` → method and path. */
export function splitEndpointKey(key: string): { method: HttpMethod; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as HttpMethod, path: key.slice(space + 1) };
}

/** `/api/admin/sub-admins/:id/x` with `{ id: '7' }` → `/api/admin/sub-admins/7/x`. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === '') throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(v));
  });
}

type Schema<E, P extends keyof EndpointSchemas> = P extends keyof E ? (NonNullable<E[P]> extends z.ZodType ? NonNullable<E[P]> : never) : never;

/** What a call sends and gets, from the declaration (input types before parsing, output after). */
export type EndpointResult<E> = [Schema<E, 'result'>] extends [never] ? undefined : z.output<Schema<E, 'result'>>;
export type EndpointBody<E> = [Schema<E, 'body'>] extends [never] ? undefined : z.input<Schema<E, 'body'>>;
export type EndpointQuery<E> = [Schema<E, 'query'>] extends [never] ? undefined : z.input<Schema<E, 'query'>>;
export type EndpointParams<E> = [Schema<E, 'params'>] extends [never] ? undefined : z.input<Schema<E, 'params'>>;
/** The same, as the server's handler sees them (after validation). */
export type ParsedBody<E> = [Schema<E, 'body'>] extends [never] ? undefined : z.output<Schema<E, 'body'>>;
export type ParsedQuery<E> = [Schema<E, 'query'>] extends [never] ? undefined : z.output<Schema<E, 'query'>>;
export type ParsedParams<E> = [Schema<E, 'params'>] extends [never] ? undefined : z.output<Schema<E, 'params'>>;

/** The input of a call: only the parts the endpoint has, required when the endpoint needs them. */
export type CallInput<E> = (EndpointBody<E> extends undefined ? { body?: undefined } : { body: EndpointBody<E> }) &
  (EndpointQuery<E> extends undefined ? { query?: undefined } : { query?: EndpointQuery<E> }) &
  (EndpointParams<E> extends undefined ? { params?: undefined } : { params: EndpointParams<E> });
