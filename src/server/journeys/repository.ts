import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { JourneyDefinition } from '@shared/api/journeys';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { journeyRuns, journeyStarts, journeyTasks } from '../db/schema';
import { textArray } from '../db/text-array';

export type StartRow = typeof journeyStarts.$inferSelect;
type TaskRow = typeof journeyTasks.$inferSelect;

export async function insertStart(tx: Tx, row: typeof journeyStarts.$inferInsert) {
  const [start] = await tx.insert(journeyStarts).values(row).onConflictDoNothing().returning();
  return start;
}

export async function findStart(db: Db | Tx, workspaceId: string, journeyId: string, version: number) {
  const [row] = await db
    .select()
    .from(journeyStarts)
    .where(
      and(
        eq(journeyStarts.workspaceId, workspaceId),
        eq(journeyStarts.journeyId, journeyId),
        eq(journeyStarts.version, version),
      ),
    );
  return row;
}

/** The journey's started versions, newest first. */
export async function startsOf(db: Db | Tx, workspaceId: string, journeyId: string) {
  return db
    .select()
    .from(journeyStarts)
    .where(and(eq(journeyStarts.workspaceId, workspaceId), eq(journeyStarts.journeyId, journeyId)))
    .orderBy(sql`${journeyStarts.version} desc`);
}

/** The workspace's versions that are not stopped. */
export async function liveStarts(db: Db | Tx, workspaceId: string) {
  return db
    .select()
    .from(journeyStarts)
    .where(and(eq(journeyStarts.workspaceId, workspaceId), ne(journeyStarts.state, 'stopped')));
}

/** Moves the journey's versions in one of `from` states to `to`; answers those moved. */
export async function setStartsState(
  tx: Tx,
  workspaceId: string,
  journeyId: string,
  from: string[],
  to: string,
) {
  return tx
    .update(journeyStarts)
    .set({ state: to, ...(to === 'stopped' ? { stoppedAt: new Date() } : {}) })
    .where(
      and(
        eq(journeyStarts.workspaceId, workspaceId),
        eq(journeyStarts.journeyId, journeyId),
        inArray(journeyStarts.state, from),
      ),
    )
    .returning();
}

/** The re-entry rule as SQL over profile `p`'s earlier runs of the journey (any version). */
function mayEnter(journeyId: string, reentry: JourneyDefinition['reentry']) {
  const blocking =
    reentry.mode === 'once'
      ? sql`true`
      : reentry.mode === 'after-exit'
        ? sql`r.state = 'active'`
        : sql`r.state = 'active' or r.entered_at > now() - make_interval(days => ${reentry.days}::int)`;
  return sql`not exists (
    select 1 from journey_runs r
    where r.workspace_id = p.workspace_id and r.journey_id = ${journeyId}::text and r.profile_id = p.id
      and (${blocking}))`;
}

export interface RunRef {
  id: string;
  profileId: string;
}

/**
 * Enters the profiles of `profileIds` that exist and the re-entry rule lets in, each with its run on
 * `start`'s version and its first step due now; a profile already in the journey (in another
 * transaction too: the unique index on active runs) is left out. Answers the runs made.
 */
export async function enterRuns(tx: Tx, start: StartRow, profileIds: string[], newId: () => string) {
  if (!profileIds.length) return [];
  const eligible = rows<{ id: string }>(
    await tx.execute(sql`
      select p.id from customer_profiles p
      where p.workspace_id = ${start.workspaceId}::text and p.id = any(${textArray(profileIds)})
        and ${mayEnter(start.journeyId, start.definition.reentry)}
      order by p.id`),
  );
  if (!eligible.length) return [];
  const made = await tx
    .insert(journeyRuns)
    .values(
      eligible.map((row) => ({
        workspaceId: start.workspaceId,
        id: newId(),
        journeyId: start.journeyId,
        version: start.version,
        profileId: row.id,
        state: 'active',
      })),
    )
    .onConflictDoNothing()
    .returning({ id: journeyRuns.id, profileId: journeyRuns.profileId });
  return made;
}

/** Profile ids of `ids` that exist in the workspace. */
export async function existingProfiles(db: Db | Tx, workspaceId: string, ids: string[]) {
  return rows<{ id: string }>(
    await db.execute(sql`
      select id from customer_profiles where workspace_id = ${workspaceId}::text and id = any(${textArray(ids)})`),
  ).map((row) => row.id);
}

