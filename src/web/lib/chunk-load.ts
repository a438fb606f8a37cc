/** Spec §9: a screen's chunk that has not arrived after 120 seconds is reported as load failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

/**
 * A lazy import that fails as 'Load failed: …' when the chunk cannot be fetched or takes longer than the
 * time-out; the route's error screen shows it as a navigation error and offers to reload.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ChunkLoadError(`Load failed: the screen did not arrive within ${timeoutMs / 1000} seconds`),
        ),
      timeoutMs,
    );
  });
  const loaded = load().catch((err: unknown) => {
    throw new ChunkLoadError(`Load failed: ${err instanceof Error ? err.message : String(err)}`);
  });
  return Promise.race([loaded, timedOut]).finally(() => clearTimeout(timer));
}
