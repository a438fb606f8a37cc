import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterCommit, notificationsFor, nowAndAfterCommit, rootOf, type Db, type Tx } from '../db/client';
import { echoHeard, heard } from '../db/read-cache';
import type { ItemWithWriter } from './repository';

/** The channel of item changes; its payload is `{workspace ids, an empty one for all}\t{process}\t{echo}`. */
export const ITEMS_CHANNEL = 'marquee_items';

/** What the cache may hold per process (an estimate of the rows' size), and at most per row or page. */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_ENTRY_BYTES = 256 * 1024;
/**
 * How long one read is kept at most: the bound on staleness should another process's announcement be
 * lost (it is sent just after its write commits; a process that dies in between).
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
 * approve, a member's or user's name) drops its workspace's bucket in this process at once and after
 * commit, and tells the other processes with a NOTIFY once committed (`itemsChanged`); a bucket is kept
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
/** Databases whose item changes this process listens to (its own announcements come back too). */
const listening = new WeakSet<Db>();

/** Turns the item cache of a database on (buildApp does unless READ_CACHE_TTL_MS is 0); off, reads always read. */
export function enableItemCache(db: Db) {
  if (!caches.has(rootOf(db))) caches.set(rootOf(db), new ItemCache());
}

/** The item cache of a database, or undefined when it is off. */
const itemCacheOf = (db: Db | Tx) => caches.get(rootOf(db));

/**
 * The item cache to read through, or undefined when it is off or `db` is a transaction: a read inside
 * a transaction may see its uncommitted writes, which no other request may be answered with.
 */
export const itemReadCacheOf = (db: Db | Tx) => (rootOf(db) === db ? caches.get(db as Db) : undefined);

/**
 * Who a database handle is on the channel (one per process in production; tests run several "processes",
 * each with its own handle and cache, in one Node process): its own announcements come back as echoes,
 * everyone else's drop its cache.
 */
const senderIds = new WeakMap<Db, string>();
function senderIdOf(db: Db) {
  let id = senderIds.get(db);
  if (!id) senderIds.set(db, (id = crypto.randomUUID()));
  return id;
}
/** Workspace ids per announcement (a NOTIFY payload holds under 8,000 bytes). */
const IDS_PER_ANNOUNCEMENT = 100;

/**
 * Tells the other processes which workspaces' items changed, after the writes committed. A NOTIFY takes
 * a lock that every committing transaction with a NOTIFY waits for until its commit is flushed, so a
 * NOTIFY inside each save would serialise the saves (measured: 20 connections inserting, 3,200 to 4,700 commits/s
 * alone, 1,270 each with a NOTIFY). One announcement is under way at a time per process and carries
 * every workspace written meanwhile; each write waits for the announcement carrying it to be sent and
 * heard back (at most 100 ms, `heard` in db/read-cache.ts), so by then PostgreSQL has handed it to every listener.
 */
class Announcer {
  private pending = new Map<string, (() => void)[]>();
  private sending = false;

  constructor(private readonly db: Db) {}

  announce(workspaceId: string) {
    return new Promise<void>((resolve) => {
      const waiting = this.pending.get(workspaceId);
      if (waiting) waiting.push(resolve);
      else this.pending.set(workspaceId, [resolve]);
      if (!this.sending) void this.send();
    });
  }

  private async send() {
    this.sending = true;
    while (this.pending.size > 0) {
      const batch = [...this.pending].slice(0, IDS_PER_ANNOUNCEMENT);
      for (const [workspaceId] of batch) this.pending.delete(workspaceId);
      const echo = crypto.randomUUID();
      const echoed = listening.has(this.db) ? heard(echo) : undefined;
      const ids = batch.map(([workspaceId]) => workspaceId).join(' ');
      try {
        await this.db.execute(
          sql`select pg_notify(${ITEMS_CHANNEL}, ${`${ids}\t${senderIdOf(this.db)}\t${echo}`})`,
        );
        await echoed;
      } catch {
        // Unsent: the other processes keep what they read for at most MAX_AGE_MS.
      }
      for (const [, waiting] of batch) for (const resolve of waiting) resolve();
    }
    this.sending = false;
  }
}
const announcers = new WeakMap<Db, Announcer>();

/**
 * Call after any write that changes what item reads answer (a save, a stage copy, an approval, a
 * deleted item, a member's or user's name; every workspace when undefined): drops this process's cached
 * reads now and after the commit, then announces the change to the other processes once committed.
 */
export async function itemsChanged(db: Db | Tx, workspaceId?: string) {
  const cache = itemCacheOf(db);
  if (cache) nowAndAfterCommit(db, () => cache.drop(workspaceId));
  if (!notificationsFor(db)) return;
  const root = rootOf(db);
  let announcer = announcers.get(root);
  if (!announcer) announcers.set(root, (announcer = new Announcer(root)));
  await afterCommit(db, () => announcer.announce(workspaceId ?? ''));
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
      const [ids, from, echo] = payload.split('\t');
      if (from === senderIdOf(rootOf(db))) return echoHeard(echo);
      for (const workspaceId of ids.split(' ')) cache?.drop(workspaceId || undefined);
    },
    () => cache?.drop(),
  );
  listening.add(rootOf(db));
  return async () => {
    listening.delete(rootOf(db));
    await stop();
  };
}
