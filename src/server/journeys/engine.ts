import type { JourneyDefinition, JourneyStep } from '@shared/api/journeys';
import { conditionsHold } from '@shared/journeys/conditions';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { insertEvents, type EventTuple } from '../customers/repository';
import { addJourneyRecipients, findSend, type RecipientRules } from '../campaigns/repository';
import { queueSendLanes } from '../campaigns/engine';
import { findRecipientSettings } from '../senders/repository';
import { randomId } from '../lib/ids';
import { shareOf, splitDraw } from '../lib/split';
import { enqueueMany } from '../queue/queue';
import { JOURNEY_TASK_QUEUE, SWEEP_LIMIT, type JourneyEvents, type JourneyTaskKey } from '../queue/queues';
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

/**
 * Queues the jobs of the tasks due within WAKE_AHEAD_MS, each at its due time, in the caller's
 * transaction (one waiting job per task).
 */
export async function queueTasks(db: Db | Tx, tasks: (JourneyTaskKey & { dueAt: Date })[]) {
  const now = Date.now();
  await enqueueMany(
    db,
    JOURNEY_TASK_QUEUE,
    tasks
      .filter((task) => task.dueAt.getTime() <= now + WAKE_AHEAD_MS)
      .map(({ dueAt, ...key }) => ({
        data: key,
        singletonKey: taskKey(key),
        ...(dueAt.getTime() > now ? { startAfter: dueAt } : {}),
      })),
  );
}

/** When a profile reaching `step` may go on: a wait's end, a wait for an event's timeout, or now. */
function dueOf(step: JourneyStep, now: Date) {
  const seconds =
    step.type === 'wait' ? step.seconds : step.type === 'wait-for-event' ? step.timeoutSeconds : 0;
  return new Date(now.getTime() + seconds * 1000);
}

const stepOf = (definition: JourneyDefinition, id: string) => definition.steps.find((step) => step.id === id);
const edgeTo = (definition: JourneyDefinition, from: string, exit: string) =>
  definition.edges.find((edge) => edge.from === from && edge.exit === exit)?.to;

/** The write of one change to runs: its tasks to queue and its journey events. */
class RunWrites {
  readonly tasks: (typeof import('../db/schema').journeyTasks.$inferInsert)[] = [];
  readonly events: EventTuple[] = [];
  readonly sends = new Set<string>();

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

