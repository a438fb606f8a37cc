/**
 * The background half of a model change: the model changed at once when the change set was applied;
 * this brings the stored rows of the schemas it touched (items and their stage copies) to the new
 * version, a batch at a time, each batch one short transaction. Reads answer rows not reached yet in
 * the new shape meanwhile (items/upcast.ts, workspaces/model-changes.ts); a save made meanwhile writes
 * the new shape and version, and a batch never writes over a row that changed since it read it.
 * Everything it needs is in the rows, so a try that dies is resumed by the next one from where it was.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { PLAN_SAMPLE, type ModelChange } from '@shared/api/content-model';
import type { ContentModel } from '@shared/model/registry';
import { changesSince, replayCopy, replayItem } from '@shared/model/pass';
import type { AppContext } from '../context';
import { unlessHeld, type Db, type Tx } from '../db/client';
import { rows } from '../db/migrate';
import { contentModelChanges, workspaces } from '../db/schema';
import { enqueue, insertJobsFrom } from '../queue/queue';
import { MODEL_MIGRATION_QUEUE, type WorkspaceKey } from '../queue/queues';
import { searchTextOf } from '../items/search-text';
import { modelOf } from '../workspaces/content-model';
import { changesBetween, keptKey, storedKeptOf, type StoredChange } from '../workspaces/model-changes';

type Data = Record<string, unknown>;

/** Rows read, replayed and written at a time; each batch is one transaction. */
const MIGRATION_BATCH = 1000;
/**
 * Batches written at once, each in a transaction on a connection of its own: PostgreSQL's update of
 * the rows bounds the migration, and two overlap it with itself and with the next batch's replay.
 */
const MIGRATION_WRITERS = 2;
/** Rows replayed between two turns of the event loop. */
const REPLAY_SLICE = 100;

/** Queues the migration of a workspace's data, in the transaction of the change that needs it. */
export const queueModelMigration = (tx: Tx, workspaceId: string) =>
  enqueue(tx, MODEL_MIGRATION_QUEUE, { workspaceId }, { singletonKey: workspaceId });

/** A job for every workspace with a change still running (the sweep: jobs lost, or never queued). */
export const queueRunningMigrations = (db: Db) =>
  db.execute(
    insertJobsFrom(
      MODEL_MIGRATION_QUEUE,
      sql`(select distinct jsonb_build_object('workspaceId', workspace_id) as data, workspace_id as singleton_key
           from content_model_changes where state = 'running')`,
    ),
  );

/**
 * The job: each workspace's data brought to its model's current version, for half of a try's expiry
 * at most (or until the server stops); what is left goes on in the next job, queued then.
 */
export async function runModelMigrations(ctx: AppContext, jobs: WorkspaceKey[], stopping: AbortSignal) {
  const until = Date.now() + (ctx.config.jobsExpireSeconds * 1000) / 2;
  const shouldStop = () => stopping.aborted || Date.now() > until;
  for (const workspaceId of new Set(jobs.map((job) => job.workspaceId))) {
    const finished = await migrateWorkspaceData(ctx, workspaceId, { shouldStop });
    if (!finished)
      await enqueue(ctx.db, MODEL_MIGRATION_QUEUE, { workspaceId }, { singletonKey: workspaceId });
  }
}

interface RunningChange {
  id: string;
  version: number;
  schemas: readonly string[];
  sample: ModelChange['transformed'];
  total: number;
}

async function runningChanges(db: Db, workspaceId: string): Promise<RunningChange[]> {
  const found = await db
    .select()
    .from(contentModelChanges)
    .where(and(eq(contentModelChanges.workspaceId, workspaceId), eq(contentModelChanges.state, 'running')))
    .orderBy(asc(contentModelChanges.version));
  if (found.length === 0) return [];
  const latest = found[found.length - 1].version;
  const changes = await changesBetween(db, workspaceId, found[0].version - 1, latest);
  return found.map((row) => ({
    id: row.id,
    version: row.version,
    schemas: changes.find((change) => change.version === row.version)?.schemas ?? [],
    sample: row.transformed,
    total: row.itemsTotal,
  }));
}

