import { UNAUTHORIZED_REDIRECT_DELAY_MS } from '@pitboss/contract';
import { resetAuth } from '../stores/auth';
import { removeToken } from './token';

type Navigate = (to: string) => unknown;

let navigate: Navigate = (to) => window.location.assign(to);
let afterLeave: () => void = () => {};
let redirectTimer: ReturnType<typeof setTimeout> | null = null;

/** The router registers how to move to /login, and what to clean once there (the query cache). */
export function registerSessionHandlers(handlers: { navigate: Navigate; afterLeave?: () => void }): void {
  navigate = handlers.navigate;
  afterLeave = handlers.afterLeave ?? (() => {});
}

/**
 * The one place a session ends (a 401 from any call, or logout): remove the
 * token, reset the auth state, go to /login after 500 ms. A second call while
 * the redirect is pending does not start another timer. Returns false when a
 * redirect was already pending.
 */
export function endSession(): boolean {
  removeToken();
  resetAuth();
  if (redirectTimer !== null) return false;
  redirectTimer = setTimeout(() => {
    redirectTimer = null;
    void Promise.resolve(navigate('/login')).finally(() => afterLeave());
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
  return true;
}

export function isSessionEnding(): boolean {
  return redirectTimer !== null;
}

let refreshRightsHandler: () => Promise<void> = async () => {};
let lastRightsRefresh = 0;

/** The app registers how to re-read the admin's rights (getadmindetail) and re-run the route check. */
export function registerRightsRefresh(handler: () => Promise<void>): void {
  refreshRightsHandler = handler;
}

/**
 * Rights are read by the server on every request, so they can change under an
 * open tab: after a 403, or when the tab comes back into view, re-read them so
 * the sidebar, the page access and the route check follow. At most once per
 * `minGapMs`.
 */
export function refreshRights(minGapMs = 5_000): void {
  const now = Date.now();
  if (now - lastRightsRefresh < minGapMs || isSessionEnding()) return;
  lastRightsRefresh = now;
  void refreshRightsHandler().catch(() => undefined);
}
