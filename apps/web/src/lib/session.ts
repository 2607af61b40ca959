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
