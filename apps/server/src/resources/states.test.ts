import { describe, expect, it } from 'vitest';
import { allowedActions, depositStates, fiatPaymentStates, orderStates, RESOURCES, transitionError, userStates, withdrawalStates } from '@pitboss/contract';
import { assertTransition } from './states.js';

describe('state machines', () => {
  it('lead to the next state, and answer 409 naming the current state otherwise', () => {
    expect(assertTransition(withdrawalStates, 'approve', 'requested')).toBe('approved');
    expect(() => assertTransition(withdrawalStates, 'approve', 'approved')).toThrow(expect.objectContaining({ status: 409, message: 'Withdrawal is already approved' }));
    expect(transitionError(withdrawalStates, 'complete', 'requested')).toBe('Withdrawal is requested: only an approved withdrawal can be completed');
    expect(transitionError(withdrawalStates, 'reject', 'completed')).toBe('Withdrawal is completed: only a requested withdrawal can be rejected');
    expect(transitionError(depositStates, 'confirm', 'confirmed')).toBe('Deposit is already confirmed');
    expect(transitionError(depositStates, 'confirm', 'failed')).toBe('Deposit is failed: only a pending deposit can be confirmed');
    expect(transitionError(userStates, 'block', 'blocked')).toBe('User is already blocked');
    expect(transitionError(orderStates, 'cancel', 'filled')).toBe('Order is filled: only an open or partially_filled order can be cancelled');
    expect(transitionError(orderStates, 'cancel', 'cancelled')).toBe('Order is already cancelled');
    expect(transitionError(fiatPaymentStates, 'refund', 'pending')).toBe('Payment is pending: only a succeeded payment can be refunded');
  });

  it('list the actions open from a state', () => {
    expect(allowedActions(withdrawalStates, 'requested')).toEqual(['approve', 'reject']);
    expect(allowedActions(withdrawalStates, 'approved')).toEqual(['complete', 'fail']);
    expect(allowedActions(withdrawalStates, 'completed')).toEqual([]);
  });

  it('every declared machine reaches each of its states from the initial one, and its record schema allows exactly its states', () => {
    const machines = Object.values(RESOURCES).filter((r) => r.states);
    expect(machines.map((r) => r.name).sort()).toEqual([
      'booster-packs', 'closed-positions', 'cms-pages', 'deposits', 'events', 'fiat-payments', 'mail-outbox', 'markets', 'open-positions', 'orders', 'sub-admins', 'tickets', 'trade-bots', 'users', 'withdrawals',
    ]);
    for (const spec of machines) {
      const m = spec.states!;
      const statuses = m.states.map((st) => st.value);
      const statusSchema = spec.record!.shape.status as { options?: string[] };
      expect(statusSchema.options).toEqual(statuses);
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
