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
import { can } from '@shared/permissions/permissions';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { resolveStage } from '../items/service';
import { schemaIn } from '../items/scope';
import { actorOf, itemLabel, journal, type AuditRecord } from '../journal/journal';
import { randomId } from '../lib/ids';
import type { WorkspaceAccess } from '../workspaces/access';
import { findMember } from '../workspaces/members-repository';
import { entryStates, type EntryState } from './entry-state';
import * as repo from './repository';
import { queueScheduledPublish, scheduleFields } from './schedule-repository';

/** Releases are for members who may publish something: anyone else is refused every change. */
export function requirePublisher(access: WorkspaceAccess) {
  if (access.permissions.canPublish.length === 0) throw forbidden(RELEASE_MESSAGES.noRights);
}

/** The plural titles of those of `schemas` the member may not publish. */
export function unpublishableSchemas(access: WorkspaceAccess, schemas: Iterable<string>): string[] {
  return [...new Set(schemas)]
    .filter((schema) => !can(access.permissions, 'publish', schema))
    .map((schema) => access.model.schema(schema)?.pluralTitle ?? schema);
}

/**
 * Changing a release's entries, stage or time needs what publishing it needs: the publish right on every
 * schema it holds, before the change and after it (403 otherwise, before anything is written).
 */
function requireChangeRights(access: WorkspaceAccess, schemas: Iterable<string>) {
  const denied = unpublishableSchemas(access, schemas);
  if (denied.length > 0) throw forbidden(RELEASE_MESSAGES.cannotChange(denied.join(', ')));
}

/**
 * A schedule still to run, after someone other than its scheduler changed the release's entries or
 * stage: cleared, since it would run with the scheduler's rights on what they did not choose. The
 * scheduler stays named as who is to schedule it again. No change for anyone else.
 */
async function scheduleAfterChange(tx: Tx, access: WorkspaceAccess, release: repo.ReleaseRow) {
  const waiting = release.scheduleStatus === 'pending' || release.scheduleStatus === 'running';
  if (!waiting || !release.scheduledBy || release.scheduledBy === access.user.id) return {};
  const scheduler = await findMember(tx, access.workspace.id, release.scheduledBy);
  return {
    scheduleStatus: 'cleared' as const,
    leaseUntil: null,
    lastError: RELEASE_MESSAGES.scheduleCleared(
      access.member.displayName,
      scheduler?.displayName ?? 'another member',
    ),
  };
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
  const isDraft = row.state !== 'published';
  return {
    ...toSummary(row, entries.length),
    entries: presented,
    canPublish: isDraft && presented.length > 0 && presented.every((e) => e.blockers.length === 0),
    canChange:
      isDraft &&
      access.permissions.canPublish.length > 0 &&
      unpublishableSchemas(
        access,
        entries.map((e) => e.schema),
      ).length === 0,
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
    addedBy: entry.addedBy,
    addedByName: entry.addedByName,
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
    const stageChanged = stage !== undefined && stage !== release.stage;
    // A new time (or none) schedules the release again, to run with the rights of whoever set it; so does
    // the time of a schedule a change cleared.
    const newTime =
      body.publishAt !== undefined &&
      ((body.publishAt ? new Date(body.publishAt).getTime() : null) !==
        (release.publishAt?.getTime() ?? null) ||
        (body.publishAt !== null && release.scheduleStatus === 'cleared'));
    if (stageChanged || newTime) {
      requireChangeRights(access, await repo.entrySchemas(tx, access.workspace.id, id));
    }
    const publishAt = newTime ? publishTimeOf(body.publishAt) : undefined;
    const schedule =
      publishAt !== undefined
        ? scheduleFields(publishAt, access.user.id)
        : stageChanged
          ? await scheduleAfterChange(tx, access, release)
          : {};
    const updated = await repo.updateRelease(tx, access.workspace.id, id, {
      name: body.name,
      description: body.description,
      stage,
      publishAt,
      publishAtTz: body.publishAtTz,
      updatedAt: new Date(),
      updatedBy: access.user.id,
      ...schedule,
    });
    if (publishAt) await queueScheduledPublish(tx, updated, publishAt);
    const cleared = updated.scheduleStatus === 'cleared' && release.scheduleStatus !== 'cleared';
    await journal(tx, {
      audit: [releaseAudit(access, updated, 'release.updated', cleared ? { scheduleCleared: true } : null)],
    });
    return updated;
  });
  return toSummary(row, await repo.countEntries(ctx.db, access.workspace.id, id));
}

export async function deleteRelease(ctx: AppContext, access: WorkspaceAccess, id: string) {
  await changeDraft(ctx, access, id, async (tx, release) => {
    // Deleting drops what someone may have scheduled: it takes what changing the entries takes.
    requireChangeRights(access, await repo.entrySchemas(tx, access.workspace.id, id));
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
    for (const entry of entries) schemaIn(access, entry.schema);
    requireChangeRights(access, [
      ...(await repo.entrySchemas(tx, access.workspace.id, id)),
      ...entries.map((e) => e.schema),
    ]);
    const versions = await repo.currentVersionsOf(tx, access.workspace.id, entries);
    for (const entry of entries) {
      const current = versions.get(`${entry.schema}/${entry.itemId}`);
      if (current === undefined) throw notFound(RELEASE_MESSAGES.itemNotFound(entry.itemId));
      if (entry.version !== null && entry.version > current) {
        throw badRequest(`Version ${entry.version} of item "${entry.itemId}" does not exist`);
      }
    }
    const addedBy = { addedBy: access.user.id, addedByName: access.member.displayName };
    await repo.upsertEntries(
      tx,
      entries.map((e) => ({ workspaceId: access.workspace.id, releaseId: id, ...e, ...addedBy })),
    );
    await touch(tx, access, release, 'release.entries-added', {
      count: entries.length,
      entries: entries.map(({ schema, itemId, action, version }) => ({ schema, itemId, action, version })),
    });
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
    requireChangeRights(access, await repo.entrySchemas(tx, access.workspace.id, id));
    const removed = await repo.deleteEntries(tx, access.workspace.id, id, body.itemIds);
    await touch(tx, access, release, 'release.entries-removed', { count: removed.length, entries: removed });
  });
  return getRelease(ctx, access, id);
}

/**
 * Marks the release's entries changed (a stale save based on it gets 409; a schedule set by someone else
 * is cleared) and journals the change.
 */
async function touch(
  tx: Tx,
  access: WorkspaceAccess,
  release: repo.ReleaseRow,
  action: AuditRecord['action'],
  detail: Record<string, unknown>,
) {
  const schedule = await scheduleAfterChange(tx, access, release);
  await repo.updateRelease(tx, access.workspace.id, release.id, {
    updatedAt: new Date(),
    updatedBy: access.user.id,
    ...schedule,
  });
  const cleared = schedule.scheduleStatus ? { scheduleCleared: true } : {};
  await journal(tx, { audit: [releaseAudit(access, release, action, { ...detail, ...cleared })] });
}
