import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk } from './chunk-load';

describe('loadChunk (spec §8/§9: chunk load failures are load failed after 120 s)', () => {
  afterEach(() => vi.useRealTimers());

  it('answers the module when it arrives', async () => {
    await expect(loadChunk(() => Promise.resolve({ default: 1 }))).resolves.toEqual({ default: 1 });
  });

  it('reports a failed import as load failed', async () => {
    const failed = loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    );
    await expect(failed).rejects.toThrow('Load failed: Failed to fetch dynamically imported module');
    await expect(failed).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it('reports a chunk that never arrives as load failed after 120 seconds, not before', async () => {
    vi.useFakeTimers();
    let settled = false;
    const pending = loadChunk(() => new Promise(() => {}));
    pending.catch(() => (settled = true));
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).rejects.toThrow('Load failed: the screen did not arrive within 120 seconds');
  });
});
