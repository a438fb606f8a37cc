import type { Readable } from 'node:stream';
import { MAX_BATCH_ERRORS, type LiveEvent } from '@shared/api/customers';
import { convertValue, isBlank, toStoredDate } from '@shared/criteria/convert';
import type { AttributeType } from '@shared/criteria/operators';
import { can } from '@shared/permissions/permissions';
import type { z } from 'zod';
import { addProgress, type BatchProgress } from '../batches/repository';
import { endBatch, getBatch, startBatch } from '../batches/service';
import type { AppContext } from '../context';
import { badRequest, forbidden, notFound } from '../http/errors';
import { findUnsafeText } from '../http/input-guard';
import { actorOf, journal } from '../journal/journal';
import type { WorkspaceAccess } from '../workspaces/access';
import { loadDefinitions, type CustomerDefinitions } from './definitions';
import { readRecords, type ImportFormat, type RecordLine } from './read-records';
import * as repo from './repository';
import * as segments from './segments';

export type ImportKind = 'profiles' | 'customer-events';

/** Managers, and members who may edit customer-profile-attribute, may import and track. */
export function requireImporter(access: WorkspaceAccess) {
  if (
    !access.permissions.canManageWorkspace &&
    !can(access.permissions, 'edit', 'customer-profile-attribute')
  ) {
    throw forbidden('You do not have permission to import customer data');
  }
}

type Row<K extends ImportKind> = K extends 'profiles' ? [string, Record<string, unknown>] : repo.EventTuple;
type Converted<K extends ImportKind> = { row: Row<K> } | { error: string };

/**
 * A row's attributes or properties: names, and the raw values at the same positions (a CSV row's cells
 * picked by the header, an NDJSON object's values); or why the row is refused.
 */
type Fields = { keys: readonly string[]; values: readonly unknown[] } | string;

/** Typed values of a row's attributes or properties; the first key that does not fit refuses the row. */
function convertFields(
  fields: Exclude<Fields, string>,
  types: Map<string, AttributeType>,
  what: string,
): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  const { keys, values } = fields;
  for (let i = 0; i < keys.length; i++) {
    const raw = values[i];
    if (isBlank(raw)) continue;
    const key = keys[i];
    const type = types.get(key);
    if (!type) return `unknown ${what} "${key}"`;
    const converted = convertValue(type, raw);
    if (!converted.ok) return `${key}: ${converted.message}`;
    out[key] = converted.value;
  }
  return out;
}

/** A record that was read (its values are yet to be converted). */
type ReadRecord = Exclude<RecordLine, { error: string }>;

/** The names a row itself has; the other CSV columns are attributes or properties. */
const PROFILE_FIELDS: ReadonlySet<string> = new Set(['id', 'attributes']);
const EVENT_FIELDS: ReadonlySet<string> = new Set(['profileId', 'event', 'at', 'properties']);

/** The attributes or properties of an NDJSON row: its nested object, or why the row is refused. */
function nestedFields(
  value: Record<string, unknown>,
  own: ReadonlySet<string>,
  nested: 'attributes' | 'properties',
): Fields {
  const unknown = Object.keys(value).find((key) => !own.has(key));
  if (unknown !== undefined) return `unknown field "${unknown}" (${nested} go in "${nested}")`;
  const fields = value[nested];
  if (fields === undefined) return { keys: [], values: [] };
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return `${nested} must be an object`;
  const keys = Object.keys(fields);
  return { keys, values: keys.map((key) => (fields as Record<string, unknown>)[key]) };
}

/**
 * Where a CSV row's fields are, read once from the header: a column of the row's own names by its
 * name, every other column as an attribute or property. A name given twice takes its last column,
 * in the place of its first, as when the columns were the keys of one object.
 */
interface CsvLayout {
  columns: string[];
  ownAt: Map<string, number>;
  fieldKeys: string[];
  fieldAt: number[];
}

function csvLayout(columns: string[], own: ReadonlySet<string>): CsvLayout {
  const at = new Map<string, number>();
  columns.forEach((name, index) => at.set(name, index));
  const ownAt = new Map([...at].filter(([name]) => own.has(name)));
  const fieldKeys = [...at.keys()].filter((name) => !own.has(name));
  return { columns, ownAt, fieldKeys, fieldAt: fieldKeys.map((name) => at.get(name)!) };
}

