import {
  API_KEY_PREFIX,
  DELIVERY_MESSAGES,
  type ApiKeySummary,
  type CreateApiKeyBody,
} from '@shared/api/delivery';
import type { AppContext } from '../context';
import { journalKeyChange } from '../journal/key-changes';
import { badRequest, notFound } from '../http/errors';
import { hashToken, randomId, randomToken } from '../lib/ids';
import { resolveStage } from '../items/service';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';

function toSummary(row: repo.ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    stages: row.stages,
    createdBy: row.createdByName,
    createdById: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    preview: row.preview,
  };
}

/** Creates a key for some stages of the workspace (managers only); the secret is answered this once. */
export async function createApiKey(ctx: AppContext, access: WorkspaceAccess, body: CreateApiKeyBody) {
  requireManager(access);
  const stages = [...new Set(body.stages.map((stage) => resolveStageOr400(access, stage)))];
  const preview = body.preview ?? false;
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  const id = randomId(16);
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    await repo.insertApiKey(tx, {
      workspaceId,
      id,
      name: body.name,
      stages,
      keyHash: hashToken(key),
      preview,
      createdBy: access.user.id,
      createdByName: access.member.displayName,
    });
    await journalKeyChange(tx, access, {
      action: 'api-key.created',
      targetType: 'api-key',
      id,
      name: body.name,
      detail: { name: body.name, stages, preview },
    });
  });
  return { id, key };
}

function resolveStageOr400(access: WorkspaceAccess, stage: string) {
  try {
    return resolveStage(access, stage);
  } catch {
    throw badRequest(`stages: Stage "${stage}" not found in this workspace`);
  }
}

export async function listApiKeys(ctx: AppContext, access: WorkspaceAccess) {
  requireManager(access);
  return { keys: (await repo.listApiKeys(ctx.db, access.workspace.id)).map(toSummary) };
}

/** Revokes a key: the next delivery request with it answers 401, in every server process. */
export async function revokeApiKey(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteApiKey(tx, workspaceId, id);
    if (!row) throw notFound(DELIVERY_MESSAGES.keyNotFound);
    await journalKeyChange(tx, access, {
      action: 'api-key.revoked',
      targetType: 'api-key',
      id,
      name: row.name,
    });
  });
  return { id, revoked: true as const };
}
