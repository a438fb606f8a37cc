import type { DeliveredItem, DeliveryQuery } from '@shared/api/delivery';
import {
  PREVIEW_MESSAGES,
  PREVIEW_TOKEN_DEFAULT_SECONDS,
  type CreatePreviewTokenBody,
  type PreviewRenderAnswer,
  type PreviewRenderBody,
} from '@shared/api/preview';
import { editInfoOf } from '@shared/preview/edit-attribute';
import { findStage } from '@shared/publishing/status';
import type { AppContext } from '../context';
import { renderFromDrafts } from '../delivery/draft-stage';
import { previewTokenOf } from '../delivery/preview-tokens';
import { findPreviewToken } from '../delivery/repository';
import { readDrafts } from '../delivery/drafts';
import type { Copy } from '../delivery/repository';
import { deliveredSchema, deliverUncached, getDelivered, type DeliveryTarget } from '../delivery/service';
import type { ItemReference } from '../db/schema';
import { slugFieldOf } from '../publishing/slugs';
import type { ReleaseRow } from '../releases/repository';
import { forbidden, notFound } from '../http/errors';
import { checkItemData, requireItem } from '../items/service';
import { schemaIn } from '../items/scope';
import { actorOf, journal } from '../journal/journal';
import { randomId } from '../lib/ids';
import { requireRelease } from '../releases/service';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import { membershipsChanged } from '../workspaces/repository';
import * as repo from './repository';

/** A schema of the workspace the caller may read and the delivery API answers (404 otherwise). */
function deliveredScope(access: WorkspaceAccess, schemaName: string) {
  const scope = schemaIn(access, schemaName);
  if (!deliveredSchema(access.model, schemaName)) throw notFound(`Schema "${schemaName}" not found`);
  return scope;
}

/** How long an expired token is kept, to answer that it expired. */
const EXPIRED_TOKENS_KEPT_MS = 7 * 24 * 3600_000;

/**
 * A preview token for the caller's session: for the whole workspace, a schema, one item or a release,
 * each of which the caller must be able to read. The token is answered this once.
 */
export async function createPreviewToken(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: CreatePreviewTokenBody,
) {
  const workspaceId = access.workspace.id;
  if (body.schema !== undefined) {
    const scope = deliveredScope(access, body.schema);
    if (body.itemId !== undefined) await requireItem(ctx, scope, body.itemId);
  }
  if (body.releaseId !== undefined) await requireRelease(ctx.db, access, body.releaseId);
  const id = randomId(20);
  const expiresAt = new Date(Date.now() + (body.expiresIn ?? PREVIEW_TOKEN_DEFAULT_SECONDS) * 1000);
  const scope = {
    schema: body.schema ?? null,
    itemId: body.itemId ?? null,
    releaseId: body.releaseId ?? null,
  };
  await ctx.db.transaction(async (tx) => {
    await repo.deleteExpiredPreviewTokens(tx, workspaceId, new Date(Date.now() - EXPIRED_TOKENS_KEPT_MS));
    await repo.insertPreviewToken(tx, { workspaceId, id, createdBy: access.user.id, expiresAt, ...scope });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'preview-token.created',
          targetType: 'preview-token',
          targetId: id,
          schema: scope.schema,
          detail: { ...scope, expiresAt: expiresAt.toISOString() },
        },
      ],
    });
  });
  return {
    id,
    token: previewTokenOf(ctx.config.secret, workspaceId, id),
    expiresAt: expiresAt.toISOString(),
  };
}

/** Revokes a preview token (its maker or a manager): the next read with it answers 401. */
export async function revokePreviewToken(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    const row = await findPreviewToken(tx, workspaceId, id);
    if (!row) throw notFound(PREVIEW_MESSAGES.tokenNotFound);
    if (row.createdBy !== access.user.id && !access.permissions.canManageWorkspace)
      throw forbidden(PREVIEW_MESSAGES.notYourToken);
    await repo.revokePreviewToken(tx, workspaceId, id, new Date());
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'preview-token.revoked',
          targetType: 'preview-token',
          targetId: id,
          schema: row.schema,
        },
      ],
    });
  });
}

export async function getPreviewOrigins(ctx: AppContext, access: WorkspaceAccess) {
  return { origins: await repo.previewOriginsOf(ctx.db, access.workspace.id) };
}

