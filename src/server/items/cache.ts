import { rootOf, type Db, type Tx } from '../db/client';
import type { ChangeSubscriber } from '../journal/changes';
import type { ItemWithWriter } from './repository';

/** What the cache may hold per process (an estimate of the rows' size), and at most per row or page. */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 256 * 1024;
/**
 * How long one read is kept at most: the bound on staleness should another process's announcement be
 * lost (the journal sends it just after its write commits; a process that dies in between).
 */
const MAX_AGE_MS = 30_000;

interface Entry<V> {
  value: V;
  bytes: number;
  until: number;
}
/** What one workspace's reads answered: item rows by schema and id, list pages by their query. */
interface Bucket {
  items: Map<string, Entry<ItemWithWriter>>;
  pages: Map<string, Entry<ItemWithWriter[]>>;
}

/**
 * A rough size in bytes of rows read from the database (strings, numbers, objects), to bound memory;
 * Infinity past `limit`. Without recursion: stored data may nest deeper than the stack allows.
 */
function estimateBytes(value: unknown, limit: number): number {
  let bytes = 0;
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') bytes += 16 + 2 * v.length;
    else if (v === null || typeof v !== 'object' || v instanceof Date) bytes += 32;
    else if (Array.isArray(v)) {
      bytes += 32 + 8 * v.length;
      for (const child of v) stack.push(child);
    } else {
      for (const [k, child] of Object.entries(v)) {
        bytes += 16 + k.length;
        stack.push(child);
      }
    }
    if (bytes > limit) return Infinity;
  }
  return bytes;
}

/**
 * Item reads (one item, or a page of a list) answered from memory. The cache holds rows as the database
 * answered them, never a caller's view of them: routes check membership and rights as before, and each
 * request presents the rows for its caller (abilities, approvals left). Entries live in a bucket per
 * workspace; every write that changes what item reads answer (save, create, delete, publish, unpublish,
 * approve, a member's or user's name) journals an `items` change, which drops its workspace's bucket in
 * this process at once and after commit and in the other processes once committed (journal/changes.ts);
 * each read is kept at most MAX_AGE_MS. A read that was under way while its bucket was dropped does not store its answer.
 */
export class ItemCache {
  constructor(private readonly maxBytes = MAX_BYTES) {}

  private readonly buckets = new Map<string, Bucket>();
  private bytes = 0;

  private bucketOf(workspaceId: string) {
    let bucket = this.buckets.get(workspaceId);
    if (!bucket) {
      bucket = { items: new Map(), pages: new Map() };
      this.buckets.set(workspaceId, bucket);
    }
    return bucket;
  }

  /** The cached item, or what `read` answers (kept unless absent or the workspace changed meanwhile). */
  item(workspaceId: string, key: string, read: () => Promise<ItemWithWriter | undefined>) {
    return this.get(workspaceId, 'items', key, read);
  }

  /** The cached rows of a list page, or what `read` answers. */
  page<R extends ItemWithWriter>(workspaceId: string, key: string, read: () => Promise<R[]>) {
    return this.get(workspaceId, 'pages', key, read) as Promise<R[]>;
  }

  private async get<K extends keyof Bucket, V extends ItemWithWriter | ItemWithWriter[]>(
    workspaceId: string,
    kind: K,
    key: string,
    read: () => Promise<V | undefined>,
  ): Promise<V | undefined> {
    const bucket = this.bucketOf(workspaceId);
    const map = bucket[kind] as Map<string, Entry<V>>;
    const hit = map.get(key);
    if (hit) {
      if (hit.until > Date.now()) return hit.value;
      map.delete(key);
      this.bytes -= hit.bytes;
    }
    const value = await read();
    if (value === undefined || this.buckets.get(workspaceId) !== bucket || map.has(key)) return value;
    const bytes = estimateBytes(value, MAX_ENTRY_BYTES);
    if (bytes === Infinity) return value;
    map.set(key, { value, bytes, until: Date.now() + MAX_AGE_MS });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) this.evictOldest();
    return value;
  }

  private evictOldest() {
    const oldestBucket = this.buckets.entries().next();
    if (oldestBucket.done) {
      this.bytes = 0;
      return;
    }
    const [workspaceId, bucket] = oldestBucket.value;
    const map: Map<string, Entry<unknown>> = bucket.items.size > 0 ? bucket.items : bucket.pages;
    const oldest = map.keys().next();
    if (oldest.done) return this.drop(workspaceId);
    this.bytes -= map.get(oldest.value)!.bytes;
    map.delete(oldest.value);
  }

  /** Forgets what reads of a workspace answered (of every workspace when undefined). */
  drop(workspaceId?: string) {
    if (workspaceId === undefined) {
      this.buckets.clear();
      this.bytes = 0;
      return;
    }
    const bucket = this.buckets.get(workspaceId);
    if (!bucket) return;
    this.buckets.delete(workspaceId);
    for (const map of [bucket.items, bucket.pages])
      for (const entry of map.values()) this.bytes -= entry.bytes;
  }
}

const caches = new WeakMap<Db, ItemCache>();

/**
 * Turns the item cache of a database on (buildApp does unless READ_CACHE_TTL_MS is 0; off, reads always
 * read) and answers what drops it on a change notice of the journal (journal/changes.ts).
 */
export function enableItemCache(db: Db): ChangeSubscriber {
  let cache = caches.get(rootOf(db));
  if (!cache) caches.set(rootOf(db), (cache = new ItemCache()));
  const itemCache = cache;
  return {
    apply(change) {
      if (change.kind === 'items') itemCache.drop(change.workspaceId);
    },
    clear: () => itemCache.drop(),
  };
}

/**
 * The item cache to read through, or undefined when it is off or `db` is a transaction: a read inside
 * a transaction may see its uncommitted writes, which no other request may be answered with.
 */
export const itemReadCacheOf = (db: Db | Tx) => (rootOf(db) === db ? caches.get(db as Db) : undefined);
