import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { PROFILE_TIMEZONE_ATTRIBUTE, type JourneyDefinition } from '@shared/api/journeys';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { journeyLimits, journeyRuns, journeyStarts, journeyTasks } from '../db/schema';
import { textArray } from '../db/text-array';

export type StartRow = typeof journeyStarts.$inferSelect;

/** An int[] parameter, as PostgreSQL's array literal. */
const intArray = (values: number[]) => `{${values.map((value) => Math.trunc(value)).join(',')}}`;
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
    .set({
      state: to,
      ...(to === 'stopped' ? { stoppedAt: new Date() } : {}),
      ...(from.includes('paused') && to === 'running' ? { resumedAt: new Date() } : {}),
    })
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
 * Enters the profiles of `profileIds` that exist and the re-entry rule lets in (and that `members`, a
 * select of profile ids, holds when given: the entry audience), each with its run on `start`'s version
 * and its first step due now; a profile already in the journey (in another transaction too: the unique
 * index on active runs) is left out. Answers the runs made.
 */
export async function enterRuns(
  tx: Tx,
  start: StartRow,
  profileIds: string[],
  newId: () => string,
  members?: SQL,
) {
  if (!profileIds.length) return [];
  const eligible = rows<{ id: string }>(
    await tx.execute(sql`
      select p.id from customer_profiles p
      where p.workspace_id = ${start.workspaceId}::text and p.id = any(${textArray(profileIds)})
        and ${mayEnter(start.journeyId, start.definition.reentry)}
        ${members ? sql`and p.id in (${members})` : sql``}
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

/** A jsonb parameter of `values`, for `jsonb_to_recordset`: one parameter for any number of rows. */
const jsonRows = (values: object[]) => sql`${JSON.stringify(values)}::jsonb`;

/** Inserts the tasks in one statement (a task already there is left as it is). */
export async function insertTasks(tx: Tx, tasks: (typeof journeyTasks.$inferInsert)[]) {
  if (!tasks.length) return;
  const values = tasks.map((task) => ({
    workspace_id: task.workspaceId,
    run_id: task.runId,
    seq: task.seq,
    journey_id: task.journeyId,
    version: task.version,
    profile_id: task.profileId,
    step_id: task.stepId,
    due_at: (task.dueAt ?? new Date()).toISOString(),
    waits_for: task.waitsFor ?? null,
    entered_at: task.enteredAt ? task.enteredAt.toISOString() : null,
  }));
  await tx.execute(sql`
    insert into journey_tasks
      (workspace_id, run_id, seq, journey_id, version, profile_id, step_id, due_at, waits_for, entered_at)
    select workspace_id, run_id, seq, journey_id, version, profile_id, step_id, due_at, waits_for,
      coalesce(entered_at, now())
    from jsonb_to_recordset(${jsonRows(values)}) as t(workspace_id text, run_id text, seq int, journey_id text,
      version int, profile_id text, step_id text, due_at timestamptz, waits_for text, entered_at timestamptz)
    on conflict do nothing`);
}

const taskColumns = sql`workspace_id as "workspaceId", run_id as "runId", seq, journey_id as "journeyId",
  version, profile_id as "profileId", step_id as "stepId", state, due_at as "dueAt", waits_for as "waitsFor",
  entered_at as "enteredAt", tries, outcome`;

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
  | 'enteredAt'
  | 'tries'
  | 'outcome'
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
  return row ? { ...row, dueAt: new Date(row.dueAt), enteredAt: new Date(row.enteredAt) } : undefined;
}

/** A task of a run: its key within the workspace. */
export interface TaskKey {
  runId: string;
  seq: number;
}

/**
 * Locks the active runs of `runIds` in one statement, in id order as every writer takes runs (waiting
 * for a run another transaction holds, as `lockActiveRun` does); answers the ids of those active once
 * locked.
 */
export async function lockActiveRuns(tx: Tx, workspaceId: string, runIds: string[]) {
  if (!runIds.length) return new Set<string>();
  const found = rows<{ id: string }>(
    await tx.execute(sql`
      select id from journey_runs
      where workspace_id = ${workspaceId}::text and state = 'active'
        and id in (select value from jsonb_array_elements_text(${JSON.stringify(runIds)}::jsonb))
      order by id
      for update`),
  );
  return new Set(found.map((row) => row.id));
}

/**
 * The tasks of `keys` still due, locked in one statement (those another transaction holds are left
 * out). Read after their runs are locked, in a statement of its own: a goal or a stop committed while
 * this waited for a run is seen.
 */
export async function lockDueTasks(tx: Tx, workspaceId: string, keys: TaskKey[]) {
  if (!keys.length) return [];
  const found = rows<LockedTask>(
    await tx.execute(sql`
      select ${taskColumns} from journey_tasks
      where workspace_id = ${workspaceId}::text and state = 'due'
        and (run_id, seq) in (
          select k.run_id, k.seq from jsonb_to_recordset(${jsonRows(
            keys.map((key) => ({ run_id: key.runId, seq: key.seq })),
          )}) as k(run_id text, seq int))
      order by run_id, seq
      for update skip locked`),
  );
  return found.map((row) => ({ ...row, dueAt: new Date(row.dueAt), enteredAt: new Date(row.enteredAt) }));
}

/** What became of a task done or cancelled. */
export interface TaskEnd extends TaskKey {
  state: 'done' | 'cancelled';
  exit?: string | null;
  ended?: string | null;
  /** Undefined: the task keeps the outcome it had (a deferral's). */
  outcome?: string | null;
  emailedAt?: Date | null;
}

/** Records the tasks done (or cancelled) in one statement. */
export async function finishTasks(tx: Tx, workspaceId: string, ends: TaskEnd[]) {
  if (!ends.length) return;
  const values = ends.map((end) => ({
    run_id: end.runId,
    seq: end.seq,
    state: end.state,
    exit: end.exit ?? null,
    ended: end.ended ?? null,
    keep_outcome: end.outcome === undefined,
    outcome: end.outcome ?? null,
    emailed_at: end.emailedAt ? end.emailedAt.toISOString() : null,
  }));
  await tx.execute(sql`
    update journey_tasks t set state = e.state, exit = e.exit, ended = e.ended, done_at = now(),
      lease_until = null, outcome = case when e.keep_outcome then t.outcome else e.outcome end,
      emailed_at = coalesce(e.emailed_at, t.emailed_at)
    from jsonb_to_recordset(${jsonRows(values)}) as e(run_id text, seq int, state text, exit text,
      ended text, keep_outcome boolean, outcome text, emailed_at timestamptz)
    where t.workspace_id = ${workspaceId}::text and t.run_id = e.run_id and t.seq = e.seq`);
}

/** Ends the active runs of `ends` as `state` in one statement; answers the ids of those it ended. */
export async function endRuns(
  tx: Tx,
  workspaceId: string,
  state: string,
  ends: { runId: string; exitStep: string | null }[],
) {
  if (!ends.length) return new Set<string>();
  const ended = rows<{ id: string }>(
    await tx.execute(sql`
      update journey_runs r set state = ${state}::text, exit_step = e.exit_step, finished_at = now()
      from jsonb_to_recordset(${jsonRows(
        ends.map((end) => ({ run_id: end.runId, exit_step: end.exitStep })),
      )}) as e(run_id text, exit_step text)
      where r.workspace_id = ${workspaceId}::text and r.id = e.run_id and r.state = 'active'
      returning r.id`),
  );
  return new Set(ended.map((row) => row.id));
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
  outcome: {
    state: 'done' | 'cancelled';
    exit?: string | null;
    ended?: string | null;
    outcome?: string | null;
    emailedAt?: Date | null;
  },
) {
  await tx
    .update(journeyTasks)
    .set({
      state: outcome.state,
      exit: outcome.exit ?? null,
      ended: outcome.ended ?? null,
      doneAt: new Date(),
      leaseUntil: null,
      ...(outcome.outcome !== undefined ? { outcome: outcome.outcome } : {}),
      ...(outcome.emailedAt ? { emailedAt: outcome.emailedAt } : {}),
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
 * (with their profile and the step each waited at) for their journey-exited events. The runs are
 * locked first, in id order, as every writer takes a run before its tasks: a step under way ends
 * before its run stops, rather than the two waiting on each other.
 */
export async function stopRuns(tx: Tx, workspaceId: string, journeyId: string) {
  await tx.execute(sql`
    select count(*) from (
      select id from journey_runs
      where workspace_id = ${workspaceId}::text and journey_id = ${journeyId}::text and state = 'active'
      order by id
      for update) locked`);
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

export interface DueTaskRow {
  workspace_id: string;
  run_id: string;
  seq: number;
  due_at: Date | string;
  /** due_at as PostgreSQL writes it (to the microsecond), for the next page. */
  due_text: string;
}

/**
 * Due tasks of running versions, soonest first: the journey's every one (a resume), or across
 * workspaces those due within `aheadMs` (the sweep), a page at a time after the row `after`.
 */
export async function dueTasks(
  db: Db | Tx,
  workspaceId: string | null,
  journeyId: string | null,
  limit: number,
  aheadMs = 0,
  after?: DueTaskRow,
) {
  return rows<DueTaskRow>(
    await db.execute(sql`
      select t.workspace_id, t.run_id, t.seq, t.due_at, t.due_at::text as due_text from journey_tasks t
      join journey_starts s on s.workspace_id = t.workspace_id and s.journey_id = t.journey_id
        and s.version = t.version and s.state = 'running'
      where t.state = 'due'
        ${workspaceId ? sql`and t.workspace_id = ${workspaceId}::text` : sql``}
        ${
          journeyId
            ? sql`and t.journey_id = ${journeyId}::text`
            : sql`and t.due_at <= now() + make_interval(secs => ${aheadMs / 1000}::float8)`
        }
        ${
          after
            ? sql`and (t.due_at, t.workspace_id, t.run_id, t.seq) >
                (${after.due_text}::timestamptz, ${after.workspace_id}::text,
                 ${after.run_id}::text, ${after.seq}::int)`
            : sql``
        }
      order by t.due_at, t.workspace_id, t.run_id, t.seq
      limit ${limit}::int`),
  );
}

/** Per version and step: profiles that reached it, wait there, completed it, ended there, and per exit. */
export async function stepCounts(db: Db, workspaceId: string, journeyId: string) {
  return rows<{
    version: number;
    step_id: string;
    exit: string | null;
    outcome: string | null;
    entered: string | number;
    waiting: string | number;
    completed: string | number;
    exited: string | number;
    converted: string | number;
  }>(
    await db.execute(sql`
      select version, step_id, exit, outcome,
        count(*) as entered,
        count(*) filter (where state = 'due') as waiting,
        count(*) filter (where state = 'done') as completed,
        count(*) filter (where ended in ('finished', 'stopped', 'expired')) as exited,
        count(*) filter (where ended = 'converted') as converted
      from journey_tasks
      where workspace_id = ${workspaceId}::text and journey_id = ${journeyId}::text
      group by version, step_id, exit, outcome`),
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

export async function profileAttributes(tx: Db | Tx, workspaceId: string, profileId: string) {
  const [row] = rows<{ attributes: Record<string, unknown> }>(
    await tx.execute(sql`
      select attributes from customer_profiles where workspace_id = ${workspaceId}::text and id = ${profileId}::text`),
  );
  return row?.attributes ?? null;
}

/** The workspace's journey limits row, if it has one. */
export async function findLimits(db: Db | Tx, workspaceId: string) {
  const [row] = await db.select().from(journeyLimits).where(eq(journeyLimits.workspaceId, workspaceId));
  return row;
}

export async function upsertLimits(tx: Tx, row: typeof journeyLimits.$inferInsert) {
  const { workspaceId: _key, ...set } = row;
  const [saved] = await tx
    .insert(journeyLimits)
    .values(row)
    .onConflictDoUpdate({ target: journeyLimits.workspaceId, set: { ...set, updatedAt: new Date() } })
    .returning();
  return saved;
}

/** Gives the workspace a sealed webhook secret when it has none; answers the one it has. */
export async function ensureWebhookSecret(db: Db | Tx, workspaceId: string, sealed: string) {
  await db.execute(sql`
    insert into journey_limits (workspace_id, webhook_secret) values (${workspaceId}::text, ${sealed}::text)
    on conflict (workspace_id) do update set webhook_secret = ${sealed}::text
      where journey_limits.webhook_secret is null`);
  return (await findLimits(db, workspaceId))!.webhookSecret!;
}

/** When the profile was last mailed by a journey step, newest first, within the last 7 days. */
/**
 * The journey emails of each profile of `profileIds` within the last 7 days, newest first and at most
 * `limit` a profile. Writers of a profile's journey email take its lock first (in profile order), so
 * two journeys do not both pass a cap.
 */
export async function recentJourneyEmails(tx: Tx, workspaceId: string, profileIds: string[], limit: number) {
  const ids = [...new Set(profileIds)].sort();
  await tx.execute(sql`
    select pg_advisory_xact_lock(hashtextextended(${`journey-cap/${workspaceId}/`}::text || p, 0))
    from unnest(${textArray(ids)}) as p`);
  const found = rows<{ profile_id: string; emailed_at: Date | string }>(
    await tx.execute(sql`
      select profile_id, emailed_at from (
        select profile_id, emailed_at,
          row_number() over (partition by profile_id order by emailed_at desc) as nth
        from journey_tasks
        where workspace_id = ${workspaceId}::text and profile_id = any(${textArray(ids)})
          and emailed_at is not null and emailed_at > now() - interval '7 days') recent
      where nth <= ${limit}::int
      order by profile_id, emailed_at desc`),
  );
  const sent = new Map<string, Date[]>(ids.map((id) => [id, []]));
  for (const row of found) sent.get(row.profile_id)!.push(new Date(row.emailed_at));
  return sent;
}

/** The attributes of each profile of `profileIds` that exists. */
export async function profilesAttributes(tx: Db | Tx, workspaceId: string, profileIds: string[]) {
  const found = rows<{ id: string; attributes: Record<string, unknown> }>(
    await tx.execute(sql`
      select id, attributes from customer_profiles
      where workspace_id = ${workspaceId}::text and id = any(${textArray(profileIds)})`),
  );
  return new Map(found.map((row) => [row.id, row.attributes]));
}

/** Holds due tasks, each until its `dueAt`, with what it waits for in `outcome`: one statement. */
export async function holdTasks(
  tx: Tx,
  workspaceId: string,
  holds: (TaskKey & { dueAt: Date; outcome: string | null })[],
) {
  if (!holds.length) return;
  const values = holds.map((hold) => ({
    run_id: hold.runId,
    seq: hold.seq,
    due_at: hold.dueAt.toISOString(),
    outcome: hold.outcome,
  }));
  await tx.execute(sql`
    update journey_tasks t set due_at = h.due_at, outcome = h.outcome, lease_until = null
    from jsonb_to_recordset(${jsonRows(values)}) as h(run_id text, seq int, due_at timestamptz, outcome text)
    where t.workspace_id = ${workspaceId}::text and t.run_id = h.run_id and t.seq = h.seq`);
}

/** Holds a due task until `dueAt`, with what it waits for in `outcome`. */
export async function holdTask(
  tx: Tx,
  task: { workspaceId: string; runId: string; seq: number },
  dueAt: Date,
  outcome: string | null,
  tries?: number,
) {
  await tx
    .update(journeyTasks)
    .set({ dueAt, outcome, leaseUntil: null, ...(tries === undefined ? {} : { tries }) })
    .where(
      and(
        eq(journeyTasks.workspaceId, task.workspaceId),
        eq(journeyTasks.runId, task.runId),
        eq(journeyTasks.seq, task.seq),
      ),
    );
}

/**
 * Leases a due webhook task for one try (answers its tries so far, or null when another process holds
 * it): the call is made outside any transaction, its outcome written after.
 */
export async function leaseTask(
  tx: Tx,
  task: { workspaceId: string; runId: string; seq: number },
  leaseMs: number,
) {
  const [row] = rows<{ tries: number }>(
    await tx.execute(sql`
      update journey_tasks set lease_until = now() + make_interval(secs => ${leaseMs / 1000}::float8),
        tries = tries + 1
      where workspace_id = ${task.workspaceId}::text and run_id = ${task.runId}::text and seq = ${task.seq}::int
        and state = 'due' and (lease_until is null or lease_until < now())
      returning tries`),
  );
  return row ? Number(row.tries) : null;
}

/** The profile's events of `event` since `since`, newest first (at most 1,000). */
export async function eventsSince(
  tx: Tx,
  workspaceId: string,
  profileId: string,
  event: string,
  since: Date,
) {
  return rows<{ properties: Record<string, unknown> }>(
    await tx.execute(sql`
      select properties from customer_events
      where workspace_id = ${workspaceId}::text and profile_id = ${profileId}::text
        and event = ${event}::text and at > ${since.toISOString()}::timestamptz
      order by at desc limit 1000`),
  );
}

/**
 * The newest running version of each journey (of the workspace, or of every workspace) whose entry is
 * of `kind`: profiles enter the newest version, older ones only finish their runs.
 */
export async function runningStartsWithEntry(db: Db | Tx, kind: string, workspaceId?: string) {
  return db
    .select()
    .from(journeyStarts)
    .where(
      and(
        eq(journeyStarts.state, 'running'),
        sql`${journeyStarts.definition}->'entry'->>'kind' = ${kind}::text`,
        sql`not exists (
          select 1 from journey_starts n
          where n.workspace_id = ${journeyStarts.workspaceId} and n.journey_id = ${journeyStarts.journeyId}
            and n.state = 'running' and n.version > ${journeyStarts.version})`,
        ...(workspaceId ? [eq(journeyStarts.workspaceId, workspaceId)] : []),
      ),
    );
}

/**
 * Brings the version's record of its entry audience's members up to `members` (a select of profile
 * ids) in one statement; answers the profiles that joined and those that left since the last look.
 */
export async function diffAudienceMembers(tx: Tx, start: StartRow, members: SQL) {
  const key = sql`workspace_id = ${start.workspaceId}::text and journey_id = ${start.journeyId}::text
    and version = ${start.version}::int`;
  return rows<{ change: 'joined' | 'left'; profile_id: string }>(
    await tx.execute(sql`
      with now_in as (${members}),
      joined as (
        insert into journey_audience_members (workspace_id, journey_id, version, profile_id)
        select ${start.workspaceId}::text, ${start.journeyId}::text, ${start.version}::int, id from now_in
        on conflict do nothing
        returning profile_id),
      gone as (
        delete from journey_audience_members m
        where ${key} and not exists (select 1 from now_in n where n.id = m.profile_id)
        returning profile_id)
      select 'joined' as change, profile_id from joined
      union all select 'left' as change, profile_id from gone`),
  );
}

/**
 * The date entry's occurrences due in (after, now] for the version, each recorded once (a second
 * look, in this process or another, finds it recorded): answers the profiles whose occurrence is new.
 * A profile's zone is its own `timezone` attribute when PostgreSQL knows it, else `workspaceZone`.
 */
export async function claimDateOccurrences(
  tx: Tx,
  start: StartRow,
  rule: { attribute: string; offsetDays: number; at: string; yearly: boolean; timeZone: string },
  workspaceZone: string,
  after: Date,
  now: Date,
) {
  const zone =
    rule.timeZone === 'profile'
      ? sql`coalesce((select z.name from zones z where z.name = p.attributes->>${PROFILE_TIMEZONE_ATTRIBUTE}::text), ${workspaceZone}::text)`
      : sql`${workspaceZone}::text`;
  const years = rule.yearly
    ? sql`generate_series(extract(year from ${now.toISOString()}::timestamptz)::int - 1, extract(year from ${now.toISOString()}::timestamptz)::int + 1)`
    : sql`(select substr(c.day, 1, 4)::int)`;
  return rows<{ profile_id: string }>(
    await tx.execute(sql`
      with zones as (select name from pg_timezone_names),
      dated as (
        select p.id, substr(p.attributes->>${rule.attribute}::text, 1, 10) as day, ${zone} as zone
        from customer_profiles p
        where p.workspace_id = ${start.workspaceId}::text
          and substr(p.attributes->>${rule.attribute}::text, 1, 10) ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'),
      moments as (
        select c.id, ((make_date(y, substr(c.day, 6, 2)::int, 1) + (substr(c.day, 9, 2)::int - 1)
          + ${rule.offsetDays}::int)::timestamp + ${rule.at}::time) at time zone c.zone as at
        from dated c, ${years} y),
      due as (
        insert into journey_occurrences (workspace_id, journey_id, profile_id, at)
        select ${start.workspaceId}::text, ${start.journeyId}::text, id, at from moments
        where at > ${after.toISOString()}::timestamptz and at <= ${now.toISOString()}::timestamptz
        on conflict do nothing
        returning profile_id)
      select distinct profile_id from due order by profile_id`),
  );
}

/** Per version of `versions` and step: the profiles waiting there now (their run's task is due). */
export async function waitingCounts(db: Db, workspaceId: string, journeyId: string, versions: number[]) {
  if (!versions.length) return [];
  return rows<{ version: number; step_id: string; waiting: string | number }>(
    await db.execute(sql`
      select version, step_id, count(*) as waiting from journey_tasks
      where workspace_id = ${workspaceId}::text and journey_id = ${journeyId}::text and state = 'due'
        and version = any(${intArray(versions)}::int[])
      group by version, step_id`),
  );
}

/** Where the runs waiting at one step of an older version move. */
export interface StepMove {
  version: number;
  stepId: string;
  to: string;
  /** The new step is of the same kind: the task keeps its due time and when it reached the step. */
  keep: boolean;
  /** Otherwise the new step is reached now and due this many seconds later. */
  freshSeconds: number;
  waitsFor: string | null;
}

/**
 * Moves the active runs waiting at the steps of `moves` to `toVersion` in two statements: the runs are
 * locked first (in id order, as every writer takes them), then their due tasks, as the locks found them,
 * are cancelled as `moved: version N` and each run gets its next task at the new step. A webhook call
 * under way (its task leased) is left to finish on its version. Answers the runs moved per version and
 * step, and the new tasks due within `aheadMs`.
 */
export async function moveRuns(
  tx: Tx,
  workspaceId: string,
  journeyId: string,
  toVersion: number,
  moves: StepMove[],
  aheadMs: number,
) {
  if (!moves.length) return { moved: [], soon: [] };
  const plan = sql.join(
    moves.map(
      (move) =>
        sql`(${move.version}::int, ${move.stepId}::text, ${move.to}::text, ${move.keep}::boolean,
          ${move.freshSeconds}::int, ${move.waitsFor}::text)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    with plan (version, step_id, to_step, keep, fresh_seconds, waits_for) as (values ${plan})
    select count(*) from (
      select r.id from journey_runs r
      where r.workspace_id = ${workspaceId}::text and r.journey_id = ${journeyId}::text and r.state = 'active'
        and exists (
          select 1 from journey_tasks t join plan p on p.version = t.version and p.step_id = t.step_id
          where t.workspace_id = r.workspace_id and t.run_id = r.id and t.state = 'due')
      order by r.id
      for update of r) locked`);
  const [answer] = rows<{
    moved: { version: number; step_id: string; n: number }[];
    soon: { workspace_id: string; run_id: string; seq: number; due_at: string }[];
  }>(
    await tx.execute(sql`
      with plan (version, step_id, to_step, keep, fresh_seconds, waits_for) as (values ${plan}),
      moved as (
        update journey_tasks t set state = 'cancelled', outcome = ${`moved: version ${toVersion}`}::text,
          done_at = now(), lease_until = null
        from plan p
        where t.workspace_id = ${workspaceId}::text and t.journey_id = ${journeyId}::text and t.state = 'due'
          and t.version = p.version and t.step_id = p.step_id
          and (t.lease_until is null or t.lease_until < now())
          and exists (
            select 1 from journey_runs r
            where r.workspace_id = t.workspace_id and r.id = t.run_id and r.state = 'active')
        returning t.run_id, t.seq, t.profile_id, t.version, t.step_id, t.due_at, t.entered_at,
          p.to_step, p.keep, p.fresh_seconds, p.waits_for),
      runs as (
        update journey_runs r set version = ${toVersion}::int
        from moved m
        where r.workspace_id = ${workspaceId}::text and r.id = m.run_id
        returning r.id),
      added as (
        insert into journey_tasks
          (workspace_id, run_id, seq, journey_id, version, profile_id, step_id, due_at, waits_for, entered_at)
        select ${workspaceId}::text, m.run_id, m.seq + 1, ${journeyId}::text, ${toVersion}::int, m.profile_id,
          m.to_step, case when m.keep then m.due_at else now() + make_interval(secs => m.fresh_seconds) end,
          m.waits_for, case when m.keep then m.entered_at else now() end
        from moved m
        returning workspace_id, run_id, seq, due_at)
      select
        (select coalesce(jsonb_agg(jsonb_build_object('version', version, 'step_id', step_id, 'n', n)), '[]'::jsonb)
          from (select version, step_id, count(*) as n from moved group by version, step_id) c) as moved,
        (select coalesce(jsonb_agg(jsonb_build_object('workspace_id', workspace_id, 'run_id', run_id, 'seq', seq, 'due_at', due_at)), '[]'::jsonb)
          from added
          where due_at <= now() + make_interval(secs => ${aheadMs / 1000}::float8)) as soon`),
  );
  return answer;
}

/**
 * The runs among `tasks` (all at the step `stepId`) that another version's same step already mailed,
 * before this version's run came to it a first time: a run moved to a new version is not mailed again.
 */
export async function mailedOnOtherVersions(
  tx: Tx,
  workspaceId: string,
  stepId: string,
  tasks: (TaskKey & { version: number })[],
) {
  if (!tasks.length) return new Set<string>();
  const keys = tasks.map((task) => ({ run_id: task.runId, seq: task.seq, version: task.version }));
  const found = rows<{ run_id: string }>(
    await tx.execute(sql`
      select k.run_id from jsonb_to_recordset(${jsonRows(keys)}) as k(run_id text, seq int, version int)
      where exists (
          select 1 from journey_tasks t
          where t.workspace_id = ${workspaceId}::text and t.run_id = k.run_id and t.step_id = ${stepId}::text
            and t.version <> k.version and t.emailed_at is not null)
        and not exists (
          select 1 from journey_tasks t
          where t.workspace_id = ${workspaceId}::text and t.run_id = k.run_id and t.step_id = ${stepId}::text
            and t.version = k.version and t.seq < k.seq)`),
  );
  return new Set(found.map((row) => row.run_id));
}
