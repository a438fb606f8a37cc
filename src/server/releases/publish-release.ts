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
import { can } from '@shared/permissions/permissions';
import type { WorkspaceAccess } from '../workspaces/access';
import { entryState } from './entry-state';
import * as repo from './repository';
import { getRelease, releaseAudit, requirePublisher, requireRelease, stageVersions } from './service';

interface Done {
  schema: string;
  id: string;
  audit: AuditRecord;
}

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
 * stage as it was. Each entry goes through the same checks and copy as publishing one item; the blockers
 * of every entry are answered together (409).
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
    const entries = await repo.listEntries(tx, access.workspace.id, id);
    if (entries.length === 0) throw conflict(RELEASE_MESSAGES.empty);
    const before = await stageVersions(tx, release, entries);
    const inRelease = new Set(entries.map((e) => `${e.schema}/${e.itemId}`));
    const blocked: { schema: string; itemId: string; blockers: string[] }[] = [];
    const done: Done[] = [];
    for (const entry of entries) {
      const state = await entryState(tx, access, entry, tx);
      if (state.blockers.length > 0) {
        blocked.push({ schema: entry.schema, itemId: entry.itemId, blockers: state.blockers });
        continue;
      }
      const previousVersion = before.get(`${entry.schema}/${entry.itemId}`) ?? null;
      const key = { workspaceId: entry.workspaceId, schema: entry.schema, id: entry.itemId };
      const detail = { stage: release.stage, release: id };
      if (entry.action === 'unpublish') {
        await repo.recordOutcome(tx, entry, { previousVersion, publishedVersion: null });
        if (await deleteCopy(tx, key, release.stage)) {
          const label = itemLabel(state.item?.data);
          done.push({ ...key, audit: publishAudit(access, 'item.unpublished', key, { label, detail }) });
        }
        continue;
      }
      const { item, content, scope } = state;
      if (!item || !content || !scope) continue;
      await upsertCopy(tx, item, release.stage, access.user.id, at, content);
      await repo.recordOutcome(tx, entry, { previousVersion, publishedVersion: content.version });
      done.push({
        ...key,
        audit: publishAudit(access, 'item.published', key, {
          label: itemLabel(content.data),
          detail: { ...detail, version: content.version },
        }),
      });
      if (options.publishRefs) {
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
    }
    if (blocked.length > 0) throw conflict(RELEASE_MESSAGES.blocked, { blocked });
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
    const denied = entries.filter((e) => !can(access.permissions, 'publish', e.schema));
    if (denied.length > 0) {
      throw forbidden(
        `You do not have permission to publish ${[...new Set(denied.map((e) => e.schema))].join(', ')}`,
      );
    }
    const done: Done[] = [];
    const detail = { stage: release.stage, release: id, revert: true };
    for (const entry of entries) {
      const key = { workspaceId: entry.workspaceId, schema: entry.schema, id: entry.itemId };
      const item = await lockItem(tx, key);
      // A deleted item took its stage copies with it: nothing to restore.
      if (!item) continue;
      const content =
        entry.previousVersion === null
          ? undefined
          : await repo.versionContent(tx, key, entry.previousVersion);
      if (content) {
        await upsertCopy(tx, item, release.stage, access.user.id, at, content);
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
    const reverted = await repo.updateRelease(tx, access.workspace.id, id, {
      state: 'reverted',
      updatedAt: at,
      updatedBy: access.user.id,
    });
    await journalRelease(tx, access, reverted, done, 'release.reverted');
  });
  return getRelease(ctx, access, id);
}
