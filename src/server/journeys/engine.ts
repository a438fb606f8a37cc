import { sql } from 'drizzle-orm';
import type { JourneyDefinition, JourneyLimits, JourneyStep } from '@shared/api/journeys';
import { conditionsHold } from '@shared/journeys/conditions';
import { isSameKind } from '@shared/journeys/migration';
import { dateMoment, dateOf, nextTimeOfDay, zoneOf } from '@shared/journeys/time';
import type { AppContext } from '../context';
import { rows } from '../db/migrate';
import { loadDefinitions, type CustomerDefinitions } from '../customers/definitions';
import { audienceMembersSql } from '../audiences/service';
import { capDepth, emailHold, journeyLimitsOf } from './limits';
import type { Db, Tx } from '../db/client';
import { insertEvents, type EventTuple } from '../customers/repository';
import { addJourneyRecipients, findSend, type RecipientRules } from '../campaigns/repository';
import { queueSendLanes } from '../campaigns/engine';
import { findRecipientSettings } from '../senders/repository';
import { randomId } from '../lib/ids';
import { shareOf, splitDraw } from '../lib/split';
import { enqueueMany, type EnqueueOptions } from '../queue/queue';
import {
  JOURNEY_TASK_QUEUE,
  SWEEP_LIMIT,
  type JourneyEvents,
  type JourneyTaskJob,
  type JourneyTaskKey,
} from '../queue/queues';
import * as repo from './repository';

/** The customer events a journey records on each profile's timeline. */
export const JOURNEY_EVENTS = {
  entered: 'journey-entered',
  step: 'journey-step',
  exited: 'journey-exited',
} as const;

const taskKey = (key: JourneyTaskKey) => `${key.workspaceId}/${key.runId}/${key.seq}`;

/**
 * How far ahead a task gets its job. A longer wait is only its row until the sweep (every minute)
 * finds it this close to its time: a million waiting profiles are a million rows, not a million jobs.
 */
const WAKE_AHEAD_MS = 60_000;

/** Tasks a job carries at most: the tasks of a workspace due at one time share jobs of this many. */
const TASKS_A_JOB = 100;
/** Tasks one transaction of `runTaskSet` claims at most. */
const TASK_SET_SIZE = 500;

/**
 * Queues the jobs of the tasks due within WAKE_AHEAD_MS in the caller's transaction: those of a
 * workspace due in the same second share jobs of up to TASKS_A_JOB, each starting at that second's
 * end (or at once when due); a task alone gets a job keyed by the task (one waiting job per key).
 * A hundred thousand waits ending together are a thousand jobs, not a hundred thousand.
 */
export async function queueTasks(db: Db | Tx, tasks: (JourneyTaskKey & { dueAt: Date })[]) {
  const now = Date.now();
  const groups = new Map<string, { workspaceId: string; startAt: number; keys: [string, number][] }>();
  for (const task of tasks) {
    const due = task.dueAt.getTime();
    if (due > now + WAKE_AHEAD_MS) continue;
    const startAt = due > now ? Math.ceil(due / 1000) * 1000 : 0;
    const group = `${task.workspaceId}\t${startAt}`;
    const found = groups.get(group);
    if (found) found.keys.push([task.runId, task.seq]);
    else groups.set(group, { workspaceId: task.workspaceId, startAt, keys: [[task.runId, task.seq]] });
  }
  const jobs: (EnqueueOptions & { data: JourneyTaskJob })[] = [];
  for (const { workspaceId, startAt, keys } of groups.values()) {
    const when = startAt > 0 ? { startAfter: new Date(startAt) } : {};
    if (keys.length === 1) {
      const key = { workspaceId, runId: keys[0][0], seq: keys[0][1] };
      jobs.push({ data: key, singletonKey: taskKey(key), ...when });
    } else
      for (let i = 0; i < keys.length; i += TASKS_A_JOB) {
        const tasks = keys.slice(i, i + TASKS_A_JOB);
        // Keyed by its first task and its size (the queue holds one waiting job a key, keyless ones
        // included): the sweep paging through the same due tasks again queues the same jobs.
        const [runId, seq] = tasks[0];
        jobs.push({
          data: { workspaceId, tasks },
          singletonKey: `${taskKey({ workspaceId, runId, seq })}+${tasks.length}`,
          ...when,
        });
      }
  }
  await enqueueMany(db, JOURNEY_TASK_QUEUE, jobs);
}

/** The tasks of task jobs, once each. */
function keysOfJobs(jobs: JourneyTaskJob[]): JourneyTaskKey[] {
  const keys = new Map<string, JourneyTaskKey>();
  for (const job of jobs) {
    const ofJob =
      'tasks' in job
        ? job.tasks.map(([runId, seq]) => ({ workspaceId: job.workspaceId, runId, seq }))
        : [job];
    for (const key of ofJob) keys.set(taskKey(key), key);
  }
  return [...keys.values()];
}

/** How long an email held back by the caps or quiet hours waits at most, when its step does not say. */
const DEFAULT_DEFER_SECONDS = 86_400;
/** How far back a date entry's scheduled look enters occurrences it had not seen (a server down a while). */
const DATE_LOOKBACK_MS = 86_400_000;

