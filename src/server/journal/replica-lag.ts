import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/migrate';
import {
  subscribeToChanges,
  watchCommitPositions,
  type Change,
  type ChangeSubscriber,
  type CommitPositions,
} from './changes';

/** Past every LSN: what a read waits for while the position it needs is not known yet. */
const UNKNOWN = 1n << 64n;

/** An LSN as PostgreSQL prints it (`16/B374D848`), as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * Whether the read replica had caught up with the published copies of a workspace when a read there
 * began, so the delivery cache keeps only answers that were current (delivery/cache.ts).
 *
 * A cache is dropped when a change notice arrives, but a replica replays the change some time after
 * the primary committed it: a reload right after the notice could read the old copies and keep them.
 * So each change notice carries the primary's WAL position once the change had committed
 * (journal/changes.ts), and this process remembers the newest position it heard per workspace. A read
 * first learns how far the replica has replayed (`pg_last_wal_replay_lsn()`, asked only when what it
 * last answered is not enough), then reads: its snapshot holds at least what had been replayed. Once
 * the read is done its answer may be kept only if that replay position reaches the newest position
 * heard for the workspace by then. Checking at the end covers a change committed in this process: its
 * position is known only once its notice went out, so until then the workspace counts as behind; the
 * cache drop and that mark happen in the same turn of the event loop, before any read could finish.
 * Positions missed (before this process started, or while its LISTEN connection was lost) are covered
 * by a floor: the primary's position when it started or listened again.
 *
 * The replica must be one server: through a balancer over several, the position and the read could
 * come from different ones.
 */
export class ReplicaLag implements CommitPositions, ChangeSubscriber {
  /** The newest position heard per workspace for a change of its published copies. */
  private readonly heard = new Map<string, bigint>();
  /** Changes of published copies committed here whose position is not known yet, per workspace. */
  private readonly unannounced = new Map<string, number>();
  private floor = UNKNOWN;
  private floorRead = 0;
  private floorReading = false;
  /** The furthest the replica was seen to have replayed (it only moves on). */
  private replayed = 0n;

  constructor(
    private readonly primary: Db,
    private readonly replica: Db,
  ) {
    this.readFloor();
  }

  /** Runs `load` on the replica; `caughtUp` says whether what it read may be kept. */
  async read<T>(workspaceId: string, load: () => Promise<T>): Promise<{ value: T; caughtUp: boolean }> {
    const replayed = await this.replayedFor(this.awaited(workspaceId));
    const value = await load();
    return { value, caughtUp: replayed >= this.awaited(workspaceId) };
  }

  private awaited(workspaceId: string): bigint {
    if (this.unannounced.has(workspaceId)) return UNKNOWN;
    if (this.floor === UNKNOWN) this.readFloor();
    const heard = this.heard.get(workspaceId) ?? 0n;
    return heard > this.floor ? heard : this.floor;
  }

  /** How far the replica has replayed, asking it only when the last answer does not reach `target`. */
  private async replayedFor(target: bigint): Promise<bigint> {
    if (this.replayed >= target || target === UNKNOWN) return this.replayed;
    const [{ lsn }] = rows<{ lsn: string | null }>(
      await this.replica.execute(sql`select pg_last_wal_replay_lsn()::text as lsn`),
    );
    // A server that replays nothing is no standby: what it answers is current.
    const replayed = lsn === null ? UNKNOWN : parseLsn(lsn);
    if (replayed > this.replayed) this.replayed = replayed;
    return this.replayed;
  }

  /** The primary's position now: no change committed before it can have been missed. */
  private readFloor() {
    if (this.floorReading) return;
    this.floorReading = true;
    const reading = ++this.floorRead;
    this.primary
      .execute(sql`select pg_current_wal_insert_lsn()::text as lsn`)
      .then((result) => {
        if (reading === this.floorRead) this.floor = parseLsn(rows<{ lsn: string }>(result)[0].lsn);
      })
      .catch(() => {
        // Stays unknown (nothing kept) until a read asks again.
      })
      .finally(() => {
        if (reading === this.floorRead) this.floorReading = false;
      });
  }

  announcing(changes: Change[]) {
    const workspaces = stageWorkspaces(changes);
    for (const id of workspaces) this.unannounced.set(id, (this.unannounced.get(id) ?? 0) + 1);
    return () => {
      for (const id of workspaces) {
        const left = this.unannounced.get(id)! - 1;
        if (left > 0) this.unannounced.set(id, left);
        else this.unannounced.delete(id);
      }
    };
  }

  committedBy(changes: Change[], lsn: string | undefined) {
    if (lsn === undefined) return this.clear();
    const position = parseLsn(lsn);
    for (const id of stageWorkspaces(changes))
      if (position > (this.heard.get(id) ?? 0n)) this.heard.set(id, position);
  }

  apply() {}

  /** Notices may have been lost: wait for the primary's current position. */
  clear() {
    this.floor = UNKNOWN;
    this.floorReading = false;
    this.readFloor();
  }
}

const stageWorkspaces = (changes: Change[]) => [
  ...new Set(changes.flatMap((change) => (change.kind === 'stage' ? [change.workspaceId] : []))),
];

const lags = new WeakMap<Db, ReplicaLag>();

/** The replica lag of a primary database, told of every change notice's position (one per primary). */
export function watchReplicaLag(primary: Db, replica: Db): ReplicaLag {
  let lag = lags.get(primary);
  if (!lag) {
    lag = new ReplicaLag(primary, replica);
    lags.set(primary, lag);
    watchCommitPositions(primary, lag);
    subscribeToChanges(primary, 'replica-lag', lag);
  }
  return lag;
}
