import { countOf, ERROR_CODES, type ErrorCode } from '@pitboss/contract';

/** Errors are values with a code and an HTTP status; one error handler turns them into the envelope. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) => new AppError(400, ERROR_CODES.VALIDATION, message, errors);
export const unauthenticated = (message = 'Your session has ended, please sign in again') => new AppError(401, ERROR_CODES.UNAUTHENTICATED, message);
export const forbidden = (message = 'You do not have permission to do this') => new AppError(403, ERROR_CODES.FORBIDDEN, message);
export const notFound = (what = 'Record') => new AppError(404, ERROR_CODES.NOT_FOUND, `${what} not found`);
export const conflict = (message: string, errors?: Record<string, string>) => new AppError(409, ERROR_CODES.CONFLICT, message, errors);
export const throttled = (retryAfterSeconds: number) =>
  new AppError(429, ERROR_CODES.THROTTLED, `Too many attempts, try again in ${countOf(retryAfterSeconds, 'second')}`, undefined, {
    'retry-after': String(retryAfterSeconds),
  });

/** Unique-violation from either driver (PGlite or node-postgres), with the constraint name. */
export function uniqueViolation(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const c = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : null;
  return c ? (c.constraint ?? 'unique') : null;
}
