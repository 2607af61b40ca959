import { PUBLIC_ROUTES, toRouterPath, type RouteDef } from '@pitboss/contract';
import type { ComponentType } from 'react';
import type { DataRouteObject, PatchRoutesOnNavigationFunction, RouteObject } from 'react-router';
import { FullPageLoader } from '../components/FullPageLoader';
import RouteErrorPage from '../pages/RouteErrorPage';
import { privateLoader, publicOnlyLoader, revalidateOnPathChange, rootIndexLoader } from './guards';

export type PageModule = Promise<{ default: ComponentType }>;

/** What a route carries for the layout (document title, breadcrumbs) and the generic module page. */
export interface RouteHandle {
  route: RouteDef;
}

/** The pages a signed-out visitor opens; the private ones are in `privateRoutes` (their own chunk). */
export const PUBLIC_PAGES: Record<string, () => PageModule> = {
  '/login': () => import('../modules/auth/LoginPage'),
  '/forgetPassword': () => import('../modules/auth/ForgotPasswordPage'),
  '/verification/forgotPassword': () => import('../modules/auth/ResetPasswordPage'),
  '/404': () => import('../pages/NotFoundPage'),
  '/500': () => import('../pages/ServerErrorPage'),
};

/** One page of the route table, its component loaded when first visited. */
export function pageRoute(def: RouteDef, load: () => PageModule): RouteObject {
  return {
    path: toRouterPath(def.path),
    handle: { route: def } satisfies RouteHandle,
    lazy: async () => ({ Component: (await load()).default }),
  };
}

/** The error page is part of the first load: it must show even when loading a chunk is what failed. */
const RouteErrorBoundary = RouteErrorPage;

const publicByKind = (kind: RouteDef['kind']) => PUBLIC_ROUTES.filter((r) => r.kind === kind).map((def) => pageRoute(def, PUBLIC_PAGES[def.path]!));

/**
 * Every path of the contract's route table, grouped by kind:
 * public (signed in → /dashboard), open (no guard), and the private layout
 * (account, dashboard and private pages, and every unknown path: token, admin
 * detail, access check).
 * Every route is under an error boundary (seed §8, "Unexpected Application Error!"): the root's, and
 * each layout's. Not one per page inside the shell: when a page fails while the app loads, the
 * layout has no admin to draw the shell with and would show nothing.
 *
 * The first load holds the public and open routes only: the private layout's pages (the rest of the
 * route table, ~150 paths) join it from their own chunk at the first navigation that needs them
 * (`patchPrivateRoutes`), so the sign-in page does not carry them.
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
          children: publicByKind('public'),
        },
        ...publicByKind('open'),
        {
          id: 'private',
          loader: privateLoader,
          ErrorBoundary: RouteErrorBoundary,
          shouldRevalidate: revalidateOnPathChange,
          lazy: async () => ({ Component: (await import('../layouts/PrivateLayout')).PrivateLayout }),
          children: [],
        },
      ],
    },
  ];
}

/**
 * The router's lazy route discovery: any path the first load's routes do not match (or match only
 * as a splat) brings in the private pages, once, under the private layout.
 */
export const patchPrivateRoutes: PatchRoutesOnNavigationFunction = async ({ patch, matches }) => {
  if (matches.some((m) => m.route.id === 'private' && (m.route as DataRouteObject).children?.length)) return;
  const { privateRoutes } = await import('./privateRoutes');
  patch('private', privateRoutes());
};
