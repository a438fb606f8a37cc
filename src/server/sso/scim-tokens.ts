import {
  SCIM_MESSAGES,
  SCIM_TOKEN_PREFIX,
  scimBasePath,
  type CreateScimTokenBody,
  type ScimTokenList,
  type ScimTokenSummary,
} from '@shared/api/scim';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { journalKeyChange } from '../journal/key-changes';
import { hashToken, randomId, randomToken } from '../lib/ids';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './scim-repository';

const toSummary = (row: repo.ScimTokenRow): ScimTokenSummary => ({
  id: row.id,
  name: row.name,
  createdBy: row.createdByName,
  createdById: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/** Makes a SCIM token of the workspace (managers only); the secret is answered this once and only its hash kept. */
export async function createScimToken(ctx: AppContext, access: WorkspaceAccess, body: CreateScimTokenBody) {
  requireManager(access);
  const token = `${SCIM_TOKEN_PREFIX}${randomToken()}`;
  const id = randomId(16);
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    await repo.insertToken(tx, {
      workspaceId,
      id,
      name: body.name,
      tokenHash: hashToken(token),
      createdBy: access.user.id,
      createdByName: access.member.displayName,
    });
    await journalKeyChange(tx, access, {
      action: 'scim-token.created',
      targetType: 'scim-token',
      id,
      name: body.name,
    });
  });
  return { id, token };
}

export async function listScimTokens(ctx: AppContext, access: WorkspaceAccess): Promise<ScimTokenList> {
  requireManager(access);
  return {
    baseUrl: `${ctx.config.publicUrl}${scimBasePath(access.workspace.id)}`,
    tokens: (await repo.listTokens(ctx.db, access.workspace.id)).map(toSummary),
  };
}

/** Revokes a token: the identity provider's next request with it answers 401 (tokens are read on every request). */
export async function revokeScimToken(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteToken(tx, workspaceId, id);
    if (!row) throw notFound(SCIM_MESSAGES.tokenNotFound);
    await journalKeyChange(tx, access, {
      action: 'scim-token.revoked',
      targetType: 'scim-token',
      id,
      name: row.name,
    });
  });
  return { id, revoked: true as const };
}

/**
 * The token of a SCIM request, from `Authorization: Bearer mqscim_…`, if it is one of the workspace's:
 * a token of another workspace is refused like an unknown one. Its use is noted after the answer.
 */
export async function authenticateScimToken(
  ctx: AppContext,
  authorization: string | undefined,
  workspaceId: string,
): Promise<repo.ScimTokenRow | { refused: string }> {
  const token = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? '';
  if (!token) return { refused: SCIM_MESSAGES.missingToken };
  if (!token.startsWith(SCIM_TOKEN_PREFIX) || token.length > 200)
    return { refused: SCIM_MESSAGES.invalidToken };
  const row = await repo.findTokenByHash(ctx.db, hashToken(token));
  if (!row || row.workspaceId !== workspaceId) return { refused: SCIM_MESSAGES.invalidToken };
  ctx.background.run('scim token use', () => repo.touchToken(ctx.db, row.workspaceId, row.id, new Date()));
  return row;
}