const csvFields = (layout: CsvLayout, cells: string[]): Fields => ({
  keys: layout.fieldKeys,
  values: layout.fieldAt.map((index) => cells[index]),
});
const csvCell = (layout: CsvLayout, cells: string[], name: string) => {
  const index = layout.ownAt.get(name);
  return index === undefined ? undefined : cells[index];
};
/** A CSV row as an object of its columns, for the rare walk for unsafe text (paths by column name). */
function csvObject(layout: CsvLayout, cells: string[]) {
  // No prototype: a column named __proto__ is a key like any other.
  const value: Record<string, unknown> = Object.create(null);
  layout.columns.forEach((name, index) => (value[name] = cells[index]));
  return value;
}

const asText = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

function profileRow(rawId: unknown, fields: Fields, defs: CustomerDefinitions): Converted<'profiles'> {
  const profileId = asText(rawId);
  if (!profileId) return { error: 'id is required' };
  if (profileId.length > 200) return { error: 'id is longer than 200 characters' };
  if (typeof fields === 'string') return { error: fields };
  const converted = convertFields(fields, defs.attributesByKey, 'attribute');
  return typeof converted === 'string' ? { error: converted } : { row: [profileId, converted] };
}

/** One live or imported event checked: known profile id, event key, date and properties by type. */
function eventRow(
  rawId: unknown,
  rawKey: unknown,
  rawAt: unknown,
  fields: Fields,
  defs: CustomerDefinitions,
): Converted<'customer-events'> {
  const id = asText(rawId);
  if (!id) return { error: 'profileId is required' };
  const key = asText(rawKey);
  const propertyTypes = defs.eventsByKey.get(key);
  if (!propertyTypes) return { error: key ? `unknown event "${key}"` : 'event is required' };
  const when = toStoredDate(rawAt);
  if (!when) return { error: `at: ${JSON.stringify(rawAt ?? null)} is not a date` };
  if (typeof fields === 'string') return { error: fields };
  const converted = convertFields(fields, propertyTypes, 'property');
  return typeof converted === 'string' ? { error: converted } : { row: [id, key, when, converted] };
}

/** An NDJSON or live event. */
const eventFromObject = (value: Record<string, unknown>, defs: CustomerDefinitions) =>
  eventRow(value.profileId, value.event, value.at, nestedFields(value, EVENT_FIELDS, 'properties'), defs);

const HEADERS: Record<ImportKind, string[]> = {
  profiles: ['id'],
  'customer-events': ['profileId', 'event', 'at'],
};

export interface ImportSource {
  stream: Readable;
  format: ImportFormat;
  fileName: string | null;
  bytesTotal: number | null;
}

/**
 * Imports a streamed CSV or NDJSON body as a batch: rows are converted by the declared types and written
 * `config.importChunkRows` at a time, each chunk in one transaction with the batch's progress; rows that
 * do not fit are skipped and reported with their line (the first 100 kept). Answers the finished batch.
 */
