import type { Readable } from 'node:stream';
import type { ImportMapping } from '@shared/api/customer-imports';
import type { EmailConsentState } from '@shared/api/customers';
import type { BatchProgress } from '../batches/repository';
import { endBatch, getBatch, startBatch } from '../batches/service';
import type { AppContext } from '../context';
import { findUnsafeText } from '../http/input-guard';
import type { WorkspaceAccess } from '../workspaces/access';
import { ChunkWriter, type Chunk } from './chunk-writer';
import { ImportRows, type Converted, type ImportKind } from './customer-rows';
import { loadDefinitions } from './definitions';
import { createDefinitions, previewImport, resolveMapping } from './import-mapping';
import { readRecords, type ImportFormat, type RecordLine } from './read-records';
import * as repo from './repository';
import { suppressedProfileIds } from './suppression-repository';
import { suppressedMessage } from './suppression-service';
import { requireImporter } from './service';

export interface ImportSource {
  stream: Readable;
  format: ImportFormat;
  fileName: string | null;
  bytesTotal: number | null;
}

/**
 * Imports a streamed CSV or NDJSON body as a batch: columns go where the mapping says (resolved once,
 * its new attributes and events created first, as items), rows are converted by the declared types and
 * written `config.importChunkRows` at a time, each chunk in one transaction with the batch's progress;
 * rows that do not fit are skipped and reported with their line. Answers the finished batch.
 */
export async function importCustomerData(
  ctx: AppContext,
  access: WorkspaceAccess,
  kind: ImportKind,
  source: ImportSource,
  mapping?: ImportMapping,
) {
  requireImporter(access);
  const workspaceId = access.workspace.id;
  let defs = await loadDefinitions(ctx.db, workspaceId);
  const resolved = mapping && resolveMapping(kind, mapping, defs, source.format);
  if (resolved && (await createDefinitions(ctx, access, resolved))) {
    defs = await loadDefinitions(ctx.db, workspaceId);
  }
  const batchId = await startBatch(
    ctx,
    access,
    kind === 'profiles' ? 'profiles-import' : 'customer-events-import',
    { fileName: source.fileName, bytesTotal: source.bytesTotal },
  );
  // Read before the body is watched: a watched body flows, and nothing may await while it does.
  const suppressed = await suppressedProfileIds(ctx.db, workspaceId);
  const body = watchBody(source);
  const rows = new ImportRows(kind, defs, resolved?.columns);
  const chunk = new ChunkReader(kind, rows, suppressed);
  const writer = new ChunkWriter(ctx, workspaceId, batchId, kind);
  const flush = async () => writer.write(chunk.take(body.bytesRead));
  try {
    for await (const records of readRecords(source.stream, source.format, rows.checkHeader)) {
      for (const record of records) {
        chunk.add(record, body.mayBeUnsafe);
        if (chunk.rowCount >= ctx.config.importChunkRows) await flush();
      }
    }
    await flush();
    await writer.finish();
    await endBatch(ctx, access, batchId, 'ended');
  } catch (err) {
    // What was read before the failure stays imported: the rows not written yet, and the segments.
    await flush().catch(() => {});
    await writer.settle();
    await endStoppedImport(ctx, access, batchId, err);
  }
  return getBatch(ctx, access, batchId);
}

/**
 * The preview of an import by the workspace's definitions; an email column is proposed for the
 * attribute campaigns read addresses from.
 */
export async function previewCustomerData(
  ctx: AppContext,
  access: WorkspaceAccess,
  kind: ImportKind,
  source: ImportSource,
) {
  requireImporter(access);
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const emailAttribute = await repo.emailAttributeOf(ctx.db, access.workspace.id);
  return previewImport(kind, defs, source.stream, source.format, emailAttribute);
}

/** How much of an import's body has arrived, and whether its text may hold what PostgreSQL cannot store. */
interface BodyWatch {
  bytesRead: number;
  mayBeUnsafe: boolean;
}

function watchBody(source: ImportSource): BodyWatch {
  // CSV text is decoded from UTF-8, which cannot spell an unpaired surrogate (it decodes to U+FFFD):
  // only a NUL byte can make its text unsafe, so rows are walked for it only once the body has one.
  // NDJSON's escapes can spell both, so each of its rows is walked.
  const body = { bytesRead: 0, mayBeUnsafe: source.format !== 'csv' };
  source.stream.on('data', (piece: Buffer) => {
    body.bytesRead += piece.length;
    if (!body.mayBeUnsafe && piece.includes(0)) body.mayBeUnsafe = true;
  });
  return body;
}

