import type { z } from 'zod';
import type { Suppression, SuppressionBody, SuppressionsQuery } from '@shared/api/customers';
import type { AppContext } from '../context';
import { badRequest, conflict, notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import { actorOf, journal } from '../journal/journal';
import { requireCustomerData, requireManager, type WorkspaceAccess } from '../workspaces/access';
import * as repo from './suppression-repository';

const present = (row: repo.SuppressionRow): Suppression => ({
  id: row.id,
  profileId: row.profile_id,
  email: row.email,
  reason: row.reason as Suppression['reason'],
  note: row.note,
  createdAt: new Date(row.created_at).toISOString(),
  createdByName: row.created_by_name,
});

/** The refusal of a row or event of a suppressed profile id, as imports and tracking report it. */
export const suppressedMessage = (profileId: string) =>
  `profile "${profileId}" is on the suppression list: not written`;

const encodeCursor = (at: string, id: string) => Buffer.from(`${at}|${id}`).toString('base64url');
function decodeCursor(text: string) {
  const [at, ...rest] = Buffer.from(text, 'base64url').toString().split('|');
  const id = rest.join('|');
  if (!at || !id || Number.isNaN(Date.parse(at))) throw badRequest('cursor: not a cursor of this list');
  return { at, id };
}

/** The suppression list, newest first; members who may read customer data read it, a manager changes it. */
export async function listSuppressions(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: z.infer<typeof SuppressionsQuery>,
) {
  requireCustomerData(access, 'read');
  const rows = await repo.listSuppressions(ctx.db, access.workspace.id, {
    search: query.search?.trim() || undefined,
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    suppressions: page.map(present),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.cursor_at, last.id) : null,
  };
}

/** A manager adds an entry by hand (reason `manual` unless given); 409 when it is listed already. */
export async function addSuppression(
  ctx: AppContext,
  access: WorkspaceAccess,
  body: z.infer<typeof SuppressionBody>,
) {
  requireManager(access);
  const actor = actorOf(access);
  const workspaceId = access.workspace.id;
  return ctx.db.transaction(async (tx) => {
    const row = await repo.insertSuppression(tx, workspaceId, {
      id: randomId(),
      profileId: body.profileId?.trim() || null,
      email: body.email?.trim().toLowerCase() || null,
      reason: body.reason,
      note: body.note?.trim() || null,
      createdBy: actor.id,
      createdByName: actor.name,
    });
    if (!row) throw conflict('This profile id or email address is on the suppression list already');
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actor,
          action: 'suppression.added',
          targetType: 'suppression',
          targetId: row.id,
          detail: { reason: row.reason },
        },
      ],
    });
    return { suppression: present(row) };
  });
}

/** A manager removes an entry: the profile id can be imported and tracked again. */
export async function removeSuppression(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireManager(access);
  const workspaceId = access.workspace.id;
  await ctx.db.transaction(async (tx) => {
    const row = await repo.deleteSuppression(tx, workspaceId, id);
    if (!row) throw notFound('Suppression entry not found');
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'suppression.removed',
          targetType: 'suppression',
          targetId: row.id,
          detail: { reason: row.reason },
        },
      ],
    });
  });
}
