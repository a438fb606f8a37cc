import {
  JOURNEY_MESSAGES,
  type EnterJourneyBody,
  type JourneyDefinition,
  type JourneyMigration,
  type JourneyStartPlan,
  type JourneyStep,
  type StartJourneyBody,
  type JourneyResults,
  type JourneyRun,
} from '@shared/api/journeys';
import type { AuditAction } from '@shared/api/delivery';
import { defaultTarget } from '@shared/journeys/migration';
import { exitsOf, parseJourney } from '@shared/journeys/validate';
import { can } from '@shared/permissions/permissions';
import { isFullyApproved, remainingApprovals } from '@shared/publishing/approvals';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { badRequest, conflict, forbidden } from '../http/errors';
import { requireItem } from '../items/service';
import { schemaIn, type SchemaScope } from '../items/scope';
import { actorOf, itemLabel, journal } from '../journal/journal';
import { prepareJourneySend } from '../campaigns/service';
import { setState as setSendState } from '../campaigns/repository';
import { queueSendLanes } from '../campaigns/engine';
import { ensureRecordedEvents } from '../campaigns/email-events';
import type { WorkspaceAccess } from '../workspaces/access';
import { loadDefinitions, type CustomerDefinitions } from '../customers/definitions';
import { ANY_EVENT_KEY } from '../queue/queues';
import { enterProfiles, JOURNEY_EVENTS, moveWaitingRuns, queueTasks, recordEntryAudience } from './engine';
import * as repo from './repository';
import { insertEvents } from '../customers/repository';

const journeyScope = (access: WorkspaceAccess) => schemaIn(access, 'journey');

function requireStartRight(scope: SchemaScope) {
  if (!can(scope.permissions, 'publish', 'journey')) throw forbidden(JOURNEY_MESSAGES.cannotStart);
}

function presentStart(row: repo.StartRow): JourneyRun {
  return {
    journeyId: row.journeyId,
    version: row.version,
    state: row.state as JourneyRun['state'],
    startedAt: row.startedAt.toISOString(),
    startedBy: row.startedBy,
    pauseLimit: row.pauseLimit ?? null,
  };
}

/** The audiences a definition names (its entry's, its entry audience, its audience branches'), each with where. */
function audiencesNamed(definition: repo.StartRow['definition']) {
  const named: [string, string][] = [];
  if (definition.entry.kind === 'audience' && definition.entry.audience)
    named.push([definition.entry.audience, 'Entry']);
  if (definition.entryAudience) named.push([definition.entryAudience, 'Entry audience']);
  for (const step of definition.steps)
    if (step.type === 'audience-branch' && step.audience)
      named.push([step.audience, `Step "${step.name?.trim() || step.id}"`]);
  return named;
}

/** 400 naming where the definition refers to an audience the workspace does not have. */
function requireAudiences(definition: repo.StartRow['definition'], defs: CustomerDefinitions) {
  for (const [audience, where] of audiencesNamed(definition)) {
    if (!defs.catalog.audiences.has(audience))
      throw badRequest(JOURNEY_MESSAGES.badDefinition(`${where}: the audience no longer exists`));
  }
}

/** The event keys a started version reacts to: its entry's, its goal's and its waits'. */
function eventKeysOf(definition: repo.StartRow['definition']) {
  const keys = new Set<string>();
  if (definition.entry.kind === 'event') keys.add(definition.entry.event);
  if (definition.entry.kind === 'audience') keys.add(ANY_EVENT_KEY);
  if (definition.goal) keys.add(definition.goal.event);
  for (const step of definition.steps) if (step.type === 'wait-for-event') keys.add(step.event);
  return [...keys];
}

async function audit(
  tx: Tx,
  scope: SchemaScope,
  journeyId: string,
  label: string,
  action: AuditAction,
  detail: Record<string, unknown>,
) {
  await journal(tx, {
    audit: [
      {
        workspaceId: scope.workspace.id,
        user: actorOf(scope),
        action,
        targetType: 'journey',
        targetId: journeyId,
        label,
        schema: 'journey',
        detail,
      },
    ],
  });
}

