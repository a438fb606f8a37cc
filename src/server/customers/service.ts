import type { LiveEvent } from '@shared/api/customers';
import { can } from '@shared/permissions/permissions';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { badRequest, forbidden } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import type { WorkspaceAccess } from '../workspaces/access';
import { eventFromObject } from './customer-rows';
import { loadDefinitions } from './definitions';
import * as repo from './repository';
import { suppressedAmong } from './suppression-repository';
import { suppressedMessage } from './suppression-service';

/** Managers, and members who may edit customer-profile-attribute, may import and track. */
export function requireImporter(access: WorkspaceAccess) {
  if (
    !access.permissions.canManageWorkspace &&
    !can(access.permissions, 'edit', 'customer-profile-attribute')
  ) {
    throw forbidden('You do not have permission to import customer data');
  }
}

/**
 * Live tracking: up to 1,000 events, all written or none (400 naming the first event that does not fit),
 * except events of a suppressed profile id, which are refused one by one in the answer.
 */
export async function trackEvents(
  ctx: AppContext,
  access: WorkspaceAccess,
  input: z.infer<typeof LiveEvent>[],
) {
  requireImporter(access);
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const converted: { index: number; row: repo.EventTuple }[] = [];
  input.forEach((event, index) => {
    const one = eventFromObject(event as Record<string, unknown>, defs);
    if ('error' in one) throw badRequest(`events.${index}: ${one.error}`);
    converted.push({ index, row: one.row });
  });
  // Events of a suppressed profile id are refused one by one; the others are written.
  const suppressed = await suppressedAmong(ctx.db, access.workspace.id, [
    ...new Set(converted.map(({ row }) => row[0])),
  ]);
  const rows = converted.filter(({ row }) => !suppressed.has(row[0])).map(({ row }) => row);
  const refused = converted
    .filter(({ row }) => suppressed.has(row[0]))
    .map(({ index, row }) => ({ index, message: suppressedMessage(row[0]) }));
  await ctx.db.transaction(async (tx) => {
    await repo.insertEvents(tx, access.workspace.id, rows);
    // One row per request, never one per event.
    await journal(tx, {
      audit: [
        {
          workspaceId: access.workspace.id,
          user: actorOf(access),
          action: 'customer-events.tracked',
          targetType: 'import',
          targetId: 'customer-events',
          detail: { accepted: rows.length },
        },
      ],
    });
  });
  return refused.length ? { accepted: rows.length, refused } : { accepted: rows.length };
}
