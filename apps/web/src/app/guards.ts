import type { AdminDetail } from '@pitboss/contract';
import { replace, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router';
import { callApi } from '../lib/api';
import { getToken } from '../lib/token';
import { authStore, setAdmin, setPageAccess } from '../stores/auth';

/** Public auth pages: a stored token means already signed in → /dashboard. */
export function publicOnlyLoader(): Response | null {
  if (getToken()) throw replace('/dashboard');
  return null;
}

/** The page an admin is held on while the site requires 2FA and they have none. */
export const TWO_FACTOR_PAGE = '/2fa-settings';

/**
 * Where this admin is confined, or null: the site requires 2FA and they have not enrolled, so the
 * 2FA page is the only one they can open (the guard sends every other path there, the API answers
 * only their own account). The shell then offers nothing else: no sidebar pages, palette or bell.
 */
export function confinedTo(admin: { twoFactorSetupRequired?: boolean | undefined }): string | null {
  return admin.twoFactorSetupRequired ? TWO_FACTOR_PAGE : null;
}

let pendingDetail: { token: string; promise: Promise<AdminDetail | null> } | null = null;

let lastFailure: string | null = null;

/** Loads `getadmindetail` once per token (concurrent navigations share the call). Null when the call failed. */
export function loadAdminDetail(token: string): Promise<AdminDetail | null> {
  const known = authStore.get().admin;
  if (known) return Promise.resolve(known);
  if (pendingDetail?.token === token) return pendingDetail.promise;
  const promise = callApi('GET /api/admin/getadmindetail', {}).then((res) => {
    if (pendingDetail?.promise === promise) pendingDetail = null;
    if (!res.success || !res.result) {
      lastFailure = res.message || null;
      return null;
    }
    // The session may have ended (or changed) while the call was out.
    if (getToken() === token) setAdmin(res.result);
    return res.result;
  });
  pendingDetail = { token, promise };
  return promise;
}

/** Re-reads the admin's rights now (not from the cache); null when the call failed. */
export async function reloadAdminDetail(): Promise<AdminDetail | null> {
  const token = getToken();
  if (!token) return null;
  const res = await callApi('GET /api/admin/getadmindetail', {});
  if (!res.success || !res.result || getToken() !== token) return null;
  setAdmin(res.result);
  return res.result;
}

/**
 * Private layout: no token → /login. Otherwise load the admin once, then run
 * the access check (ACCESS.md) on every navigation: denied → the first page
 * the admin may view; allowed → the page's access goes to the auth store.
 */
export async function privateLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const token = getToken();
  if (!token) {
    // Come back here after signing in (a shared list link keeps its view).
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw replace(back && back !== '/' && back !== '/dashboard' ? `/login?next=${encodeURIComponent(back)}` : '/login');
  }
  const admin = await loadAdminDetail(token);
  if (!admin) throw replace(getToken() ? `/500${lastFailure ? `?reason=${encodeURIComponent(lastFailure)}` : ''}` : '/login');
  const pathname = new URL(request.url).pathname;
  // The site requires 2FA and this admin has none: the 2FA page only, until they enrol.
  const confined = confinedTo(admin);
  if (confined && pathname !== confined) throw replace(confined);
  const { checkNavigation } = await import('./navigationCheck');
  const decision = checkNavigation(admin, pathname);
  if (!decision.allowed) throw replace(decision.redirectTo);
  setPageAccess(decision.access);
  return null;
}

/** The check runs on each navigation, not only when the layout is first entered. */
export function revalidateOnPathChange({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}

export function rootIndexLoader(): never {
  throw replace(getToken() ? '/dashboard' : '/login');
}
