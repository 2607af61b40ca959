import type { ApiAccessKind, RestrictionName } from '@pitboss/contract';

/**
 * Every API route declares who may call it, in its route options
 * (`config.access`). Routes without a declaration are refused at start-up,
 * and the permission test walks this registry.
 */
export type RouteAccess =
  | { kind: 'public' }
  /** The built web app's files and its index page: no data, no session. */
  | { kind: 'asset' }
  | { kind: 'account' }
  /** The user-facing platform: its API key (`PLATFORM_API_KEY`), never an admin session. */
  | { kind: 'platform' }
  | { kind: 'module'; restriction: RestrictionName; access: ApiAccessKind; /** A named right, needed instead of canEdit. */ right?: string };

export const PUBLIC: RouteAccess = { kind: 'public' };
export const ASSET: RouteAccess = { kind: 'asset' };
export const ACCOUNT: RouteAccess = { kind: 'account' };
export const PLATFORM: RouteAccess = { kind: 'platform' };
export const read = (restriction: RestrictionName): RouteAccess => ({ kind: 'module', restriction, access: 'read' });
export const write = (restriction: RestrictionName): RouteAccess => ({ kind: 'module', restriction, access: 'write' });
export const withRight = (restriction: RestrictionName, right: string): RouteAccess => ({ kind: 'module', restriction, access: 'write', right });

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** The route's validation schemas (zod), for the schema-driven fuzz test. */
  schema: { body?: unknown; querystring?: unknown; params?: unknown };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
