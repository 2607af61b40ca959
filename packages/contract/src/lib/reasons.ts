import { z } from 'zod';

/**
 * Reason codes (docs/money-controls.md, "Reason codes"): an action that refuses, undoes or stops
 * something (a withdrawal's rejection, a deposit's failure, a refund, a halt, a balance adjustment)
 * takes one code of a list declared for it, plus an optional note; `other` needs the note. The code
 * is stored on the record, shown by its label, filterable, exported, and in the audit entry.
 */
export interface ReasonCode<C extends string = string> {
  code: C;
  label: string;
}

/** The code every list ends with: its note says what happened. */
export const OTHER_REASON = { code: 'other', label: 'Other (say what in the note)' } as const satisfies ReasonCode;

/** A declared list of reason codes (`other` is added last). */
export function reasonCodes<const C extends string>(list: readonly ReasonCode<C>[]): readonly ReasonCode<C | 'other'>[] {
  return [...list, OTHER_REASON];
}

const NOTE_MAX = 500;

/**
 * What an action with reason codes takes: `reasonCode`, one of the list (required), and `reason`, a
 * note (optional, at most 500 characters; at least 3 with `other`). Spread into the action's
 * declaration: `{ name: 'reject', …, ...reasonCoded(WITHDRAWAL_REJECT_REASONS) }` gives its input,
 * its form fields and its `reasons`. `shape` adds the action's other inputs (its form lists their
 * fields first, then these).
 */
export function reasonCoded<C extends string, S extends z.ZodRawShape = Record<never, never>>(reasons: readonly ReasonCode<C>[], shape?: S) {
  const codes = reasons.map((r) => r.code) as [C, ...C[]];
  const input = z
    .object({
      ...(shape as S),
      reasonCode: z.enum(codes, { error: 'Pick a reason' }),
      reason: z.string({ error: 'A note: text' }).trim().max(NOTE_MAX, `At most ${NOTE_MAX} characters`).optional(),
    })
    .strict()
    .superRefine((value, ctx) => {
      const v = value as { reasonCode?: string; reason?: string };
      if (v.reasonCode === OTHER_REASON.code && (v.reason ?? '').length < 3) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say what happened (at least 3 characters)' });
    });
  const fields = [
    { key: 'reasonCode', label: 'Reason', type: 'select', required: true, options: reasons.map((r) => ({ value: r.code, label: r.label })) },
    { key: 'reason', label: 'Note', type: 'textarea', description: `Optional, at most ${NOTE_MAX} characters; needed with “Other”.` },
  ] as const;
  return { reasons, input, fields };
}

/** What a service takes of a reason-coded action (the note empty when none was given). */
export interface ReasonInput<C extends string = string> {
  reasonCode: C;
  reason?: string | undefined;
}

/** The label of a code in these lists, or the code itself for one no list declares (an older code). */
export function reasonLabel(lists: readonly (readonly ReasonCode[])[], code: string | null | undefined): string | null {
  if (code == null) return null;
  for (const list of lists) for (const r of list) if (r.code === code) return r.label;
  return code;
}

/** The options of a list filter over the codes of several actions of one resource (each code once). */
export function reasonOptions(...lists: readonly (readonly ReasonCode[])[]): { value: string; label: string }[] {
  const seen = new Map<string, string>();
  for (const list of lists) for (const r of list) if (!seen.has(r.code)) seen.set(r.code, r.label);
  return [...seen].map(([value, label]) => ({ value, label }));
}