/** The older versions of the journey that still run (or are paused), newest first. */
const olderLive = (starts: repo.StartRow[], version: number) =>
  starts.filter((start) => start.version < version && start.state !== 'stopped');

const presentStep = (step: JourneyStep) => ({
  stepId: step.id,
  name: step.name?.trim() || null,
  type: step.type,
});

/** The item's current definition, or 400 naming where it is incomplete. */
function definitionOf(item: { data: unknown }) {
  const parsed = parseJourney((item.data as { definition?: unknown }).definition);
  if (!parsed.ok) throw badRequest(JOURNEY_MESSAGES.badDefinition(parsed.problem));
  return parsed.definition;
}

/**
 * `GET …/journeys/{id}/start-plan`: what starting the current version would do with the runs of the
 * older versions still running, per step: how many wait there now and where they go by default.
 * Publish rights on journey (403); 409 when the current version was started already.
 */
export async function startPlan(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
): Promise<JourneyStartPlan> {
  const scope = journeyScope(access);
  requireStartRight(scope);
  const item = await requireItem(ctx, scope, id);
  const definition = definitionOf(item);
  const workspaceId = scope.workspace.id;
  const starts = await repo.startsOf(ctx.db, workspaceId, id);
  if (starts.some((start) => start.version === item.version)) throw conflict(JOURNEY_MESSAGES.alreadyStarted);
  const older = olderLive(starts, item.version);
  const counts = await repo.waitingCounts(
    ctx.db,
    workspaceId,
    id,
    older.map((start) => start.version),
  );
  return {
    journeyId: id,
    version: item.version,
    steps: definition.steps.map(presentStep),
    versions: older.map((start) => ({
      version: start.version,
      state: start.state as JourneyStartPlan['versions'][number]['state'],
      steps: start.definition.steps.map((step) => ({
        ...presentStep(step),
        waiting: Number(
          counts.find((row) => row.version === start.version && row.step_id === step.id)?.waiting ?? 0,
        ),
        target: defaultTarget(step, definition),
      })),
    })),
  };
}

/**
 * The moves a start's `migrate` asks for, checked against the older versions still running and the
 * new definition: 400 naming the version, the step or the target that is not there.
 */
function movesOf(
  migrate: JourneyMigration | undefined,
  older: repo.StartRow[],
  next: JourneyDefinition,
  version: number,
) {
  const moves: { version: number; from: JourneyStep; to: JourneyStep }[] = [];
  for (const [key, steps] of Object.entries(migrate ?? {})) {
    const start = older.find((each) => String(each.version) === key);
    if (!start) throw badRequest(JOURNEY_MESSAGES.migrateNotRunning(key));
    for (const [stepId, target] of Object.entries(steps)) {
      const from = start.definition.steps.find((step) => step.id === stepId);
      if (!from) throw badRequest(JOURNEY_MESSAGES.migrateUnknownStep(key, stepId));
      if (target === null) continue;
      const to = next.steps.find((step) => step.id === target);
      if (!to) throw badRequest(JOURNEY_MESSAGES.migrateUnknownTarget(version, stepId, target));
      moves.push({ version: start.version, from, to });
    }
  }
  return moves;
}

/**
 * `POST …/journeys/{id}/start`: publish rights on journey (403), the current version fully approved
 * (409) and its definition complete (400 naming the step); each email step's message is frozen into a
 * campaign send. The version started is the one that runs: editing the item makes a new draft, and
 * starting that one later leaves the runs already on this version to finish on it, but for those its
 * `migrate` moves, in the same transaction, to a step of the new version.
 */