/**
 * When a profile reaching `step` may go on: a wait's end, a wait for an event's timeout, or now (the
 * waits until a time or a date find their time when the task first runs, from the profile's zone).
 */
function dueOf(step: JourneyStep, now: Date) {
  return new Date(now.getTime() + waitSecondsOf(step) * 1000);
}

const waitSecondsOf = (step: JourneyStep) =>
  step.type === 'wait' ? step.seconds : step.type === 'wait-for-event' ? step.timeoutSeconds : 0;

const stepOf = (definition: JourneyDefinition, id: string) => definition.steps.find((step) => step.id === id);
const edgeTo = (definition: JourneyDefinition, from: string, exit: string) =>
  definition.edges.find((edge) => edge.from === from && edge.exit === exit)?.to;

/** The write of one change to runs: the tasks done, the runs ended, the tasks to queue and the events. */
class RunWrites {
  readonly tasks: (typeof import('../db/schema').journeyTasks.$inferInsert)[] = [];
  readonly events: EventTuple[] = [];
  readonly sends = new Set<string>();
  readonly done: repo.TaskEnd[] = [];
  /** Runs that end (finished) at a step, with the reason their journey-exited event gives. */
  readonly ends: { run: repo.RunRef; stepId: string; reason: string }[] = [];

  constructor(
    readonly start: repo.StartRow,
    readonly now = new Date(),
  ) {}

  private props(extra: Record<string, unknown>) {
    return { journey: this.start.journeyId, version: this.start.version, ...extra };
  }

  /** The run reaches `stepId` as its `seq`th step. */
  reach(run: repo.RunRef, seq: number, stepId: string) {
    const step = stepOf(this.start.definition, stepId)!;
    this.tasks.push({
      workspaceId: this.start.workspaceId,
      runId: run.id,
      seq,
      journeyId: this.start.journeyId,
      version: this.start.version,
      profileId: run.profileId,
      stepId,
      // Both from one clock: a wait is exactly its length, however long the transaction has run.
      enteredAt: this.now,
      dueAt: dueOf(step, this.now),
      waitsFor: step.type === 'wait-for-event' ? step.event : null,
    });
  }

  entered(run: repo.RunRef) {
    this.events.push([
      run.profileId,
      JOURNEY_EVENTS.entered,
      this.now.toISOString(),
      this.props({}),
      `${run.id}:entered`,
    ]);
  }

  stepDone(
    run: repo.RunRef,
    seq: number,
    step: JourneyStep,
    exit: string | null,
    detail: Record<string, unknown> = {},
  ) {
    this.events.push([
      run.profileId,
      JOURNEY_EVENTS.step,
      this.now.toISOString(),
      this.props({ step: step.id, type: step.type, ...(exit ? { exit } : {}), ...detail }),
      `${run.id}:${seq}:step`,
    ]);
  }

  exited(run: repo.RunRef, stepId: string | null, reason: string) {
    this.events.push([
      run.profileId,
      JOURNEY_EVENTS.exited,
      this.now.toISOString(),
      this.props({ step: stepId, reason }),
      `${run.id}:exited`,
    ]);
  }

  /**
   * Writes the tasks done, ends the runs (an ended one's exit event only when this ended it), writes
   * the new tasks and the events and queues the tasks' and the email steps' jobs: a statement each,
   * however many runs.
   */
  async flush(tx: Tx) {
    const { workspaceId } = this.start;
    await repo.finishTasks(tx, workspaceId, this.done);
    const ended = await repo.endRuns(
      tx,
      workspaceId,
      'finished',
      this.ends.map((end) => ({ runId: end.run.id, exitStep: end.stepId })),
    );
    for (const end of this.ends) if (ended.has(end.run.id)) this.exited(end.run, end.stepId, end.reason);
    await repo.insertTasks(tx, this.tasks);
    await queueTasks(
      tx,
      this.tasks.map((task) => ({
        workspaceId: task.workspaceId,
        runId: task.runId,
        seq: task.seq,
        dueAt: task.dueAt!,
      })),
    );
    if (this.events.length) await insertEvents(tx, this.start.workspaceId, this.events);
    for (const id of this.sends) await queueSendLanes(tx, { workspaceId: this.start.workspaceId, id });
  }
}

/**
 * Enters profiles into the running version `start` (the re-entry rule decides, and its entry audience
 * when it has one: `defs`, read before the transaction, compile it); answers the runs.
 */
export async function enterProfiles(
  tx: Tx,
  start: repo.StartRow,
  profileIds: string[],
  defs?: CustomerDefinitions,
) {
  const audience = start.definition.entryAudience;
  let members;
  if (audience) {
    if (!defs) throw new Error('An entry audience needs the workspace definitions');
    members =
      audienceMembersSql(defs, start.workspaceId, audience, new Date(), profileIds) ??
      sql`select null::text where false`;
  }
  const runs = await repo.enterRuns(tx, start, profileIds, () => randomId(16), members);
  const writes = new RunWrites(start);
  for (const run of runs) {
    writes.entered(run);
    writes.reach(run, 1, start.definition.start);
  }
  await writes.flush(tx);
  return runs;
}

