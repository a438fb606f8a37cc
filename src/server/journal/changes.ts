import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterCommit, notificationsFor, nowAndAfterCommit, rootOf, type Db, type Tx } from '../db/client';
import { rows } from '../db/migrate';

/**
 * What a write changed, as far as a cache cares: item reads of a workspace (of every workspace when
 * `workspaceId` is undefined), the published copies of a workspace's stage (every stage when undefined),
 * the API keys of a workspace, or a named read cache (sessions, memberships). `matches` narrows a read
 * cache drop in this process; other processes hear the cache's name only (a closure does not travel).
 * `workspace` says only that some data of the workspace changed (what a live view listens to; the
 * caches keep nothing such a change touches).
 */
export type Change =
  | { kind: 'workspace'; workspaceId: string }
  | ItemWritten
  | LiveNotice
  | { kind: 'items'; workspaceId?: string }
  | { kind: 'stage'; workspaceId: string; stage?: string }
  | { kind: 'keys'; workspaceId: string }
  | { kind: 'cache'; name: string; matches?: (key: string, value: never) => boolean };

/**
 * One committed write to one item, as live streams tell it (server/live): the item, the version it left
 * (none for a deletion), what was done (the audit action) and who did it. Caches ignore it; the `items`
 * change of the same write drops them.
 */
export interface ItemWritten {
  kind: 'item';
  workspaceId: string;
  schema: string;
  id: string;
  version: number | null;
  action: string;
  actor: { id: string; name: string };
}

/** A live event for a workspace's streams that is no item write: presence, edit locks (server/live). */
export interface LiveNotice {
  kind: 'live';
  workspaceId: string;
  event: string;
  data: Record<string, unknown>;
}

/** A cache told of changes: `apply` one, or `clear` everything when announcements may have been lost. */
export interface ChangeSubscriber {
  apply(change: Change): void;
  clear(): void;
}

/**
 * The one channel of change notices; a payload is `{process}\t{echo}\t{lsn}` then one line per change,
 * where `lsn` is where the primary's WAL stood once the changes had committed (see `CommitPositions`).
 */
const CHANGES_CHANNEL = 'marquee_changes';

/** A NOTIFY payload holds under 8,000 bytes; lines past this many go in the next announcement. */
const MAX_PAYLOAD_CHARS = 7_000;
/**
 * How long a write waits, once its announcement was sent, for it to come back before it answers anyway
 * (only when the listening connection is lost does it not come back).
 */
const ECHO_WAIT_MS = 250;

function encodeChange(change: Change): string {
  switch (change.kind) {
    case 'workspace':
      return `workspace\t${change.workspaceId}`;
    case 'live':
      return `live\t${JSON.stringify([change.workspaceId, change.event, change.data])}`;
    case 'item': {
      // JSON escapes tabs and line breaks, so names keep to their line whatever they hold.
      const { workspaceId, schema, id, version, action, actor } = change;
      return `item\t${JSON.stringify([workspaceId, schema, id, version, action, actor.id, actor.name])}`;
    }
    case 'items':
      return `items\t${change.workspaceId ?? ''}`;
    case 'stage':
      return `stage\t${change.workspaceId}\t${change.stage ?? ''}`;
    case 'keys':
      return `keys\t${change.workspaceId}`;
    case 'cache':
      return `cache\t${change.name}`;
  }
}

function decodeChange(line: string): Change | undefined {
  const [kind, a = '', b = ''] = line.split('\t');
  if (kind === 'workspace' && a) return { kind, workspaceId: a };
  if (kind === 'item') return decodeItemWritten(a);
  if (kind === 'live') return decodeLiveNotice(a);
  if (kind === 'items') return { kind, workspaceId: a || undefined };
  if (kind === 'stage' && a) return { kind, workspaceId: a, stage: b || undefined };
  if (kind === 'keys' && a) return { kind, workspaceId: a };
  if (kind === 'cache' && a) return { kind, name: a };
  return undefined;
}

