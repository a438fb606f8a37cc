import type { Db } from '../db/client';
import type { ApiKeyRow } from '../api-keys/repository';
import type { Change, ChangeSubscriber } from '../journal/changes';
import type { ReplicaLag } from '../journal/replica-lag';
import type { Copy } from './query';

/** The copies of one schema in one stage, and the responses already rendered from them by query. */
export interface StageSet {
  copies: Copy[];
  byId: Map<string, Copy>;
  rendered: Map<string, { body: string; etag: string }>;
}

const MAX_RENDERED = 500;
const MAX_KEYS = 10_000;
/**
 * How long a set or key is kept at most: the bound on staleness should a change notice be lost (the
 * journal sends it just after its write commits; a process that dies in between).
 */
const MAX_AGE_MS = 30_000;

/**
 * Published copies change only on publish, unpublish and delete, so the delivery API answers from
 * memory. Every change drops the sets of its workspace and stage (rendered responses with include=refs
 * read other schemas of the stage); other processes hear of it through the journal's change notices
 * (journal/changes.ts). A set is dropped before its reload is stored, so a load that overlaps a change is
 * never kept; none is kept longer than MAX_AGE_MS.
 */
export class DeliveryCache implements ChangeSubscriber {
  private readonly sets = new Map<string, { set: Promise<StageSet>; until: number }>();
  private readonly keys = new Map<string, { row: ApiKeyRow | null; until: number }>();
  /** Set when the copies are read from a replica: a set it had not caught up for is answered, not kept. */
  replica?: ReplicaLag;

  async stageSet(workspaceId: string, stage: string, schema: string, load: () => Promise<StageSet>) {
    const id = `${workspaceId}\t${stage}\t${schema}`;
    const kept = this.sets.get(id);
    if (kept && kept.until > Date.now()) return kept.set;
    const read = this.replica?.read(workspaceId, load);
    const set = read ? read.then(({ value }) => value) : load();
    this.sets.set(id, { set, until: Date.now() + MAX_AGE_MS });
    read?.then(
      ({ caughtUp }) => {
        if (!caughtUp && this.sets.get(id)?.set === set) this.sets.delete(id);
      },
      () => {},
    );
    set.catch(() => {
      if (this.sets.get(id)?.set === set) this.sets.delete(id);
    });
    return set;
  }

  /** A rendered response, kept with its set until the set changes. */
  static remember(set: StageSet, query: string, rendered: { body: string; etag: string }) {
    if (set.rendered.size >= MAX_RENDERED) set.rendered.delete(set.rendered.keys().next().value!);
    set.rendered.set(query, rendered);
  }

  async apiKey(hash: string, load: () => Promise<ApiKeyRow | undefined>) {
    const kept = this.keys.get(hash);
    if (kept && kept.until > Date.now()) return kept.row ?? undefined;
    const row = await load();
    if (this.keys.size >= MAX_KEYS) this.keys.clear();
    this.keys.set(hash, { row: row ?? null, until: Date.now() + MAX_AGE_MS });
    return row;
  }

  /** A change to published copies of a workspace's stage (every stage when undefined). */
  dropStage(workspaceId: string, stage?: string) {
    const prefix = stage === undefined ? `${workspaceId}\t` : `${workspaceId}\t${stage}\t`;
    for (const id of this.sets.keys()) if (id.startsWith(prefix)) this.sets.delete(id);
  }

  /** A key of the workspace was created or revoked. */
  dropKeys(workspaceId: string) {
    for (const [hash, { row }] of this.keys)
      if (!row || row.workspaceId === workspaceId) this.keys.delete(hash);
  }

  clear() {
    this.sets.clear();
    this.keys.clear();
  }

  /** A change notice of the journal: published copies of a stage (or every stage), or a workspace's keys. */
  apply(change: Change) {
    if (change.kind === 'stage') this.dropStage(change.workspaceId, change.stage);
    else if (change.kind === 'keys') this.dropKeys(change.workspaceId);
  }
}

const caches = new WeakMap<Db, DeliveryCache>();

/** The delivery cache of a database (one per root database, shared by the apps built on it). */
export function deliveryCacheOf(db: Db): DeliveryCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new DeliveryCache()));
  return cache;
}
