import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A callback whose identity never changes and that calls the latest `callback` given: memoised children
 * handed it are not drawn again because their parent was. For event handlers only (not called while
 * rendering).
 */
export function useStableCallback<A extends unknown[], R>(callback: (...args: A) => R): (...args: A) => R {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