  stepDone(run: repo.RunRef, seq: number, step: JourneyStep, exit: string | null) {
    this.events.push([
      run.profileId,
      JOURNEY_EVENTS.step,
      this.now.toISOString(),
      this.props({ step: step.id, type: step.type, ...(exit ? { exit } : {}) }),
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

  /** Writes the tasks and events and queues the tasks' and the email steps' jobs. */
  async flush(tx: Tx) {
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

/** Enters profiles into the running version `start` (the re-entry rule decides); answers the runs. */
export async function enterProfiles(tx: Tx, start: repo.StartRow, profileIds: string[]) {
  const runs = await repo.enterRuns(tx, start, profileIds, () => randomId(16));
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

/** What a step does for the run; answers the exit it takes (null: the run ends here). */
async function perform(
  tx: Tx,
  writes: RunWrites,
  task: { runId: string; profileId: string },
  step: JourneyStep,
  rules: () => Promise<RecipientRules>,
): Promise<string | null> {
  const { workspaceId, sends } = writes.start;
  switch (step.type) {
    case 'email': {
      const send = await findSend(tx, workspaceId, sends[step.id]);
      if (send) {
        const added = await addJourneyRecipients(tx, send, [task.profileId], await rules());
        if (added.length) writes.sends.add(send.id);
      }
      return 'next';
    }
    case 'wait':
      return 'next';
    case 'wait-for-event':
      return 'timeout';
    case 'branch': {
      const attributes = (await repo.profileAttributes(tx, workspaceId, task.profileId)) ?? {};
      return conditionsHold(step.conditions, attributes) ? 'yes' : 'no';
    }
    case 'split':
      return splitPath(step, task.runId);
    case 'update-attribute':
      await repo.setAttribute(tx, workspaceId, task.profileId, step.attribute, step.value);
      return 'next';
    case 'exit':
      return null;
  }
}

/** Records the task done through `exit` and moves the run on to the step the exit leads to, or ends it. */
async function advance(
  tx: Tx,
  writes: RunWrites,
  task: { workspaceId: string; runId: string; seq: number; profileId: string },
  step: JourneyStep,
  exit: string | null,
) {
  const run = { id: task.runId, profileId: task.profileId };
  const next = exit ? edgeTo(writes.start.definition, step.id, exit) : undefined;
  writes.stepDone(run, task.seq, step, exit);
  if (next) {
    await repo.finishTask(tx, task, { state: 'done', exit });
    writes.reach(run, task.seq + 1, next);
    return;
  }
  await repo.finishTask(tx, task, { state: 'done', exit, ended: 'finished' });
  if (await repo.endRun(tx, task.workspaceId, task.runId, 'finished', step.id)) {
    writes.exited(run, step.id, exit === null && step.type !== 'exit' ? 'holdout' : 'finished');
  }
}

/**
 * The task jobs: each due task is claimed in a transaction of its own (`for update skip locked`, and
 * only while due), its step done and the next step written in that transaction, so a step happens
 * once per run however often its job runs. A task of a paused version waits for the resume.
 */
export async function runJourneyTasks(ctx: AppContext, keys: JourneyTaskKey[]) {
  const rulesOf = new Map<string, Promise<RecipientRules>>();
  for (const key of keys) {
    const rules = () => {
      let found = rulesOf.get(key.workspaceId);
      if (!found) rulesOf.set(key.workspaceId, (found = findRecipientSettings(ctx.db, key.workspaceId)));
      return found;
    };
    // The workspace's recipient rules are read before the transaction (PGlite has one connection).
    await rules();
    await ctx.db.transaction(async (tx) => {
      if (!(await repo.lockActiveRun(tx, key.workspaceId, key.runId))) return;
      const task = await repo.lockDueTask(tx, key.workspaceId, key.runId, key.seq);
      if (!task) return;
      // Not due yet (a job that ran early): the sweep or a job at its time comes back for it.
      if (task.dueAt.getTime() > Date.now()) return queueTasks(tx, [{ ...key, dueAt: task.dueAt }]);
      const start = await repo.findStart(tx, key.workspaceId, task.journeyId, task.version);
      if (!start || start.state !== 'running') return;
      const step = stepOf(start.definition, task.stepId);
      if (!step) return;
      const writes = new RunWrites(start);
      const exit = await perform(tx, writes, task, step, rules);
      await advance(tx, writes, task, step, exit);
      await writes.flush(tx);
    });
  }
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
      await advance(tx, writes, task, step, 'event');
    }
    await writes.flush(tx);
  }
}

/**
 * The events job: each event, in a transaction of its own, first ends or moves on the runs it concerns
 * (goal, waits), then enters the profile into each journey whose newest running version it triggers.
 */
export async function handleJourneyEvents(ctx: AppContext, jobs: JourneyEvents[]) {
  for (const job of jobs) {
    const starts = await repo.liveStarts(ctx.db, job.workspaceId);
    const entries = new Map<string, repo.StartRow>();
    for (const start of starts) {
      if (start.state !== 'running') continue;
      const known = entries.get(start.journeyId);
      if (!known || known.version < start.version) entries.set(start.journeyId, start);
    }
    for (const event of job.events) {
      const [profileId, key, , properties] = event;
      await ctx.db.transaction(async (tx) => {
        await reactInRuns(tx, starts, event);
        for (const start of entries.values()) {
          const { entry } = start.definition;
          if (entry.kind === 'event' && entry.event === key && conditionsHold(entry.conditions, properties)) {
            await enterProfiles(tx, start, [profileId]);
          }
        }
      });
    }
  }
}

/**
 * The sweep's part: a job for every task of a running version due within WAKE_AHEAD_MS (waits coming
 * to their end, rows whose job was lost).
 */
export async function queueDueTasks(db: Db) {
  const due = await repo.dueTasks(db, null, null, SWEEP_LIMIT, WAKE_AHEAD_MS);
  await queueTasks(
    db,
    due.map((row) => ({
      workspaceId: row.workspace_id,
      runId: row.run_id,
      seq: row.seq,
      dueAt: new Date(row.due_at),
    })),
  );
}
