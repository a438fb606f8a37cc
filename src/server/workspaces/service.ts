import { DEFAULT_BASICS, type Basics, type PatchWorkspaceBody, type Workspace } from '@shared/api/workspaces';
import { MESSAGES } from '@shared/api/errors';
import { trimRoles, type Permissions, type Roles } from '@shared/permissions/permissions';
import { CUSTOMER_DATA_RIGHTS } from '@shared/permissions/customer-data-rights';
import { normaliseStages } from '@shared/publishing/stages';
import { toKebabCase } from '@shared/text/slug';
import { isKnownTimezone } from '@shared/time/zones';
import { BUILT_IN_MODEL, type ContentModel } from '@shared/model/registry';
import { actorOf, journal, type AuditRecord } from '../journal/journal';
import type { AppContext } from '../context';
import type { Caller, UserRow } from '../auth/repository';
import { badRequest, conflict } from '../http/errors';
import { insertMember, trimRolesOfMembers } from './members-repository';
import { joinInvitedWorkspaces } from './members-service';
import { requireManager, requireVerifiedUser, type WorkspaceAccess } from './access';
import { checkLocaleChange, checkRoleLocales } from './locales';
import * as repo from './repository';

/** First path segments the app's own routes use: a workspace id must not shadow them. */
const RESERVED_IDS = new Set([
  'api',
  'fun',
  'auth',
  'user',
  'workspaces',
  'healthz',
  'assets',
  'delivery',
  'docs',
  'new',
]);
const ADMIN_ROLE_ID = 'admin';

export function toWorkspaceDto(row: repo.WorkspaceRow, permissions: Permissions): Workspace {
  return {
    id: row.id,
    name: row.name,
    basics: row.basics,
    roles: row.roles,
    oobe: { done: row.oobeDone },
    subscription: row.subscription,
    version: row.version,
    modelVersion: row.modelVersion,
    __permissions: permissions,
  };
}

export async function listWorkspaces(ctx: AppContext, caller: UserRow | null) {
  const user = requireVerifiedUser(caller);
  // An invitation sent while this user was already signed in joins here, without a new sign-in.
  await joinInvitedWorkspaces(ctx.db, user);
  return repo.listWorkspacesOfUser(ctx.db, user.id);
}

function candidateIds(name: string) {
  const base = toKebabCase(name).slice(0, 50).replace(/-+$/, '') || 'workspace';
  const first = RESERVED_IDS.has(base) ? `${base}-workspace` : base;
  return [first, ...Array.from({ length: 8 }, (_, i) => `${first}-${i + 2}`)];
}

/** Creates a workspace whose id is its name's slug; the creator is an active manager holding the Admin role. */
export async function createWorkspace(ctx: AppContext, caller: Caller | null, name: string) {
  const user = requireVerifiedUser(caller);
  // A new workspace starts with the built-in model.
  const everySchema = BUILT_IN_MODEL.schemaNames();
  const roles: Roles = {
    [ADMIN_ROLE_ID]: {
      name: 'Admin',
      canEdit: everySchema,
      canPublish: everySchema,
      mustApprove: [],
      customerData: [...CUSTOMER_DATA_RIGHTS],
    },
  };
  return ctx.db.transaction(async (tx) => {
    const ids = [...candidateIds(name), `${candidateIds(name)[0]}-${Date.now().toString(36)}`];
    for (const id of ids) {
      const row = await repo.insertWorkspace(tx, {
        id,
        name,
        basics: DEFAULT_BASICS(name),
        roles,
        subscription: { plan: 'free' },
        createdBy: user.id,
      });
      if (!row) continue;
      await insertMember(tx, {
        workspaceId: id,
        userId: user.id,
        active: true,
        displayName: user.name,
        roles: [ADMIN_ROLE_ID],
        isManager: true,
      });
      await journal(tx, {
        audit: [
          {
            workspaceId: id,
            user: { id: user.id, name: user.name, address: user.address ?? null },
            action: 'workspace.created',
            targetType: 'workspace',
            targetId: id,
            label: name,
          },
        ],
        changes: [repo.membershipsChanged(id, user.id)],
      });
      return row;
    }
    throw conflict('Could not find a free id for this workspace name; try another name');
  });
}

function checkBasics(model: ContentModel, current: Basics, patch: Partial<Basics>): Basics {
  for (const domain of patch.domains ?? []) {
    if (!model.domain(domain)) throw badRequest(`Domain "${domain}" not available`);
  }
  for (const zone of patch.timezones ?? []) {
    if (!isKnownTimezone(zone)) throw badRequest(`Unknown time zone "${zone}"`);
  }
  const next = { ...current, ...patch };
  return {
    ...next,
    domains: [...new Set(next.domains)],
    stages: normaliseStages(next.stages),
    timezones: [...new Set(next.timezones)],
  };
}

/** Saves basics, roles and onboarding in one transaction; managers only; a stale baseVersion answers 409. */
export async function updateWorkspace(ctx: AppContext, access: WorkspaceAccess, body: PatchWorkspaceBody) {
  requireManager(access);
  const current = access.workspace;
  const basics = body.basics ? checkBasics(access.model, current.basics, body.basics) : undefined;
  const roles = body.roles ? trimRoles(body.roles, access.model.schemaNames()) : undefined;
  if (basics)
    await checkLocaleChange(
      ctx.db,
      access.model,
      current.id,
      current.basics,
      basics,
      body.confirmRemoveLocales,
    );
  if (roles) checkRoleLocales(roles, current.roles, (basics ?? current.basics).locales);
  const localesChanged =
    basics !== undefined && JSON.stringify(basics.locales) !== JSON.stringify(current.basics.locales);
  return ctx.db.transaction(async (tx) => {
    const row = await repo.updateWorkspace(tx, current.id, body.baseVersion ?? current.version, {
      ...(basics ? { basics, name: basics.name } : {}),
      ...(roles ? { roles } : {}),
      ...(body.oobe ? { oobeDone: body.oobe.done } : {}),
    });
    if (!row) throw conflict(MESSAGES.staleVersion);
    if (roles) await trimRolesOfMembers(tx, current.id, roles);
    const audits: AuditRecord[] = [];
    const base = {
      workspaceId: current.id,
      user: actorOf(access),
      targetType: 'workspace' as const,
      targetId: current.id,
      label: row.name,
    };
    if (basics || body.oobe)
      audits.push({
        ...base,
        action: 'workspace.updated',
        detail: basics ? { basics } : { oobe: body.oobe },
      });
    if (roles) audits.push({ ...base, action: 'roles.updated', detail: { roles: Object.keys(roles) } });
    await journal(tx, {
      audit: audits,
      // Delivered answers resolve locales and their fallbacks: they are rendered again.
      changes: [
        repo.membershipsChanged(current.id),
        ...(localesChanged ? [{ kind: 'stage' as const, workspaceId: current.id }] : []),
      ],
    });
    return row;
  });
}
