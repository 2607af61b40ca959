import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { getToken } from './token';

/**
 * Warns before leaving a form with unsaved changes: an in-app navigation is
 * held (`blocker.state === 'blocked'`, then `proceed()` or `reset()`), a
 * reload or tab close gets the browser's prompt. A session that ends never
 * waits on it; `allowLeave()` lets the form itself move on after a save.
 */
export function useUnsavedChanges(dirty: boolean) {
  const leaving = useRef(false);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && !leaving.current && getToken() !== null && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const allowLeave = useCallback(() => {
    leaving.current = true;
  }, []);
  return { blocker, allowLeave };
}
