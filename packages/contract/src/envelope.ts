/** Every API answer has this shape (success and failure alike). */
export interface ApiEnvelope<T = unknown> {
  success: boolean;
  message: string;
  result?: T;
  /** Per-field messages, keyed by the field's dotted path (e.g. `restriction.0.name`). */
  errors?: Record<string, string>;
}

/** Stable error codes carried next to the message (`code`) for programmatic use. */
export const ERROR_CODES = {
  VALIDATION: 'VALIDATION',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  /** An action asked of a record in a state it does not apply to. */
  INVALID_STATE: 'INVALID_STATE',
  THROTTLED: 'THROTTLED',
  BLOCKED_IP: 'BLOCKED_IP',
  CONFIRM_REQUIRED: 'CONFIRM_REQUIRED',
  /** The site requires 2FA and this admin has not turned it on: only the account and 2FA endpoints answer. */
  TWO_FACTOR_REQUIRED: 'TWO_FACTOR_REQUIRED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Standard list answer of every resource: `result: { items, total, page, limit, nextCursor? }`. */
export interface ListResult<T> {
  items: T[];
  total: number;
  /** True when `total` is a lower bound (counting stopped at the cap). */
  totalCapped?: boolean;
  page: number;
  limit: number;
  nextCursor?: string | null;
  /** Keyset lists: the cursor for the page before this one (Previous), null on the first. */
  prevCursor?: string | null;
}
