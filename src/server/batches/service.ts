import type { Batch } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import type { WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';

export const presentBatch = (row: repo.BatchRow): Batch => ({
  id: row.id,
  kind: row.kind,
  fileName: row.fileName,
  status: row.state,
  total: row.total,
  processed: row.done,
  failed: row.failed,
  errors: row.errors,
  bytesTotal: row.bytesTotal,
  bytesRead: row.bytesRead,
  startedAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
  createdBy: row.createdBy,
  createdByName: row.createdByName,
});

/** The workspace's bulk jobs, newest first; any member may read them. */
export async function listBatches(ctx: AppContext, access: WorkspaceAccess) {
  return (await repo.listBatches(ctx.db, access.workspace.id)).map(presentBatch);
}

export async function getBatch(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await repo.findBatch(ctx.db, access.workspace.id, id);
  if (!row) throw notFound('Batch not found');
  return presentBatch(row);
}

/** Starts a running batch and answers its id. */
export async function startBatch(
  ctx: AppContext,
  access: WorkspaceAccess,
  kind: string,
  details: { fileName?: string | null; bytesTotal?: number | null } = {},
) {
  const id = randomId(20);
  await repo.insertBatch(ctx.db, {
    workspaceId: access.workspace.id,
    id,
    kind,
    state: 'running',
    fileName: details.fileName ?? null,
    bytesTotal: details.bytesTotal ?? null,
    createdBy: access.user.id,
  });
  return id;
}
