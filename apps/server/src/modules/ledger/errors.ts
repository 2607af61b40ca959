/** SQLSTATE and constraint of a database error from either driver (drizzle wraps it in `cause`). */
export function pgError(err: unknown): { code: string; constraint: string | undefined } | null {
  let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint === 'string' ? e.constraint : undefined };
    }
    e = e.cause as typeof e;
  }
  return null;
}

/** A unique violation (23505) on the named constraint or index. */
export const isUniqueViolation = (err: unknown, constraint?: string) => {
  const e = pgError(err);
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
};

/** A check violation (23514) on the named constraint. */
export const isCheckViolation = (err: unknown, constraint: string) => {
  const e = pgError(err);
  return e?.code === '23514' && e.constraint === constraint;
};
