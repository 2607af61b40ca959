import RouteErrorPage from '../src/pages/RouteErrorPage';
import { ROUTES, toRouterPath } from '@pitboss/contract';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { privateLoader, publicOnlyLoader } from '../src/app/guards';
import { hasOwnPage, pageLoader, privateRoutes } from '../src/app/privateRoutes';
import { buildRoutes, patchPrivateRoutes } from '../src/app/routes';
import { resourcePageFor } from '../src/resources/route';

interface Flat {
  path: string;
  guard: 'public' | 'private' | 'none';
  route: RouteObject;
}

function flatten(routes: RouteObject[], guard: Flat['guard'] = 'none', out: Flat[] = []): Flat[] {
  for (const r of routes) {
    const g = r.loader === privateLoader ? 'private' : r.loader === publicOnlyLoader ? 'public' : guard;
    if (r.path) out.push({ path: r.path, guard: g, route: r });
    if (r.children) flatten(r.children, g, out);
  }
  return out;
}

describe('the router', () => {
  const routes = buildRoutes();
  const privateLayout = routes[0]!.children!.find((r) => r.id === 'private')!;
  // The first load has no private page; the router's lazy discovery patches them in (below).
  const firstLoad = flatten(routes).map((f) => f.path);
  privateLayout.children = privateRoutes();
  const flat = flatten(routes);

  it("first loads only the public and open pages; any other path brings in the private ones, once, under the private layout", async () => {
    expect(firstLoad.sort()).toEqual(['/404', '/500', '/forgetPassword', '/login', '/verification/forgotPassword'].sort());
    const patches: { id: string | null; children: RouteObject[] }[] = [];
    const patch = (id: string | null, children: RouteObject[]) => void patches.push({ id, children });
    await patchPrivateRoutes({ path: '/dashboard', matches: [], patch, fetcherKey: undefined, signal: new AbortController().signal } as never);
    expect(patches).toHaveLength(1);
    expect(patches[0]!.id).toBe('private');
    expect(patches[0]!.children.map((r) => r.path)).toContain('/dashboard');
    // Once patched, an unknown path (matched by the private splat) asks for nothing more.
    await patchPrivateRoutes({ path: '/nowhere', matches: [{ route: privateLayout, params: {}, pathname: '/', pathnameBase: '/' }], patch, fetcherKey: undefined, signal: new AbortController().signal } as never);
    expect(patches).toHaveLength(1);
  });

  it('registers every path of the route table exactly once', () => {
    for (const def of ROUTES) {
      expect(flat.filter((f) => f.path === toRouterPath(def.path)), def.path).toHaveLength(1);
    }
    expect(flat.filter((f) => f.path !== '*')).toHaveLength(ROUTES.length);
  });

  it('gives every route of the table a page: its own, or the one its resource, report or settings declare', () => {
    for (const def of ROUTES) expect(hasOwnPage(def.path) || resourcePageFor(def.path) !== null, `${def.path} has no page`).toBe(true);
  });

  it('fails to load a route that has no page (the error page shows) instead of drawing a placeholder', async () => {
    expect(hasOwnPage('/no-page-here')).toBe(false);
    await expect(pageLoader('/no-page-here')()).rejects.toThrow('The route /no-page-here has no page');
  });

  it('puts each kind of page behind its guard', () => {
    const expected = { public: 'public', open: 'none', account: 'private', dashboard: 'private', private: 'private' } as const;
    for (const def of ROUTES) {
      expect(flat.find((f) => f.path === toRouterPath(def.path))!.guard, def.path).toBe(expected[def.kind]);
    }
  });

  it('renders unknown paths as the 404 page behind the private guard (seed §2: signed out, /login)', () => {
    const star = flat.find((f) => f.path === '*');
    expect(star?.guard).toBe('private');
  });

  it('lazy-loads every page', () => {
    for (const f of flat) expect(typeof f.route.lazy, f.path).toBe('function');
  });

  it('puts every route under the styled error page ("Unexpected Application Error!"): the root and each layout', () => {
    const root = routes.find((r) => r.id === 'root')!;
    expect(root.ErrorBoundary).toBe(RouteErrorPage);
    for (const id of ['public', 'private']) expect(root.children!.find((r) => r.id === id)!.ErrorBoundary, id).toBe(RouteErrorPage);
    // No page has its own: a page failing while the app loads would render inside a layout with no admin yet, i.e. nothing.
    const pages = root.children!.flatMap((r) => r.children ?? []);
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) expect(page.ErrorBoundary, String(page.path)).toBeUndefined();
  });
});
