/**
 * A record's life as one declared state machine: its states (with label and colour), the state it
 * starts in, and every move of its `status` by the action that makes it — the admin actions of its
 * declaration and the moves only services make (a platform report, a job). Pure data plus pure
 * functions: the web shows buttons and badges from it, the mechanism refuses an action from a wrong
 * state with it, and the services check it after locking the row, so the three can never drift.
 */
export interface StateDef<S extends string = string> {
  readonly value: S;
  readonly label: string;
  readonly color: string;
}

export interface Transition<S extends string = string> {
  readonly from: readonly S[];
  readonly to: S;
}

export interface StateMachine<S extends string = string, A extends string = string> {
  /** What the record is called in messages ("Withdrawal"). */
  readonly noun: string;
  readonly states: readonly StateDef<S>[];
  readonly initial: S;
  readonly transitions: { readonly [K in A]: Transition<S> };
  /** How messages say an action was done, when "<action>ed" reads badly (`succeed` → "marked succeeded"). */
  readonly done?: { readonly [K in A]?: string };
}

export function defineStates<const S extends string, const A extends string>(def: {
  noun: string;
  states: readonly StateDef<S>[];
  initial: NoInfer<S>;
  transitions: { [K in A]: Transition<NoInfer<S>> };
  done?: { [K in NoInfer<A>]?: string };
}): StateMachine<S, A> {
  return def;
}

/** The state values, in declaration order (for `z.enum` and database CHECKs). */
export function stateValues<S extends string>(machine: StateMachine<S, string>): [S, ...S[]] {
  return machine.states.map((s) => s.value) as [S, ...S[]];
}

/** The states as a filter's or a select's options, in declaration order: a status filter offers exactly the machine's states. */
export function stateOptions<S extends string>(machine: StateMachine<S, string>): { value: S; label: string }[] {
  return machine.states.map((s) => ({ value: s.value, label: s.label }));
}

/** The transition an action makes, or undefined when the action does not move the state. */
export function transitionOf(machine: StateMachine | undefined, action: string): Transition | undefined {
  if (!machine || !Object.hasOwn(machine.transitions, action)) return undefined;
  return (machine.transitions as Record<string, Transition>)[action];
}

/** The actions open from a state (for buttons and bulk actions). */
export function allowedActions<S extends string, A extends string>(machine: StateMachine<S, A>, current: S): A[] {
  return (Object.keys(machine.transitions) as A[]).filter((a) => machine.transitions[a].from.includes(current));
}

/** Why `action` cannot be taken from `current`, or null when it can (or when it moves no state). Names the current state. */
export function transitionError(machine: StateMachine, action: string, current: string): string | null {
  const t = transitionOf(machine, action);
  if (!t || t.from.includes(current)) return null;
  const noun = machine.noun;
  // A state's value as words: `awaiting_second_approval` → "awaiting second approval".
  const words = (v: string) => v.replaceAll('_', ' ');
  if (current === t.to) return `${noun} is already ${words(current)}`;
  const from = t.from.map(words);
  const states = from.length === 1 ? from[0]! : `${from.slice(0, -1).join(', ')} or ${from.at(-1)}`;
  const article = `${/^[aeiou]/.test(states) ? 'an' : 'a'} ${states}`;
  const done = (machine.done as Record<string, string | undefined> | undefined)?.[action] ?? pastTense(action);
  return `${noun} is ${words(current)}: only ${article} ${noun.toLowerCase()} can be ${done}`;
}

function pastTense(action: string): string {
  return action.endsWith('e') ? `${action}d` : `${action}ed`;
}
