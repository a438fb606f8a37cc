import type { Batch } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { can } from '@shared/permissions/permissions';
import { MAX_BATCH_ERRORS } from '@shared/api/customers';
import { conflict, forbidden, notFound } from '../http/errors';
import { csvRow } from '../http/csv-output';
import { randomId } from '../lib/ids';
import { actorOf, journal } from '../journal/journal';
import { requireCustomerData, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './repository';

/** Groups of row errors a batch answers (the CSV has them all). */
const ERROR_GROUPS = 20;

type Grouped = Awaited<ReturnType<typeof repo.errorGroups>>;

/** Customer data imports: their row errors quote the imported values. */
const CUSTOMER_IMPORTS = new Set(['profiles-import', 'customer-events-import']);
const showsCustomerData = (row: repo.BatchRow) => CUSTOMER_IMPORTS.has(row.kind);
const mayReadErrors = (access: WorkspaceAccess, row: repo.BatchRow) =>
  !showsCustomerData(row) || can(access.permissions, 'customerData', 'read');

/** A batch as the caller sees it: a customer import's row errors only for members who may read customer data. */
const presentBatch = (access: WorkspaceAccess, row: repo.BatchRow, grouped: Grouped): Batch => {
  const batch = presentRow(row, grouped);
  return mayReadErrors(access, row) ? batch : { ...batch, errors: [], errorGroups: [] };
};

const presentRow = (row: repo.BatchRow, grouped: Grouped): Batch => ({
  id: row.id,
  kind: row.kind,
  fileName: row.fileName,
  status: row.state,
  total: row.total,
  processed: row.done,
  stored: row.done - row.duplicates,
  duplicates: row.duplicates,
  failed: row.failed,
  errors: row.errors,
  errorGroups: grouped.get(row.id)?.groups ?? [],
  errorKinds: grouped.get(row.id)?.kinds ?? 0,
  bytesTotal: row.bytesTotal,
  bytesRead: row.bytesRead,
  startedAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
  createdBy: row.createdBy,
  createdByName: row.createdByName,
});

/** The workspace's bulk jobs, newest first; any member may read them. */
export async function listBatches(ctx: AppContext, access: WorkspaceAccess) {
  const rows = await repo.listBatches(ctx.db, access.workspace.id);
  const failing = rows.filter((row) => row.failed > 0 || row.state === 'failed').map((row) => row.id);
  const grouped = await repo.errorGroups(ctx.db, access.workspace.id, failing, ERROR_GROUPS);
  return rows.map((row) => presentBatch(access, row, grouped));
}

export async function getBatch(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await repo.findBatch(ctx.db, access.workspace.id, id);
  if (!row) throw notFound('Batch not found');
  return presentBatch(access, row, await repo.errorGroups(ctx.db, access.workspace.id, [id], ERROR_GROUPS));
}

/**
 * Every row error of a batch as CSV (`line,message`, in line order); any member may read, a customer
 * import's only members who may read customer data.
 */
export async function batchErrorsCsv(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await repo.findBatch(ctx.db, access.workspace.id, id);
  if (!row) throw notFound('Batch not found');
  if (showsCustomerData(row)) requireCustomerData(access, 'read');
  const errors = await repo.allErrors(ctx.db, access.workspace.id, id);
  return {
    fileName: `${row.fileName?.replace(/\.[^.]*$/, '') || row.kind}-errors.csv`,
    csv: [csvRow(['line', 'message']), ...errors.map((e) => csvRow([e.line, e.message]))].join(''),
  };
}

/** Starts a running batch and answers its id. */
export async function startBatch(
  ctx: AppContext,
  access: WorkspaceAccess,
  kind: string,
  details: { fileName?: string | null; bytesTotal?: number | null; total?: number } = {},
) {
  const id = randomId(20);
  await ctx.db.transaction(async (tx) => {
    await repo.insertBatch(tx, {
      workspaceId: access.workspace.id,
      id,
      kind,
      state: 'running',
      fileName: details.fileName ?? null,
      bytesTotal: details.bytesTotal ?? null,
      total: details.total ?? 0,
      createdBy: access.user.id,
    });
    await journal(tx, { audit: [batchAudit(access, 'import.started', id, kind, details.fileName)] });
  });
  return id;
}

/** The audit row of a batch starting or ending (one each, never one per row). */
const batchAudit = (
  access: WorkspaceAccess,
  action: 'import.started' | 'import.finished',
  id: string,
  kind: string,
  fileName: string | null | undefined,
  detail: Record<string, unknown> = {},
) => ({
  workspaceId: access.workspace.id,
  user: actorOf(access),
  action,
  targetType: 'import' as const,
  targetId: id,
  label: fileName ?? kind,
  detail: { kind, ...detail },
});

/**
 * Ends a batch, journaled: an import that read its whole source (`ended`: done, done with errors or
 * failed by its counts), or one that `stopped` (failed).
 */
export async function endBatch(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  how: 'ended' | 'stopped',
  lastError?: { line: number; message: string },
) {
  await ctx.db.transaction(async (tx) => {
    await repo.finishBatch(tx, access.workspace.id, id, how, lastError);
    const row = await repo.findBatch(tx, access.workspace.id, id);
    await journal(tx, {
      audit: [
        batchAudit(access, 'import.finished', id, row?.kind ?? '', row?.fileName, {
          state: row?.state,
          processed: row?.done,
          failed: row?.failed,
        }),
      ],
    });
  });
}

/** Spec §6: multi-image upload needs edit on marquee-assets-image-set; so does recording its batch. */
function requireImageUploader(access: WorkspaceAccess) {
  if (!can(access.permissions, 'edit', 'marquee-assets-image-set')) {
    throw forbidden('You do not have permission to upload image sets');
  }
}

/** A bulk image upload starts its batch with the number of images it will save. */
export async function startImageUploadBatch(ctx: AppContext, access: WorkspaceAccess, total: number) {
  requireImageUploader(access);
  const id = await startBatch(ctx, access, 'image-upload', { total });
  return getBatch(ctx, access, id);
}

/** Images saved or failed since the last report; with `finished`, the batch ends. Only its creator reports. */
export async function reportImageUpload(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  report: {
    processed: number;
    failed: number;
    errors: { line: number; message: string }[];
    finished: boolean;
  },
) {
  requireImageUploader(access);
  const row = await repo.findBatch(ctx.db, access.workspace.id, id);
  if (!row || row.kind !== 'image-upload' || row.createdBy !== access.user.id)
    throw notFound('Batch not found');
  if (row.state !== 'running') throw conflict('This batch has finished');
  await repo.addProgress(
    ctx.db,
    access.workspace.id,
    id,
    { processed: report.processed, failed: report.failed, errors: report.errors.slice(0, MAX_BATCH_ERRORS) },
    { countsTotal: false },
  );
  if (report.finished) {
    await ctx.db.transaction(async (tx) => {
      if (!(await repo.finishRunning(tx, access.workspace.id, id, access.user.id))) return;
      const ended = await repo.findBatch(tx, access.workspace.id, id);
      await journal(tx, {
        audit: [
          batchAudit(access, 'import.finished', id, row.kind, row.fileName, {
            state: ended?.state,
            processed: ended?.done,
            failed: ended?.failed,
          }),
        ],
      });
    });
  }
  return getBatch(ctx, access, id);
}