/** A split's path for a run: a stable draw from the run and the step, so a retried step draws the same. */
function splitPath(step: Extract<JourneyStep, { type: 'split' }>, runId: string) {
  const share = shareOf(
    step.paths.map((path) => path.percent),
    splitDraw(runId, step.id),
  );
  return share < 0 ? null : step.paths[share].key;
}

/** What a workspace's steps read, before a task's transaction (PGlite has one connection). */
interface WorkspaceInfo {
  rules: RecipientRules;
  limits: JourneyLimits;
  /** Null when no live journey of the workspace branches on an audience. */
  defs: CustomerDefinitions | null;
}

/**
 * What a step did: the exit it takes (null: the run ends here, for `reason`), or a time to hold the
 * task until (a wait until a time, an email the caps or quiet hours defer). `outcome` is what the
 * results count beside the exit.
 */
type Done =
  | { exit: string | null; outcome?: string; reason?: string; emailedAt?: Date }
  | { holdUntil: Date; outcome: string | null };

type RunTask = NonNullable<Awaited<ReturnType<typeof repo.lockDueTask>>>;

/** Steps whose work reads and writes nothing but the run's own rows: a job does a batch of them at once. */
type SetStep = Extract<JourneyStep, { type: 'wait' | 'wait-for-event' | 'split' | 'exit' }>;
const SET_STEPS = new Set<JourneyStep['type']>(['wait', 'wait-for-event', 'split', 'exit']);
const isSetStep = (step: JourneyStep): step is SetStep => SET_STEPS.has(step.type);

/** What a step of SET_STEPS does for the run: no statement of its own. */
function setStepDone(step: SetStep, runId: string): { exit: string | null; reason?: string } {
  switch (step.type) {
    case 'wait':
      return { exit: 'next' };
    case 'wait-for-event':
      return { exit: 'timeout' };
    case 'split': {
      const path = splitPath(step, runId);
      return path ? { exit: path } : { exit: null, reason: 'holdout' };
    }
    case 'exit':
      return { exit: null, reason: 'finished' };
  }
}

/** What a step does for the run. */
async function perform(
  tx: Tx,
  writes: RunWrites,
  task: RunTask,
  step: JourneyStep,
  info: WorkspaceInfo,
  now: Date,
): Promise<Done> {
  const { workspaceId } = writes.start;
  let attributes: Record<string, unknown> | undefined;
  const attributesOf = async () =>
    (attributes ??= (await repo.profileAttributes(tx, workspaceId, task.profileId)) ?? {});
  const zone = async () => zoneOf(await attributesOf(), info.limits.timeZone);
  const holdOrGo = (until: Date): Done =>
    until > now ? { holdUntil: until, outcome: null } : { exit: 'next' };
  if (isSetStep(step)) return setStepDone(step, task.runId);
  switch (step.type) {
    case 'email': {
      const mailed = await mailTasks(tx, workspaceId, [{ task, step, start: writes.start }], info, now);
      for (const id of mailed.sends) writes.sends.add(id);
      return mailed.done[0];
    }
    case 'wait-until':
      return holdOrGo(nextTimeOfDay(task.enteredAt, await zone(), step.at, step.weekdays));
    case 'wait-until-date': {
      const date = dateOf((await attributesOf())[step.attribute!]);
      if (!date) return { exit: 'next', outcome: 'no date' };
      return holdOrGo(dateMoment(date, step, await zone(), task.enteredAt));
    }
    case 'branch':
      return { exit: conditionsHold(step.conditions, await attributesOf()) ? 'yes' : 'no' };
    case 'audience-branch': {
      // Started after this batch read the workspace: the next job reads it again.
      if (!info.defs) return { holdUntil: now, outcome: null };
      const members = audienceMembersSql(info.defs, workspaceId, step.audience!, now, [task.profileId]);
      if (!members) return { exit: 'no', outcome: 'audience missing' };
      return { exit: rows(await tx.execute(members)).length ? 'yes' : 'no' };
    }
    case 'event-branch': {
      const since = new Date(now.getTime() - step.withinDays * 86_400_000);
      const events = await repo.eventsSince(tx, workspaceId, task.profileId, step.event!, since);
      return { exit: events.some((e) => conditionsHold(step.conditions, e.properties)) ? 'yes' : 'no' };
    }
    case 'update-attribute':
      await repo.setAttribute(tx, workspaceId, task.profileId, step.attribute, step.value);
      return { exit: 'next' };
    case 'webhook':
      // Called outside the transaction (callWebhook); a task only gets here when it was not.
      return { holdUntil: now, outcome: null };
  }
}

type EmailStep = Extract<JourneyStep, { type: 'email' }>;

/** An email task to do: each of a profile of its own among those done together. */
interface EmailTask {
  task: RunTask;
  step: EmailStep;
  start: repo.StartRow;
}

