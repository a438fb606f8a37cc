import {
  RELEASE_MESSAGES,
  type AddEntriesBody,
  type CreateReleaseBody,
  type Release,
  type ReleaseEntry,
  type ReleaseSummary,
  type RemoveEntriesBody,
  type UpdateReleaseBody,
} from '@shared/api/releases';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { resolveStage } from '../items/service';
import { schemaIn } from '../items/scope';
import { actorOf, itemLabel, journal, type AuditRecord } from '../journal/journal';
import { randomId } from '../lib/ids';
import type { WorkspaceAccess } from '../workspaces/access';
import { entryStates, type EntryState } from './entry-state';
import * as repo from './repository';
import { queueScheduledPublish, scheduleFields } from './schedule-repository';

/** Releases are for members who may publish something: anyone else is refused every change. */
export function requirePublisher(access: WorkspaceAccess) {
  if (access.permissions.canPublish.length === 0) throw forbidden(RELEASE_MESSAGES.noRights);
}

export const releaseAudit = (
  access: WorkspaceAccess,
  release: { id: string; name: string },
  action: AuditRecord['action'],
  detail: Record<string, unknown> | null = null,
): AuditRecord => ({
  workspaceId: access.workspace.id,
  user: actorOf(access),
  action,
  targetType: 'release',
  targetId: release.id,
  label: release.name,
  detail,
});

const toSummary = (row: repo.ReleaseRow, entryCount: number): ReleaseSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  stage: row.stage,
  publishAt: row.publishAt?.toISOString() ?? null,
  publishAtTz: row.publishAtTz,
  state: row.state,
  entryCount,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  updatedAt: row.updatedAt.toISOString(),
  updatedBy: row.updatedBy,
  publishedAt: row.publishedAt?.toISOString() ?? null,
  publishedBy: row.publishedBy,
  scheduleStatus: row.scheduleStatus,
  scheduledBy: row.scheduledBy,
  lastError: row.lastError,
  ranAt: row.ranAt?.toISOString() ?? null,
});

/** A publish time as set by a request: a time to come, or none. */
function publishTimeOf(publishAt: string | null | undefined) {
  if (!publishAt) return null;
  const at = new Date(publishAt);
  if (at.getTime() <= Date.now()) throw badRequest(RELEASE_MESSAGES.inThePast);
  return at;
}

function stageOf(access: WorkspaceAccess, stage: string) {
  try {
    return resolveStage(access, stage);
  } catch {
    throw badRequest(`stage: Stage "${stage}" not found in this workspace`);
  }
}

/** A release of the caller's workspace, or 404 (locked when read inside a transaction). */
export async function requireRelease(
  db: AppContext['db'] | Tx,
  access: WorkspaceAccess,
  id: string,
  lock = false,
) {
  const row = await repo.findRelease(db, access.workspace.id, id, lock);
  if (!row) throw notFound(RELEASE_MESSAGES.notFound);
  return row;
}

export async function listReleases(ctx: AppContext, access: WorkspaceAccess) {
  const rows = await repo.listReleases(ctx.db, access.workspace.id);
  return { releases: rows.map((r) => toSummary(r.release, r.entryCount)) };
}

export async function createRelease(ctx: AppContext, access: WorkspaceAccess, body: CreateReleaseBody) {
  requirePublisher(access);
  const stage = stageOf(access, body.stage);
  const publishAt = publishTimeOf(body.publishAt);
  const now = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertRelease(tx, {
      workspaceId: access.workspace.id,
      id: randomId(16),
      name: body.name,
      description: body.description ?? '',
      stage,
      publishAt,
      publishAtTz: body.publishAtTz ?? null,
      createdBy: access.user.id,
      updatedAt: now,
      updatedBy: access.user.id,
      ...(publishAt ? scheduleFields(publishAt, access.user.id) : {}),
    });
    if (publishAt) await queueScheduledPublish(tx, inserted, publishAt);
    await journal(tx, { audit: [releaseAudit(access, inserted, 'release.created', { stage })] });
    return inserted;
  });
  return toSummary(row, 0);
}

/** A release with each entry's state: the version to publish, approvals, rights and what blocks it. */
export async function getRelease(ctx: AppContext, access: WorkspaceAccess, id: string): Promise<Release> {
  const row = await requireRelease(ctx.db, access, id);
  const entries = await repo.listEntries(ctx.db, access.workspace.id, id);
  const states = await entryStates(ctx.db, access, row, entries);
  const stageVersion = await repo.stageVersionsOf(ctx.db, row);
  const presented = states.map((s) =>
    presentEntry(s, stageVersion.get(`${s.entry.schema}/${s.entry.itemId}`)),
  );
  return {
    ...toSummary(row, entries.length),
    entries: presented,
    canPublish:
      row.state !== 'published' && presented.length > 0 && presented.every((e) => e.blockers.length === 0),
  };
}