/**
 * Reads records into the next chunk: each converted to a row of the import's kind, or refused with its
 * line. A profile met again in the same chunk has its later values laid over its earlier ones; events
 * are grouped by key.
 */
class ChunkReader {
  private progress: BatchProgress = { processed: 0, duplicates: 0, failed: 0, errors: [] };
  private profiles = new Map<string, Record<string, unknown>>();
  private consents = new Map<string, EmailConsentState>();
  private events: repo.EventsByKey = new Map();

  constructor(
    private readonly kind: ImportKind,
    private readonly rows: ImportRows,
    /** Profile ids on the suppression list: their rows are refused. */
    private readonly suppressed: ReadonlySet<string>,
  ) {}

  /** Rows read into this chunk, taken or refused. */
  get rowCount() {
    return this.progress.processed + this.progress.failed;
  }

  add(record: RecordLine, mayBeUnsafe: boolean) {
    if ('error' in record) return this.refuse(record.line, record.error);
    const unsafe = mayBeUnsafe ? findUnsafeText(this.rows.asObject(record)) : undefined;
    if (unsafe) return this.refuse(record.line, `${unsafe.path}: ${unsafe.message}`);
    if (this.kind === 'profiles') this.addProfile(record.line, this.rows.profile(record));
    else this.addEvent(record.line, this.rows.event(record));
  }

  /** The chunk read so far; the next one starts empty. */
  take(bytesRead: number): Chunk {
    const progress = { ...this.progress, bytesRead };
    // In id order, so concurrent imports touching the same profiles lock them in the same order.
    const profiles = [...this.profiles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const events = this.events;
    const consents = this.consents;
    this.progress = { processed: 0, duplicates: 0, failed: 0, errors: [] };
    this.profiles = new Map();
    this.consents = new Map();
    this.events = new Map();
    let eventCount = 0;
    for (const group of events.values()) eventCount += group.length;
    return { profiles, consents, events, eventCount, progress };
  }

  private refuse(line: number, message: string) {
    this.progress.failed += 1;
    this.progress.errors.push({ line, message });
  }

  private addProfile(line: number, converted: Converted<'profiles'>) {
    if ('error' in converted) return this.refuse(line, converted.error);
    const [id, attributes, consent] = converted.row;
    if (this.suppressed.has(id)) return this.refuse(line, suppressedMessage(id));
    const earlier = this.profiles.get(id);
    // A row that repeats one earlier in the chunk adds nothing: a duplicate (the profile is written once).
    if (earlier && repeats(earlier, attributes) && (!consent || this.consents.get(id) === consent)) {
      this.progress.duplicates! += 1;
    }
    this.profiles.set(id, { ...earlier, ...attributes });
    if (consent) this.consents.set(id, consent);
    this.progress.processed += 1;
  }

  private addEvent(line: number, converted: Converted<'customer-events'>) {
    if ('error' in converted) return this.refuse(line, converted.error);
    if (this.suppressed.has(converted.row[0])) return this.refuse(line, suppressedMessage(converted.row[0]));
    const key = converted.row[1];
    const group = this.events.get(key);
    if (group) group.push(converted.row);
    else this.events.set(key, [converted.row]);
    this.progress.processed += 1;
  }
}

/** Whether a row's attributes are the values met already. */
const repeats = (earlier: Record<string, unknown>, attributes: Record<string, unknown>) =>
  Object.entries(attributes).every(([key, value]) => JSON.stringify(earlier[key]) === JSON.stringify(value));

/** Ends a batch whose import stopped as failed, saying why. */
async function endStoppedImport(ctx: AppContext, access: WorkspaceAccess, batchId: string, err: unknown) {
  ctx.log.warn({ err, batchId }, 'import failed');
  // A failed query's own message, not the query's text and parameters (drizzle's wrapper says both).
  const reason = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const message = reason instanceof Error ? reason.message : String(reason);
  await endBatch(ctx, access, batchId, 'stopped', { line: 0, message: `Import stopped: ${message}` });
}