/**
 * The email steps of `items` in the caller's transaction, a statement for each kind of read and write
 * whatever their number: a run another version's same step mailed skips it; the caps and quiet hours
 * hold the others back (the caps' locks taken in profile order), or expire them past their step's
 * limit; the rest join their step's send together. Answers what each did, in order, and the sends that
 * got recipients.
 */
async function mailTasks(
  tx: Tx,
  workspaceId: string,
  items: EmailTask[],
  { rules, limits }: Pick<WorkspaceInfo, 'rules' | 'limits'>,
  now: Date,
) {
  const done: Done[] = items.map(() => ({ exit: 'next' }));
  const sends = new Set<string>();
  const atStep = groupBy(
    items.map((_, i) => i),
    (i) => `${items[i].start.journeyId}\t${items[i].start.version}\t${items[i].step.id}`,
  );
  for (const indexes of atStep.values()) {
    const step = items[indexes[0]].step;
    const mailed = await repo.mailedOnOtherVersions(
      tx,
      workspaceId,
      step.id,
      indexes.map((i) => items[i].task),
    );
    for (const i of indexes)
      if (mailed.has(items[i].task.runId)) done[i] = { exit: 'next', outcome: 'skipped: sent before' };
  }
  let going = items.flatMap((_, i) => (done[i].outcome ? [] : [i]));
  const depth = capDepth(limits);
  if (going.length && (depth || limits.quietHours)) {
    const profileIds = going.map((i) => items[i].task.profileId);
    const sent = depth ? await repo.recentJourneyEmails(tx, workspaceId, profileIds, depth) : new Map();
    const attributes = limits.quietHours
      ? await repo.profilesAttributes(tx, workspaceId, profileIds)
      : new Map<string, Record<string, unknown>>();
    going = going.filter((i) => {
      const { task, step } = items[i];
      const zone = zoneOf(attributes.get(task.profileId) ?? {}, limits.timeZone);
      const held = emailHold(sent.get(task.profileId) ?? [], limits, zone, now);
      if (!held) return true;
      const deadline = task.enteredAt.getTime() + (step.deferLimitSeconds ?? DEFAULT_DEFER_SECONDS) * 1000;
      const reason = `expired: ${held.reason}`;
      done[i] =
        held.until.getTime() > deadline
          ? { exit: null, outcome: reason, reason }
          : { holdUntil: held.until, outcome: `deferred: ${held.reason}` };
      return false;
    });
  }
  const bySend = groupBy(going, (i) => items[i].start.sends[items[i].step.id] ?? '');
  // In id order, so that two transactions lock the rows of their sends in the same order.
  for (const [sendId, indexes] of [...bySend].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const send = sendId ? await findSend(tx, workspaceId, sendId) : undefined;
    if (!send) continue;
    const profileIds = indexes.map((i) => items[i].task.profileId);
    const added = new Set(await addJourneyRecipients(tx, send, profileIds, rules));
    if (added.size) sends.add(send.id);
    for (const i of indexes)
      if (added.has(items[i].task.profileId)) done[i] = { exit: 'next', emailedAt: now };
  }
  return { done, sends };
}

