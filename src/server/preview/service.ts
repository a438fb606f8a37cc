import type { DeliveredItem } from '@shared/api/delivery';
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
import { deliveredSchema, getDelivered, type DeliveryTarget } from '../delivery/service';
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
 * had they been saved: checked as a save checks them (400 with its message), written as the item's
 * draft inside the transaction renderFromDrafts rolls back, so nothing is kept.
 */
export async function renderUnsaved(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: PreviewRenderBody,
): Promise<PreviewRenderAnswer> {
  const scope = deliveredScope(access, body.schema);
  if (body.id !== undefined) await requireItem(ctx, scope, body.id);
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
  const rendered = await renderFromDrafts(
    ctx,
    {
      place: target,
      seed: { schema: body.schema, id },
      depth: 1,
      release,
      by: `preview:${access.user.id}`,
      before: (tx) =>
        repo.writeWorkingVersion(tx, {
          workspaceId: target.workspaceId,
          schema: body.schema,
          id,
          data: checked.data,
          refs: checked.refs,
          modelVersion: checked.modelVersion,
          by: access.user.id,
        }),
    },
    (inDrafts) =>
      getDelivered(
        inDrafts,
        target,
        id,
        { include: 'refs', ...(body.locale && { locale: body.locale }) },
        '',
      ),
  );
  const item = JSON.parse(rendered.body) as DeliveredItem;
  return { item, editInfo: editInfoOf(target.workspaceId, target.schema, id, item.data) };
}