export async function insertTasks(tx: Tx, tasks: (typeof journeyTasks.$inferInsert)[]) {
  if (tasks.length) await tx.insert(journeyTasks).values(tasks).onConflictDoNothing();
}

const taskColumns = sql`workspace_id as "workspaceId", run_id as "runId", seq, journey_id as "journeyId",
  version, profile_id as "profileId", step_id as "stepId", state, due_at as "dueAt", waits_for as "waitsFor"`;

type LockedTask = Pick<
  TaskRow,
  | 'workspaceId'
  | 'runId'
  | 'seq'
  | 'journeyId'
  | 'version'
  | 'profileId'
  | 'stepId'
  | 'state'
  | 'dueAt'
  | 'waitsFor'
>;

/** The task, locked, if it is still due and no other transaction holds it. */
export async function lockDueTask(tx: Tx, workspaceId: string, runId: string, seq: number) {
  const [row] = rows<LockedTask>(
    await tx.execute(sql`
      select ${taskColumns} from journey_tasks
      where workspace_id = ${workspaceId}::text and run_id = ${runId}::text and seq = ${seq}::int
        and state = 'due'
      for update skip locked`),
  );
  return row ? { ...row, dueAt: new Date(row.dueAt) } : undefined;
}

/**
 * Locks the run while it is active (answers false otherwise): a step and an event for the same run
 * take it first, so an event waits for a step under way and then sees the task it wrote.
 */
export async function lockActiveRun(tx: Tx, workspaceId: string, runId: string) {
  const found = rows<{ id: string }>(
    await tx.execute(sql`
      select id from journey_runs
      where workspace_id = ${workspaceId}::text and id = ${runId}::text and state = 'active'
      for update`),
  );
  return found.length === 1;
}

/**
 * The due tasks of the profile's active runs of `journeyIds`, the runs locked first (in id order, as
 * every writer takes them), then the tasks read in a statement of their own: one a step committed
 * while this waited for its run is seen.
 */
export async function lockWaitingTasks(tx: Tx, workspaceId: string, profileId: string, journeyIds: string[]) {
  if (!journeyIds.length) return [];
  const runs = rows<{ id: string }>(
    await tx.execute(sql`
      select id from journey_runs
      where workspace_id = ${workspaceId}::text and profile_id = ${profileId}::text and state = 'active'
        and journey_id = any(${textArray(journeyIds)})
      order by id
      for update`),
  ).map((row) => row.id);
  if (!runs.length) return [];
  return rows<LockedTask>(
    await tx.execute(sql`
      select ${taskColumns} from journey_tasks
      where workspace_id = ${workspaceId}::text and run_id = any(${textArray(runs)}) and state = 'due'
      order by run_id, seq
      for update`),
  );
}

export async function finishTask(
  tx: Tx,
  task: { workspaceId: string; runId: string; seq: number },
  outcome: { state: 'done' | 'cancelled'; exit?: string | null; ended?: string | null },
) {
  await tx
    .update(journeyTasks)
    .set({
      state: outcome.state,
      exit: outcome.exit ?? null,
      ended: outcome.ended ?? null,
      doneAt: new Date(),
    })
    .where(
      and(
        eq(journeyTasks.workspaceId, task.workspaceId),
        eq(journeyTasks.runId, task.runId),
        eq(journeyTasks.seq, task.seq),
      ),
    );
}

/** Ends an active run (answers false when it had ended already). */
export async function endRun(
  tx: Tx,
  workspaceId: string,
  runId: string,
  state: string,
  exitStep: string | null,
) {
  const ended = await tx
    .update(journeyRuns)
    .set({ state, exitStep, finishedAt: new Date() })
    .where(
      and(
        eq(journeyRuns.workspaceId, workspaceId),
        eq(journeyRuns.id, runId),
        eq(journeyRuns.state, 'active'),
      ),
    )
    .returning({ id: journeyRuns.id });
  return ended.length === 1;
}

/**
 * Stops every active run of the journey: its due tasks are cancelled as `stopped`. Answers the runs
 * (with their profile and the step each waited at) for their journey-exited events.
 */
