import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client';
import type { ApiKeyRow } from '../api-keys/repository';
import type { Change, ChangeSubscriber } from '../journal/changes';
import type { ReplicaLag } from '../journal/replica-lag';

/** A delivery answer as sent: its JSON, ETag and the CDN keys it depends on. */
export interface Rendered {
  body: string;
  etag: string;
  keys: string[];
}

/** What the answers of this process may hold, at most, unless DELIVERY_CACHE_MB says otherwise. */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** Bytes counted per answer beyond its body and keys: the entry, its strings' headers, the map. */
const ENTRY_OVERHEAD = 300;
const MAX_KEYS = 10_000;
/** How many answers asked for once are remembered (as 32-bit hashes) until asked for again. */
const MAX_ASKED = 65_536;
/**
 * How long an answer or key is kept at most: the bound on staleness should a change notice be lost (the
 * journal sends it just after its write commits; a process that dies in between).
 */
const MAX_AGE_MS = 30_000;

/**
 * Rendered delivery answers, least recently used first out once they hold more than the budget in bytes,
 * so memory does not grow with the number of published items or workspaces. Published copies change
 * only on publish, unpublish and delete: each change drops the answers of its workspace and stage
 * (answers with include=refs read other schemas of the stage); other processes hear of it through the
 * journal's change notices (journal/changes.ts). An answer rendered while a change came in is not kept.
 */
export class DeliveryCache implements ChangeSubscriber {
  private readonly answers: LRUCache<string, Rendered>;
  private readonly keys = new Map<string, { row: ApiKeyRow | null; until: number }>();
  private readonly asked = new Set<number>();
  /** Counts the changes heard, so a render that overlapped one is not kept. */
  private changes = 0;
  /** Counts the key changes heard, so a key read that overlapped one is not kept. */
  private keyChanges = 0;
  /** Set when copies are read from a replica: an answer it had not caught up for is sent, not kept. */
  replica?: ReplicaLag;

  constructor(private readonly maxBytes = DEFAULT_CACHE_BYTES) {
    this.answers = new LRUCache<string, Rendered>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (answer, id) =>
        answer.body.length +
        id.length +
        answer.keys.reduce((sum, key) => sum + key.length, 0) +
        ENTRY_OVERHEAD,
      ttl: MAX_AGE_MS,
    });
  }

  /**
   * The answer kept under `id` (which starts with its workspace and stage), or the one `render` makes,
   * kept from the second time it is asked for: answers asked for once (a crawler walking every item)
   * would only push out the ones asked for often, and each one kept and pushed out soon after is
   * garbage V8 collects late, which grew the process by 150 MB under a random read of a million items.
   */
  async answer(id: string, render: () => Promise<Rendered>): Promise<Rendered> {
    const kept = this.answers.get(id);
    if (kept) return kept;
    if (!this.askedBefore(id)) return render();
    const changesBefore = this.changes;
    const { value: answer, caughtUp } = this.replica
      ? await this.replica.read(id.slice(0, id.indexOf('\t')), render)
      : { value: await render(), caughtUp: true };
    if (caughtUp && this.changes === changesBefore && this.maxBytes > 0) this.answers.set(id, answer);
    return answer;
  }

  /** Whether `id` was asked for lately (a set of hashes, forgotten when it fills; collisions only admit). */
  private askedBefore(id: string) {
    const hash = fnv1a(id);
    if (this.asked.has(hash)) return true;
    if (this.asked.size >= MAX_ASKED) this.asked.clear();
    this.asked.add(hash);
    return false;
  }

  /**
   * The key row of a bearer token (kept by the token, which never leaves this process), or what `load`
   * reads; not kept when keys changed while it read, so a revoked key is refused from then on.
   */
  async apiKey(token: string, load: () => Promise<ApiKeyRow | undefined>) {
    const kept = this.keys.get(token);
    if (kept && kept.until > Date.now()) return kept.row ?? undefined;
    const keyChangesBefore = this.keyChanges;
    const row = await load();
    if (this.keyChanges !== keyChangesBefore) return row;
    if (this.keys.size >= MAX_KEYS) this.keys.clear();
    this.keys.set(token, { row: row ?? null, until: Date.now() + MAX_AGE_MS });
    return row;
  }

  /** A change to published copies of a workspace's stage (every stage when undefined). */
  dropStage(workspaceId: string, stage?: string) {
    this.changes++;
    const prefix = answerPrefix(workspaceId, stage);
    for (const id of this.answers.keys()) if (id.startsWith(prefix)) this.answers.delete(id);
  }

  /** A key of the workspace was created or revoked. */
  dropKeys(workspaceId: string) {
    this.keyChanges++;
    for (const [token, { row }] of this.keys)
      if (!row || row.workspaceId === workspaceId) this.keys.delete(token);
  }

  /** The bytes the kept answers take, as counted against the budget. */
  get size() {
    return this.answers.calculatedSize;
  }

  clear() {
    this.changes++;
    this.keyChanges++;
    this.answers.clear();
    this.keys.clear();
  }

  /** A change notice of the journal: published copies of a stage (or every stage), or a workspace's keys. */
  apply(change: Change) {
    if (change.kind === 'stage') this.dropStage(change.workspaceId, change.stage);
    else if (change.kind === 'keys') this.dropKeys(change.workspaceId);
  }
}

/** FNV-1a, 32 bits. */
function fnv1a(text: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Where the ids of a workspace's (stage's) answers start. */
function answerPrefix(workspaceId: string, stage?: string) {
  return stage === undefined ? `${workspaceId}\t` : `${workspaceId}\t${stage}\t`;
}

const caches = new WeakMap<Db, DeliveryCache>();

/** The delivery cache of a database (one per root database, shared by the apps built on it). */
export function deliveryCacheOf(db: Db, maxBytes?: number): DeliveryCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new DeliveryCache(maxBytes)));
  return cache;
}
