import { conflict } from '../../http/errors.js';

/**
 * A record's life as a small declared state machine: each action names the states it may start
 * from and the state it leads to. Pure data plus two functions, no database: the contract's
 * resource declarations can take the same declaration (which buttons a record shows), and the
 * services check it after locking the row (`SELECT … FOR UPDATE`), so two admins acting at once
 * get one success and one 409 naming the state the first one left.
 */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}

export interface StateMachine<S extends string, A extends string> {
  /** What the record is called in messages ("Withdrawal"). */
  readonly noun: string;
  readonly states: readonly S[];
  readonly initial: S;
  readonly transitions: { readonly [K in A]: Transition<S> };
  /** How messages say an action was done, when "<action>ed" reads badly (`succeed` → "marked succeeded"). */
  readonly done?: { readonly [K in A]?: string };
}

export function defineStates<const S extends string, const A extends string>(def: {
  noun: string;
  states: readonly S[];
  initial: NoInfer<S>;
  transitions: { [K in A]: Transition<NoInfer<S>> };
  done?: { [K in NoInfer<A>]?: string };
}): StateMachine<S, A> {
  return def;
}

/** The actions open from a state (for buttons and bulk actions). */
export function allowedActions<S extends string, A extends string>(machine: StateMachine<S, A>, current: S): A[] {
  return (Object.keys(machine.transitions) as A[]).filter((a) => machine.transitions[a].from.includes(current));
}

/** Why `action` cannot be taken from `current`, or null when it can. Names the current state. */
export function transitionError<S extends string, A extends string>(machine: StateMachine<S, A>, action: A, current: S): string | null {
  const t = machine.transitions[action];
  if (t.from.includes(current)) return null;
  const noun = machine.noun;
  if (current === t.to) return `${noun} is already ${current}`;
  const states = t.from.length === 1 ? t.from[0]! : `${t.from.slice(0, -1).join(', ')} or ${t.from.at(-1)}`;
  const from = `${/^[aeiou]/.test(states) ? 'an' : 'a'} ${states}`;
  return `${noun} is ${current}: only ${from} ${noun.toLowerCase()} can be ${machine.done?.[action] ?? pastTense(action)}`;
}

/** The state `action` leads to from `current`; throws a 409 naming the current state when it cannot be taken. */
export function assertTransition<S extends string, A extends string>(machine: StateMachine<S, A>, action: A, current: S): S {
  const message = transitionError(machine, action, current);
  if (message) throw conflict(message, { status: message });
  return machine.transitions[action].to;
}

function pastTense(action: string): string {
  return action.endsWith('e') ? `${action}d` : `${action}ed`;
}
