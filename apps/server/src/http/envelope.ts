import type { ApiEnvelope } from '@pitboss/contract';

export function ok<T>(result: T, message = 'OK'): ApiEnvelope<T> {
  return { success: true, message, result };
}

export function done(message: string): ApiEnvelope<never> {
  return { success: true, message };
}
