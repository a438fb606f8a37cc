import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  PROFILE_SEARCH_MIN,
  type EraseProfileAnswer,
  type ProfileEditBody,
  type ProfileEventsQuery,
} from '@shared/api/customers';
import { convertValue, isBlank } from '@shared/criteria/convert';
import { can } from '@shared/permissions/permissions';
import type { AppContext } from '../context';
import { badRequest, conflict, notFound } from '../http/errors';
import { randomId } from '../lib/ids';
import { actorOf, journal } from '../journal/journal';
import { noticeProfileChanges } from '../journal/journey-notices';
import { requireCustomerData, type WorkspaceAccess } from '../workspaces/access';
import { loadDefinitions } from './definitions';
import * as repo from './repository';
import * as profiles from './profiles-repository';
import { insertSuppression } from './suppression-repository';
import { requireImporter } from './service';

const PROFILE_NOT_FOUND = 'Profile not found';
const LATEST_EVENTS = 50;

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

const presentProfile = (row: profiles.ProfileRecord) => ({
  id: row.id,
  attributes: row.attributes,
  updatedAt: row.updated_at,
});

const presentConsent = (row: profiles.ProfileRecord) => ({
  email: {
    state: row.email_consent,
    changedAt: iso(row.email_consent_at),
    source: row.email_consent_source,
  },
});

const mayEdit = (access: WorkspaceAccess) =>
  access.permissions.canManageWorkspace || can(access.permissions, 'edit', 'customer-profile-attribute');

/**
 * Profiles by search text, for members who may read customer data. From PROFILE_SEARCH_MIN characters the id and string
 * attribute values are searched (one page, the profile of that exact id first); a shorter text, or
 * none, pages through ids starting with it.
 */