/** `items` grouped by `keyOf`, each group in their order. */
function groupBy<T>(items: T[], keyOf: (item: T) => string) {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Records the task done through `exit` and moves the run on to the step the exit leads to, or ends it
 * (written by the flush of `writes`).
 */
function advance(
  writes: RunWrites,
  task: { workspaceId: string; runId: string; seq: number; profileId: string },
  step: JourneyStep,
  exit: string | null,
  done: { outcome?: string; reason?: string; emailedAt?: Date; detail?: Record<string, unknown> } = {},
) {
  const run = { id: task.runId, profileId: task.profileId };
  const next = exit ? edgeTo(writes.start.definition, step.id, exit) : undefined;
  writes.stepDone(run, task.seq, step, exit, {
    ...(done.outcome ? { outcome: done.outcome } : {}),
    ...done.detail,
  });
  const finished = {
    runId: task.runId,
    seq: task.seq,
    state: 'done' as const,
    exit,
    outcome: done.outcome,
    emailedAt: done.emailedAt,
  };
  if (next) {
    writes.done.push(finished);
    writes.reach(run, task.seq + 1, next);
    return;
  }
  const reason = done.reason ?? 'finished';
  writes.done.push({ ...finished, ended: reason.startsWith('expired') ? 'expired' : 'finished' });
  writes.ends.push({ run, stepId: step.id, reason });
}

/** Steps a resume past the pause limit skips or ends: those that wait, and email. */
const PAUSE_HELD = new Set<JourneyStep['type']>([
  'wait',
  'wait-for-event',
  'wait-until',
  'wait-until-date',
  'email',
]);

/** What a resume's pause limit does with a task that came due long before it, or null when it runs. */
function pastPauseLimit(start: repo.StartRow, task: RunTask, step: JourneyStep) {
  const limit = start.pauseLimit;
  if (!limit || !start.resumedAt || !PAUSE_HELD.has(step.type)) return null;
  if (task.dueAt.getTime() >= start.resumedAt.getTime() - limit.seconds * 1000) return null;
  return limit.then;
}

/** A webhook step's try, leased in its task's transaction and made after it. */
export interface WebhookCall {
  start: repo.StartRow;
  task: RunTask;
  step: Extract<JourneyStep, { type: 'webhook' }>;
  tries: number;
}

/** Who makes the webhook steps' calls (the job worker's sender): how long a try is leased, and the try. */
export interface WebhookSender {
  leaseMs: number;
  send(call: WebhookCall): Promise<void>;
}

async function workspaceInfo(ctx: AppContext, workspaceId: string): Promise<WorkspaceInfo> {
  const rules = await findRecipientSettings(ctx.db, workspaceId);
  const limits = await journeyLimitsOf(ctx.db, workspaceId);
  // The definitions only where a live journey branches on an audience.
  const branches = (await repo.liveStarts(ctx.db, workspaceId)).some((start) =>
    start.definition.steps.some((step) => step.type === 'audience-branch'),
  );
  return { rules, limits, defs: branches ? await loadDefinitions(ctx.db, workspaceId) : null };
}

/** The pause limit's exit and outcome for a task past it. */
function pastPauseDone(past: 'exit' | 'skip', step: JourneyStep) {
  const outcome = past === 'exit' ? 'expired: paused' : 'skipped: paused';
  const exit = past === 'exit' ? null : step.type === 'wait-for-event' ? 'timeout' : 'next';
  return { exit, outcome, reason: outcome };
}

/**
 * A batch of the workspace's tasks in one transaction, a statement for each kind of write whatever
 * their number: their active runs locked (in id order), then their due tasks (`for update skip
 * locked`), the versions read once; each task of a step that touches only its run's rows (SET_STEPS,
 * or past a resume's pause limit) is done, and so is each email step, a profile's first of the batch
 * (`mailTasks`); their next tasks and jobs or their runs' ends and their events are written together.
 * Answers the tasks left to a transaction of their own (a profile's second email, a branch, a
 * webhook…), which the per-task path claims again.
 */
async function runTaskSet(ctx: AppContext, workspaceId: string, keys: JourneyTaskKey[]) {
  return ctx.db.transaction(async (tx) => {
    const active = await repo.lockActiveRuns(tx, workspaceId, [...new Set(keys.map((key) => key.runId))]);
    const tasks = await repo.lockDueTasks(
      tx,
      workspaceId,
      keys.filter((key) => active.has(key.runId)),
    );
    const alone: JourneyTaskKey[] = [];
    if (!tasks.length) return alone;
    const now = new Date();
    const starts = await repo.liveStarts(tx, workspaceId);
    const writesOf = new Map<repo.StartRow, RunWrites>();
    const writesFor = (start: repo.StartRow) => {
      let writes = writesOf.get(start);
      if (!writes) writesOf.set(start, (writes = new RunWrites(start, now)));
      return writes;
    };
    const early: (JourneyTaskKey & { dueAt: Date })[] = [];
    const emails: EmailTask[] = [];
    const mailing = new Set<string>();
    const seen = new Set<string>();
    for (const task of tasks) {
      const key = { workspaceId, runId: task.runId, seq: task.seq };
      // A second due task of a run (a stale job's): one at a time, as the per-task path does them.
      if (seen.has(task.runId)) {
        alone.push(key);
        continue;
      }
      seen.add(task.runId);
      // Not due yet (a job that ran early): the sweep or a job at its time comes back for it.
      if (task.dueAt.getTime() > now.getTime()) {
        early.push({ ...key, dueAt: task.dueAt });
        continue;
      }
      const start = starts.find((s) => s.journeyId === task.journeyId && s.version === task.version);
      // Paused: the resume queues it again; stopped: the stop ended the run.
      if (!start || start.state !== 'running') continue;
      const step = stepOf(start.definition, task.stepId);
      if (!step) continue;
      const past = pastPauseLimit(start, task, step);
      // A profile's second email of the set goes alone, after the first: its caps count the first.
      if (!past && step.type === 'email' && !mailing.has(task.profileId)) {
        mailing.add(task.profileId);
        emails.push({ task, step, start });
        continue;
      }
      if (!past && !isSetStep(step)) {
        alone.push(key);
        continue;
      }
      const done = past ? pastPauseDone(past, step) : setStepDone(step as SetStep, task.runId);
      advance(writesFor(start), task, step, done.exit, done);
    }
    if (emails.length) {
      const rules = await findRecipientSettings(tx, workspaceId);
      const limits = await journeyLimitsOf(tx, workspaceId);
      const mailed = await mailTasks(tx, workspaceId, emails, { rules, limits }, now);
      const holds: (repo.TaskKey & { dueAt: Date; outcome: string | null })[] = [];
      emails.forEach(({ task, step, start }, i) => {
        const done = mailed.done[i];
        if ('holdUntil' in done)
          holds.push({ runId: task.runId, seq: task.seq, dueAt: done.holdUntil, outcome: done.outcome });
        else advance(writesFor(start), task, step, done.exit, done);
      });
      for (const id of mailed.sends) writesFor(emails[0].start).sends.add(id);
      await repo.holdTasks(tx, workspaceId, holds);
      early.push(...holds.map((hold) => ({ workspaceId, ...hold })));
    }
    await queueTasks(tx, early);
    for (const writes of writesOf.values()) await writes.flush(tx);
    return alone;
  });
}

/**
 * The task jobs. A batch of jobs is done a workspace at a time in sets (`runTaskSet`): one transaction
 * claims its tasks and does those whose step touches only the run's rows, and the email steps. Each task
 * left (a branch, a webhook…) is claimed in a transaction of its own (`for update skip locked`, and only while
 * due), its step done and the next step written in that transaction. Either way a step happens once
 * per run however often its job runs. A task of a paused version waits for the resume. A webhook step
 * is leased in its transaction, called after it and its outcome written in a third.
 */
export async function runJourneyTasks(ctx: AppContext, jobs: JourneyTaskJob[], webhooks: WebhookSender) {
  const byWorkspace = new Map<string, JourneyTaskKey[]>();
  for (const key of keysOfJobs(jobs)) {
    const batch = byWorkspace.get(key.workspaceId);
    if (batch) batch.push(key);
    else byWorkspace.set(key.workspaceId, [key]);
  }
  for (const [workspaceId, batch] of byWorkspace)
    for (let i = 0; i < batch.length; i += TASK_SET_SIZE)
      await runTasksAlone(
        ctx,
        await runTaskSet(ctx, workspaceId, batch.slice(i, i + TASK_SET_SIZE)),
        webhooks,
      );
}

/** Tasks each claimed and done in a transaction of its own. */
async function runTasksAlone(ctx: AppContext, keys: JourneyTaskKey[], webhooks: WebhookSender) {
  const infoOf = new Map<string, WorkspaceInfo>();
  for (const key of keys) {
    let info = infoOf.get(key.workspaceId);
    if (!info) infoOf.set(key.workspaceId, (info = await workspaceInfo(ctx, key.workspaceId)));
    const call = await ctx.db.transaction(async (tx): Promise<WebhookCall | null> => {
      if (!(await repo.lockActiveRun(tx, key.workspaceId, key.runId))) return null;
      const task = await repo.lockDueTask(tx, key.workspaceId, key.runId, key.seq);
      if (!task) return null;
      const now = new Date();
      // Not due yet (a job that ran early): the sweep or a job at its time comes back for it.
      if (task.dueAt.getTime() > now.getTime()) {
        await queueTasks(tx, [{ ...key, dueAt: task.dueAt }]);
        return null;
      }
      const start = await repo.findStart(tx, key.workspaceId, task.journeyId, task.version);
      if (!start || start.state !== 'running') return null;
      const step = stepOf(start.definition, task.stepId);
      if (!step) return null;
      const writes = new RunWrites(start, now);
      const past = pastPauseLimit(start, task, step);
      if (past) {
        const done = pastPauseDone(past, step);
        advance(writes, task, step, done.exit, done);
        await writes.flush(tx);
        return null;
      }
      if (step.type === 'webhook') {
        const tries = await repo.leaseTask(tx, task, webhooks.leaseMs);
        return tries === null ? null : { start, task, step, tries };
      }
      const done = await perform(tx, writes, task, step, info, now);
      if ('holdUntil' in done) {
        await repo.holdTask(tx, task, done.holdUntil, done.outcome);
        await queueTasks(tx, [{ ...key, dueAt: done.holdUntil }]);
        return null;
      }
      advance(writes, task, step, done.exit, done);
      await writes.flush(tx);
      return null;
    });
    if (call) await webhooks.send(call);
  }
}

/** The body a webhook step POSTs: the journey, the step, the profile and its attributes. */
export async function webhookBody(ctx: AppContext, { start, task, step }: WebhookCall) {
  const attributes = (await repo.profileAttributes(ctx.db, task.workspaceId, task.profileId)) ?? {};
  return JSON.stringify({
    type: 'journey.webhook',
    journey: { id: start.journeyId, version: start.version, step: step.id, run: task.runId },
    profile: { id: task.profileId, attributes },
    at: new Date().toISOString(),
  });
}

/**
 * Writes a webhook step's try: answered, the run goes on through `next`; failed, the task waits for
 * `retryAt` (its job queued), or without one the run takes the `failed` exit. A run that ended
 * meanwhile (its goal, a stop) is left as it is.
 */
export async function recordWebhookTry(
  ctx: AppContext,
  call: WebhookCall,
  outcome: { statusCode: number | null; error: string | null },
  retryAt: Date | null,
) {
  const { start, task, step } = call;
  const key = { workspaceId: task.workspaceId, runId: task.runId, seq: task.seq };
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockActiveRun(tx, key.workspaceId, key.runId))) return;
    const locked = await repo.lockDueTask(tx, key.workspaceId, key.runId, key.seq);
    if (!locked) return;
    const writes = new RunWrites(start);
    const detail = {
      status: outcome.statusCode,
      ...(outcome.error ? { error: outcome.error } : {}),
      tries: call.tries,
    };
    if (outcome.error !== null && retryAt) {
      await repo.holdTask(tx, locked, retryAt, 'webhook: retrying');
      await queueTasks(tx, [{ ...key, dueAt: retryAt }]);
      return;
    }
    if (outcome.error === null) {
      advance(writes, locked, step, 'next', { outcome: 'webhook: delivered', detail });
    } else {
      advance(writes, locked, step, 'failed', { outcome: 'webhook: failed', detail });
    }
    await writes.flush(tx);
  });
}

