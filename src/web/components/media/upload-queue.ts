/**
 * A queue that runs at most `concurrency` tasks at once (bulk uploads, bulk saves). A task that fails
 * rejects its own promise only; the queue goes on with the rest.
 */
export interface TaskQueue {
  /** Runs `task` when a slot is free; resolves or rejects with it. */
  add<R>(task: () => Promise<R>): Promise<R>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly pending: number;
}

export function createTaskQueue(concurrency: number): TaskQueue {
  const limit = Math.max(1, Math.floor(concurrency));
  const waiting: (() => void)[] = [];
  let active = 0;

  const next = () => {
    while (active < limit && waiting.length > 0) {
      active++;
      waiting.shift()!();
    }
  };

  return {
    add<R>(task: () => Promise<R>) {
      return new Promise<R>((resolve, reject) => {
        waiting.push(() => {
          let result: Promise<R>;
          try {
            result = task();
          } catch (e) {
            result = Promise.reject(e);
          }
          result.then(resolve, reject).finally(() => {
            active--;
            next();
          });
        });
        next();
      });
    },
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
  };
}

/** Runs `fn` over every entry with at most `concurrency` at once; one entry's failure never stops the others. */
export function runBounded<T, R>(
  entries: readonly T[],
  concurrency: number,
  fn: (entry: T, index: number) => Promise<R>,
) {
  const queue = createTaskQueue(concurrency);
  return Promise.allSettled(entries.map((entry, index) => queue.add(() => fn(entry, index))));
}

/** Uploads at once in the multi-image upload dialog. */
export const UPLOAD_CONCURRENCY = 3;
