import {
  CreateWriteKeyBody,
  INGEST_MESSAGES,
  SERVER_KEY_PREFIX,
  WRITE_KEY_PREFIX,
  type UpdateWriteKeyBody,
  type WriteKeySummary,
} from '@shared/api/ingest';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { journalKeyChange } from '../journal/key-changes';
import { badRequest, notFound } from '../http/errors';
import { hashToken, randomId, randomToken } from '../lib/ids';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';

function toSummary(row: repo.WriteKeyRow): WriteKeySummary {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    origins: row.origins,
    strict: row.strict,
    createdBy: row.createdByName,
    createdById: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Creates a write key or a server key (managers only); the secret is answered this once and only its
 * hash kept. A server key takes no origins: it is never used from a browser.
 */
export async function createWriteKey(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: z.output<typeof CreateWriteKeyBody>,
) {
  requireManager(access);
  if (body.kind === 'server' && body.origins.length) throw badRequest(INGEST_MESSAGES.serverKeyOrigins);
  const key = `${body.kind === 'server' ? SERVER_KEY_PREFIX : WRITE_KEY_PREFIX}${randomToken()}`;
  const id = randomId(16);
  const workspaceId = access.workspace.id;
  const origins = [...new Set(body.origins)];
  await ctx.db.transaction(async (tx) => {
    await repo.insertWriteKey(tx, {
      workspaceId,
      id,
      name: body.name,
      kind: body.kind,
      origins,
      strict: body.strict,
      keyHash: hashToken(key),
      createdBy: access.user.id,
      createdByName: access.member.displayName,
    });
    await journalKeyChange(tx, access, {
      action: 'write-key.created',
      targetType: 'write-key',
      id,
      name: body.name,
      detail: { name: body.name, kind: body.kind, origins, strict: body.strict },
    });
  });
  return { id, key };
}

export async function listWriteKeys(ctx: AppContext, access: WorkspaceAccess) {
  requireManager(access);
  return { keys: (await repo.listWriteKeys(ctx.db, access.workspace.id)).map(toSummary) };
}

/**
 * Changes whether a key is strict (managers only): refusing undeclared events, properties and
 * attributes, or keeping them. Every server process reads the key again at once.
 */
export async function updateWriteKey(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: UpdateWriteKeyBody,
): Promise<WriteKeySummary> {
  requireManager(access);
  const workspaceId = access.workspace.id;
  return ctx.db.transaction(async (tx) => {
    const row = await repo.updateWriteKey(tx, workspaceId, id, { strict: body.strict });
    if (!row) throw notFound(INGEST_MESSAGES.keyNotFound);
    await journalKeyChange(tx, access, {
      action: 'write-key.updated',
      targetType: 'write-key',
      id,
      name: row.name,
      detail: { name: row.name, strict: body.strict },
    });
    return toSummary(row);
  });
}

/** Revokes a key: the next request with it answers 401, in every server process. */
export async function revokeWriteKey(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteWriteKey(tx, workspaceId, id);
    if (!row) throw notFound(INGEST_MESSAGES.keyNotFound);
    await journalKeyChange(tx, access, {
      action: 'write-key.revoked',
      targetType: 'write-key',
      id,
      name: row.name,
    });
  });
  return { id, revoked: true as const };
}