function presentEntry(state: EntryState, stageVersion: number | undefined): ReleaseEntry {
  const { entry, item } = state;
  return {
    schema: entry.schema,
    itemId: entry.itemId,
    label: itemLabel(item?.data),
    action: entry.action,
    version: entry.version,
    currentVersion: item?.version ?? null,
    hasNewerVersion: Boolean(item && entry.version !== null && item.version > entry.version),
    fullyApproved: state.fullyApproved,
    canPublish: state.canPublish,
    stageVersion: stageVersion ?? null,
    previousVersion: entry.previousVersion,
    blockers: state.blockers,
  };
}

/** Runs a change of a draft release in one transaction: 404 outside the workspace, 409 once published. */
async function changeDraft<T>(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  change: (tx: Tx, release: repo.ReleaseRow) => Promise<T>,
) {
  requirePublisher(access);
  return ctx.db.transaction(async (tx) => {
    const release = await requireRelease(tx, access, id, true);
    if (release.state === 'published') throw conflict(RELEASE_MESSAGES.published);
    return change(tx, release);
  });
}

export async function updateRelease(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: UpdateReleaseBody,
) {
  const basedOn = new Date(body.updatedAt);
  if (Number.isNaN(basedOn.getTime())) throw badRequest('updatedAt: Not a date and time');
  const stage = body.stage === undefined ? undefined : stageOf(access, body.stage);
  const row = await changeDraft(ctx, access, id, async (tx, release) => {
    if (release.updatedAt.getTime() !== basedOn.getTime()) throw conflict(RELEASE_MESSAGES.stale);
    // A new time (or none) schedules the release again, to run with the rights of whoever set it.
    const newTime =
      body.publishAt !== undefined &&
      (body.publishAt ? new Date(body.publishAt).getTime() : null) !== (release.publishAt?.getTime() ?? null);
    const publishAt = newTime ? publishTimeOf(body.publishAt) : undefined;
    const updated = await repo.updateRelease(tx, access.workspace.id, id, {
      name: body.name,
      description: body.description,
      stage,
      publishAt,
      publishAtTz: body.publishAtTz,
      updatedAt: new Date(),
      updatedBy: access.user.id,
      ...(publishAt !== undefined ? scheduleFields(publishAt, access.user.id) : {}),
    });
    if (publishAt) await queueScheduledPublish(tx, updated, publishAt);
    await journal(tx, { audit: [releaseAudit(access, updated, 'release.updated')] });
    return updated;
  });
  return toSummary(row, await repo.countEntries(ctx.db, access.workspace.id, id));
}

export async function deleteRelease(ctx: AppContext, access: WorkspaceAccess, id: string) {
  await changeDraft(ctx, access, id, async (tx, release) => {
    await repo.deleteRelease(tx, access.workspace.id, id);
    await journal(tx, { audit: [releaseAudit(access, release, 'release.deleted')] });
  });
  return { id, deleted: true as const };
}

/** Adds items to a release (or changes their pinned version and action); each must exist at that version. */
export async function addEntries(ctx: AppContext, access: WorkspaceAccess, id: string, body: AddEntriesBody) {
  const entries = body.entries.map((e) => ({
    ...e,
    version: e.version ?? null,
    action: e.action ?? 'publish',
  }));
  await changeDraft(ctx, access, id, async (tx, release) => {
    const versions = await repo.currentVersionsOf(tx, access.workspace.id, entries);
    for (const entry of entries) {
      schemaIn(access, entry.schema);
      const current = versions.get(`${entry.schema}/${entry.itemId}`);
      if (current === undefined) throw notFound(RELEASE_MESSAGES.itemNotFound(entry.itemId));
      if (entry.version !== null && entry.version > current) {
        throw badRequest(`Version ${entry.version} of item "${entry.itemId}" does not exist`);
      }
    }
    await repo.upsertEntries(
      tx,
      entries.map((e) => ({ workspaceId: access.workspace.id, releaseId: id, ...e })),
    );
    await touch(tx, access, release, 'release.entries-added', { count: entries.length });
  });
  return getRelease(ctx, access, id);
}

export async function removeEntries(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: RemoveEntriesBody,
) {
  await changeDraft(ctx, access, id, async (tx, release) => {
    const removed = await repo.deleteEntries(tx, access.workspace.id, id, body.itemIds);
    await touch(tx, access, release, 'release.entries-removed', { count: removed.length });
  });
  return getRelease(ctx, access, id);
}

/** Marks the release changed (a stale save based on it gets 409) and journals the change. */
async function touch(
  tx: Tx,
  access: WorkspaceAccess,
  release: repo.ReleaseRow,
  action: AuditRecord['action'],
  detail: Record<string, unknown>,
) {
  await repo.updateRelease(tx, access.workspace.id, release.id, {
    updatedAt: new Date(),
    updatedBy: access.user.id,
  });
  await journal(tx, { audit: [releaseAudit(access, release, action, detail)] });
}
