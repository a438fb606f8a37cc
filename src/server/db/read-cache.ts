import { rootOf, type Db, type Tx } from './client';

/**
 * A short-lived in-process cache of rows that every request reads (the session's user, the caller's
 * workspace and member entry). Every write that changes them journals a `cache` change: this process
 * drops the affected entries once written and committed, the other processes clear that cache when they
 * hear the notice; the TTL (at most a few seconds) bounds what a lost notice could cost.
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

interface Registry {
  ttlMs: number;
  caches: Map<string, ReadCache<unknown>>;
}
const cachesOf = new WeakMap<Db, Registry>();

/**
 * Turns the read caches of a database on (buildApp does, with READ_CACHE_TTL_MS; off they always read)
 * and answers what drops them on a change notice of the journal: a named cache's matching entries in
 * the process that wrote, the whole named cache in the others (the notice names the cache, not the
 * entries: a closure does not travel, and a miss costs one query).
 */
export function enableReadCaches(db: Db, ttlMs: number) {
  const registry: Registry = { ttlMs, caches: new Map() };
  cachesOf.set(rootOf(db), registry);
  return {
    apply(change: { kind: string; name?: string; matches?: (key: string, value: never) => boolean }) {
      if (change.kind !== 'cache' || !change.name) return;
      const cache = registry.caches.get(change.name);
      if (change.matches) cache?.drop(change.matches as (key: string, value: unknown) => boolean);
      else cache?.clear();
    },
    clear() {
      for (const cache of registry.caches.values()) cache.clear();
    },
  };
}

/** The named cache of a database, or undefined when caching is off for it. */
export function readCache<V>(db: Db | Tx, name: string): ReadCache<V> | undefined {
  const registry = cachesOf.get(rootOf(db));
  if (!registry || registry.ttlMs <= 0) return undefined;
  let cache = registry.caches.get(name);
  if (!cache) registry.caches.set(name, (cache = new ReadCache<unknown>(registry.ttlMs)));
  return cache as ReadCache<V>;
}
