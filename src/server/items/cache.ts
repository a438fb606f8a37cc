import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterCommit, notificationsFor, nowAndAfterCommit, rootOf, type Db, type Tx } from '../db/client';
import type { ItemWithWriter } from './repository';

/** The channel of item changes; its payload is `{workspace id, or empty for all}\t{process}\t{echo}`. */
export const ITEMS_CHANNEL = 'marquee_items';

/** What the cache may hold per process (an estimate of the rows' size), and at most per row or page. */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 256 * 1024;

interface Entry<V> {
  value: V;
  bytes: number;
}
/** What one workspace's reads answered: item rows by schema and id, list pages by their query. */
interface Bucket {
  items: Map<string, Entry<ItemWithWriter>>;
  pages: Map<string, Entry<ItemWithWriter[]>>;
}

/** A rough size in bytes of a row read from the database (strings, numbers, objects), to bound memory. */
function estimateBytes(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  if (value instanceof Date) return 32;
  let bytes = 32;
  if (Array.isArray(value)) for (const v of value) bytes += 8 + estimateBytes(v);
  else for (const [k, v] of Object.entries(value)) bytes += 16 + k.length + estimateBytes(v);
  return bytes;
}

/**
 * Item reads (one item, or a page of a list) answered from memory. The cache holds rows as the database
 * answered them, never a caller's view of them: routes check membership and rights as before, and each
 * request presents the rows for its caller (abilities, approvals left). Entries live in a bucket per
 * workspace; every write that changes what item reads answer (save, create, delete, publish, unpublish,
 * approve, a member's or user's name) drops its workspace's bucket in this process at once and after
 * commit, and tells the other processes with a NOTIFY in its transaction (`listenForItemChanges`).
 * A read that was under way while its bucket was dropped does not store its answer.
 */
export class ItemCache {
  private readonly buckets = new Map<string, Bucket>();
  private bytes = 0;

  private bucketOf(workspaceId: string) {
    let bucket = this.buckets.get(workspaceId);
    if (!bucket) this.buckets.set(workspaceId, (bucket = { items: new Map(), pages: new Map() }));
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
    if (hit) return hit.value;
    const value = await read();
    if (value === undefined || this.buckets.get(workspaceId) !== bucket || map.has(key)) return value;
    const bytes = estimateBytes(value);
    if (bytes > MAX_ENTRY_BYTES) return value;
    map.set(key, { value, bytes });
    this.bytes += bytes;
    while (this.bytes > MAX_BYTES) this.evictOldest();
    return value;
  }

  private evictOldest() {
    const [workspaceId, bucket] = this.buckets.entries().next().value!;
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
/** Databases whose item changes this process listens to (its own announcements come back too). */
const listening = new WeakSet<Db>();

/** Turns the item cache of a database on (buildApp does unless READ_CACHE_TTL_MS is 0); off, reads always read. */
export function enableItemCache(db: Db) {
  if (!caches.has(rootOf(db))) caches.set(rootOf(db), new ItemCache());
}

/** The item cache of a database, or undefined when it is off. */
export const itemCacheOf = (db: Db | Tx) => caches.get(rootOf(db));

/** Who this process is on the channel, and its announcements waiting to be heard back. */
const PROCESS_ID = crypto.randomUUID();
const echoes = new Map<string, () => void>();
/** How long a write waits for its announcement to come back before it answers anyway. */
const ECHO_WAIT_MS = 100;

/**
 * The announcement of a write that changes what item reads of a workspace (of every workspace, given
 * undefined) answer. `notify` is a value for the write statement to select, sent by PostgreSQL when the
 * statement's transaction commits; after the statement, `written()` drops this process's cached reads
 * now and after the commit, then waits until the announcement comes back to this process (at most
 * ECHO_WAIT_MS): PostgreSQL hands a notification to every listener at once, so by then the other
 * processes very likely have it too (as with the session read cache). `unused()` when nothing was written.
 */
export function announceItemsChanged(db: Db | Tx, workspaceId?: string) {
  const echo = crypto.randomUUID();
  let heard: Promise<void> | undefined;
  let done = () => {};
  if (listening.has(rootOf(db))) {
    heard = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ECHO_WAIT_MS);
      done = () => {
        clearTimeout(timer);
        echoes.delete(echo);
        resolve();
      };
      echoes.set(echo, done);
    });
  }
  return {
    notify: sql`pg_notify(${ITEMS_CHANNEL}, ${`${workspaceId ?? ''}\t${PROCESS_ID}\t${echo}`})`,
    async written() {
      const cache = itemCacheOf(db);
      if (cache) nowAndAfterCommit(db, () => cache.drop(workspaceId));
      if (heard) await afterCommit(db, () => heard);
    },
    unused: () => done(),
  };
}

/**
 * Call in the transaction of any write that changes what item reads answer (a stage copy, an approval,
 * a deleted item, a member's or user's name): drops this process's cached reads and tells the others.
 */
export async function itemsChanged(db: Db | Tx, workspaceId?: string) {
  const announcement = announceItemsChanged(db, workspaceId);
  if (notificationsFor(db)) await db.execute(sql`select ${announcement.notify}`);
  await announcement.written();
}

/**
 * Drops cached item reads when another process announces a change (PostgreSQL only: PGlite has one
 * process, whose own writes drop them directly). After the listening connection was lost, everything is
 * dropped, as announcements may have been missed. Answers how to stop.
 */
export async function listenForItemChanges(db: Db): Promise<() => Promise<void>> {
  const cache = itemCacheOf(db);
  const notifications = notificationsFor(db);
  if (!notifications) return async () => {};
  const stop = await notifications.listen(
    ITEMS_CHANNEL,
    (payload) => {
      const [workspaceId, from, echo] = payload.split('\t');
      if (from === PROCESS_ID) return echoes.get(echo)?.();
      cache?.drop(workspaceId || undefined);
    },
    () => cache?.drop(),
  );
  listening.add(rootOf(db));
  return async () => {
    listening.delete(rootOf(db));
    await stop();
  };
}
