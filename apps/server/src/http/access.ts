import type { ApiAccessKind, RestrictionName } from '@pitboss/contract';

/**
 * Every API route declares who may call it, in its route options
 * (`config.access`). Routes without a declaration are refused at start-up,
 * and the permission test walks this registry.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'account' }
  | { kind: 'module'; restriction: RestrictionName; access: ApiAccessKind };

export const PUBLIC: RouteAccess = { kind: 'public' };
export const ACCOUNT: RouteAccess = { kind: 'account' };
export const read = (restriction: RestrictionName): RouteAccess => ({ kind: 'module', restriction, access: 'read' });
export const write = (restriction: RestrictionName): RouteAccess => ({ kind: 'module', restriction, access: 'write' });

export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
