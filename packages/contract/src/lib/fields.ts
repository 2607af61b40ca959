import { z } from 'zod';


/**
 * Users and money. Amounts are integer minor units of their coin (or fiat currency), sent as
 * strings of digits; each record also carries the amount formatted with its coin's decimals
 * (`amountText`), which is what lists show. States move only by the declared actions.
 */
export const units = z.string().regex(/^-?\d{1,30}$/);
export const reasonInput = z.object({ reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason (at least 3 characters)').max(500, 'At most 500 characters') }).strict();
export const reasonField = { key: 'reason', label: 'Reason', type: 'textarea', required: true } as const;
