import { ROUTES } from '@pitboss/contract';
import type { RouteObject } from 'react-router';
import { pageRoute, PUBLIC_PAGES, type PageModule, type RouteHandle } from './routes';

/** Private pages built so far; every other private route renders the generic module page. */
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

const modulePage = () => import('../pages/ModulePage');

// Pages a resource declares (list, add, update) render the generic resource page; the lookup
// sits in a lazy chunk so the declarations and their schemas stay out of this one.
const resourceOrModulePage = (path: string) => async () => (await import('../resources/route')).resourcePageFor(path)?.() ?? modulePage();

/** The private layout's children: account, dashboard and private pages, and every other path (404). */
export function privateRoutes(): RouteObject[] {
  return [
    ...ROUTES.filter((r) => r.kind === 'account' || r.kind === 'dashboard' || r.kind === 'private').map((def) => pageRoute(def, PAGES[def.path] ?? resourceOrModulePage(def.path))),
    // Seed §2: every other path is private: signed out it goes to /login, signed in it is the 404 page.
    {
      path: '*',
      handle: { route: ROUTES.find((r) => r.path === '/404')! } satisfies RouteHandle,
      lazy: async () => ({ Component: (await PUBLIC_PAGES['/404']!()).default }),
    },
  ];
}
