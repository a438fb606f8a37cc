import { SCIM_MESSAGES, SCIM_SCHEMAS, scimBasePath } from '@shared/api/scim';
import type { RoleRule } from '@shared/api/sso';
import { approverRoleLabel } from '@shared/publishing/approvals';
import { rolesFromClaims } from '@shared/permissions/sso-role-rules';
import { applyPatch, ScimPatchError, type PatchOperation, type ScimResource } from '@shared/scim/patch';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import type { Change } from '../journal/changes';
import { journal, type Actor, type AuditRecord } from '../journal/journal';
import { randomId } from '../lib/ids';
import * as accounts from '../auth/repository';
import { invitationMail } from '../mail/templates';
import * as members from '../workspaces/members-repository';
import { membershipsChanged, type WorkspaceRow } from '../workspaces/repository';
import { findConnection } from './repository';
import { groupFilter, ScimFilterError, userFilter } from './scim-filter';
import * as repo from './scim-repository';

/**
 * The SCIM 2.0 service of a workspace (RFC 7643/7644): its identity provider's Users and Groups. A
 * User is a member: creating one invites their address with the roles the workspace's single sign-on
 * rules grant their groups (an account already a member is updated at once); deactivating or deleting
 * one deactivates the member and ends their sessions, which closes their live streams in every process
 * (server/live hears the journal's session and membership notices). Group changes apply the rules again.
 */

/** An answer in RFC 7644's error shape: the status, its `scimType` where the RFC names one, and the detail. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: string,
  ) {
    super(message);
    this.name = 'ScimError';
  }
}

/** Who calls: the workspace's identity provider through one of its tokens. */
export interface ScimCaller {
  token: repo.ScimTokenRow;
  workspace: WorkspaceRow;
  address: string | null;
}

/** Audit rows name the identity provider by the token's name. */
const actorOf = (caller: ScimCaller): Actor => ({
  id: `scim:${caller.token.id}`,
  name: caller.token.name,
  address: caller.address,
});

const USER_SCHEMAS = [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterpriseUser];
const GROUP_SCHEMAS = [SCIM_SCHEMAS.group];
const MAX_PAGE = 1000;
const DEFAULT_PAGE = 100;
const MAX_ATTRIBUTES_CHARS = 16_000;
const MAX_GROUP_MEMBERS = 10_000;

/** The core and enterprise attributes a User keeps (RFC 7643 §4.1), by lower-case name → canonical name. */
const USER_ATTRIBUTES = new Map(
  [
    'name',
    'displayName',
    'nickName',
    'profileUrl',
    'title',
    'userType',
    'preferredLanguage',
    'locale',
    'timezone',
    'emails',
    'phoneNumbers',
    'ims',
    'photos',
    'addresses',
    'entitlements',
    'roles',
    'x509Certificates',
  ].map((name) => [name.toLowerCase(), name]),
);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (message: string) => new ScimError(400, message, 'invalidValue');

function optionalText(value: unknown, name: string, max = 256): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  const text = value.trim();
  if (text.length > max) throw invalid(`${name} is at most ${max} characters`);
  return text || null;
}