/** Sets the workspace's preview origins (managers), each as the browser spells it, once. */
export async function setPreviewOrigins(ctx: AppContext, access: WorkspaceAccess, origins: string[]) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  const normalised = [...new Set(origins.map((origin) => new URL(origin).origin))];
  await ctx.db.transaction(async (tx) => {
    await repo.setPreviewOrigins(tx, workspaceId, normalised);
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'preview-origins.updated',
          targetType: 'workspace',
          targetId: workspaceId,
          detail: { origins: normalised },
        },
      ],
      changes: [membershipsChanged(workspaceId)],
    });
  });
  return { origins: normalised };
}

/** Stands in for the id of an item not saved yet. */
const UNSAVED_ID_LENGTH = 20;

/**
 * A form's unsaved values in the delivery shape, as `?preview=draft&include=refs` would answer them
 * had they been saved: checked as a save checks them (400 with its message), then rendered as the
 * item's draft with the drafts of the items it references, nothing written. In a release, written as
 * the item's draft inside the transaction renderFromDrafts rolls back (the release's entries go over it).
 */
export async function renderUnsaved(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: PreviewRenderBody,
): Promise<PreviewRenderAnswer> {
  const scope = deliveredScope(access, body.schema);
  const stored = body.id === undefined ? undefined : await requireItem(ctx, scope, body.id);
  const release =
    body.releaseId === undefined ? undefined : await requireRelease(ctx.db, access, body.releaseId);
  const checked = await checkItemData(ctx, scope, body.data, body.id);
  const stages = access.workspace.basics.stages;
  const stage = release?.stage ?? findStage(stages, stages[0] ?? '') ?? '';
  const id = body.id ?? randomId(UNSAVED_ID_LENGTH);
  const target: DeliveryTarget = {
    workspaceId: access.workspace.id,
    stage,
    model: access.model,
    schema: access.model.schema(body.schema)!,
    isDraft: true,
  };
  const query = { include: 'refs' as const, ...(body.locale && { locale: body.locale }) };
  const unsaved = { id, data: checked.data, refs: checked.refs, modelVersion: checked.modelVersion };
  let rendered;
  if (release) rendered = await renderInRelease(ctx, access, { target, release, unsaved, query });
  else {
    const own = await unsavedCopy(ctx, target, unsaved, stored?.version ?? 0);
    rendered = await deliverUncached(ctx, target, query, {
      what: `item/${id}`,
      find: async () => own,
      readReferenced: readDrafts(ctx, target, [own]),
    });
  }
  const item = JSON.parse(rendered.body) as DeliveredItem;
  return { item, editInfo: editInfoOf(target.workspaceId, target.schema, id, item.data) };
}

/** A form's values, checked, for an item (new, or saved at `savedVersion`). */
interface UnsavedValues {
  id: string;
  data: Record<string, unknown>;
  refs: Record<string, ItemReference>;
  modelVersion: number;
}

/**
 * The copy of the stage the values would make had they been saved and put in the stage as a draft:
 * the next version, published now, with the other slugs the item had in the stage as previousSlugs.
 */
async function unsavedCopy(
  ctx: AppContext,
  target: DeliveryTarget,
  unsaved: UnsavedValues,
  savedVersion: number,
): Promise<Copy> {
  const slugField = slugFieldOf(target.schema);
  const slugValue = slugField ? unsaved.data[slugField] : undefined;
  const slug = typeof slugValue === 'string' && slugValue !== '' ? slugValue : null;
  return {
    id: unsaved.id,
    schema: target.schema.name,
    version: savedVersion + 1,
    publishedAt: new Date(),
    data: unsaved.data,
    refs: unsaved.refs,
    slug,
    previousSlugs:
      slug === null || savedVersion === 0
        ? []
        : await repo.otherSlugsInStage(
            ctx.db,
            { ...target, schema: target.schema.name, id: unsaved.id },
            slug,
          ),
    modelVersion: unsaved.modelVersion,
  };
}

/** The values as the item's draft with the release's entries over it, in a transaction rolled back. */
async function renderInRelease(
  ctx: AppContext,
  access: WorkspaceAccess,
  render: { target: DeliveryTarget; release: ReleaseRow; unsaved: UnsavedValues; query: DeliveryQuery },
) {
  const { target, release, unsaved } = render;
  return renderFromDrafts(
    ctx,
    {
      place: target,
      seed: { schema: target.schema.name, id: unsaved.id },
      depth: 1,
      release,
      by: `preview:${access.user.id}`,
      before: (tx) =>
        repo.writeWorkingVersion(tx, {
          workspaceId: target.workspaceId,
          schema: target.schema.name,
          ...unsaved,
          by: access.user.id,
        }),
    },
    (inDrafts) => getDelivered(inDrafts, target, unsaved.id, render.query, ''),
  );
}