export async function listProfiles(
  ctx: AppContext,
  access: WorkspaceAccess,
  query: { search?: string; cursor?: string; limit: number },
) {
  requireCustomerData(access, 'read');
  const search = query.search?.trim() ?? '';
  if (search.length >= PROFILE_SEARCH_MIN) {
    const found = await profiles.searchProfiles(ctx.db, access.workspace.id, search, query.limit);
    const exact = found.filter((row) => row.id === search);
    const others = found.filter((row) => row.id !== search).sort((a, b) => (a.id < b.id ? -1 : 1));
    return { profiles: [...exact, ...others].map(presentProfile), nextCursor: null };
  }
  const rows = await repo.listProfiles(ctx.db, access.workspace.id, {
    search: search || undefined,
    after: query.cursor,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    profiles: page.map((row) => ({
      id: row.id,
      attributes: row.attributes,
      updatedAt: new Date(row.updated_at).toISOString(),
    })),
    nextCursor: rows.length > query.limit ? page[page.length - 1].id : null,
  };
}

async function requireProfile(ctx: AppContext, access: WorkspaceAccess, id: string) {
  const row = await profiles.findProfile(ctx.db, access.workspace.id, id);
  if (!row) throw notFound(PROFILE_NOT_FOUND);
  return row;
}

/** One profile: attributes, the attribute labels, consent, its latest events and what the caller may do. */
export async function getProfile(ctx: AppContext, access: WorkspaceAccess, id: string) {
  requireCustomerData(access, 'read');
  const row = await requireProfile(ctx, access, id);
  const [defs, keys] = await Promise.all([
    loadDefinitions(ctx.db, access.workspace.id),
    profiles.eventKeys(ctx.db, access.workspace.id),
  ]);
  const events = await profiles.profileEvents(ctx.db, access.workspace.id, id, {
    keys,
    limit: LATEST_EVENTS,
  });
  return {
    profile: presentProfile(row),
    events: events.slice(0, LATEST_EVENTS).map(presentEvent),
    consent: presentConsent(row),
    labels: [...defs.catalog.attributes.values()]
      .map(({ key, label, type }) => ({ key, label: label || key, type }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    eventTypes: [...defs.catalog.events.values()]
      .map(({ key, label }) => ({ key, label: label || key }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    abilities: { canEdit: mayEdit(access) },
  };
}

const presentEvent = (event: profiles.TimelineEvent) => ({
  event: event.event,
  at: new Date(event.at).toISOString(),
  properties: event.properties,
});

const encodeCursor = (cursor: profiles.TimelineCursor) =>
  Buffer.from(`${cursor.at}|${cursor.skip}`).toString('base64url');

function decodeCursor(text: string): profiles.TimelineCursor {
  const [at, skip] = Buffer.from(text, 'base64url').toString().split('|');
  const n = Number(skip);
  if (!at || Number.isNaN(Date.parse(at)) || !Number.isInteger(n) || n < 0 || n > 100_000) {
    throw badRequest('cursor: not a cursor of this timeline');
  }
  return { at, skip: n };
}

/** A page of a profile's timeline, newest first, optionally of one event key. */
export async function profileTimeline(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  query: z.infer<typeof ProfileEventsQuery>,
) {
  requireCustomerData(access, 'read');
  await requireProfile(ctx, access, id);
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const keys = query.event ? [query.event] : await profiles.eventKeys(ctx.db, access.workspace.id);
  const found = await profiles.profileEvents(ctx.db, access.workspace.id, id, {
    keys,
    cursor,
    limit: query.limit,
  });
  // Events at the cursor's instant already shown are skipped; the rest are this page.
  const skip = cursor?.skip ?? 0;
  const page = found.slice(skip, skip + query.limit);
  const more = found.length > skip + query.limit;
  let nextCursor: string | null = null;
  if (more && page.length) {
    const last = page[page.length - 1].at;
    // How many events at the last one's instant this and earlier pages show: their count here, plus
    // the skipped ones when the page starts at the cursor's instant.
    const here = page.filter((event) => event.at === last).length;
    nextCursor = encodeCursor({ at: last, skip: here + (cursor && cursor.at === last ? skip : 0) });
  }
  return { events: page.map(presentEvent), nextCursor };
}

/**
 * A member who may import and read customer data edits a profile's attributes (by their types; null removes one) and its
 * email consent, if nobody changed the profile since `updatedAt` (409 otherwise). Journaled with the
 * keys changed, never their values.
 */
export async function editProfile(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  body: z.infer<typeof ProfileEditBody>,
) {
  requireImporter(access);
  requireCustomerData(access, 'read');
  const defs = await loadDefinitions(ctx.db, access.workspace.id);
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [key, raw] of Object.entries(body.attributes ?? {})) {
    const type = defs.attributesByKey.get(key);
    if (!type) throw badRequest(`attributes.${key}: unknown attribute "${key}"`);
    if (raw === null || isBlank(raw)) {
      remove.push(key);
      continue;
    }
    const converted = convertValue(type, raw);
    if (!converted.ok) throw badRequest(`attributes.${key}: ${converted.message}`);
    set[key] = converted.value;
  }
  if (Number.isNaN(Date.parse(body.updatedAt))) throw badRequest('updatedAt: not a date-time');
  const workspaceId = access.workspace.id;
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await profiles.updateProfile(tx, workspaceId, id, body.updatedAt, {
      set,
      remove,
      emailConsent: body.emailConsent,
      consentSource: 'member',
    });
    if (row === 'missing') throw notFound(PROFILE_NOT_FOUND);
    if (row === 'stale') {
      throw conflict('This profile was changed by someone else since you opened it. Reload to see it.');
    }
    await noticeProfileChanges(tx, workspaceId);
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actorOf(access),
          action: 'profile.updated',
          targetType: 'profile',
          targetId: id,
          detail: {
            set: Object.keys(set),
            removed: remove,
            ...(body.emailConsent ? { emailConsent: body.emailConsent } : {}),
          },
        },
      ],
    });
    return row;
  });
  return { profile: presentProfile(updated), consent: presentConsent(updated) };
}

/** How an erased profile is named in the audit log: a digest of its id, not the id. */
const erasedTarget = (workspaceId: string, id: string) =>
  `sha256:${crypto.createHash('sha256').update(`${workspaceId}\u0000${id}`).digest('hex').slice(0, 32)}`;

/**
 * Erases a profile: it, its events and its counts go in one transaction, with an audit row that keeps
 * none of its data (the id only as a digest); with `suppress`, the id goes on the suppression list so
 * an import or tracking call cannot bring it back. Needs the erase right over customer data.
 */
export async function eraseProfile(
  ctx: AppContext,
  access: WorkspaceAccess,
  id: string,
  suppress: boolean,
): Promise<z.infer<typeof EraseProfileAnswer>> {
  requireCustomerData(access, 'erase');
  const workspaceId = access.workspace.id;
  return ctx.db.transaction(async (tx) => {
    const events = await profiles.eraseProfile(tx, workspaceId, id);
    if (events === null) throw notFound(PROFILE_NOT_FOUND);
    const actor = actorOf(access);
    if (suppress) {
      await insertSuppression(tx, workspaceId, {
        id: randomId(),
        profileId: id,
        email: null,
        reason: 'erased',
        note: null,
        createdBy: actor.id,
        createdByName: actor.name,
      });
    }
    await journal(tx, {
      audit: [
        {
          workspaceId,
          user: actor,
          action: 'profile.erased',
          targetType: 'profile',
          targetId: erasedTarget(workspaceId, id),
          detail: { events, suppressed: suppress },
        },
      ],
    });
    return { erased: true as const, events, suppressed: suppress };
  });
}
