import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client';
import type { CustomerDefinitions } from '../customers/definitions';
import type { Change, ChangeSubscriber } from '../journal/changes';
import type { WriteKeyRow } from './repository';

/** Keys and workspaces whose look-ups one process keeps. */
const MAX_KEYS = 10_000;
const MAX_WORKSPACES = 1_000;
/**
 * How long a look-up is kept at most: the bound on staleness should a change notice be lost. A key
 * revoked or a definition saved in this process or another drops its entries through the journal's notice.
 */
const KEY_AGE_MS = 30_000;
const DEFINITIONS_AGE_MS = 5_000;
const RATE_WINDOW_MS = 60_000;

/**
 * What the ingestion hot path reads on every request, kept briefly so a request costs its write alone:
 * write keys by hash, the workspace's attribute and event definitions and the names it kept
 * undeclared (read by requests that bring some), plus each key's count of events in its current minute (the per-key rate limit, per process). A look-up that overlapped a change
 * notice is answered but not kept, so a revoked key is never served from here after its revocation.
 */
export class IngestCache implements ChangeSubscriber {
  private readonly keys = new LRUCache<string, { row: WriteKeyRow | null }>({
    max: MAX_KEYS,
    ttl: KEY_AGE_MS,
  });
  private readonly definitions = new LRUCache<string, CustomerDefinitions>({
    max: MAX_WORKSPACES,
    ttl: DEFINITIONS_AGE_MS,
  });
  /** The names each workspace kept undeclared (`undeclaredNames`), for the bound on them. */
  private readonly undeclared = new LRUCache<string, Set<string>>({
    max: MAX_WORKSPACES,
    ttl: DEFINITIONS_AGE_MS,
  });
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** Rises with every change heard; a look-up is kept only if none came in while it read. */
  private changes = 0;

  async writeKey(hash: string, load: () => Promise<WriteKeyRow | undefined>) {
    const kept = this.keys.get(hash);
    if (kept) return kept.row ?? undefined;
    const before = this.changes;
    const row = await load();
    if (before === this.changes) this.keys.set(hash, { row: row ?? null });
    return row;
  }

  async definitionsOf(workspaceId: string, load: () => Promise<CustomerDefinitions>) {
    const kept = this.definitions.get(workspaceId);
    if (kept) return kept;
    const before = this.changes;
    const defs = await load();
    if (before === this.changes) this.definitions.set(workspaceId, defs);
    return defs;
  }

  async undeclaredOf(workspaceId: string, load: () => Promise<Set<string>>) {
    const kept = this.undeclared.get(workspaceId);
    if (kept) return kept;
    const names = await load();
    this.undeclared.set(workspaceId, names);
    return names;
  }

  /** Names a request of this process just kept: counted at once here, by other processes once they read again. */
  keptUndeclared(workspaceId: string, names: Iterable<string>) {
    const kept = this.undeclared.get(workspaceId);
    if (kept) for (const name of names) kept.add(name);
  }

  /**
   * Counts `events` against the key's minute (which starts at its first event); answers the seconds to
   * wait when they would pass `limit`, counting nothing then.
   */
  take(keyId: string, events: number, limit: number, now = Date.now()): number | undefined {
    let window = this.windows.get(keyId);
    if (!window || now - window.start >= RATE_WINDOW_MS) {
      if (this.windows.size >= MAX_KEYS) this.windows.clear();
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count + events > limit)
      return Math.max(1, Math.ceil((window.start + RATE_WINDOW_MS - now) / 1000));
    window.count += events;
    return undefined;
  }

  apply(change: Change) {
    if (change.kind === 'keys') {
      this.changes++;
      for (const [hash, { row }] of this.keys.entries())
        if (!row || row.workspaceId === change.workspaceId) this.keys.delete(hash);
    } else if (change.kind === 'items') {
      this.changes++;
      if (change.workspaceId === undefined) this.definitions.clear();
      else this.definitions.delete(change.workspaceId);
    }
  }

  clear() {
    this.changes++;
    this.keys.clear();
    this.definitions.clear();
    this.undeclared.clear();
  }
}

const caches = new WeakMap<Db, IngestCache>();

/** The ingestion cache of a database (one per root database, shared by the apps built on it). */
export function ingestCacheOf(db: Db): IngestCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new IngestCache()));
  return cache;
}
