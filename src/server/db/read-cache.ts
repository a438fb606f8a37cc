import { nowAndAfterCommit, rootOf, type Db, type Tx } from './client';

/**
 * A short-lived in-process cache of rows that every request reads (the session's user, the caller's
 * workspace and member entry). This process's own writes drop the affected entries once written and
 * committed; other processes' writes are seen when the entry expires (the TTL, at most a few seconds).
 * A read that was under way while anything was dropped does not store its answer, so a revoked session
 * or a deactivated member is never served from the cache after the write that revoked it.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  /** Rises with every drop; a load stores its answer only if no drop happened while it read. */
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cached value, or what `read` answers (cached unless undefined or a drop happened meanwhile). */
  async get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry) {
      if (entry.until > Date.now()) return entry.value;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await read();
    if (value !== undefined && this.ttlMs > 0 && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, until: Date.now() + this.ttlMs });
    }
    return value;
  }

  /** Drops the entries whose key or value matches. */
  drop(matches: (key: string, value: V) => boolean) {
    this.generation++;
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.entries.delete(key);
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}

const cachesOf = new WeakMap<Db, { ttlMs: number; caches: Map<string, ReadCache<unknown>> }>();

/** Turns the read caches of a database on (buildApp does, with READ_CACHE_TTL_MS); off they always read. */
export function enableReadCaches(db: Db, ttlMs: number) {
  cachesOf.set(rootOf(db), { ttlMs, caches: new Map() });
}

/** The named cache of a database, or undefined when caching is off for it. */
export function readCache<V>(db: Db | Tx, name: string): ReadCache<V> | undefined {
  const registry = cachesOf.get(rootOf(db));
  if (!registry || registry.ttlMs <= 0) return undefined;
  let cache = registry.caches.get(name);
  if (!cache) registry.caches.set(name, (cache = new ReadCache<unknown>(registry.ttlMs)));
  return cache as ReadCache<V>;
}

/**
 * Drops matching entries of a named cache: call it after the write statement, so outside a transaction
 * the write has committed; inside one the entries are dropped again once the transaction commits.
 */
export function dropCached<V>(db: Db | Tx, name: string, matches: (key: string, value: V) => boolean) {
  const cache = readCache<V>(db, name);
  if (cache) nowAndAfterCommit(db, () => cache.drop(matches));
}
