import { ITEM_MESSAGES } from '@shared/api/items';
import { approverRoleLabel, remainingApprovals } from '@shared/publishing/approvals';
import { changedKeys } from '@shared/publishing/surrogate-keys';
import type { AppContext } from '../context';
import { conflict, notFound } from '../http/errors';
import { findItemWithWriter, type ItemRow } from '../items/repository';
import { presentItem } from '../items/present';
import { keyOf, requireItem, resolveStage } from '../items/service';
import { requireRight, type SchemaScope } from '../items/scope';
import * as repo from './repository';
import type { WorkspaceAccess } from '../workspaces/access';
import { actorOf, itemLabel, journal, type AuditRecord } from '../journal/journal';

/**
 * Why an item may not be published, as a 409 with a clear message: approvals remain for its current
 * version (DESIGN §4), or it was saved incomplete (spec §5: "Finish editing before publishing").
 */
export function assertPublishable(scope: SchemaScope, item: ItemRow, what = 'This item') {
  const { roles } = scope.workspace;
  const remaining = remainingApprovals(roles, item.schema, item.approvedRoles);
  if (remaining.length > 0) {
    const labels = remaining.map((roleId) => approverRoleLabel(roles, roleId)).join(', ');
    throw conflict(`${what} needs approval before publishing. Waiting for: ${labels}`, {
      remainingApprovals: remaining,
    });
  }
  if (item.hasErrors) {
    throw conflict(
      what === 'This item'
        ? ITEM_MESSAGES.incompleteItem
        : `${what} is incomplete. Finish editing before publishing.`,
    );
  }
}

/** The audit row of one item put in or taken out of a stage. */
export const publishAudit = (
  scope: WorkspaceAccess,
  action: 'item.published' | 'item.unpublished',
  target: { schema: string; id: string },
  rest: { label: string | null; detail: Record<string, unknown> },
): AuditRecord => ({
  workspaceId: scope.workspace.id,
  user: actorOf(scope),
  action,
  targetType: 'item',
  targetId: target.id,
  schema: target.schema,
  ...rest,
});

/** Removes the item's copy from a stage. */
export async function unpublishItem(ctx: AppContext, scope: SchemaScope, id: string, stageParam: string) {
  requireRight(scope, 'publish');
  const stage = resolveStage(scope, stageParam);
  const item = await requireItem(ctx, scope, id);
  const key = keyOf(scope, id);
  const removed = await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteCopy(tx, key, stage))) return false;
    await journal(tx, {
      audit: [
        publishAudit(scope, 'item.unpublished', key, { label: itemLabel(item.data), detail: { stage } }),
      ],
      events: [{ item: { ...key, version: item.version }, event: 'item.unpublished', stage }],
      changes: [
        { kind: 'items', workspaceId: scope.workspace.id },
        { kind: 'stage', workspaceId: scope.workspace.id, stage },
      ],
      purge: { workspaceId: key.workspaceId, keys: changedKeys({ ...key, stage }, id) },
    });
    return true;
  });
  if (!removed) throw notFound(`This item is not published in ${stage}`);
  const row = await findItemWithWriter(ctx.db, key);
  if (!row) throw notFound(ITEM_MESSAGES.instanceNotFound);
  return { stage, item: await presentItem(ctx.db, scope, row) };
}
