import type { RouteDef } from './routes.js';

/**
 * The routes a signed-out visitor can open: the auth pages (`public`) and the error pages (`open`).
 * Held apart from the rest of the route table (`ROUTES` starts with them) so the sign-in page's
 * first load carries these five, not every page's path, title and restriction.
 */
export const PUBLIC_ROUTES: readonly RouteDef[] = [
  // public (auth) pages
  { path: '/login', kind: 'public', title: 'Sign in' },
  { path: '/forgetPassword', kind: 'public', title: 'Forgot password' },
  { path: '/verification/forgotPassword', kind: 'public', title: 'Reset password' },
  // open pages
  { path: '/404', kind: 'open', title: 'Page not found' },
  { path: '/500', kind: 'open', title: 'Server error' },
];

/**
 * `/update-admin/{id}` → `/update-admin/:id` for routers that use colon params. Here, not in
 * routes.ts, so the first load uses it without the whole route table.
 */
export function toRouterPath(pattern: string): string {
  return pattern.replace(/\{(\w+)\}/g, ':$1');
}
