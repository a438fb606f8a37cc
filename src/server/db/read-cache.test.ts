import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  it('serves a stored value without reading again', async () => {
    const cache = new ReadCache<string>(60_000);
    const read = vi.fn(async () => 'row');
    expect(await cache.get('k', read)).toBe('row');
    expect(await cache.get('k', read)).toBe('row');
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('does not store nothing', async () => {
    const cache = new ReadCache<string>(60_000);
    const read = vi.fn(async () => undefined);
    await cache.get('k', read);
    await cache.get('k', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads again after a drop', async () => {
    const cache = new ReadCache<string>(60_000);
    await cache.get('k', async () => 'old');
    cache.drop((key) => key === 'k');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  // A read that started before a write and ended after it could store the row the write replaced.
  it('does not store what a read answers when a drop happened while it read', async () => {
    const cache = new ReadCache<string>(60_000);
    let finish!: (value: string) => void;
    const pending = cache.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.drop(() => true);
    finish('old');
    expect(await pending).toBe('old');
    expect(await cache.get('k', async () => 'new')).toBe('new');
  });

  it('stores nothing with a TTL of 0', async () => {
    const cache = new ReadCache<string>(0);
    const read = vi.fn(async () => 'row');
    await cache.get('k', read);
    await cache.get('k', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('keeps at most its maximum number of entries', async () => {
    const cache = new ReadCache<string>(60_000, 2);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);
    const read = vi.fn(async () => 'again');
    expect(await cache.get('a', read)).toBe('again');
    expect(await cache.get('c', read)).toBe('c');
  });
});