export async function importCustomerData(
  ctx: AppContext,
  access: WorkspaceAccess,
  kind: ImportKind,
  source: ImportSource,
) {
  requireImporter(access);
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const workspaceId = access.workspace.id;
  const batchId = await startBatch(
    ctx,
    access,
    kind === 'profiles' ? 'profiles-import' : 'customer-events-import',
    {
      fileName: source.fileName,
      bytesTotal: source.bytesTotal,
    },
  );
  let bytesRead = 0;
  // CSV text is decoded from UTF-8, which cannot spell an unpaired surrogate (it decodes to U+FFFD):
  // only a NUL byte can make its text unsafe, so rows are walked for it only once the body has one.
  // NDJSON's escapes can spell both, so each of its rows is walked.
  let mayBeUnsafe = source.format !== 'csv';
  source.stream.on('data', (chunk: Buffer) => {
    bytesRead += chunk.length;
    if (!mayBeUnsafe && chunk.includes(0)) mayBeUnsafe = true;
  });
  let errorsKept = 0;
  let pending: BatchProgress = { processed: 0, failed: 0, errors: [] };
  let profiles = new Map<string, Record<string, unknown>>();
  let events: repo.EventsByKey = new Map();

  // Chunks are written while the next is read and converted. Profiles go one write at a time, so a
  // profile id met again later in the file ends with its later values. Events commute (inserts and
  // count increments), so two chunks are written at once on two connections: PostgreSQL spends much
  // of a chunk's write waiting on its log and buffers, which the other chunk's write fills. A failed
  // write stops the import before the next chunk (the one beside it may still land, counted).
  const inFlightMax = kind === 'profiles' ? 1 : 2;
  const writing: Promise<void>[] = [];
  const write = async (
    profileRows: [string, Record<string, unknown>][],
    eventRows: repo.EventsByKey,
    progress: BatchProgress,
    segment: number | undefined,
  ) =>
    ctx.db.transaction(async (tx) => {
      await repo.upsertProfiles(tx, workspaceId, profileRows);
      if (segment === undefined) await repo.insertEvents(tx, workspaceId, eventRows);
      else await segments.copyIntoSegment(tx, segment, workspaceId, eventRows);
      await addProgress(tx, workspaceId, batchId, progress);
    });
  /** Waits for every write under way to settle (none is left running), then fails with the first failure. */
  const allWritten = async () => {
    const failure = (await Promise.allSettled(writing.splice(0))).find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
  };

  // Past its first `directRows` events, an import loads into segments (`segments.ts`): a full one is
  // attached while the next is loaded, one attach at a time.
  const policy = ctx.config.eventSegments;
  let eventsWritten = 0;
  let segment: { id: number; rows: number } | undefined;
  let attaching: Promise<void> = Promise.resolve();
  const attach = async (full: { id: number; rows: number }) => {
    const previous = attaching;
    // After the previous attach; a segment not attached (that failed, or the one before it) is dropped.
    attaching = previous
      .then(() => segments.attachSegment(ctx.db, full.id, full.rows, policy))
      .catch(async (err: unknown) => {
        await segments.dropSegment(ctx.db, full.id).catch(() => {});
        throw err;
      });
    // Awaited at the next attach or at the end; until then a failure must not count as unhandled.
    attaching.catch(() => {});
    // Loading goes on while one attach runs, not two.
    await previous;
  };
  /** Attaches the segment being loaded and waits for every attach. */
  const allAttached = async () => {
    if (segment) {
      const last = segment;
      segment = undefined;
      await attach(last);
    }
    await attaching;
  };

  const flush = async () => {
    const progress = { ...pending, bytesRead };
    // In id order, so concurrent imports touching the same profiles lock them in the same order.
    const profileRows = [...profiles.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const eventRows = events;
    pending = { processed: 0, failed: 0, errors: [] };
    profiles = new Map();
    events = new Map();
    let eventCount = 0;
    for (const group of eventRows.values()) eventCount += group.length;
    if (eventCount && eventsWritten >= policy.directRows && !segment) {
      segment = { id: await segments.openSegment(ctx.db), rows: 0 };
    }
    const into = eventCount && segment ? segment : undefined;
    if (into) into.rows += eventCount;
    eventsWritten += eventCount;
    if (writing.length >= inFlightMax) await writing.shift();
    const written = write(profileRows, eventRows, progress, into?.id);
    // Awaited at a later flush; until then a failure must not count as unhandled.
    written.catch(() => {});
    writing.push(written);
    if (into && into.rows >= policy.segmentRows) {
      segment = undefined;
      await allWritten();
      await attach(into);
    }
  };
  const refuse = (line: number, message: string) => {
    pending.failed += 1;
    if (errorsKept < MAX_BATCH_ERRORS) {
      errorsKept += 1;
      pending.errors.push({ line, message });
    }
  };
  let layout: CsvLayout | undefined;
  const checkHeader = (columns: string[]) => {
    const expected = HEADERS[kind];
    if (expected.some((name, index) => columns[index] !== name)) {
      throw new Error(`The header row must start with ${expected.join(',')}`);
    }
    layout = csvLayout(columns, kind === 'profiles' ? PROFILE_FIELDS : EVENT_FIELDS);
  };
  const addProfile = (record: ReadRecord) => {
    const converted =
      'cells' in record
        ? profileRow(csvCell(layout!, record.cells, 'id'), csvFields(layout!, record.cells), defs)
        : profileRow(record.value.id, nestedFields(record.value, PROFILE_FIELDS, 'attributes'), defs);
    if ('error' in converted) return refuse(record.line, converted.error);
    const [id, attributes] = converted.row;
    profiles.set(id, { ...profiles.get(id), ...attributes });
    pending.processed += 1;
  };
  const addEvent = (record: ReadRecord) => {
    const converted =
      'cells' in record
        ? eventRow(
            csvCell(layout!, record.cells, 'profileId'),
            csvCell(layout!, record.cells, 'event'),
            csvCell(layout!, record.cells, 'at'),
            csvFields(layout!, record.cells),
            defs,
          )
        : eventFromObject(record.value, defs);
    if ('error' in converted) return refuse(record.line, converted.error);
    const key = converted.row[1];
    const group = events.get(key);
    if (group) group.push(converted.row);
    else events.set(key, [converted.row]);
    pending.processed += 1;
  };

  try {
    for await (const records of readRecords(source.stream, source.format, checkHeader)) {
      for (const record of records) {
        if ('error' in record) refuse(record.line, record.error);
        else {
          const unsafe = mayBeUnsafe
            ? findUnsafeText('cells' in record ? csvObject(layout!, record.cells) : record.value)
            : undefined;
          if (unsafe) refuse(record.line, `${unsafe.path}: ${unsafe.message}`);
          else if (kind === 'profiles') addProfile(record);
          else addEvent(record);
        }
        if (pending.processed + pending.failed >= ctx.config.importChunkRows) await flush();
      }
    }
    await flush();
    await allWritten();
    await allAttached();
    await endBatch(ctx, access, batchId, 'done');
  } catch (err) {
    // What was read before the failure stays imported: the rows not written yet, and the segments.
    await flush().catch(() => {});
    await allWritten().catch(() => {});
    await allAttached().catch(() => {});
    ctx.log.warn({ err, batchId }, 'import failed');
    // A failed query's own message, not the query's text and parameters (drizzle's wrapper says both).
    const reason = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const message = reason instanceof Error ? reason.message : String(reason);
    await endBatch(ctx, access, batchId, 'failed', {
      line: 0,
      message: `Import stopped: ${message}`,
    });
  }
  return getBatch(ctx, access, batchId);
}

/** Live tracking: up to 1,000 events, all written or none (400 naming the first event that does not fit). */
export async function trackEvents(
  ctx: AppContext,
  access: WorkspaceAccess,
  input: z.infer<typeof LiveEvent>[],
) {
  requireImporter(access);
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const rows: repo.EventTuple[] = [];
  input.forEach((event, index) => {
    const converted = eventFromObject(event as Record<string, unknown>, defs);
    if ('error' in converted) throw badRequest(`events.${index}: ${converted.error}`);
    rows.push(converted.row);
  });
  await ctx.db.transaction(async (tx) => {
    await repo.insertEvents(tx, access.workspace.id, rows);
    // One row per request, never one per event.
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'customer-events.tracked',
          targetType: 'import',
          targetId: 'customer-events',
          detail: { accepted: rows.length },
        },
      ],
    });
  });
  return { accepted: rows.length };
}

const presentProfile = (row: repo.ProfileRow) => ({
  id: row.id,
  attributes: row.attributes,
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** A keyset page of profiles by id; any member may read. */
export async function listProfiles(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: { search?: string; cursor?: string; limit: number },
) {
  const rows = await repo.listProfiles(ctx.db, access.workspace.id, {
    search: query.search,
    after: query.cursor,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    profiles: page.map(presentProfile),
    nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
  };
}

/** One profile with its latest 50 events. */
export async function getProfile(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await repo.findProfile(ctx.db, access.workspace.id, id);
  if (!row) throw notFound('Profile not found');
  const events = await repo.latestEvents(ctx.db, access.workspace.id, id, 50);
  return {
    profile: presentProfile(row),
    events: events.map((e) => ({
      event: e.event,
      at: new Date(e.at).toISOString(),
      properties: e.properties,
    })),
  };
}
