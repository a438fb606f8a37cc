import type { ItemWithWriter } from './repository';
import { ItemCache } from './cache';

const row = (id: string, name = id): ItemWithWriter =>
  ({
    item: { id, data: { name } },
    writerName: null,
    copies: [],
    approvals: [],
  }) as unknown as ItemWithWriter;

describe('ItemCache', () => {
  it('serves a stored row without reading again, per workspace', async () => {
    const cache = new ItemCache();
    const read = vi.fn(async () => row('a'));
    await cache.item('ws1', 'post\ta', read);
    expect(await cache.item('ws1', 'post\ta', read)).toEqual(row('a'));
    await cache.item('ws2', 'post\ta', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads a row again once it is 30 s old, keeping younger rows of the workspace', async () => {
    vi.useFakeTimers();
    try {
      const cache = new ItemCache();
      const read = vi.fn(async (name: string) => row('a', name));
      await cache.item('ws1', 'post\ta', () => read('old'));
      vi.advanceTimersByTime(20_000);
      await cache.item('ws1', 'post\tb', () => read('b'));
      vi.advanceTimersByTime(10_001);
      expect(await cache.item('ws1', 'post\ta', () => read('new'))).toEqual(row('a', 'new'));
      expect(await cache.item('ws1', 'post\tb', () => read('b again'))).toEqual(row('a', 'b'));
      expect(read).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not store an absent item', async () => {
    const cache = new ItemCache();
    const read = vi.fn(async () => undefined);
    await cache.item('ws1', 'post\ta', read);
    await cache.item('ws1', 'post\ta', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it("drops one workspace's rows and pages, or everything", async () => {
    const cache = new ItemCache();
    await cache.item('ws1', 'post\ta', async () => row('a', 'old'));
    await cache.page('ws1', 'p', async () => [row('a', 'old')]);
    await cache.item('ws2', 'post\ta', async () => row('a', 'kept'));
    cache.drop('ws1');
    expect(await cache.item('ws1', 'post\ta', async () => row('a', 'new'))).toEqual(row('a', 'new'));
    expect(await cache.page('ws1', 'p', async () => [row('a', 'new')])).toEqual([row('a', 'new')]);
    expect(await cache.item('ws2', 'post\ta', async () => row('a', 'other'))).toEqual(row('a', 'kept'));
    cache.drop();
    expect(await cache.item('ws2', 'post\ta', async () => row('a', 'other'))).toEqual(row('a', 'other'));
  });

  // A read that started before a write and ended after it could store the row the write replaced.
  it('does not store what a read answers when its workspace was dropped while it read', async () => {
    const cache = new ItemCache();
    let finish!: (value: ItemWithWriter) => void;
    const reading = cache.item('ws1', 'post\ta', () => new Promise((resolve) => (finish = resolve)));
    cache.drop('ws1');
    finish(row('a', 'stale'));
    expect(await reading).toEqual(row('a', 'stale'));
    expect(await cache.item('ws1', 'post\ta', async () => row('a', 'fresh'))).toEqual(row('a', 'fresh'));
  });

  // Data stored before the depth limits may nest deeper than the stack allows: sizing it must not throw.
  it('answers, without keeping, a row too large or too deep to size', async () => {
    const cache = new ItemCache();
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = { deeper: deep };
    const huge = row('deep');
    huge.item.data = { deep, wide: new Array(300_000).fill(1) };
    const read = vi.fn(async () => huge);
    expect(await cache.item('ws1', 'post\tdeep', read)).toBe(huge);
    await cache.item('ws1', 'post\tdeep', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('forgets the oldest rows beyond its size', async () => {
    const cache = new ItemCache(2_000);
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])
      await cache.item('ws1', id, async () => row(id));
    const read = vi.fn(async () => row('a'));
    await cache.item('ws1', 'a', read);
    await cache.item('ws1', 'h', async () => row('not read'));
    expect(read).toHaveBeenCalledTimes(1);
  });
});
