import { RELEASE_MESSAGES } from '@shared/api/releases';
import { changedKeys } from '@shared/publishing/surrogate-keys';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { conflict, forbidden } from '../http/errors';
import { lockItem } from '../items/repository';
import { itemLabel, journal, type AuditRecord } from '../journal/journal';
import { publishReferences } from '../publishing/publish-item';
import { deleteCopy, upsertCopy } from '../publishing/repository';
import { publishAudit } from '../publishing/service';
import type { WorkspaceAccess } from '../workspaces/access';
import { entryStates } from './entry-state';
import { putReleaseInStage } from './stage-copies';
import * as repo from './repository';
import { getRelease, releaseAudit, requirePublisher, requireRelease, unpublishableSchemas } from './service';

interface Done {
  schema: string;
  id: string;
  audit: AuditRecord;
}

/** An item of a release event's payload: what the publish or revert did to it. */
const eventItem = (d: Done) => ({
  id: d.id,
  schema: d.schema,
  action: d.audit.action === 'item.unpublished' ? ('unpublish' as const) : ('publish' as const),
  version: (d.audit.detail?.version as number | undefined) ?? null,
});

/** Who put an entry in the release, for the audit row of what publishing it did. */
const addedByOf = (entry: repo.ReleaseEntryRow | undefined) =>
  entry?.addedBy ? { addedBy: entry.addedBy, addedByName: entry.addedByName } : {};

/** The journal of a release going out or being reverted: one audit row per item and one for the release, one event, one notice. */
async function journalRelease(
  tx: Tx,
  access: WorkspaceAccess,
  release: repo.ReleaseRow,
  done: Done[],
  event: 'release.published' | 'release.reverted',
) {
  const workspaceId = access.workspace.id;
  const { stage } = release;
  await journal(tx, {
    audit: [
      ...done.map((d) => d.audit),
      releaseAudit(access, release, event, { stage, entries: done.length }),
    ],
    events: [
      {
        event,
        release: {
          workspaceId,
          id: release.id,
          stage,
          schemas: [...new Set(done.map((d) => d.schema))],
          entries: done.length,
          items: done.map(eventItem),
        },
      },
    ],
    changes: [
      { kind: 'items', workspaceId },
      { kind: 'stage', workspaceId, stage },
    ],
    purge: {
      workspaceId,
      keys: done.flatMap((d) => changedKeys({ workspaceId, stage, schema: d.schema }, d.id)),
    },
  });
}

/**
 * Publishes every entry of a release to its stage, each at its pinned version (or the current one), and
 * unpublishes the entries that say so: one transaction, so a refusal or failure at any entry leaves the
 * stage as it was. Each entry gets the same checks as publishing one item (its item locked meanwhile),
 * the blockers of every entry answered together (409); the copies are then written set-based.
 */
