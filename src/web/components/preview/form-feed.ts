import { useState } from 'react';

type Data = Readonly<Record<string, unknown>>;

interface FeedState {
  /** The form's values as last typed; undefined until the form reports them. */
  data: Data | undefined;
  /** How many saves the form made. */
  saves: number;
}

/**
 * The item form's values and saves, for the preview pane beside it: the form pushes and the pane sends
 * them on, without re-rendering anything on a keystroke.
 */
export function useFormFeed() {
  const [feed] = useState(() => {
    let state: FeedState = { data: undefined, saves: 0 };
    const listeners = new Set<() => void>();
    const set = (next: FeedState) => {
      state = next;
      listeners.forEach((listener) => listener());
    };
    return {
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
        };
      },
      get: () => state,
      push: (data: Data) => set({ ...state, data }),
      saved: () => set({ ...state, saves: state.saves + 1 }),
    };
  });
  return feed;
}

export type FormFeed = ReturnType<typeof useFormFeed>;
