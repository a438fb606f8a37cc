import type { EmailConsentState } from '@shared/api/customers';
import { addProgress, type BatchProgress } from '../batches/repository';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import type { ImportKind } from './customer-rows';
import { applyImportConsents } from './profiles-repository';
import * as repo from './repository';
import * as segments from './segments';

/** Rows to write in one transaction, with the progress they make. */
export interface Chunk {
  profiles: [id: string, attributes: Record<string, unknown>][];
  /** Email consents given by the rows (the reserved `emailConsent` field). */
  consents: Map<string, EmailConsentState>;
  events: repo.EventsByKey;
  eventCount: number;
  progress: BatchProgress;
}

/**
 * Writes an import's chunks, each in one transaction with the batch's progress, while the next is read
 * and converted. Profiles go one write at a time, so a profile id met again later in the file ends with
 * its later values. Events commute (inserts and count increments), so two chunks are written at once on
 * two connections: PostgreSQL spends much of a chunk's write waiting on its log and buffers, which the
 * other chunk's write fills. A failed write stops the import before the next chunk (the one beside it
 * may still land, counted).
 */
export class ChunkWriter {
  private readonly writing: Promise<void>[] = [];
  private readonly inFlightMax: number;
  private readonly segments: SegmentLoader;

  constructor(
    private readonly ctx: AppContext,
    private readonly workspaceId: string,
    private readonly batchId: string,
    kind: ImportKind,
  ) {
    this.inFlightMax = kind === 'profiles' ? 1 : 2;
    // A segment's repeats are found when it is attached: they count as the batch's duplicates then.
    this.segments = new SegmentLoader(ctx.db, ctx.config.eventSegments, (tx, duplicates) =>
      addProgress(
        tx,
        workspaceId,
        batchId,
        { processed: 0, failed: 0, errors: [], duplicates },
        { countsTotal: false },
      ),
    );
  }

  /** Starts the chunk's write once a write is free to start; a full segment is attached when written. */
  async write(chunk: Chunk) {
    const segment = await this.segments.place(chunk.eventCount);
    if (this.writing.length >= this.inFlightMax) await this.writing.shift();
    const written = this.writeChunk(chunk, segment?.id);
    // Awaited at a later write; until then a failure must not count as unhandled.
    written.catch(() => {});
    this.writing.push(written);
    if (segment && this.segments.closeIfFull(segment)) {
      await this.allWritten();
      await this.segments.attach(segment);
    }
  }

  /** Waits for every write, then attaches the segment being loaded and waits for every attach. */
  async finish() {
    await this.allWritten();
    await this.segments.attachAll();
  }

  /** After a failure: lets every write and attach end, keeping what they wrote. */
  async settle() {
    await this.allWritten().catch(() => {});
    await this.segments.attachAll().catch(() => {});
  }

  private async writeChunk(chunk: Chunk, segment: number | undefined) {
    const { workspaceId } = this;
    return this.ctx.db.transaction(async (tx) => {
      const unchanged = await repo.upsertProfiles(tx, workspaceId, chunk.profiles);
      for (const id of await applyImportConsents(tx, workspaceId, chunk.consents)) unchanged.delete(id);
      let duplicates = chunk.progress.duplicates ?? 0;
      duplicates += unchanged.size;
      if (segment === undefined) {
        duplicates += chunk.eventCount - (await repo.insertEvents(tx, workspaceId, chunk.events));
      } else await segments.copyIntoSegment(tx, segment, workspaceId, chunk.events);
      await addProgress(tx, workspaceId, this.batchId, { ...chunk.progress, duplicates });
    });
  }

  /** Waits for every write under way to settle (none is left running), then fails with the first failure. */
  private async allWritten() {
    const failure = (await Promise.allSettled(this.writing.splice(0))).find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
  }
}

interface Segment {
  id: number;
  rows: number;
}

/**
 * Past its first `directRows` events, an import loads into segments (`segments.ts`): a full one is
 * attached while the next is loaded, one attach at a time.
 */
class SegmentLoader {
  private eventsWritten = 0;
  private loading: Segment | undefined;
  private attaching: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly policy: segments.SegmentPolicy,
    private readonly recordDuplicates: segments.RecordDuplicates,
  ) {}

  /**
   * The segment that a chunk's events go into, opened once the direct rows are written; none while
   * they go into the live partitions.
   */
  async place(eventCount: number): Promise<Segment | undefined> {
    if (eventCount && this.eventsWritten >= this.policy.directRows && !this.loading) {
      this.loading = { id: await segments.openSegment(this.db), rows: 0 };
    }
    const into = eventCount && this.loading ? this.loading : undefined;
    if (into) into.rows += eventCount;
    this.eventsWritten += eventCount;
    return into;
  }

  /** Whether the segment is full: then it takes no more events, and is attached once written. */
  closeIfFull(segment: Segment) {
    if (segment.rows < this.policy.segmentRows) return false;
    this.loading = undefined;
    return true;
  }

  /** Attaches a full segment after the previous attach; waits for that one, not this one. */
  async attach(full: Segment) {
    const previous = this.attaching;
    // After the previous attach; a segment not attached (that failed, or the one before it) is dropped.
    this.attaching = previous
      .then(() => segments.attachSegment(this.db, full.id, full.rows, this.policy, this.recordDuplicates))
      .catch(async (err: unknown) => {
        await segments.dropSegment(this.db, full.id).catch(() => {});
        throw err;
      });
    // Awaited at the next attach or at the end; until then a failure must not count as unhandled.
    this.attaching.catch(() => {});
    // Loading goes on while one attach runs, not two.
    await previous;
  }

  /** Attaches the segment being loaded and waits for every attach. */
  async attachAll() {
    if (this.loading) {
      const last = this.loading;
      this.loading = undefined;
      await this.attach(last);
    }
    await this.attaching;
  }
}