export interface MigrationOptions {
  /** Asked before each batch: true stops the migration there. */
  shouldStop?: () => boolean;
  /** Rows a batch reads (default MIGRATION_BATCH). */
  batchSize?: number;
  /** Runs between reading a batch and writing it (what a save made meanwhile meets). */
  beforeWrite?: (ids: string[]) => Promise<void>;
}

/**
 * Brings every row of the schemas the running changes of a workspace touch to the latest version, then
 * marks them done; again while changes keep coming. Answers false when `shouldStop` stopped it between
 * two batches (the next job goes on from there). One runner at a time per workspace, across processes:
 * a second one finds the workspace's lock held and answers true at once, leaving the changes to the
 * runner holding it, which looks for running changes again once it has let go of the lock (a change
 * whose job was turned away meanwhile was committed before its job asked).
 */
export async function migrateWorkspaceData(
  ctx: AppContext,
  workspaceId: string,
  options: MigrationOptions = {},
): Promise<boolean> {
  for (;;) {
    const finished = await unlessHeld(ctx.db, `model-migration:${workspaceId}`, () =>
      migrateHeld(ctx, workspaceId, options),
    );
    if (finished === undefined) return true;
    if (!finished || (await runningChanges(ctx.db, workspaceId)).length === 0) return finished;
  }
}

async function migrateHeld(ctx: AppContext, workspaceId: string, options: MigrationOptions) {
  const shouldStop = options.shouldStop ?? (() => false);
  for (;;) {
    const running = await runningChanges(ctx.db, workspaceId);
    if (running.length === 0) return true;
    const target = running[running.length - 1].version;
    const [workspace] = await ctx.db
      .select({ basics: workspaces.basics })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId));
    if (!workspace) return true;
    const model = await modelOf(ctx.db, { id: workspaceId, modelVersion: target });
    const run: MigrationRun = {
      ctx,
      workspaceId,
      target,
      model,
      basics: workspace.basics,
      running,
      shouldStop,
      batchSize: options.batchSize ?? MIGRATION_BATCH,
      beforeWrite: options.beforeWrite,
    };
    for (const schema of new Set(running.flatMap((change) => change.schemas))) {
      // Rows a batch passed over (a save under way, or one made in the old model by a process that had
      // not heard of the change yet) are still behind: pass again until none is.
      while ((await migrateTable(run, 'items', schema)) + (await migrateTable(run, 'published', schema)) > 0);
      if (shouldStop()) return false;
    }
    await ctx.db
      .update(contentModelChanges)
      .set({ state: 'done', itemsDone: sql`${contentModelChanges.itemsTotal}` })
      .where(
        and(
          eq(contentModelChanges.workspaceId, workspaceId),
          inArray(
            contentModelChanges.id,
            running.map((change) => change.id),
          ),
        ),
      );
  }
}

interface MigrationRun {
  ctx: AppContext;
  workspaceId: string;
  target: number;
  /** The model of the target version. */
  model: ContentModel;
  basics: Parameters<typeof replayItem>[3];
  running: RunningChange[];
  shouldStop: () => boolean;
  batchSize: number;
  beforeWrite?: MigrationOptions['beforeWrite'];
}

interface BehindRow {
  id: string;
  /** A stage copy's stage ('' for an item). */
  stage: string;
  version: number;
  model_version: number;
  data: Data;
}

/** A batch replayed in memory, ready to write: `write` answers how many rows it wrote. */
type PreparedBatch = (tx: Tx) => Promise<number>;

/**
 * One pass over the rows of `schema` in `table` still behind the target version, in key order;
 * answers how many were behind when read but not written (changed meanwhile: to look at again). While
 * batches are written (MIGRATION_WRITERS at once, each on a connection of its own), the next is read
 * and replayed.
 */
