import { SCHEDULE_MESSAGES, type CreateScheduleBody, type Schedule } from '@shared/api/schedules';
import { findUserById } from '../auth/repository';
import { publishItem } from '../publishing/publish-item';
import type { AppContext } from '../context';
import { AppError, badRequest, conflict, notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import { keyOf, requireItem, resolveStage } from '../items/service';
import { actorOf, itemLabel, journal } from '../journal/journal';
import { loadSchemaScope, requireRight, type SchemaScope } from '../items/scope';
import { unpublishItem } from '../publishing/service';
import { forgetCachedMembership } from '../workspaces/repository';
import { enqueue } from '../queue/queue';
import { rowKey, SCHEDULE_QUEUE } from '../queue/queues';
import * as repo from './repository';

const toSchedule = (row: repo.ScheduleRow): Schedule => ({
  id: row.id,
  schema: row.schema,
  itemId: row.itemId,
  stage: row.stage,
  action: row.action,
  at: row.at.toISOString(),
  status: row.status,
  reason: row.reason,
  ranAt: row.ranAt?.toISOString() ?? null,
  createdBy: row.createdBy,
  createdByName: row.createdByName,
  createdAt: row.createdAt.toISOString(),
});

/** Plans a publish or unpublish of an item in a stage; needs the publish right now, and again when it runs. */
export async function createSchedule(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  body: CreateScheduleBody,
) {
  requireRight(scope, 'publish');
  let stage: string;
  try {
    stage = resolveStage(scope, body.stage);
  } catch {
    throw badRequest(`stage: Stage "${body.stage}" not found in this workspace`);
  }
  const at = new Date(body.at);
  if (at.getTime() <= Date.now()) throw badRequest(SCHEDULE_MESSAGES.inThePast);
  const item = await requireItem(ctx, scope, id);
  const key = keyOf(scope, id);
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertSchedule(tx, {
      workspaceId: key.workspaceId,
      id: randomId(16),
      schema: key.schema,
      itemId: id,
      stage,
      action: body.action ?? 'publish',
      at,
      createdBy: scope.user.id,
      createdByName: scope.member.displayName,
    });
    await enqueue(
      tx,
      SCHEDULE_QUEUE,
      { workspaceId: inserted.workspaceId, id: inserted.id },
      { startAfter: at, singletonKey: rowKey(inserted) },
    );
    await journal(tx, {
      audit: [
        {
          workspaceId: key.workspaceId,
          user: actorOf(scope),
          action: 'schedule.created',
          targetType: 'item',
          targetId: id,
          label: itemLabel(item.data),
          schema: key.schema,
          detail: { schedule: inserted.id, stage, action: inserted.action, at: at.toISOString() },
        },
      ],
      // The list of scheduled items changes.
      changes: [{ kind: 'items', workspaceId: key.workspaceId }],
    });
    return inserted;
  });
  return toSchedule(row);
}

/** The item's schedules (any member may read them: they are shown on the item). */
export async function listSchedules(ctx: AppContext, scope: SchemaScope, id: string) {
  await requireItem(ctx, scope, id);
  return { schedules: (await repo.listSchedules(ctx.db, keyOf(scope, id))).map(toSchedule) };
}

export async function cancelSchedule(ctx: AppContext, scope: SchemaScope, id: string, scheduleId: string) {
  requireRight(scope, 'publish');
  const key = keyOf(scope, id);
  const row = await ctx.db.transaction(async (tx) => {
    const cancelled = await repo.cancelSchedule(tx, key, scheduleId);
    if (!cancelled) {
      if (await repo.findSchedule(tx, key, scheduleId)) throw conflict(SCHEDULE_MESSAGES.notPending);
      throw notFound(SCHEDULE_MESSAGES.notFound);
    }
    await journal(tx, {
      audit: [
        {
          workspaceId: key.workspaceId,
          user: actorOf(scope),
          action: 'schedule.cancelled',
          targetType: 'item',
          targetId: id,
          schema: key.schema,
          detail: { schedule: scheduleId, stage: cancelled.stage, action: cancelled.action },
        },
      ],
      changes: [{ kind: 'items', workspaceId: key.workspaceId }],
    });
    return cancelled;
  });
  return toSchedule(row);
}

/**
 * Runs one due schedule as the member who planned it, with the rights they hold now: a refusal (no
 * longer a member, publish right withdrawn, approvals missing, item gone) is recorded with its message.
 */
export async function runSchedule(ctx: AppContext, row: repo.ScheduleRow) {
  let refusedBecause: string | null = null;
  try {
    const user = await findUserById(ctx.db, row.createdBy);
    // Rights as they are now, not as this process may have cached them (another process may have changed them).
    forgetCachedMembership(ctx.db, row.workspaceId, row.createdBy);
    const scope = await loadSchemaScope(ctx, user ?? null, row.workspaceId, row.schema);
    if (row.action === 'publish')
      await publishItem(ctx, scope, row.itemId, row.stage, { publishRefs: false });
    else await unpublishItem(ctx, scope, row.itemId, row.stage);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    refusedBecause =
      err.statusCode === 401 || (err.statusCode === 404 && err.message === 'Workspace not found')
        ? `${row.createdByName} is no longer a member of the workspace`
        : err.message;
  }
  await repo.finishSchedule(ctx.db, row, { refusedBecause });
}