/** Journeys whose goal or a wait concerns `key`, among the workspace's live versions. */
function concerned(starts: repo.StartRow[], key: string) {
  return starts.filter(
    (start) =>
      start.definition.goal?.event === key ||
      start.definition.steps.some((step) => step.type === 'wait-for-event' && step.event === key),
  );
}

/**
 * One stored event for the profile's runs: the goal ends every run it holds of (wherever it waits,
 * paused too) as converted; a wait for the event whose conditions hold goes on through its `event`
 * exit.
 */
async function reactInRuns(
  tx: Tx,
  starts: repo.StartRow[],
  [profileId, key, , properties]: JourneyEvents['events'][number],
) {
  const journeys = [...new Set(concerned(starts, key).map((start) => start.journeyId))];
  const tasks = await repo.lockWaitingTasks(tx, starts[0]?.workspaceId ?? '', profileId, journeys);
  for (const task of tasks) {
    const start = starts.find((s) => s.journeyId === task.journeyId && s.version === task.version);
    if (!start) continue;
    const writes = new RunWrites(start);
    const run = { id: task.runId, profileId };
    const goal = start.definition.goal;
    if (goal?.event === key && conditionsHold(goal.conditions, properties)) {
      await repo.finishTask(tx, task, { state: 'cancelled', ended: 'converted' });
      if (await repo.endRun(tx, task.workspaceId, task.runId, 'converted', task.stepId)) {
        writes.exited(run, task.stepId, 'goal');
      }
    } else if (task.waitsFor === key && start.state === 'running') {
      const step = stepOf(start.definition, task.stepId);
      if (step?.type !== 'wait-for-event' || !conditionsHold(step.conditions, properties)) continue;
      advance(writes, task, step, 'event');
    }
    await writes.flush(tx);
  }
}

