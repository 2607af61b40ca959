import { ROUTES } from '@pitboss/contract';
import type { RouteObject } from 'react-router';
import { pageRoute, PUBLIC_PAGES, type PageModule, type RouteHandle } from './routes';

/** The private pages that are not a resource's, report's or settings' (those come from their declarations: `resources/route.ts`). */
const PAGES: Record<string, () => PageModule> = {
  '/dashboard': () => import('../modules/dashboard/DashboardPage'),
  '/profile': () => import('../modules/account/ProfilePage'),
  '/changePassword': () => import('../modules/account/ChangePasswordPage'),
  '/2fa-settings': () => import('../modules/account/TwoFactorPage'),
  '/market-overview': () => import('../modules/market-overview/MarketOverviewPage'),
  '/event-history/{id}': () => import('../modules/events/EventHistoryPage'),
  '/support-reply/{id}': () => import('../modules/tickets/SupportReplyPage'),
  '/notification': () => import('../modules/notifications/NotificationsPage'),
};

/**
 * A route's page: its own (PAGES, PUBLIC_PAGES), or the generic page of the resource, report or
 * settings that declare it (list, add, update); that lookup sits in a lazy chunk so the
 * declarations and their schemas stay out of this one. A route with neither is a mistake in the
 * route table, not a page to show: loading it fails (the error page), and the routes test walks
 * every route.
 */
export function pageLoader(path: string): () => PageModule {
  const own = PAGES[path] ?? PUBLIC_PAGES[path];
  if (own) return own;
  return async () => {
    const declared = (await import('../resources/route')).resourcePageFor(path);
    if (!declared) throw new Error(`The route ${path} has no page: add it to PAGES (app/privateRoutes.tsx) or declare it as a resource's, report's or settings' page`);
    return declared();
  };
}

/** Whether a route has its own page (the routes test adds the declared ones). */
export const hasOwnPage = (path: string): boolean => Object.hasOwn(PAGES, path) || Object.hasOwn(PUBLIC_PAGES, path);

/** The private layout's children: account, dashboard and private pages, and every other path (404). */
export function privateRoutes(): RouteObject[] {
  return [
    ...ROUTES.filter((r) => r.kind === 'account' || r.kind === 'dashboard' || r.kind === 'private').map((def) => pageRoute(def, pageLoader(def.path))),
    // Seed §2: every other path is private: signed out it goes to /login, signed in it is the 404 page.
    {
      path: '*',
      handle: { route: ROUTES.find((r) => r.path === '/404')! } satisfies RouteHandle,
      lazy: async () => ({ Component: (await PUBLIC_PAGES['/404']!()).default }),
    },
  ];
}
