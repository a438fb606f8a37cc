import { describe, expect, it } from 'vitest';
import { createTaskQueue, runBounded } from './upload-queue';

/** A task that finishes when told to, recording how many ran at once. */
function deferred() {
  let resolve!: (value: string) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createTaskQueue', () => {
  it('runs at most `concurrency` tasks at once, starting the next as one settles', async () => {
    const queue = createTaskQueue(3);
    const tasks = Array.from({ length: 7 }, () => deferred());
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const results = tasks.map((task, index) =>
      queue.add(async () => {
        started.push(index);
        running++;
        peak = Math.max(peak, running);
        try {
          return await task.promise;
        } finally {
          running--;
        }
      }),
    );
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(queue.active).toBe(3);
    expect(queue.pending).toBe(4);

    tasks[1].resolve('b');
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);

    tasks.forEach((task, index) => index !== 1 && task.resolve(String(index)));
    await Promise.all(results);
    for (let i = 0; i < 10; i++) await tick();
    expect(peak).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(queue.active).toBe(0);
  });

  it('isolates failures: a failing task rejects alone and the queue goes on', async () => {
    const queue = createTaskQueue(2);
    const outcomes = await Promise.allSettled([
      queue.add(async () => 'a'),
      queue.add(async () => {
        throw new Error('boom');
      }),
      queue.add(() => {
        throw new Error('sync boom');
      }),
      queue.add(async () => 'd'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('boom');
    expect((outcomes[3] as PromiseFulfilledResult<string>).value).toBe('d');
    expect(queue.active).toBe(0);
  });

  it('treats a concurrency below 1 as 1', async () => {
    const queue = createTaskQueue(0);
    const first = deferred();
    void queue.add(() => first.promise);
    void queue.add(async () => 'x');
    await tick();
    expect(queue.active).toBe(1);
    first.resolve('done');
  });
});

describe('runBounded', () => {
  it('settles every entry in order, with at most `concurrency` at once', async () => {
    let running = 0;
    let peak = 0;
    const results = await runBounded([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 2 + (n % 3)));
      running--;
      if (n % 4 === 0) throw new Error(`no ${n}`);
      return n * 10;
    });
    expect(peak).toBe(3);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'x'))).toEqual([
      10,
      20,
      30,
      'x',
      50,
      60,
      70,
      'x',
      90,
      100,
    ]);
  });
});
