import { ACCOUNT_ACCESS, PLATFORM_ACCESS, PUBLIC_ACCESS, readAccess, rightAccess, writeAccess, type EndpointAccess } from '@pitboss/contract';

/**
 * Every API route declares who may call it, in its route options
 * (`config.access`). Routes without a declaration are refused at start-up,
 * and the permission test walks this registry.
 */
export type RouteAccess =
  /** Declared with the endpoint in the contract: public, account, platform or module (restriction + read/write/right). */
  | EndpointAccess
  /** The built web app's files and its index page: no data, no session. */
  | { kind: 'asset' };

export const PUBLIC: RouteAccess = PUBLIC_ACCESS;
export const ASSET: RouteAccess = { kind: 'asset' };
export const ACCOUNT: RouteAccess = ACCOUNT_ACCESS;
export const PLATFORM: RouteAccess = PLATFORM_ACCESS;
export { readAccess as read, rightAccess as withRight, writeAccess as write };

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