export async function startJourney(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: StartJourneyBody = {},
) {
  const scope = journeyScope(access);
  requireStartRight(scope);
  const item = await requireItem(ctx, scope, id);
  if (!isFullyApproved(remainingApprovals(scope.workspace.roles, item.schema, item.approvedRoles))) {
    throw conflict(JOURNEY_MESSAGES.needsApproval);
  }
  const definition = definitionOf(item);
  const defs = await loadDefinitions(ctx.db, scope.workspace.id);
  requireAudiences(definition, defs);
  const older = olderLive(await repo.startsOf(ctx.db, scope.workspace.id, id), item.version);
  const moves = movesOf(body?.migrate, older, definition, item.version);
  const label = itemLabel(item.data) ?? id;
  const prepared: [string, Awaited<ReturnType<typeof prepareJourneySend>>][] = [];
  for (const step of definition.steps) {
    if (step.type !== 'email') continue;
    const stepLabel = `Step "${step.name?.trim() || step.id}"`;
    const insert = await prepareJourneySend(
      ctx,
      access,
      { id, version: item.version, label: JOURNEY_MESSAGES.badDefinition(stepLabel) },
      { email: step.email!, sender: step.sender!, subject: step.subject },
    );
    prepared.push([step.id, insert]);
  }
  await ensureRecordedEvents(ctx, scope.workspace.id, 'journey');
  const row = await ctx.db.transaction(async (tx) => {
    const sends: Record<string, string> = {};
    for (const [stepId, insert] of prepared) sends[stepId] = await insert(tx);
    const start = await repo.insertStart(tx, {
      workspaceId: scope.workspace.id,
      journeyId: id,
      version: item.version,
      definition,
      state: 'running',
      eventKeys: eventKeysOf(definition),
      sends,
      startedBy: scope.user.id,
      pauseLimit: body?.pauseLimit ?? null,
    });
    if (!start) throw conflict(JOURNEY_MESSAGES.alreadyStarted);
    await recordEntryAudience(tx, start, defs);
    const moved = await moveWaitingRuns(tx, start, moves);
    const movedRuns = moved.reduce((sum, each) => sum + Number(each.n), 0);
    await audit(tx, scope, id, label, 'journey.start', {
      version: item.version,
      ...(body?.pauseLimit ? { pauseLimit: body.pauseLimit } : {}),
      ...(moves.length ? { moved: moved.map((each) => ({ ...each, n: Number(each.n) })) } : {}),
    });
    return { start, movedRuns };
  });
  return { journey: presentStart(row.start), moved: row.movedRuns };
}

type JourneyAction = 'pause' | 'resume' | 'stop';

/**
 * Pause (no step runs; waits keep their due time and run on resume), resume, or stop (every run ends,
 * every wait is cancelled, the email steps' sends are cancelled): publish rights on journey, 409 when
 * the journey is not in a state for it.
 */
export async function changeJourney(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  action: JourneyAction,
) {
  const scope = journeyScope(access);
  requireStartRight(scope);
  const item = await requireItem(ctx, scope, id);
  const label = itemLabel(item.data) ?? id;
  const workspaceId = scope.workspace.id;
  const row = await ctx.db.transaction(async (tx) => {
    const from = action === 'resume' ? ['paused'] : action === 'pause' ? ['running'] : ['running', 'paused'];
    const to = action === 'resume' ? 'running' : action === 'pause' ? 'paused' : 'stopped';
    const changed = await repo.setStartsState(tx, workspaceId, id, from, to);
    if (!changed.length) {
      throw conflict(
        action === 'resume'
          ? JOURNEY_MESSAGES.notPaused
          : action === 'pause'
            ? JOURNEY_MESSAGES.notRunning
            : JOURNEY_MESSAGES.alreadyStopped,
      );
    }
    let stopped = 0;
    // The runs before the sends, as a step locks its run before its send.
    if (action === 'stop') {
      const runs = await repo.stopRuns(tx, workspaceId, id);
      stopped = runs.length;
      const at = new Date().toISOString();
      await insertEvents(
        tx,
        workspaceId,
        runs.map((run) => [
          run.profile_id,
          JOURNEY_EVENTS.exited,
          at,
          { journey: id, version: run.version, step: run.step_id, reason: 'stopped' },
          `${run.run_id}:exited`,
        ]),
      );
    }
    for (const start of changed) {
      for (const sendId of Object.values(start.sends)) {
        if (action === 'stop')
          await setSendState(tx, workspaceId, sendId, 'cancelled', { finishedAt: new Date() });
        else await setSendState(tx, workspaceId, sendId, action === 'pause' ? 'paused' : 'sending');
        if (action === 'resume') await queueSendLanes(tx, { workspaceId, id: sendId });
      }
    }
    if (action === 'resume') {
      const due = await repo.dueTasks(tx, workspaceId, id, 2 ** 31 - 1);
      await queueTasks(
        tx,
        due.map((task) => ({ workspaceId, runId: task.run_id, seq: task.seq, dueAt: new Date(task.due_at) })),
      );
    }
    await audit(tx, scope, id, label, `journey.${action}`, {
      versions: changed.map((start) => start.version),
      ...(action === 'stop' ? { runs: stopped } : {}),
    });
    return changed.sort((a, b) => b.version - a.version)[0];
  });
  return { journey: presentStart(row) };
}

