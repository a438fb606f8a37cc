import crypto from 'node:crypto';
import {
  WEBHOOK_MESSAGES,
  type CreateWebhookBody,
  type PatchWebhookBody,
  type WebhookDelivery,
  type WebhookSummary,
} from '@shared/api/webhooks';
import { actorOf, journal } from '../journal/journal';
import type { AppContext } from '../context';
import { badRequest, notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import { sealSecret } from '../lib/secret-box';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import { checkWebhookUrl } from './addresses';
import * as repo from './repository';

/** The purpose webhook secrets are sealed under (see lib/secret-box). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret';

const toSummary = (row: repo.WebhookRow): WebhookSummary => ({
  id: row.id,
  url: row.url,
  events: row.events,
  schemas: row.schemas,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
});

const toDelivery = (row: repo.DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event,
  status: row.status,
  tries: row.tries,
  lastStatusCode: row.lastStatusCode,
  lastError: row.lastError,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
  nextAt: row.status === 'pending' ? row.nextAt.toISOString() : null,
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

function checkSchemas(access: WorkspaceAccess, schemas: string[] | undefined) {
  if (!schemas || schemas.length === 0) return null;
  for (const name of schemas)
    if (!access.model.schema(name)) throw badRequest(`schemas: Schema "${name}" not found`);
  return [...new Set(schemas)];
}

/** Registers a webhook (managers); the signing secret is answered this once. */
export async function createWebhook(ctx: AppContext, access: WorkspaceAccess, body: CreateWebhookBody) {
  requireManager(access);
  const url = await checkWebhookUrl(body.url, ctx.config.webhookAllowPrivate);
  const schemas = checkSchemas(access, body.schemas);
  const id = randomId(16);
  const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    await repo.insertWebhook(tx, {
      workspaceId,
      id,
      url: url.toString(),
      events: [...new Set(body.events)],
      schemas,
      secret: sealSecret(ctx.config.secret, WEBHOOK_SECRET_PURPOSE, secret),
      active: body.active ?? true,
      createdBy: access.user.id,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'webhook.created',
          targetType: 'webhook',
          targetId: id,
          label: url.toString(),
          detail: { url: url.toString(), events: body.events, schemas },
        },
      ],
    });
  });
  return { id, secret };
}

export async function listWebhooks(ctx: AppContext, access: WorkspaceAccess) {
  requireManager(access);
  return { webhooks: (await repo.listWebhooks(ctx.db, access.workspace.id)).map(toSummary) };
}

async function requireWebhook(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await repo.findWebhook(ctx.db, access.workspace.id, id);
  if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}

export async function updateWebhook(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: PatchWebhookBody,
) {
  requireManager(access);
  const url =
    body.url === undefined ? undefined : await checkWebhookUrl(body.url, ctx.config.webhookAllowPrivate);
  const patch = {
    ...(url ? { url: url.toString() } : {}),
    ...(body.events ? { events: [...new Set(body.events)] } : {}),
    ...(body.schemas !== undefined ? { schemas: checkSchemas(access, body.schemas) } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
  };
  const row = await ctx.db.transaction(async (tx) => {
    const updated = await repo.updateWebhook(tx, access.workspace.id, id, patch);
    if (!updated) throw notFound(WEBHOOK_MESSAGES.notFound);
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'webhook.updated',
          targetType: 'webhook',
          targetId: id,
          label: updated.url,
          detail: patch,
        },
      ],
    });
    return updated;
  });
  return toSummary(row);
}

export async function deleteWebhook(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteWebhook(tx, access.workspace.id, id);
    if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'webhook.deleted',
          targetType: 'webhook',
          targetId: id,
          label: row.url,
          detail: { url: row.url },
        },
      ],
    });
  });
  return { id, deleted: true as const };
}

/** The delivery log of a webhook, newest first. */
export async function listDeliveries(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  query: { limit: number; cursor?: string },
) {
  requireManager(access);
  await requireWebhook(ctx, access, id);
  const rows = await repo.listDeliveries(ctx.db, access.workspace.id, id, query.limit + 1, query.cursor);
  const page = rows.slice(0, query.limit);
  const nextCursor = rows.length > query.limit ? page[page.length - 1].id : null;
  return { deliveries: page.map(toDelivery), nextCursor };
}

/** 'Redeliver': the same event body again, as a new delivery due now. */
export async function redeliver(ctx: AppContext, access: WorkspaceAccess, id: string, deliveryId: string) {
  requireManager(access);
  const webhook = await requireWebhook(ctx, access, id);
  const row = await ctx.db.transaction(async (tx) => {
    const original = await repo.findDelivery(tx, access.workspace.id, id, deliveryId);
    if (!original) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
    const copy = await repo.copyDelivery(tx, original, crypto.randomUUID());
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'webhook.redelivered',
          targetType: 'webhook',
          targetId: id,
          label: webhook.url,
          detail: { delivery: deliveryId, event: original.event },
        },
      ],
    });
    return copy;
  });
  return toDelivery(row);
}