export async function stopRuns(tx: Tx, workspaceId: string, journeyId: string) {
  return rows<{ run_id: string; profile_id: string; version: number; step_id: string | null }>(
    await tx.execute(sql`
      with cancelled as (
        update journey_tasks set state = 'cancelled', ended = 'stopped', done_at = now()
        where workspace_id = ${workspaceId}::text and journey_id = ${journeyId}::text and state = 'due'
        returning run_id, step_id),
      stopped as (
        update journey_runs r set state = 'stopped', finished_at = now(),
          exit_step = (select c.step_id from cancelled c where c.run_id = r.id limit 1)
        where r.workspace_id = ${workspaceId}::text and r.journey_id = ${journeyId}::text and r.state = 'active'
        returning r.id, r.profile_id, r.version, r.exit_step)
      select id as run_id, profile_id, version, exit_step as step_id from stopped`),
  );
}

/**
 * Due tasks of running versions, soonest first: the journey's every one (a resume), or across
 * workspaces those due within `aheadMs` (the sweep).
 */
export async function dueTasks(
  db: Db | Tx,
  workspaceId: string | null,
  journeyId: string | null,
  limit: number,
  aheadMs = 0,
) {
  return rows<{ workspace_id: string; run_id: string; seq: number; due_at: Date | string }>(
    await db.execute(sql`
      select t.workspace_id, t.run_id, t.seq, t.due_at from journey_tasks t
      join journey_starts s on s.workspace_id = t.workspace_id and s.journey_id = t.journey_id
        and s.version = t.version and s.state = 'running'
      where t.state = 'due'
        ${workspaceId ? sql`and t.workspace_id = ${workspaceId}::text` : sql``}
        ${
          journeyId
            ? sql`and t.journey_id = ${journeyId}::text`
            : sql`and t.due_at <= now() + make_interval(secs => ${aheadMs / 1000}::float8)`
        }
      order by t.due_at
      limit ${limit}::int`),
  );
}

/** Per version and step: profiles that reached it, wait there, completed it, ended there, and per exit. */
export async function stepCounts(db: Db, workspaceId: string, journeyId: string) {
  return rows<{
    version: number;
    step_id: string;
    exit: string | null;
    entered: string | number;
    waiting: string | number;
    completed: string | number;
    exited: string | number;
    converted: string | number;
  }>(
    await db.execute(sql`
      select version, step_id, exit,
        count(*) as entered,
        count(*) filter (where state = 'due') as waiting,
        count(*) filter (where state = 'done') as completed,
        count(*) filter (where ended in ('finished', 'stopped')) as exited,
        count(*) filter (where ended = 'converted') as converted
      from journey_tasks
      where workspace_id = ${workspaceId}::text and journey_id = ${journeyId}::text
      group by version, step_id, exit`),
  );
}

/** Per version: runs entered, active, converted. */
export async function runCounts(db: Db, workspaceId: string, journeyId: string) {
  return rows<{
    version: number;
    entered: string | number;
    active: string | number;
    converted: string | number;
  }>(
    await db.execute(sql`
      select version, count(*) as entered,
        count(*) filter (where state = 'active') as active,
        count(*) filter (where state = 'converted') as converted
      from journey_runs
      where workspace_id = ${workspaceId}::text and journey_id = ${journeyId}::text
      group by version`),
  );
}

/** Writes `value` to the profile's attribute (null removes it). */
export async function setAttribute(
  tx: Tx,
  workspaceId: string,
  profileId: string,
  key: string,
  value: unknown,
) {
  await tx.execute(sql`
    update customer_profiles set
      attributes = ${value === null ? sql`attributes - ${key}::text` : sql`jsonb_set(attributes, array[${key}::text], ${JSON.stringify(value)}::jsonb)`},
      updated_at = now()
    where workspace_id = ${workspaceId}::text and id = ${profileId}::text`);
}

export async function profileAttributes(tx: Tx, workspaceId: string, profileId: string) {
  const [row] = rows<{ attributes: Record<string, unknown> }>(
    await tx.execute(sql`
      select attributes from customer_profiles where workspace_id = ${workspaceId}::text and id = ${profileId}::text`),
  );
  return row?.attributes ?? null;
}
