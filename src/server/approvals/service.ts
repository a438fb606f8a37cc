import { ITEM_MESSAGES, type Approvals } from '@shared/api/items';
import {
  approverRoleLabel,
  approversOf,
  isFullyApproved,
  remainingApprovals,
} from '@shared/publishing/approvals';
import { actorOf, itemLabel, journal } from '../journal/journal';
import type { AppContext } from '../context';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { addApprovedRole, lockItem } from '../items/repository';
import { keyOf, requireItem, versionKey } from '../items/service';
import { requireRight, type SchemaScope } from '../items/scope';
import * as repo from './repository';

/** The approval record of every version (spec §3) and where the current version stands. */
export async function getApprovals(ctx: AppContext, scope: SchemaScope, id: string): Promise<Approvals> {
  const item = await requireItem(ctx, scope, id);
  const rows = await repo.listApprovals(ctx.db, keyOf(scope, id));
  const { roles } = scope.workspace;
  const byVersion = new Map<number, Approvals['versions'][number]>();
  for (const row of rows) {
    const record = byVersion.get(row.version) ?? {
      version: row.version,
      at: row.at.toISOString(),
      roles: {},
    };
    if (row.at.toISOString() > record.at) record.at = row.at.toISOString();
    record.roles[row.roleId] = {
      at: row.at.toISOString(),
      byId: row.byId,
      byName: row.byName,
      asRoleId: row.roleId,
      asRoleLabel: row.roleLabel,
      comment: row.comment,
    };
    byVersion.set(row.version, record);
  }
  const remaining = remainingApprovals(roles, item.schema, item.approvedRoles);
  return {
    version: item.version,
    fullyApproved: isFullyApproved(remaining),
    remainingApprovals: remaining,
    approvers: approversOf(roles, item.schema).map((roleId) => ({
      roleId,
      label: approverRoleLabel(roles, roleId),
    })),
    versions: [...byVersion.values()].sort((a, b) => b.version - a.version),
  };
}

/**
 * Approves the current version as one role (spec §4: cleared role by role). Only a member holding the
 * role approves as it, and only roles that must approve the schema count.
 */
export async function approveItem(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  body: { roleId: string; comment?: string; version?: number },
) {
  requireRight(scope, 'approve');
  const { roles } = scope.workspace;
  if (!scope.permissions.roles.includes(body.roleId)) {
    throw forbidden(`You do not hold the role "${approverRoleLabel(roles, body.roleId)}"`);
  }
  if (!approversOf(roles, scope.schema.name).includes(body.roleId)) {
    throw badRequest(
      `The role "${approverRoleLabel(roles, body.roleId)}" does not approve ${scope.schema.pluralTitle}`,
    );
  }
  const key = keyOf(scope, id);
  await ctx.db.transaction(async (tx) => {
    const item = await lockItem(tx, key);
    if (!item) throw notFound(ITEM_MESSAGES.instanceNotFound);
    if (body.version !== undefined && body.version !== item.version) {
      throw conflict(ITEM_MESSAGES.staleVersion, { version: item.version });
    }
    if (!(await addApprovedRole(tx, key, item.version, body.roleId))) {
      throw conflict(
        `Version ${item.version} is already approved as ${approverRoleLabel(roles, body.roleId)}`,
      );
    }
    await repo.insertApproval(tx, {
      ...versionKey(key),
      version: item.version,
      roleId: body.roleId,
      roleLabel: approverRoleLabel(roles, body.roleId),
      at: new Date(),
      byId: scope.user.id,
      byName: scope.member.displayName,
      comment: body.comment || null,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId: key.workspaceId,
          user: actorOf(scope),
          action: 'item.approved',
          targetType: 'item',
          targetId: id,
          label: itemLabel(item.data),
          schema: key.schema,
          detail: { version: item.version, roleId: body.roleId },
        },
      ],
      events: [{ item: { ...key, version: item.version }, event: 'item.approved' }],
      changes: [{ kind: 'items', workspaceId: key.workspaceId }],
    });
  });
  return getApprovals(ctx, scope, id);
}