/**
 * `POST …/journeys/{id}/enter`: the given profiles enter the journey's newest running version, as its
 * re-entry rule allows (publish rights on journey). Profiles the workspace does not have are refused
 * with 400, nothing entered.
 */
export async function enterJourney(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: EnterJourneyBody,
) {
  const scope = journeyScope(access);
  requireStartRight(scope);
  const item = await requireItem(ctx, scope, id);
  const workspaceId = scope.workspace.id;
  const ids = [...new Set(body.profileIds)];
  const start = (await repo.startsOf(ctx.db, workspaceId, id)).find((row) => row.state === 'running');
  if (!start) throw conflict(JOURNEY_MESSAGES.apiEntryOnly);
  const known = new Set(await repo.existingProfiles(ctx.db, workspaceId, ids));
  const unknown = ids.filter((profileId) => !known.has(profileId));
  if (unknown.length) throw badRequest(JOURNEY_MESSAGES.unknownProfiles(unknown));
  const defs = start.definition.entryAudience ? await loadDefinitions(ctx.db, workspaceId) : undefined;
  const runs = await ctx.db.transaction(async (tx) => {
    const made = await enterProfiles(tx, start, ids, defs);
    await audit(tx, scope, id, itemLabel(item.data) ?? id, 'journey.enter', {
      version: start.version,
      requested: ids.length,
      entered: made.length,
    });
    return made;
  });
  return { entered: runs.length, refused: ids.length - runs.length };
}

/** Per started version and step: entered, waiting, completed, exited, converted, and per exit; any member may read. */
export async function journeyResults(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
): Promise<JourneyResults> {
  const scope = journeyScope(access);
  await requireItem(ctx, scope, id);
  const workspaceId = scope.workspace.id;
  const starts = await repo.startsOf(ctx.db, workspaceId, id);
  const steps = await repo.stepCounts(ctx.db, workspaceId, id);
  const runs = await repo.runCounts(ctx.db, workspaceId, id);
  return {
    journeyId: id,
    state: (starts[0]?.state as JourneyResults['state']) ?? null,
    versions: starts.map((start) => {
      const runRow = runs.find((row) => row.version === start.version);
      return {
        version: start.version,
        entered: Number(runRow?.entered ?? 0),
        active: Number(runRow?.active ?? 0),
        converted: Number(runRow?.converted ?? 0),
        steps: start.definition.steps.map((step) => {
          const counted = steps.filter((row) => row.version === start.version && row.step_id === step.id);
          const sum = (key: 'entered' | 'waiting' | 'completed' | 'exited' | 'converted') =>
            counted.reduce((total, row) => total + Number(row[key]), 0);
          const exits: Record<string, number> = {};
          for (const exit of exitsOf(step)) exits[exit] = 0;
          for (const row of counted)
            if (row.exit) exits[row.exit] = (exits[row.exit] ?? 0) + Number(row.completed);
          const outcomes: Record<string, number> = {};
          for (const row of counted)
            if (row.outcome) outcomes[row.outcome] = (outcomes[row.outcome] ?? 0) + Number(row.entered);
          return {
            stepId: step.id,
            type: step.type,
            entered: sum('entered'),
            waiting: sum('waiting'),
            completed: sum('completed'),
            exited: sum('exited'),
            converted: sum('converted'),
            exits,
            ...(Object.keys(outcomes).length ? { outcomes } : {}),
          };
        }),
      };
    }),
  };
}
