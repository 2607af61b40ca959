import { base58Decode, isSolanaAddress, OTHER_REASON, type ReasonCode, type ReasonInput } from '@pitboss/contract';
import { badRequest } from '../../http/errors.js';

/**
 * Field checks shared by the money services. Routes validate their bodies with zod first; the
 * services check again because a job or the platform API calls them without a route, and money
 * rules must hold whoever calls.
 */
export class FieldErrors {
  readonly errors: Record<string, string> = {};
  add(field: string, message: string): void {
    if (!(field in this.errors)) this.errors[field] = message;
  }
  get any(): boolean {
    return Object.keys(this.errors).length > 0;
  }
  /** Throws a 400 with the field errors, if any; the first one is the message. */
  throwIfAny(): void {
    if (this.any) throw badRequest(Object.values(this.errors)[0]!, this.errors);
  }
}

/** Throws a 400 for one field. */
export function fieldError(field: string, message: string): never {
  throw badRequest(message, { [field]: message });
}

export const MAX_REASON = 500;

/** A required reason (trimmed, 1–500 characters). */
export function requireReason(errors: FieldErrors, value: unknown, field = 'reason'): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) errors.add(field, 'A reason is required');
  else if (text.length > MAX_REASON) errors.add(field, `At most ${MAX_REASON} characters`);
  return text;
}

/**
 * A reason code of the action's declared list (required) and its note (optional, at most 500
 * characters, needed with `other`): what the service stores, the note null when empty.
 */
export function requireReasonCode<C extends string>(errors: FieldErrors, input: Partial<ReasonInput>, reasons: readonly ReasonCode<C>[]): { reasonCode: C; note: string | null } {
  const code = reasons.find((r) => r.code === input.reasonCode)?.code;
  if (!code) errors.add('reasonCode', 'Pick a reason');
  const note = typeof input.reason === 'string' ? input.reason.trim() : '';
  if (note.length > MAX_REASON) errors.add('reason', `At most ${MAX_REASON} characters`);
  else if (code === OTHER_REASON.code && note.length < 3) errors.add('reason', 'Say what happened (at least 3 characters)');
  return { reasonCode: code ?? (OTHER_REASON.code as C), note: note || null };
}

/** The reason code and note of an action's validated input (the service checks them again). */
export const reasonOf = (input: Readonly<Record<string, unknown>>): ReasonInput => ({
  reasonCode: String(input.reasonCode ?? ''),
  reason: typeof input.reason === 'string' ? input.reason : undefined,
});

/** PostgreSQL bigint range: a larger amount would fail in the database, so refuse it as input. */
export const MAX_AMOUNT = 9_223_372_036_854_775_807n;

/** A positive amount in minor units. Only a bigint is money: a JS number would lose digits past 2^53. */
export function requirePositive(errors: FieldErrors, value: unknown, field = 'amount'): bigint {
  if (typeof value !== 'bigint') errors.add(field, 'The amount must be a whole number of minor units');
  else if (value <= 0n) errors.add(field, 'The amount must be positive');
  else if (value > MAX_AMOUNT) errors.add(field, 'The amount is too large');
  return typeof value === 'bigint' ? value : 0n;
}

export function requireAddress(errors: FieldErrors, value: unknown, field: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!isSolanaAddress(text)) errors.add(field, 'Enter a Solana public key (base58, 32 bytes)');
  return text;
}

/** A Solana transaction signature: base58 of 64 bytes. */
export function isTxSignature(value: string): boolean {
  if (value.length < 64 || value.length > 90) return false;
  return base58Decode(value)?.length === 64;
}

export function requireTxSignature(errors: FieldErrors, value: unknown, field = 'txSignature'): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!isTxSignature(text)) errors.add(field, 'Enter a Solana transaction signature (base58, 64 bytes)');
  return text;
}

/** `1234500000n, 9` → `"1.2345"`: minor units as a decimal string for messages (never a float). */
/** Shared with the web app (the contract's). */
export { formatUnits } from '@pitboss/contract';