export async function publishRelease(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  options: { publishRefs: boolean; scheduled?: boolean },
) {
  requirePublisher(access);
  const at = new Date();
  await ctx.db.transaction(async (tx) => {
    const release = await requireRelease(tx, access, id, true);
    if (release.state === 'published') throw conflict(RELEASE_MESSAGES.published);
    // A run claimed before a change cleared the schedule, or before its scheduler set another time.
    if (options.scheduled && (release.scheduleStatus !== 'running' || release.scheduledBy !== access.user.id))
      throw conflict(RELEASE_MESSAGES.notScheduled);
    const entries = await repo.listEntries(tx, access.workspace.id, id);
    if (entries.length === 0) throw conflict(RELEASE_MESSAGES.empty);
    const states = await entryStates(tx, access, release, entries, true);
    const blocked = states
      .filter((s) => s.blockers.length > 0)
      .map((s) => ({ schema: s.entry.schema, itemId: s.entry.itemId, blockers: s.blockers }));
    if (blocked.length > 0) throw conflict(RELEASE_MESSAGES.blocked, { blocked });

    await repo.recordOutcomes(tx, release);
    const removed = await putReleaseInStage(tx, access.model, release, at, access.user.id);
    const detail = { stage: release.stage, release: id };
    const done: Done[] = [];
    const byKey = new Map(states.map((s) => [`${s.entry.schema}/${s.entry.itemId}`, s]));
    for (const copy of removed) {
      const key = { workspaceId: release.workspaceId, schema: copy.schema, id: copy.id };
      const state = byKey.get(`${copy.schema}/${copy.id}`);
      const label = itemLabel(state?.item?.data);
      done.push({
        ...key,
        audit: publishAudit(access, 'item.unpublished', key, {
          label,
          detail: { ...detail, ...addedByOf(state?.entry) },
        }),
      });
    }
    const inRelease = new Set(byKey.keys());
    for (const { entry, item, content, scope } of states) {
      if (entry.action !== 'publish' || !item || !content || !scope) continue;
      const key = { workspaceId: entry.workspaceId, schema: entry.schema, id: entry.itemId };
      done.push({
        ...key,
        audit: publishAudit(access, 'item.published', key, {
          label: itemLabel(content.data),
          detail: { ...detail, version: content.version, ...addedByOf(entry) },
        }),
      });
      if (!options.publishRefs) continue;
      const refs = await publishReferences(
        tx,
        scope,
        { ...item, refs: content.refs },
        release.stage,
        at,
        inRelease,
      );
      for (const ref of refs) {
        inRelease.add(`${ref.schema}/${ref.id}`);
        done.push({
          ...ref,
          audit: publishAudit(access, 'item.published', ref, {
            label: content.refs[ref.id]?.label ?? null,
            detail: { ...detail, version: ref.version },
          }),
        });
      }
    }
    const published = await repo.updateRelease(tx, access.workspace.id, id, {
      state: 'published',
      publishedAt: at,
      publishedBy: access.user.id,
      updatedAt: at,
      updatedBy: access.user.id,
      // Run by its schedule: done; published by hand: a schedule still waiting has nothing left to do.
      ...(options.scheduled
        ? { scheduleStatus: 'done' as const, ranAt: at, lastError: null, leaseUntil: null }
        : release.scheduleStatus === 'pending'
          ? { scheduleStatus: null, leaseUntil: null }
          : {}),
    });
    await journalRelease(tx, access, published, done, 'release.published');
  });
  return getRelease(ctx, access, id);
}

/**
 * Restores what the release replaced in its stage: each entry's previous version published again, and
 * what was new unpublished. One transaction; needs the publish right on every entry's schema.
 */
export async function revertRelease(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requirePublisher(access);
  const at = new Date();
  await ctx.db.transaction(async (tx) => {
    const release = await requireRelease(tx, access, id, true);
    if (release.state !== 'published') throw conflict(RELEASE_MESSAGES.notPublished);
    const entries = await repo.listEntries(tx, access.workspace.id, id);
    const denied = unpublishableSchemas(
      access,
      entries.map((e) => e.schema),
    );
    if (denied.length > 0) throw forbidden(`You do not have permission to publish ${denied.join(', ')}`);
    const done: Done[] = [];
    const detail = { stage: release.stage, release: id, revert: true };
    // What the stage holds now, to refuse overwriting what was published there after the release.
    const inStage = await repo.stageVersionsOf(tx, release);
    const changed: { schema: string; itemId: string; label: string | null }[] = [];
    for (const entry of entries) {
      const key = { workspaceId: entry.workspaceId, schema: entry.schema, id: entry.itemId };
      const item = await lockItem(tx, key);
      // A deleted item took its stage copies with it: nothing to restore.
      if (!item) continue;
      const expected = entry.action === 'publish' ? entry.publishedVersion : null;
      if ((inStage.get(`${entry.schema}/${entry.itemId}`) ?? null) !== expected) {
        changed.push({ schema: entry.schema, itemId: entry.itemId, label: itemLabel(item.data) });
        continue;
      }
      const content =
        entry.previousVersion === null
          ? undefined
          : await repo.versionContent(tx, key, entry.previousVersion);
      if (content) {
        await upsertCopy(tx, access.model, item, release.stage, access.user.id, at, content);
        const audit = publishAudit(access, 'item.published', key, {
          label: itemLabel(content.data),
          detail: { ...detail, version: content.version },
        });
        done.push({ ...key, audit });
      } else if (await deleteCopy(tx, key, release.stage)) {
        const audit = publishAudit(access, 'item.unpublished', key, { label: itemLabel(item.data), detail });
        done.push({ ...key, audit });
      }
    }
    if (changed.length > 0) {
      const names = changed.map((c) => c.label ?? c.itemId);
      throw conflict(RELEASE_MESSAGES.changedSince(names), { changed });
    }
    const reverted = await repo.updateRelease(tx, access.workspace.id, id, {
      state: 'reverted',
      updatedAt: at,
      updatedBy: access.user.id,
    });
    await journalRelease(tx, access, reverted, done, 'release.reverted');
  });
  return getRelease(ctx, access, id);
}
