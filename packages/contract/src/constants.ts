/** Business constants fixed by the specification (seed, section 9). */
export const TOAST_SUCCESS_MS = 2000;
export const TOAST_ERROR_MS = 4000;
export const TOAST_LIMIT = 20;
export const TOKEN_STORAGE_KEY = 'admin_token';
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
export const HTTP_TIMEOUT_MS = 0;
export const DEFAULT_ERROR_MESSAGE = 'Something went wrong';
export const RENDER_ERROR_MESSAGE = 'Unexpected Application Error!';
export const SUPERADMIN_ROLE = 'superadmin' as const;
export const SUBADMIN_ROLE = 'subadmin' as const;
export type AdminRole = typeof SUPERADMIN_ROLE | typeof SUBADMIN_ROLE;

export const TIME_IN_FORCE_LABELS = {
  GTC: "Good 'Til Canceled",
  IOC: 'Immediate Or Cancel',
  GTD: "Good 'Til Date",
} as const;
export type TimeInForce = keyof typeof TIME_IN_FORCE_LABELS;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const RESET_TOKEN_MINUTES = 30;

/**
 * Response header on every authenticated admin API answer: a fingerprint of the rights (role and
 * restriction) the server decided it with. The app re-reads its rights when it changes.
 */
export const RIGHTS_HEADER = 'x-pitboss-rights';