/** Entra ID sends booleans as "True" and "False". */
function booleanOf(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalid(`${name} must be true or false`);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A User as stored: the filterable columns and the other attributes, checked. */
interface UserFields {
  userName: string;
  externalId: string | null;
  active: boolean;
  email: string | null;
  displayName: string | null;
  attributes: Record<string, unknown>;
}

function userFieldsOf(resource: unknown): UserFields {
  if (!isObject(resource)) throw new ScimError(400, 'The body must be a SCIM User object', 'invalidSyntax');
  const attributes: Record<string, unknown> = {};
  let userName: string | null = null;
  let externalId: string | null = null;
  let active = true;
  for (const [key, value] of Object.entries(resource)) {
    const lower = key.toLowerCase();
    if (lower === 'username') userName = optionalText(value, 'userName');
    else if (lower === 'externalid') externalId = optionalText(value, 'externalId');
    else if (lower === 'active')
      active = value === null || value === undefined ? true : booleanOf(value, 'active');
    else if (lower === SCIM_SCHEMAS.enterpriseUser.toLowerCase()) {
      if (value !== null && !isObject(value)) throw invalid('The enterprise extension must be an object');
      if (value) attributes[SCIM_SCHEMAS.enterpriseUser] = value;
    } else {
      const name = USER_ATTRIBUTES.get(lower);
      if (name && value !== null && value !== undefined) attributes[name] = value;
    }
  }
  if (!userName) throw invalid(SCIM_MESSAGES.userNameRequired);
  const emails = attributes.emails ?? [];
  if (!Array.isArray(emails) || emails.length > 20 || !emails.every(isObject))
    throw invalid('emails must be a list of at most 20 objects with a value');
  for (const entry of emails) {
    if (typeof entry.value !== 'string' || !EMAIL.test(entry.value.trim()) || entry.value.length > 320)
      throw invalid(`emails: "${String(entry.value).slice(0, 100)}" is not an email address`);
  }
  if (attributes.name !== undefined && !isObject(attributes.name)) throw invalid('name must be an object');
  const displayName =
    optionalText(attributes.displayName, 'displayName') ?? formattedName(attributes.name) ?? null;
  if (JSON.stringify(attributes).length > MAX_ATTRIBUTES_CHARS)
    throw new ScimError(
      400,
      `The user's attributes are larger than ${MAX_ATTRIBUTES_CHARS} characters`,
      'invalidValue',
    );
  const primary =
    emails.find((e) => e.primary === true || e.primary === 'true' || e.primary === 'True') ?? emails[0];
  const address = typeof primary?.value === 'string' ? primary.value : EMAIL.test(userName) ? userName : null;
  return {
    userName,
    externalId,
    active,
    email: address ? address.trim().toLowerCase() : null,
    displayName,
    attributes,
  };
}

function formattedName(name: unknown): string | null {
  if (!isObject(name)) return null;
  if (typeof name.formatted === 'string' && name.formatted.trim()) return name.formatted.trim().slice(0, 256);
  const parts = [name.givenName, name.familyName].filter(
    (p): p is string => typeof p === 'string' && !!p.trim(),
  );
  return parts.length ? parts.join(' ').slice(0, 256) : null;
}

const locationOf = (ctx: AppContext, workspaceId: string, type: 'Users' | 'Groups', id: string) =>
  `${ctx.config.publicUrl}${scimBasePath(workspaceId)}/${type}/${encodeURIComponent(id)}`;

function userResource(ctx: AppContext, row: repo.ScimUserRow, groups: repo.ScimGroupRow[]) {
  const hasEnterprise = SCIM_SCHEMAS.enterpriseUser in row.attributes;
  return {
    schemas: hasEnterprise ? USER_SCHEMAS : [SCIM_SCHEMAS.user],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.userName,
    ...row.attributes,
    active: row.active,
    groups: groups.map((g) => ({
      value: g.id,
      display: g.displayName,
      $ref: locationOf(ctx, row.workspaceId, 'Groups', g.id),
    })),
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: locationOf(ctx, row.workspaceId, 'Users', row.id),
      version: `W/"${row.version}"`,
    },
  };
}

/** The resource a PATCH works on: what the client may change, without id, meta and groups. */
const patchableUser = (row: repo.ScimUserRow): ScimResource => ({
  userName: row.userName,
  ...(row.externalId ? { externalId: row.externalId } : {}),
  ...row.attributes,
  active: row.active,
});

/** startIndex (1-based) and count, as RFC 7644 §3.4.2.4 reads them: out-of-range values are clamped. */
function pageOf(query: { startIndex?: string; count?: string }) {
  const start = Number.parseInt(query.startIndex ?? '1', 10);
  const count = Number.parseInt(query.count ?? String(DEFAULT_PAGE), 10);
  return {
    startIndex: Number.isFinite(start) && start >= 1 ? start : 1,
    count: Number.isFinite(count) ? Math.min(Math.max(count, 0), MAX_PAGE) : DEFAULT_PAGE,
  };
}

function filterOr400<T>(compile: () => T): T {
  try {
    return compile();
  } catch (err) {
    if (err instanceof ScimFilterError) throw new ScimError(400, err.message, 'invalidFilter');
    throw err;
  }
}

