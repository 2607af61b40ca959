import { useSyncExternalStore } from 'react';

/** A small external store: `get`, `set` (partial or updater), `subscribe`, and a React hook with a selector. */
export interface Store<T> {
  get(): T;
  set(patch: Partial<T> | ((state: T) => Partial<T>)): void;
  subscribe(listener: () => void): () => void;
  use<S>(selector: (state: T) => S): S;
}

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  const store: Store<T> = {
    get: () => state,
    set(patch) {
      const next = typeof patch === 'function' ? patch(state) : patch;
      state = { ...state, ...next };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // The selector must return a stable value (a field of the state, not a new object).
    use: (selector) => useSyncExternalStore(store.subscribe, () => selector(state), () => selector(state)),
  };
  return store;
}
