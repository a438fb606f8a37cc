import type { AuditPage, AuditQuery } from '@shared/api/delivery';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import { requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';

/** A page of the workspace's audit log, newest first, filtered by user, action and time (managers). */
export async function listAudit(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: AuditQuery,
): Promise<AuditPage> {
  requireManager(access);
  let beforeId: number | undefined;
  if (query.cursor) {
    beforeId = Number(query.cursor);
    if (!Number.isSafeInteger(beforeId) || beforeId < 1)
      throw badRequest('cursor: invalid, ask for the first page again');
  }
  const rows = await repo.listAudit(ctx.db, {
    workspaceId: access.workspace.id,
    userId: query.user,
    action: query.action,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    beforeId,
    limit: query.limit,
  });
  const page = rows.slice(0, query.limit);
  return {
    entries: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      userId: row.userId,
      userName: row.userName,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      label: row.label,
      schema: row.schema,
      detail: row.detail,
      address: row.address,
    })),
    nextCursor: rows.length > query.limit ? String(page.at(-1)!.id) : null,
  };
}