/** Events entering profiles together in one transaction at most. */
const ENTERING_AT_ONCE = 1000;

/**
 * A batch's events in the transactions they take, in their order: an event a goal or a wait may react
 * to alone, and a run of events that only enter profiles together, up to ENTERING_AT_ONCE (entering is
 * one statement for any number of profiles, and no run reacts to them, so together they enter exactly
 * whom one by one would).
 */
function eventGroups(starts: repo.StartRow[], events: JourneyEvents['events']) {
  const groups: { reacts: boolean; events: JourneyEvents['events'] }[] = [];
  for (const event of events) {
    const reacts = concerned(starts, event[1]).length > 0;
    const last = groups.at(-1);
    if (!reacts && last && !last.reacts && last.events.length < ENTERING_AT_ONCE) last.events.push(event);
    else groups.push({ reacts, events: [event] });
  }
  return groups;
}

/**
 * The events jobs, a workspace at a time (the events of its jobs in the batch's order): each event a
 * goal or a wait may react to, in a transaction of its own, first ends or moves on the runs it
 * concerns, then enters the profile into each journey whose newest running version it triggers; the
 * events between them enter their profiles a run of events at a time.
 */
export async function handleJourneyEvents(ctx: AppContext, jobs: JourneyEvents[]) {
  const byWorkspace = new Map<string, JourneyEvents['events']>();
  for (const job of jobs) {
    const events = byWorkspace.get(job.workspaceId);
    if (events) events.push(...job.events);
    else byWorkspace.set(job.workspaceId, [...job.events]);
  }
  for (const [workspaceId, events] of byWorkspace) {
    const starts = await repo.liveStarts(ctx.db, workspaceId);
    const entries = new Map<string, repo.StartRow>();
    for (const start of starts) {
      if (start.state !== 'running') continue;
      const known = entries.get(start.journeyId);
      if (!known || known.version < start.version) entries.set(start.journeyId, start);
    }
    const defs = [...entries.values()].some((start) => start.definition.entryAudience)
      ? await loadDefinitions(ctx.db, workspaceId)
      : undefined;
    for (const group of eventGroups(starts, events)) {
      await ctx.db.transaction(async (tx) => {
        if (group.reacts) await reactInRuns(tx, starts, group.events[0]);
        for (const start of entries.values()) {
          const { entry } = start.definition;
          if (entry.kind !== 'event') continue;
          const entering = group.events
            .filter(
              ([, key, , properties]) => entry.event === key && conditionsHold(entry.conditions, properties),
            )
            .map(([profileId]) => profileId);
          if (entering.length) await enterProfiles(tx, start, [...new Set(entering)], defs);
        }
      });
    }
  }
}

/**
 * The sweep's part: a job for every task of a running version due within WAKE_AHEAD_MS (waits coming
 * to their end, rows whose job was lost), `page` at a time: a hundred thousand waits ending in the
 * same minute all get their job before it.
 */
