import type { LiveEvent } from '@shared/api/customers';
import { can } from '@shared/permissions/permissions';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { badRequest, forbidden, notFound } from '../http/errors';
import { actorOf, journal } from '../journal/journal';
import type { WorkspaceAccess } from '../workspaces/access';
import { eventFromObject } from './customer-rows';
import { loadDefinitions } from './definitions';
import * as repo from './repository';

/** Managers, and members who may edit customer-profile-attribute, may import and track. */
export function requireImporter(access: WorkspaceAccess) {
  if (
    !access.permissions.canManageWorkspace &&
    !can(access.permissions, 'edit', 'customer-profile-attribute')
  ) {
    throw forbidden('You do not have permission to import customer data');
  }
}

/** Live tracking: up to 1,000 events, all written or none (400 naming the first event that does not fit). */
export async function trackEvents(
  ctx: AppContext,
  access: WorkspaceAccess,
  input: z.infer<typeof LiveEvent>[],
) {
  requireImporter(access);
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const rows: repo.EventTuple[] = [];
  input.forEach((event, index) => {
    const converted = eventFromObject(event as Record<string, unknown>, defs);
    if ('error' in converted) throw badRequest(`events.${index}: ${converted.error}`);
    rows.push(converted.row);
  });
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
  return { accepted: rows.length };
}

const presentProfile = (row: repo.ProfileRow) => ({
  id: row.id,
  attributes: row.attributes,
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** A keyset page of profiles by id; any member may read. */
export async function listProfiles(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: { search?: string; cursor?: string; limit: number },
) {
  const rows = await repo.listProfiles(ctx.db, access.workspace.id, {
    search: query.search,
    after: query.cursor,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    profiles: page.map(presentProfile),
    nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
  };
}

/** One profile with its latest 50 events. */
export async function getProfile(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await repo.findProfile(ctx.db, access.workspace.id, id);
  if (!row) throw notFound('Profile not found');
  const events = await repo.latestEvents(ctx.db, access.workspace.id, id, 50);
  return {
    profile: presentProfile(row),
    events: events.map((e) => ({
      event: e.event,
      at: new Date(e.at).toISOString(),
      properties: e.properties,
    })),
  };
}