async function migrateTable(run: MigrationRun, table: 'items' | 'published', schema: string) {
  const { ctx, workspaceId, target } = run;
  let after = { id: '', stage: '' };
  const isItems = table === 'items';
  let missed = 0;
  const writing: { written: Promise<number>; size: number }[] = [];
  const settleOne = async () => {
    const oldest = writing.shift();
    if (oldest) missed += oldest.size - (await oldest.written);
  };
  try {
    for (;;) {
      if (run.shouldStop()) break;
      const batch = rows<BehindRow>(
        await ctx.db.execute(sql`
          select id, ${sql.raw(isItems ? `''` : 'stage')} as stage, version, model_version, data
          from ${sql.raw(table)}
          where workspace_id = ${workspaceId} and schema = ${schema} and model_version < ${target}::int
            and ${isItems ? sql`id > ${after.id}` : sql`(id, stage) > (${after.id}::text, ${after.stage}::text)`}
          order by ${sql.raw(isItems ? 'id' : 'id, stage')} limit ${run.batchSize}`),
      );
      if (batch.length === 0) break;
      const minVersion = Math.min(...batch.map((row) => Number(row.model_version)));
      const changes = await changesBetween(ctx.db, workspaceId, minVersion, target);
      const write = isItems
        ? await prepareItemBatch(run, schema, changes, batch)
        : prepareCopyBatch(run, schema, changes, batch);
      await run.beforeWrite?.(batch.map((row) => row.id));
      while (writing.length >= MIGRATION_WRITERS) await settleOne();
      const written = ctx.db.transaction(async (tx) => {
        // A batch lost to a crash before its commit reached the disk is read and written again by the
        // next try: no need to wait for the flush.
        await tx.execute(sql`set local synchronous_commit = off`);
        return write(tx);
      });
      // Awaited by settleOne(); until then a failure must not count as unhandled.
      written.catch(() => {});
      writing.push({ written, size: batch.length });
      after = batch[batch.length - 1];
      if (batch.length < run.batchSize) break;
    }
    while (writing.length > 0) await settleOne();
  } finally {
    // A failed write or read leaves none of the others running unawaited.
    await Promise.allSettled(writing.map((entry) => entry.written));
  }
  return run.shouldStop() ? 0 : missed;
}

/** Writes rows of a batch unless they changed since they were read (same version, same model version). */
const CHANGED_SINCE_READ = sql.raw(`t.version = r.version and t.model_version = r.model_version`);