function patchOr400(resource: ScimResource, body: unknown, schemas: string[], core: string) {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM PatchOp', 'invalidSyntax');
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 1000)
    throw new ScimError(400, 'Operations must list 1 to 1,000 operations', 'invalidSyntax');
  try {
    return applyPatch(resource, operations as PatchOperation[], schemas, core);
  } catch (err) {
    if (err instanceof ScimPatchError) throw new ScimError(400, err.message, err.scimType);
    throw err;
  }
}

/** RFC 7644's ListResponse of one page. */
export const listResponse = (resources: unknown[], total: number, startIndex: number) => ({
  schemas: [SCIM_SCHEMAS.listResponse],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

// ——— Users ———

export async function listUsers(
  ctx: AppContext,
  caller: ScimCaller,
  query: { filter?: string; startIndex?: string; count?: string },
) {
  const where = filterOr400(() => userFilter(query.filter));
  const { startIndex, count } = pageOf(query);
  const { page, total } = await repo.listUsers(ctx.db, caller.workspace.id, where, startIndex - 1, count);
  const groups = await repo.groupsOfUsers(
    ctx.db,
    caller.workspace.id,
    page.map((u) => u.id),
  );
  return listResponse(
    page.map((row) => userResource(ctx, row, groups.get(row.id) ?? [])),
    total,
    startIndex,
  );
}

export async function getUser(ctx: AppContext, caller: ScimCaller, id: string) {
  const row = await repo.findUser(ctx.db, caller.workspace.id, id);
  if (!row) throw new ScimError(404, SCIM_MESSAGES.userNotFound);
  const groups = await repo.groupsOfUsers(ctx.db, caller.workspace.id, [id]);
  return userResource(ctx, row, groups.get(id) ?? []);
}

/** What one provisioning write reads once (the role rules) and leaves to do once committed (invitation mails). */
interface After {
  mails: { email: string; roles: string[]; isManager: boolean; hasAccount: boolean }[];
  rules?: RoleRule[];
}

async function provisioned<T>(
  ctx: AppContext,
  caller: ScimCaller,
  write: (tx: Tx, after: After) => Promise<T>,
): Promise<T> {
  const after: After = { mails: [] };
  const result = await ctx.db.transaction((tx) => write(tx, after));
  for (const mail of after.mails)
    ctx.background.run('invitation mail', () => sendInvitation(ctx, caller, mail));
  return result;
}

async function sendInvitation(ctx: AppContext, caller: ScimCaller, mail: After['mails'][number]) {
  const mode = mail.hasAccount ? '' : 'mode=sign-up&';
  const link = `${ctx.config.publicUrl}/auth/welcome?${mode}email=${encodeURIComponent(mail.email)}`;
  await ctx.mailer.send(
    invitationMail(
      mail.email,
      {
        workspaceName: caller.workspace.name,
        inviterName: caller.token.name,
        as: {
          roleNames: mail.roles.map((role) => approverRoleLabel(caller.workspace.roles, role)),
          isManager: mail.isManager,
        },
        hasAccount: mail.hasAccount,
      },
      link,
    ),
  );
}

export async function createUser(ctx: AppContext, caller: ScimCaller, body: unknown) {
  const fields = userFieldsOf(body);
  const workspaceId = caller.workspace.id;
  const row = await provisioned(ctx, caller, async (tx, after) => {
    const inserted = await repo.insertUser(tx, { workspaceId, id: randomId(), ...fields });
    if (!inserted) throw new ScimError(409, SCIM_MESSAGES.userNameTaken, 'uniqueness');
    const applied = await applyToMember(tx, caller, inserted, [], after, null);
    await journal(tx, {
      audit: [userAudit(caller, 'scim.user-created', applied.row, applied.detail)],
      changes: applied.changes,
    });
    return applied.row;
  });
  return userResource(ctx, row, []);
}

export async function replaceUser(ctx: AppContext, caller: ScimCaller, id: string, body: unknown) {
  const fields = userFieldsOf(body);
  return writeUser(ctx, caller, id, () => fields);
}

export async function patchUser(ctx: AppContext, caller: ScimCaller, id: string, body: unknown) {
  return writeUser(ctx, caller, id, (current) =>
    userFieldsOf(patchOr400(patchableUser(current), body, USER_SCHEMAS, SCIM_SCHEMAS.user)),
  );
}

async function writeUser(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  change: (current: repo.ScimUserRow) => UserFields,
) {
  const workspaceId = caller.workspace.id;
  const result = await provisioned(ctx, caller, async (tx, after) => {
    const current = await repo.lockUser(tx, workspaceId, id);
    if (!current) throw new ScimError(404, SCIM_MESSAGES.userNotFound);
    const fields = change(current);
    if (
      fields.userName.toLowerCase() !== current.userName.toLowerCase() &&
      (await repo.userNameTaken(tx, workspaceId, fields.userName, id))
    )
      throw new ScimError(409, SCIM_MESSAGES.userNameTaken, 'uniqueness');
    const updated = (await repo.updateUser(tx, workspaceId, id, fields))!;
    const groups = (await repo.groupsOfUsers(tx, workspaceId, [id])).get(id) ?? [];
    const applied = await applyToMember(tx, caller, updated, groups, after, current);
    const action =
      current.active && !updated.active
        ? 'scim.user-deactivated'
        : !current.active && updated.active
          ? 'scim.user-reactivated'
          : 'scim.user-updated';
    await journal(tx, {
      audit: [userAudit(caller, action, applied.row, applied.detail)],
      changes: applied.changes,
    });
    return { row: applied.row, groups };
  });
  return userResource(ctx, result.row, result.groups);
}

/** Deleting a user deactivates the member (their content keeps its author) and withdraws any invitation. */
export async function deleteUser(ctx: AppContext, caller: ScimCaller, id: string) {
  const workspaceId = caller.workspace.id;
  await provisioned(ctx, caller, async (tx, after) => {
    const current = await repo.lockUser(tx, workspaceId, id);
    if (!current) throw new ScimError(404, SCIM_MESSAGES.userNotFound);
    const applied = await applyToMember(tx, caller, { ...current, active: false }, [], after, current);
    await repo.deleteUser(tx, workspaceId, id);
    await journal(tx, {
      audit: [userAudit(caller, 'scim.user-deleted', applied.row, applied.detail)],
      changes: applied.changes,
    });
  });
}

/** The audit row of a provisioning change, naming the identity provider. */
function scimAudit(
  caller: ScimCaller,
  action: AuditRecord['action'],
  target: Pick<AuditRecord, 'targetType' | 'targetId' | 'label'>,
  detail: Record<string, unknown>,
): AuditRecord {
  return {
    workspaceId: caller.workspace.id,
    user: actorOf(caller),
    action,
    ...target,
    detail: { provider: caller.token.name, ...detail },
  };
}

function userAudit(
  caller: ScimCaller,
  action: AuditRecord['action'],
  row: repo.ScimUserRow,
  detail: Record<string, unknown>,
) {
  const target = {
    targetType: 'member' as const,
    targetId: row.userId ?? row.id,
    label: row.displayName ?? row.userName,
  };
  return scimAudit(caller, action, target, {
    scimId: row.id,
    userName: row.userName,
    email: row.email,
    active: row.active,
    ...detail,
  });
}

/**
 * Brings the member (or the invitation, before the person has an account in the workspace) in line with
 * the provisioned user: active or not, and the roles the role rules grant the user's groups (only when
 * the workspace has rules, so roles a manager gave are kept otherwise). Deactivating ends every session
 * of the account. Answers the row (bound to its account once known), the audit detail and the notices.
 */
async function applyToMember(
  tx: Tx,
  caller: ScimCaller,
  user: repo.ScimUserRow,
  groups: repo.ScimGroupRow[],
  after: After,
  before: repo.ScimUserRow | null,
) {
  const workspaceId = caller.workspace.id;
  const changes: Change[] = [];
  after.rules ??= (await findConnection(tx, workspaceId))?.roleRules ?? [];
  const granted = grantedRoles(after.rules, caller.workspace, groups);
  let row = user;
  let memberUserId = user.userId;
  if (!memberUserId && user.email) {
    const account = await accounts.findUserByEmail(tx, user.email);
    if (account && (await members.findMember(tx, workspaceId, account.id))) {
      memberUserId = account.id;
      row = {
        ...((await repo.bindUserAccount(tx, workspaceId, user.id, account.id)) ?? row),
        active: user.active,
      };
    }
  }
  if (before?.email && before.email !== user.email)
    await members.deleteInvitation(tx, workspaceId, before.email);
  const member = memberUserId ? await members.findMember(tx, workspaceId, memberUserId) : undefined;
  if (member) {
    const patch: Partial<Pick<members.MemberRow, 'active' | 'roles' | 'isManager' | 'displayName'>> = {};
    const isLastManager =
      member.active && member.isManager && (await members.countActiveManagers(tx, workspaceId)) <= 1;
    if (member.active !== user.active) {
      if (!user.active && isLastManager) throw new ScimError(409, SCIM_MESSAGES.lastManager);
      patch.active = user.active;
    }
    if (granted) {
      if (JSON.stringify(granted.roles) !== JSON.stringify(member.roles)) patch.roles = granted.roles;
      const isManager = granted.isWorkspaceManager || (isLastManager && user.active);
      if (isManager !== member.isManager) patch.isManager = isManager;
    }
    if (user.displayName && user.displayName !== member.displayName) patch.displayName = user.displayName;
    if (Object.keys(patch).length) {
      await members.updateMember(tx, workspaceId, member.userId, patch);
      changes.push(membershipsChanged(workspaceId, member.userId));
      if (patch.displayName) changes.push({ kind: 'items', workspaceId });
    }
    if (!user.active && member.active) await accounts.deleteUserSessions(tx, member.userId);
    if (user.email) await members.deleteInvitation(tx, workspaceId, user.email);
    return {
      row,
      changes,
      detail: {
        member: member.userId,
        roles: patch.roles ?? member.roles,
        isWorkspaceManager: patch.isManager ?? member.isManager,
        ...(patch.active === false ? { sessionsEnded: true } : {}),
      },
    };
  }
  if (!user.email) return { row, changes, detail: { invited: false } };
  if (!user.active) {
    await members.deleteInvitation(tx, workspaceId, user.email);
    return { row, changes, detail: { invited: false } };
  }
  const roles = granted?.roles ?? [];
  const isManager = granted?.isWorkspaceManager ?? false;
  const pending = await members.findInvitation(tx, workspaceId, user.email);
  if (!pending || JSON.stringify(pending.roles) !== JSON.stringify(roles) || pending.isManager !== isManager)
    await members.upsertInvitation(tx, {
      workspaceId,
      email: user.email,
      roles,
      isManager,
      invitedBy: caller.token.name,
    });
  if (!pending) {
    const hasAccount = !!(await accounts.findUserByEmail(tx, user.email));
    after.mails.push({ email: user.email, roles, isManager, hasAccount });
  }
  return { row, changes, detail: { invited: true, roles, isWorkspaceManager: isManager } };
}

/** The roles the workspace's role rules grant these groups (a `groups` claim of their names and external ids). */
function grantedRoles(rules: RoleRule[], workspace: WorkspaceRow, groups: repo.ScimGroupRow[]) {
  if (rules.length === 0) return undefined;
  const names = groups.flatMap((g) => [g.displayName, ...(g.externalId ? [g.externalId] : [])]);
  return rolesFromClaims(rules, { groups: names }, workspace.roles);
}

/** Applies the rules again to users whose groups changed. */
async function reapplyGroups(tx: Tx, caller: ScimCaller, userIds: string[], after: After) {
  const workspaceId = caller.workspace.id;
  const groups = await repo.groupsOfUsers(tx, workspaceId, userIds);
  const changes: Change[] = [];
  for (const user of await repo.findUsers(tx, workspaceId, userIds))
    changes.push(...(await applyToMember(tx, caller, user, groups.get(user.id) ?? [], after, user)).changes);
  return changes;
}

// ——— Groups ———

interface GroupFields {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

function groupFieldsOf(resource: unknown): GroupFields {
  if (!isObject(resource)) throw new ScimError(400, 'The body must be a SCIM Group object', 'invalidSyntax');
  let displayName: string | null = null;
  let externalId: string | null = null;
  let list: unknown = [];
  for (const [key, value] of Object.entries(resource)) {
    const lower = key.toLowerCase();
    if (lower === 'displayname') displayName = optionalText(value, 'displayName');
    else if (lower === 'externalid') externalId = optionalText(value, 'externalId');
    else if (lower === 'members') list = value ?? [];
  }
  if (!displayName) throw invalid(SCIM_MESSAGES.displayNameRequired);
  if (!Array.isArray(list) || list.length > MAX_GROUP_MEMBERS)
    throw invalid(`members must be a list of at most ${MAX_GROUP_MEMBERS} users`);
  const memberIds = list.map((m) => {
    if (!isObject(m) || typeof m.value !== 'string' || !m.value || m.value.length > 100)
      throw invalid('Each member needs the value of a user id');
    return m.value;
  });
  return { displayName, externalId, memberIds: [...new Set(memberIds)] };
}

function groupResource(
  ctx: AppContext,
  row: repo.ScimGroupRow,
  users: { id: string; userName: string }[] | undefined,
) {
  return {
    schemas: GROUP_SCHEMAS,
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    ...(users
      ? {
          members: users.map((u) => ({
            value: u.id,
            display: u.userName,
            $ref: locationOf(ctx, row.workspaceId, 'Users', u.id),
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: locationOf(ctx, row.workspaceId, 'Groups', row.id),
      version: `W/"${row.version}"`,
    },
  };
}

const excludesMembers = (excluded: string | undefined) =>
  (excluded ?? '')
    .split(',')
    .some((name) =>
      ['members', `${SCIM_SCHEMAS.group.toLowerCase()}:members`].includes(name.trim().toLowerCase()),
    );

export async function listGroups(
  ctx: AppContext,
  caller: ScimCaller,
  query: { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string },
) {
  const where = filterOr400(() => groupFilter(query.filter));
  const { startIndex, count } = pageOf(query);
  const { page, total } = await repo.listGroups(ctx.db, caller.workspace.id, where, startIndex - 1, count);
  const withMembers = !excludesMembers(query.excludedAttributes);
  const users = withMembers
    ? await repo.membersOfGroups(
        ctx.db,
        caller.workspace.id,
        page.map((g) => g.id),
      )
    : undefined;
  return listResponse(
    page.map((row) => groupResource(ctx, row, users ? (users.get(row.id) ?? []) : undefined)),
    total,
    startIndex,
  );
}

export async function getGroup(ctx: AppContext, caller: ScimCaller, id: string, excludedAttributes?: string) {
  const row = await repo.findGroup(ctx.db, caller.workspace.id, id);
  if (!row) throw new ScimError(404, SCIM_MESSAGES.groupNotFound);
  if (excludesMembers(excludedAttributes)) return groupResource(ctx, row, undefined);
  const users = await repo.membersOfGroups(ctx.db, caller.workspace.id, [id]);
  return groupResource(ctx, row, users.get(id) ?? []);
}

async function checkMembersExist(db: Db | Tx, workspaceId: string, ids: string[]) {
  const found = await repo.existingUserIds(db, workspaceId, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw invalid(`members: no user has the id "${missing.slice(0, 100)}"`);
}

export async function createGroup(ctx: AppContext, caller: ScimCaller, body: unknown) {
  const fields = groupFieldsOf(body);
  const workspaceId = caller.workspace.id;
  const row = await provisioned(ctx, caller, async (tx, after) => {
    await checkMembersExist(tx, workspaceId, fields.memberIds);
    const inserted = await repo.insertGroup(tx, {
      workspaceId,
      id: randomId(),
      displayName: fields.displayName,
      externalId: fields.externalId,
    });
    if (!inserted) throw new ScimError(409, SCIM_MESSAGES.groupNameTaken, 'uniqueness');
    await repo.addGroupMembers(tx, workspaceId, inserted.id, fields.memberIds);
    const changes = await reapplyGroups(tx, caller, fields.memberIds, after);
    await journal(tx, {
      audit: [
        groupAudit(caller, 'scim.group-created', inserted, { added: fields.memberIds.length, removed: 0 }),
      ],
      changes,
    });
    return inserted;
  });
  return getGroup(ctx, caller, row.id);
}

export async function replaceGroup(ctx: AppContext, caller: ScimCaller, id: string, body: unknown) {
  const fields = groupFieldsOf(body);
  return writeGroup(ctx, caller, id, () => fields);
}

export async function patchGroup(ctx: AppContext, caller: ScimCaller, id: string, body: unknown) {
  return writeGroup(ctx, caller, id, (current, memberIds) =>
    groupFieldsOf(
      patchOr400(
        {
          displayName: current.displayName,
          ...(current.externalId ? { externalId: current.externalId } : {}),
          members: memberIds.map((value) => ({ value })),
        },
        body,
        GROUP_SCHEMAS,
        SCIM_SCHEMAS.group,
      ),
    ),
  );
}

async function writeGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  change: (current: repo.ScimGroupRow, memberIds: string[]) => GroupFields,
) {
  const workspaceId = caller.workspace.id;
  await provisioned(ctx, caller, async (tx, after) => {
    const current = await repo.lockGroup(tx, workspaceId, id);
    if (!current) throw new ScimError(404, SCIM_MESSAGES.groupNotFound);
    const before = ((await repo.membersOfGroups(tx, workspaceId, [id])).get(id) ?? []).map((u) => u.id);
    const fields = change(current, before);
    if (
      fields.displayName.toLowerCase() !== current.displayName.toLowerCase() &&
      (await repo.groupNameTaken(tx, workspaceId, fields.displayName, id))
    )
      throw new ScimError(409, SCIM_MESSAGES.groupNameTaken, 'uniqueness');
    const added = fields.memberIds.filter((m) => !before.includes(m));
    const removed = before.filter((m) => !fields.memberIds.includes(m));
    await checkMembersExist(tx, workspaceId, added);
    const isRenamed = fields.displayName !== current.displayName || fields.externalId !== current.externalId;
    const updated =
      (await repo.updateGroup(tx, workspaceId, id, {
        displayName: fields.displayName,
        externalId: fields.externalId,
      })) ?? current;
    await repo.addGroupMembers(tx, workspaceId, id, added);
    await repo.removeGroupMembers(tx, workspaceId, id, removed);
    // A renamed group may match other rules: every member's roles are read again.
    const affected = isRenamed ? [...new Set([...fields.memberIds, ...removed])] : [...added, ...removed];
    const changes = await reapplyGroups(tx, caller, affected, after);
    await journal(tx, {
      audit: [
        groupAudit(caller, 'scim.group-updated', updated, {
          added: added.length,
          removed: removed.length,
          ...(isRenamed ? { renamedFrom: current.displayName } : {}),
        }),
      ],
      changes,
    });
  });
  return getGroup(ctx, caller, id);
}

export async function deleteGroup(ctx: AppContext, caller: ScimCaller, id: string) {
  const workspaceId = caller.workspace.id;
  await provisioned(ctx, caller, async (tx, after) => {
    const current = await repo.lockGroup(tx, workspaceId, id);
    if (!current) throw new ScimError(404, SCIM_MESSAGES.groupNotFound);
    const before = ((await repo.membersOfGroups(tx, workspaceId, [id])).get(id) ?? []).map((u) => u.id);
    await repo.deleteGroup(tx, workspaceId, id);
    const changes = await reapplyGroups(tx, caller, before, after);
    await journal(tx, {
      audit: [groupAudit(caller, 'scim.group-deleted', current, { removed: before.length })],
      changes,
    });
  });
}

function groupAudit(
  caller: ScimCaller,
  action: AuditRecord['action'],
  row: repo.ScimGroupRow,
  detail: Record<string, unknown>,
) {
  const target = { targetType: 'scim-group' as const, targetId: row.id, label: row.displayName };
  return scimAudit(caller, action, target, {
    displayName: row.displayName,
    externalId: row.externalId,
    ...detail,
  });
}

/**
 * Once an account that holds a provisioned address is a member (it accepted the invitation, or signed
 * in with single sign-on), the provisioned user is bound to it; a user the provider deactivated
 * meanwhile leaves the member inactive. An account-verified hook (app.ts), in the sign-in's transaction.
 */
export async function bindProvisionedAccount(db: Db | Tx, account: { id: string; email: string }) {
  const bound = await repo.linkAccount(db, account.id, account.email);
  for (const { workspaceId, active } of bound) {
    if (active) continue;
    await members.updateMember(db, workspaceId, account.id, { active: false });
    await journal(db, { changes: [membershipsChanged(workspaceId, account.id)] });
  }
}
