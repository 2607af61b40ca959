import { describe, expect, it } from 'vitest';
import * as contract from '@pitboss/contract';
import {
  allowedActions, defineStates, depositStates, fiatPaymentStates, orderStates, RESOURCES, transitionError, userStates, withdrawalStates, type ResourceSpec, type StateMachine,
} from '@pitboss/contract';
import { z } from 'zod';
import { assertTransition } from './states.js';

describe('state machines', () => {
  it('lead to the next state, and answer 409 naming the current state otherwise', () => {
    expect(assertTransition(withdrawalStates, 'approve', 'requested')).toBe('approved');
    expect(() => assertTransition(withdrawalStates, 'approve', 'approved')).toThrow(expect.objectContaining({ status: 409, message: 'Withdrawal is already approved' }));
    expect(transitionError(withdrawalStates, 'complete', 'requested')).toBe('Withdrawal is requested: only an approved withdrawal can be completed');
    expect(transitionError(withdrawalStates, 'reject', 'completed')).toBe('Withdrawal is completed: only a requested or awaiting second approval withdrawal can be rejected');
    expect(transitionError(depositStates, 'confirm', 'confirmed')).toBe('Deposit is already confirmed');
    expect(transitionError(depositStates, 'confirm', 'failed')).toBe('Deposit is failed: only a pending deposit can be confirmed');
    expect(transitionError(userStates, 'block', 'blocked')).toBe('User is already blocked');
    expect(transitionError(orderStates, 'cancel', 'filled')).toBe('Order is filled: only an open or partially filled order can be cancelled');
    expect(transitionError(orderStates, 'cancel', 'cancelled')).toBe('Order is already cancelled');
    expect(transitionError(fiatPaymentStates, 'refund', 'pending')).toBe('Payment is pending: only a succeeded payment can be refunded');
  });

  it('list the actions open from a state', () => {
    expect(allowedActions(withdrawalStates, 'requested')).toEqual(['approve', 'approve_first', 'reject']);
    expect(allowedActions(withdrawalStates, 'awaiting_second_approval')).toEqual(['approve', 'reject']);
    expect(allowedActions(withdrawalStates, 'approved')).toEqual(['complete', 'fail']);
    expect(allowedActions(withdrawalStates, 'completed')).toEqual([]);
  });

  it('every declared machine reaches each of its states from the initial one, and its record schema allows exactly its states', () => {
    const machines = declaredMachines(RESOURCES);
    // Not vacuous: the registry declares machines (users, deposits, withdrawals, orders, …).
    expect(machines.map((r) => r.name)).toEqual(expect.arrayContaining(['users', 'deposits', 'withdrawals', 'orders']));
    for (const spec of machines) expect(machineProblems(spec), spec.name).toEqual([]);
  });

  it('every state machine the contract exports is some resource\'s (so the check above covers it)', () => {
    const registered = new Set(declaredMachines(RESOURCES).map((r) => r.states));
    const exported = Object.entries(contract).filter(([, v]) => isStateMachine(v));
    expect(exported.length).toBeGreaterThan(0);
    for (const [name, machine] of exported) expect(registered.has(machine as StateMachine), `${name} is not the states of any resource in RESOURCES`).toBe(true);
  });

  it('a machine added to the registry is checked: an unreachable state and a status schema that disagrees are found', () => {
    const base = RESOURCES.withdrawals!;
    const added: ResourceSpec & { states: StateMachine } = {
      ...base,
      name: 'probe-machines',
      record: z.object({ _id: z.string(), status: z.enum(['draft', 'live']) }),
      states: defineStates({
        noun: 'Probe',
        states: [{ value: 'draft', label: 'Draft', color: 'gray' }, { value: 'live', label: 'Live', color: 'green' }, { value: 'lost', label: 'Lost', color: 'red' }],
        initial: 'draft',
        transitions: { publish: { from: ['draft'], to: 'live' }, recover: { from: ['lost'], to: 'live' } },
      }),
    };
    expect(declaredMachines({ ...RESOURCES, [added.name]: added }).map((r) => r.name)).toContain('probe-machines');
    expect(machineProblems(added)).toEqual([
      'the record schema allows draft, live but the machine declares draft, live, lost',
      'lost cannot be reached from draft',
    ]);
    expect(machineProblems({ ...added, record: z.object({ _id: z.string(), status: z.enum(['draft', 'live', 'lost']) }) })).toEqual(['lost cannot be reached from draft']);
  });
});

/** The resources of a registry that declare a state machine. */
function declaredMachines(registry: Record<string, ResourceSpec>): (ResourceSpec & { states: StateMachine })[] {
  return Object.values(registry).filter((r): r is ResourceSpec & { states: StateMachine } => Boolean(r.states));
}

const isStateMachine = (v: unknown): v is StateMachine =>
  typeof v === 'object' && v !== null && 'noun' in v && 'initial' in v && Array.isArray((v as StateMachine).states) && typeof (v as StateMachine).transitions === 'object';

/** What is wrong with a resource's machine: its record's status schema must allow exactly its states, each reachable from the initial one. */
function machineProblems(spec: ResourceSpec & { states: StateMachine }): string[] {
  const m = spec.states;
  const problems: string[] = [];
  const statuses = m.states.map((st) => st.value);
  const allowed = (spec.record?.shape.status as { options?: string[] } | undefined)?.options;
  if (JSON.stringify(allowed) !== JSON.stringify(statuses)) problems.push(`the record schema allows ${allowed?.join(', ') ?? 'no status'} but the machine declares ${statuses.join(', ')}`);
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
  for (const st of statuses) if (!seen.has(st)) problems.push(`${st} cannot be reached from ${m.initial}`);
  return problems;
}