async function prepareItemBatch(
  run: MigrationRun,
  schema: string,
  changes: StoredChange[],
  batch: BehindRow[],
): Promise<PreparedBatch> {
  const { ctx, workspaceId, target } = run;
  const stored = await storedKeptOf(
    ctx.db,
    batch.flatMap((row) =>
      changesSince(changes, schema, Number(row.model_version)).flatMap(({ reverts }) =>
        reverts && reverts.version <= Number(row.model_version)
          ? [{ changeId: reverts.id, schema, itemId: row.id }]
          : [],
      ),
    ),
  );
  const written: {
    id: string;
    version: number;
    model_version: number;
    data: Data;
    has_errors: boolean;
    search_text: string | null;
  }[] = [];
  const schemaAfter = run.model.schema(schema);
  const kept: { change_id: string; item_id: string; kept: Data }[] = [];
  const samples = new Map<number, ModelChange['transformed']>();
  for (const [i, row] of batch.entries()) {
    // The requests served beside the migration wait for a slice at most, never for a whole batch.
    if (i > 0 && i % REPLAY_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    const since = changesSince(changes, schema, Number(row.model_version));
    const replayed = replayItem(since, schema, row.data, run.basics, run.model.doc, (changeId) =>
      stored.get(keptKey({ changeId, schema, itemId: row.id })),
    );
    written.push({
      id: row.id,
      version: Number(row.version),
      model_version: Number(row.model_version),
      data: replayed.data,
      has_errors: replayed.hasErrors,
      // The words the list's search finds, read under the new model in the same write.
      search_text: schemaAfter ? searchTextOf(schemaAfter, replayed.data, ctx.itemFieldReaders) : null,
    });
    for (const [version, values] of replayed.kept) {
      const change = changes.find((candidate) => candidate.version === version);
      if (change) kept.push({ change_id: change.id, item_id: row.id, kept: values });
    }
    if (replayed.changed || replayed.failed.length > 0)
      for (const change of since)
        samples.set(change.version, [
          ...(samples.get(change.version) ?? []),
          { schema, id: row.id, ...(replayed.failed.length > 0 ? { failed: replayed.failed } : {}) },
        ]);
  }
  const recordset = JSON.stringify(written);
  return async (tx) => {
    const updated = rows<{ id: string }>(
      await tx.execute(sql`
        update items t set data = r.data, has_errors = r.has_errors, search_text = r.search_text,
          model_version = ${target}::int
        from jsonb_to_recordset(${recordset}::jsonb)
          as r(id text, version int, model_version int, data jsonb, has_errors boolean, search_text text)
        where t.workspace_id = ${workspaceId} and t.schema = ${schema} and t.id = r.id and ${CHANGED_SINCE_READ}
        returning t.id`),
    );
    const ids = new Set(updated.map((row) => row.id));
    const keptRows = kept.filter((row) => ids.has(row.item_id));
    if (keptRows.length > 0)
      await tx.execute(sql`
        insert into content_model_kept (change_id, schema, item_id, kept)
        select change_id, ${schema}, item_id, kept
        from jsonb_to_recordset(${JSON.stringify(keptRows)}::jsonb) as r(change_id text, item_id text, kept jsonb)
        on conflict do nothing`);
    await recordProgress(tx, run, schema, ids, samples);
    return ids.size;
  };
}

/** Each running change touching the schema counts the items written, and samples the first ones. */
async function recordProgress(
  tx: Tx,
  run: MigrationRun,
  schema: string,
  ids: ReadonlySet<string>,
  samples: Map<number, ModelChange['transformed']>,
) {
  for (const change of run.running) {
    if (!change.schemas.includes(schema)) continue;
    const room = PLAN_SAMPLE - change.sample.length;
    const sample = (samples.get(change.version) ?? []).filter((entry) => ids.has(entry.id));
    if (room > 0 && sample.length > 0) change.sample = [...change.sample, ...sample.slice(0, room)];
    await tx
      .update(contentModelChanges)
      .set({
        itemsDone: sql`least(${contentModelChanges.itemsTotal}, ${contentModelChanges.itemsDone} + ${ids.size}::int)`,
        ...(room > 0 && sample.length > 0 ? { transformed: change.sample } : {}),
      })
      .where(eq(contentModelChanges.id, change.id));
  }
}

function prepareCopyBatch(
  run: MigrationRun,
  schema: string,
  changes: StoredChange[],
  batch: BehindRow[],
): PreparedBatch {
  const written = batch.map((row) => ({
    id: row.id,
    stage: row.stage,
    version: Number(row.version),
    model_version: Number(row.model_version),
    data: replayCopy(changesSince(changes, schema, Number(row.model_version)), schema, row.data, 'copy'),
  }));
  const recordset = JSON.stringify(written);
  return async (tx) => {
    const updated = await tx.execute(sql`
      update published t set data = r.data, model_version = ${run.target}::int
      from jsonb_to_recordset(${recordset}::jsonb)
        as r(id text, stage text, version int, model_version int, data jsonb)
      where t.workspace_id = ${run.workspaceId} and t.schema = ${schema} and t.id = r.id and t.stage = r.stage
        and ${CHANGED_SINCE_READ}
      returning t.id`);
    return rows(updated).length;
  };
}
