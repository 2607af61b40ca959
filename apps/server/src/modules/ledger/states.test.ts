import { describe, expect, it } from 'vitest';
import { depositStates } from '../deposits/service.js';
import { fiatPaymentStates } from '../fiat-payments/service.js';
import { allowedActions, assertTransition, transitionError } from './states.js';
import { DEPOSIT_STATUSES } from '../deposits/table.js';
import { FIAT_PAYMENT_STATUSES } from '../fiat-payments/table.js';
import { userStates } from '../users/service.js';
import { USER_STATUSES } from '../users/table.js';
import { withdrawalStates } from '../withdrawals/service.js';
import { WITHDRAWAL_STATUSES } from '../withdrawals/table.js';

describe('state machines', () => {
  it('lead to the next state, and answer 409 naming the current state otherwise', () => {
    expect(assertTransition(withdrawalStates, 'approve', 'requested')).toBe('approved');
    expect(() => assertTransition(withdrawalStates, 'approve', 'approved')).toThrow(expect.objectContaining({ status: 409, message: 'Withdrawal is already approved' }));
    expect(transitionError(withdrawalStates, 'complete', 'requested')).toBe('Withdrawal is requested: only an approved withdrawal can be completed');
    expect(transitionError(withdrawalStates, 'reject', 'completed')).toBe('Withdrawal is completed: only a requested withdrawal can be rejected');
    expect(transitionError(depositStates, 'confirm', 'confirmed')).toBe('Deposit is already confirmed');
    expect(transitionError(depositStates, 'confirm', 'failed')).toBe('Deposit is failed: only a pending deposit can be confirmed');
    expect(transitionError(userStates, 'block', 'blocked')).toBe('User is already blocked');
    expect(transitionError(fiatPaymentStates, 'refund', 'pending')).toBe('Payment is pending: only a succeeded payment can be refunded');
  });

  it('list the actions open from a state', () => {
    expect(allowedActions(withdrawalStates, 'requested')).toEqual(['approve', 'reject']);
    expect(allowedActions(withdrawalStates, 'approved')).toEqual(['complete', 'fail']);
    expect(allowedActions(withdrawalStates, 'completed')).toEqual([]);
  });

  it('use exactly the states the tables allow, and every state is reachable from the initial one', () => {
    const machines = [
      [withdrawalStates, WITHDRAWAL_STATUSES],
      [depositStates, DEPOSIT_STATUSES],
      [fiatPaymentStates, FIAT_PAYMENT_STATUSES],
      [userStates, USER_STATUSES],
    ] as const;
    for (const [m, statuses] of machines) {
      expect([...m.states]).toEqual([...statuses]);
      const seen = new Set<string>([m.initial]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const t of Object.values(m.transitions) as { from: readonly string[]; to: string }[]) {
          if (t.from.some((s) => seen.has(s)) && !seen.has(t.to)) {
            seen.add(t.to);
            grew = true;
          }
        }
      }
      expect([...seen].sort()).toEqual([...statuses].sort());
    }
  });
});