export async function queueDueTasks(db: Db, page = SWEEP_LIMIT) {
  let after: repo.DueTaskRow | undefined;
  for (;;) {
    const due = await repo.dueTasks(db, null, null, page, WAKE_AHEAD_MS, after);
    await queueTasks(db, due.map(taskKeyOf));
    if (due.length < page) return;
    after = due.at(-1);
  }
}

/** A task row's job key and due time. */
const taskKeyOf = (row: { workspace_id: string; run_id: string; seq: number; due_at: Date | string }) => ({
  workspaceId: row.workspace_id,
  runId: row.run_id,
  seq: row.seq,
  dueAt: new Date(row.due_at),
});

/**
 * Moves the runs waiting at each move's step of an older version to the same journey's `start` at the
 * move's step, in the caller's transaction: to a step of the same kind the wait keeps its time, to
 * another kind the step is reached now. Answers the runs moved per version and step.
 */
export async function moveWaitingRuns(
  tx: Tx,
  start: repo.StartRow,
  moves: { version: number; from: JourneyStep; to: JourneyStep }[],
) {
  const { moved, soon } = await repo.moveRuns(
    tx,
    start.workspaceId,
    start.journeyId,
    start.version,
    moves.map(({ version, from, to }) => ({
      version,
      stepId: from.id,
      to: to.id,
      keep: isSameKind(from, to),
      freshSeconds: waitSecondsOf(to),
      waitsFor: to.type === 'wait-for-event' ? to.event : null,
    })),
    WAKE_AHEAD_MS,
  );
  await queueTasks(tx, soon.map(taskKeyOf));
  return moved;
}

/** Profiles entered in one call at most (an audience's new members, a day's birthdays). */
const ENTER_CHUNK = 1000;

async function enterInChunks(tx: Tx, start: repo.StartRow, ids: string[], defs?: CustomerDefinitions) {
  for (let i = 0; i < ids.length; i += ENTER_CHUNK)
    await enterProfiles(tx, start, ids.slice(i, i + ENTER_CHUNK), defs);
}

/**
 * Records the members of a version's entry audience as it starts: only those who join (or leave)
 * after it enter.
 */
export async function recordEntryAudience(tx: Tx, start: repo.StartRow, defs: CustomerDefinitions) {
  const { entry } = start.definition;
  if (entry.kind !== 'audience' || !entry.audience) return;
  const members = audienceMembersSql(defs, start.workspaceId, entry.audience, new Date());
  if (members) await repo.diffAudienceMembers(tx, start, members);
}

/**
 * The audience entries' job: for each running version whose entry is an audience (of the workspaces
 * in `jobs`, or every one for the minute's job), the audience's members now against those recorded,
 * in one statement each; the profiles that joined (or left, as the entry says) enter.
 */
export async function checkAudienceEntries(ctx: AppContext, jobs: { workspaceId?: string }[]) {
  const every = jobs.some((job) => !job.workspaceId);
  const workspaces = every ? [undefined] : [...new Set(jobs.map((job) => job.workspaceId!))];
  for (const workspaceId of workspaces) {
    const starts = await repo.runningStartsWithEntry(ctx.db, 'audience', workspaceId);
    const defsOf = new Map<string, CustomerDefinitions>();
    for (const start of starts) {
      const { entry } = start.definition;
      if (entry.kind !== 'audience' || !entry.audience) continue;
      let defs = defsOf.get(start.workspaceId);
      if (!defs) defsOf.set(start.workspaceId, (defs = await loadDefinitions(ctx.db, start.workspaceId)));
      const members = audienceMembersSql(defs, start.workspaceId, entry.audience, new Date());
      if (!members) continue;
      await ctx.db.transaction(async (tx) => {
        const changes = await repo.diffAudienceMembers(tx, start, members);
        const wanted = entry.on === 'enter' ? 'joined' : 'left';
        const ids = changes.filter((change) => change.change === wanted).map((change) => change.profile_id);
        await enterInChunks(tx, start, ids, defs);
      });
    }
  }
}

/**
 * The date entries' job (every minute): for each running version whose entry is a date attribute,
 * the profiles whose occurrence (the date, its offset, its time of day in the profile's or the
 * workspace's zone) fell due since the last look, found by one statement over the profiles, each
 * occurrence entering its profile once.
 */
export async function enterDueDates(ctx: AppContext, now = new Date()) {
  for (const start of await repo.runningStartsWithEntry(ctx.db, 'date')) {
    const { entry } = start.definition;
    if (entry.kind !== 'date' || !entry.attribute) continue;
    const limits = await journeyLimitsOf(ctx.db, start.workspaceId);
    const defs = start.definition.entryAudience
      ? await loadDefinitions(ctx.db, start.workspaceId)
      : undefined;
    const after = new Date(Math.max(start.startedAt.getTime(), now.getTime() - DATE_LOOKBACK_MS));
    await ctx.db.transaction(async (tx) => {
      const due = await repo.claimDateOccurrences(
        tx,
        start,
        { ...entry, attribute: entry.attribute! },
        limits.timeZone,
        after,
        now,
      );
      await enterInChunks(
        tx,
        start,
        due.map((row) => row.profile_id),
        defs,
      );
    });
  }
}