function decodeLiveNotice(text: string): LiveNotice | undefined {
  try {
    const [workspaceId, event, data] = JSON.parse(text) as unknown[];
    if (typeof workspaceId !== 'string' || typeof event !== 'string') return undefined;
    if (!data || typeof data !== 'object') return undefined;
    return { kind: 'live', workspaceId, event, data: data as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

function decodeItemWritten(text: string): ItemWritten | undefined {
  try {
    const [workspaceId, schema, id, version, action, actorId, actorName] = JSON.parse(text) as unknown[];
    if (![workspaceId, schema, id, action, actorId, actorName].every((v) => typeof v === 'string'))
      return undefined;
    if (version !== null && typeof version !== 'number') return undefined;
    return {
      kind: 'item',
      workspaceId: workspaceId as string,
      schema: schema as string,
      id: id as string,
      version,
      action: action as string,
      actor: { id: actorId as string, name: actorName as string },
    };
  } catch {
    return undefined;
  }
}

/**
 * Told where the primary's WAL stood (an LSN, `X/Y`) by the time announced changes had committed, so
 * reads on a replica can tell whether they could have seen them (journal/replica-lag.ts).
 */
export interface CommitPositions {
  /** Changes committed in this process whose announcement is under way; call the answer once it went out. */
  announcing(changes: Change[]): () => void;
  /**
   * Changes committed before the primary's WAL reached `lsn` (this process's or another's); undefined
   * when this process's notice could not be sent, so its position is not known.
   */
  committedBy(changes: Change[], lsn: string | undefined): void;
}

/** Per database: the caches registered, whether this process listens, and who it is on the channel. */
interface Dispatcher {
  subscribers: Map<string, ChangeSubscriber>;
  /** Apps built on this database that listen (tests build several on one handle). */
  listeners: number;
  stopListening?: () => Promise<void>;
  /**
   * Who a database handle is on the channel (one per process in production; tests run several
   * "processes", each with its own handle, in one Node process): its own announcements come back as echoes.
   */
  senderId: string;
  echoes: Map<string, () => void>;
  /** Told of changes once committed, this process's and the others' (live streams). */
  watchers: Set<CommittedWatcher>;
  announcer?: Announcer;
  positions?: CommitPositions;
}
const dispatchers = new WeakMap<Db, Dispatcher>();

function dispatcherOf(db: Db | Tx): Dispatcher {
  const root = rootOf(db);
  let dispatcher = dispatchers.get(root);
  if (!dispatcher) {
    dispatcher = {
      subscribers: new Map(),
      listeners: 0,
      senderId: crypto.randomUUID(),
      echoes: new Map(),
      watchers: new Set(),
    };
    dispatchers.set(root, dispatcher);
  }
  return dispatcher;
}

/** Registers a cache under `name` (buildApp does, for each cache it turns on); a second registration replaces it. */
export function subscribeToChanges(db: Db, name: string, subscriber: ChangeSubscriber) {
  dispatcherOf(db).subscribers.set(name, subscriber);
}

/**
 * Told of changes once they committed: this process's own after its commit, another process's when its
 * notice arrives. `lost` is called when notices may have been missed (the listening connection was lost).
 */
export interface CommittedWatcher {
  committed(changes: Change[]): void;
  lost(): void;
}

/** Adds a watcher of committed changes (server/live); answers how to remove it. */
export function watchCommittedChanges(db: Db, watcher: CommittedWatcher) {
  const { watchers } = dispatcherOf(db);
  watchers.add(watcher);
  return () => void watchers.delete(watcher);
}

function tellWatchers(dispatcher: Dispatcher, changes: Change[]) {
  for (const watcher of dispatcher.watchers) watcher.committed(changes);
}

/** Tells `positions` where the WAL stood after each announced change (only with a read replica). */
export function watchCommitPositions(db: Db, positions: CommitPositions) {
  dispatcherOf(db).positions = positions;
}

function applyLocally(dispatcher: Dispatcher, changes: Change[]) {
  for (const subscriber of dispatcher.subscribers.values())
    for (const change of changes) subscriber.apply(change);
}

/**
 * Hears other processes' change notices on the one channel, through one LISTEN connection per database
 * handle (so per process), however many apps are built on it (PostgreSQL only: PGlite has one process,
 * whose own writes reach its caches directly). After the listening connection was lost every cache is
 * cleared, as notices may have been missed. Answers how to stop.
 */
export async function listenForChanges(db: Db): Promise<() => Promise<void>> {
  const notifications = notificationsFor(db);
  if (!notifications) return async () => {};
  const dispatcher = dispatcherOf(db);
  if (dispatcher.listeners++ === 0) {
    dispatcher.stopListening = await notifications.listen(
      CHANGES_CHANNEL,
      (payload) => hearNotice(dispatcher, payload),
      () => {
        for (const subscriber of dispatcher.subscribers.values()) subscriber.clear();
        for (const watcher of dispatcher.watchers) watcher.lost();
      },
    );
  }
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    if (--dispatcher.listeners === 0) await dispatcher.stopListening?.();
  };
}

function hearNotice(dispatcher: Dispatcher, payload: string) {
  const [head, ...lines] = payload.split('\n');
  const [from, echo, lsn] = head.split('\t');
  if (from === dispatcher.senderId) return dispatcher.echoes.get(echo)?.();
  const changes = lines.map(decodeChange);
  if (changes.some((change) => change === undefined)) {
    for (const subscriber of dispatcher.subscribers.values()) subscriber.clear();
    for (const watcher of dispatcher.watchers) watcher.lost();
    return;
  }
  if (lsn) dispatcher.positions?.committedBy(changes as Change[], lsn);
  applyLocally(dispatcher, changes as Change[]);
  tellWatchers(dispatcher, changes as Change[]);
}

/**
 * Listens for the announcement `echo` coming back to this process: `sent` once it went out, which
 * answers a promise resolved when it was heard, or ECHO_WAIT_MS after it went out. The wait starts
 * once sent: on a busy machine, getting a connection and sending can take longer than hearing back.
 */
function hearBack(dispatcher: Dispatcher, echo: string) {
  let hear!: () => void;
  const heard = new Promise<void>((resolve) => (hear = resolve));
  dispatcher.echoes.set(echo, hear);
  const forget = () => void dispatcher.echoes.delete(echo);
  const sent = async () => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([heard, new Promise((resolve) => (timer = setTimeout(resolve, ECHO_WAIT_MS)))]);
    clearTimeout(timer);
    forget();
  };
  return { sent, forget };
}

/**
 * Sends change notices after the writes committed, coalesced: one NOTIFY under way at a time per
 * process, carrying every change announced meanwhile (see `announceChanges` for why).
 */
class Announcer {
  private pending = new Map<string, (() => void)[]>();
  private sending = false;

  constructor(
    private readonly db: Db,
    private readonly dispatcher: Dispatcher,
  ) {}

  async announce(lines: string[], changes: Change[]) {
    const announced = this.dispatcher.positions?.announcing(changes);
    const sent = lines.map(
      (line) =>
        new Promise<void>((resolve) => {
          const waiting = this.pending.get(line);
          if (waiting) waiting.push(resolve);
          else this.pending.set(line, [resolve]);
        }),
    );
    // Every line pending first: a write's changes go out in one NOTIFY.
    if (!this.sending) void this.send();
    await Promise.all(sent);
    announced?.();
  }

  private takeBatch() {
    const batch: [string, (() => void)[]][] = [];
    let chars = 0;
    for (const entry of this.pending) {
      if (batch.length > 0 && chars + entry[0].length + 1 > MAX_PAYLOAD_CHARS) break;
      batch.push(entry);
      chars += entry[0].length + 1;
    }
    for (const [line] of batch) this.pending.delete(line);
    return batch;
  }

  private async send() {
    this.sending = true;
    // The writes that commit together (a batch of creates) announce one after the other in this turn
    // of the event loop: the first NOTIFY waits for the turn's end to carry them all.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size > 0) {
      const batch = this.takeBatch();
      const echo = crypto.randomUUID();
      const echoed = this.dispatcher.listeners > 0 ? hearBack(this.dispatcher, echo) : undefined;
      const head = `${this.dispatcher.senderId}\t${echo}\t`;
      const body = batch.map(([line]) => `\n${line}`).join('');
      const positions = this.dispatcher.positions;
      const changes = () => batch.map(([line]) => decodeChange(line)!);
      try {
        // The insert position, read after the commits: at or past the end of each commit record, whatever
        // synchronous_commit says (the write position may not have reached an asynchronous commit yet).
        const [{ lsn }] = rows<{ lsn: string }>(
          await this.db.execute(sql`
            select lsn, pg_notify(${CHANGES_CHANNEL}, ${head} || lsn || ${body})
            from (select pg_current_wal_insert_lsn()::text as lsn) as wal`),
        );
        positions?.committedBy(changes(), lsn);
        await echoed?.sent();
      } catch {
        echoed?.forget();
        // Unsent: the other processes keep what they read for at most their caches' bound on age.
        positions?.committedBy(changes(), undefined);
      }
      for (const [, waiting] of batch) for (const resolve of waiting) resolve();
    }
    this.sending = false;
  }
}

