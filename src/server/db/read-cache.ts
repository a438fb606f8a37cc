import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterCommit, notificationsFor, nowAndAfterCommit, rootOf, type Db, type Tx } from './client';

/**
 * A short-lived in-process cache of rows that every request reads (the session's user, the caller's
 * workspace and member entry). This process's own writes drop the affected entries once written and
 * committed. On PostgreSQL every such write also NOTIFYs the other server processes (delivered when the
 * write commits), which clear that cache at once; the TTL (at most a few seconds) remains the fallback
 * should a notification be missed (a listener reconnecting).
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
  /** Whether drops are announced to other processes (PostgreSQL). */
  broadcasts: boolean;
  /** Whether this process hears the announcements (its own come back too). */
  listening: boolean;
}
const cachesOf = new WeakMap<Db, Registry>();

/** The channel of cache drops; its payload is `{ from, cache }`. */
export const CACHE_CHANNEL = 'marquee_cache';
/** Who this process is on the channel: its own announcements are not applied twice. */
const PROCESS_ID = crypto.randomUUID();

/** Turns the read caches of a database on (buildApp does, with READ_CACHE_TTL_MS); off they always read. */
export function enableReadCaches(db: Db, ttlMs: number) {
  cachesOf.set(rootOf(db), {
    ttlMs,
    caches: new Map(),
    broadcasts: notificationsFor(db) !== undefined,
    listening: false,
  });
}

/**
 * Clears a named cache whenever another process announces a drop in it (the announcement names the
 * cache, not the entries: a closure does not travel, and a miss costs one query). Answers how to stop.
 */
export async function listenForCacheDrops(db: Db): Promise<() => Promise<void>> {
  const registry = cachesOf.get(rootOf(db));
  const notifications = notificationsFor(db);
  if (!registry || !notifications || registry.ttlMs <= 0) return async () => {};
  const stop = await notifications.listen(CACHE_CHANNEL, (payload) => {
    let message: { from?: unknown; cache?: unknown; echo?: unknown };
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (message.from === PROCESS_ID) return echoHeard(message.echo as string);
    if (typeof message.cache === 'string') registry.caches.get(message.cache)?.clear();
  });
  registry.listening = true;
  return async () => {
    registry.listening = false;
    await stop();
  };
}

/** Announcements of this process waiting to hear themselves back. */
const echoes = new Map<string, () => void>();
/** A listener heard one of this process's own announcements (`echo`) come back. */
export const echoHeard = (echo: string) => echoes.get(echo)?.();
/** How long a write waits for its announcement to come back before it answers anyway. */
const ECHO_WAIT_MS = 100;

/** Resolves when this process hears the announcement `echo` back, or after ECHO_WAIT_MS. */
export function heard(echo: string) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      echoes.delete(echo);
      resolve();
    };
    const timer = setTimeout(done, ECHO_WAIT_MS);
    echoes.set(echo, done);
  });
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
 * Drops matching entries of a named cache: call (and await) it after the write statement, so outside a
 * transaction the write has committed; inside one the entries are dropped again once the transaction
 * commits. On PostgreSQL it also tells the other processes, with a NOTIFY that is part of the write's
 * transaction (delivered when it commits, dropped when it rolls back).
 */
export async function dropCached<V>(db: Db | Tx, name: string, matches: (key: string, value: V) => boolean) {
  const cache = readCache<V>(db, name);
  if (cache) nowAndAfterCommit(db, () => cache.drop(matches));
  const registry = cachesOf.get(rootOf(db));
  if (!registry?.broadcasts) return;
  const echo = crypto.randomUUID();
  // PostgreSQL hands a committed notification to every listening connection at once; hearing our own
  // back before answering makes it very likely the other processes have it before the caller's next
  // request reaches them. Delivery stays asynchronous: the TTL bounds what a lost race could cost.
  const echoed = registry.listening ? heard(echo) : undefined;
  const payload = JSON.stringify({ from: PROCESS_ID, cache: name, echo });
  await db.execute(sql`select pg_notify(${CACHE_CHANNEL}, ${payload})`);
  if (echoed) await afterCommit(db, () => echoed);
}
