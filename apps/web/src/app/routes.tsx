import { ROUTES, toRouterPath, type RouteDef } from '@pitboss/contract';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { FullPageLoader } from '../components/FullPageLoader';
import RouteErrorPage from '../pages/RouteErrorPage';
import { privateLoader, publicOnlyLoader, revalidateOnPathChange, rootIndexLoader } from './guards';

type PageModule = Promise<{ default: ComponentType }>;

/** What a route carries for the layout (document title, breadcrumbs) and the generic resource page. */
export interface RouteHandle {
  route: RouteDef;
}

/** The pages that are not a resource's, report's or settings' (those come from their declarations: `resources/route.ts`). */
const PAGES: Record<string, () => PageModule> = {
  '/login': () => import('../modules/auth/LoginPage'),
  '/forgetPassword': () => import('../modules/auth/ForgotPasswordPage'),
  '/verification/forgotPassword': () => import('../modules/auth/ResetPasswordPage'),
  '/404': () => import('../pages/NotFoundPage'),
  '/500': () => import('../pages/ServerErrorPage'),
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
 * A route's page: its own (PAGES), or the generic page of the resource, report or settings that
 * declare it (list, add, update); that lookup sits in a lazy chunk so the declarations and their
 * schemas stay out of the first load. A route with neither is a mistake in the route table, not a
 * page to show: loading it fails (the error page), and the routes test walks every route.
 */
export function pageLoader(path: string): () => PageModule {
  const own = PAGES[path];
  if (own) return own;
  return async () => {
    const declared = (await import('../resources/route')).resourcePageFor(path);
    if (!declared) throw new Error(`The route ${path} has no page: add it to PAGES (app/routes.tsx) or declare it as a resource's, report's or settings' page`);
    return declared();
  };
}

/** Whether a route has its own page (the routes test adds the declared ones). */
export const hasOwnPage = (path: string): boolean => Object.hasOwn(PAGES, path);

function pageRoute(def: RouteDef): RouteObject {
  const load = pageLoader(def.path);
  return {
    path: toRouterPath(def.path),
    handle: { route: def } satisfies RouteHandle,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/** The error page is part of the first load: it must show even when loading a chunk is what failed. */
const RouteErrorBoundary = RouteErrorPage;

const byKind = (kind: RouteDef['kind']) => ROUTES.filter((r) => r.kind === kind);

/**
 * Every path of the contract's route table, grouped by kind:
 * public (signed in → /dashboard), open (no guard), and the private layout
 * (account, dashboard and private pages, and every unknown path: token, admin
 * detail, access check).
 * Every route is under an error boundary (seed §8, "Unexpected Application Error!"): the root's, and
 * each layout's. Not one per page inside the shell: when a page fails while the app loads, the
 * layout has no admin to draw the shell with and would show nothing.
 */
export function buildRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      HydrateFallback: FullPageLoader,
      ErrorBoundary: RouteErrorBoundary,
      children: [
        { index: true, loader: rootIndexLoader },
        {
          id: 'public',
          loader: publicOnlyLoader,
          ErrorBoundary: RouteErrorBoundary,
          lazy: async () => ({ Component: (await import('../layouts/AuthLayout')).AuthLayout }),
          children: byKind('public').map(pageRoute),
        },
        ...byKind('open').map(pageRoute),
        {
          id: 'private',
          loader: privateLoader,
          ErrorBoundary: RouteErrorBoundary,
          shouldRevalidate: revalidateOnPathChange,
          lazy: async () => ({ Component: (await import('../layouts/PrivateLayout')).PrivateLayout }),
          children: [
            ...ROUTES.filter((r) => r.kind === 'account' || r.kind === 'dashboard' || r.kind === 'private').map(pageRoute),
            // Seed §2: every other path is private: signed out it goes to /login, signed in it is the 404 page.
            {
              path: '*',
              handle: { route: ROUTES.find((r) => r.path === '/404')! } satisfies RouteHandle,
              lazy: async () => ({ Component: (await PAGES['/404']!()).default }),
            },
          ],
        },
      ],
    },
  ];
}