/**
 * Announces what a write changed: this process's caches drop it now and again once the transaction
 * commits (so a concurrent read cannot store the old rows meanwhile); other processes hear it on the
 * one channel once committed. The notice is sent after the commit, coalesced per process, never inside
 * the transaction: a NOTIFY takes a lock that every committing transaction with a NOTIFY waits for
 * until its commit is flushed, so a NOTIFY in each write serialised the writes (measured, 20
 * connections: 3,200 to 4,700 commits/s without, 1,270 with). The writer waits for its notice to come
 * back on this process's own LISTEN (at most 250 ms once sent), so by then PostgreSQL has handed it to
 * every listener; a notice lost with a process that dies between commit and NOTIFY costs at most each
 * cache's bound on age (30 s for items and delivery, the read caches' TTL for sessions and memberships).
 */
export async function announceChanges(db: Db | Tx, ...changes: Change[]) {
  if (changes.length === 0) return;
  const dispatcher = dispatcherOf(db);
  nowAndAfterCommit(db, () => applyLocally(dispatcher, changes));
  if (dispatcher.watchers.size > 0) await afterCommit(db, async () => tellWatchers(dispatcher, changes));
  if (!notificationsFor(db)) return;
  const root = rootOf(db);
  const announcer = (dispatcher.announcer ??= new Announcer(root, dispatcher));
  const lines = [...new Set(changes.map(encodeChange))];
  await afterCommit(db, () => announcer.announce(lines, changes));
}
