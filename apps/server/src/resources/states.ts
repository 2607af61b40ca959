import { ERROR_CODES, transitionError, type StateMachine } from '@pitboss/contract';
import { AppError } from '../http/errors.js';

/**
 * The state `action` leads to from `current`; throws a 409 naming the current state when it cannot
 * be taken. Services call it after locking the row (`SELECT … FOR UPDATE`), so two admins acting at
 * once get one success and one 409 naming the state the first one left. The machine is the
 * resource's declaration in the contract (one source for buttons, the mechanism and the services).
 */
export function assertTransition<S extends string, A extends string>(machine: StateMachine<S, A>, action: A, current: S): S {
  const message = transitionError(machine, action, current);
  if (message) throw new AppError(409, ERROR_CODES.INVALID_STATE, message, { status: message });
  return machine.transitions[action].to;
}
