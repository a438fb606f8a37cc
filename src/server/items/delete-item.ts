import { ITEM_MESSAGES } from '@shared/api/items';
import { deleteRefusal } from '@shared/permissions/permissions';
import { changedKeys } from '@shared/publishing/surrogate-keys';
import type { AppContext } from '../context';
import { forbidden, notFound } from '../http/errors';
import { deleteCopies, deleteItem as deleteItemRow, lockItem } from './repository';
import { keyOf } from './service';
import type { SchemaScope } from './scope';
import { actorOf, itemLabel, journal } from '../journal/journal';

/** 403 with the reason when the member may not delete the item (see `deleteRefusal`). */
function requireDeleteRights(scope: SchemaScope, isPublished: boolean) {
  const refusal = deleteRefusal(scope.permissions, scope.schema, isPublished);
  if (refusal) throw forbidden(refusal);
}

/**
 * Deletes an item and its stage copies in one transaction. Its history, comments and approvals stay:
 * the change log of a deleted item remains readable.
 */
export async function deleteItem(ctx: AppContext, scope: SchemaScope, id: string) {
  requireDeleteRights(scope, false);
  const key = keyOf(scope, id);
  await ctx.db.transaction(async (tx) => {
    const item = await lockItem(tx, key);
    if (!item) throw notFound(ITEM_MESSAGES.instanceNotFound);
    const stages = await deleteCopies(tx, key);
    // Copies found means it was published: a refusal now rolls their removal back.
    requireDeleteRights(scope, stages.length > 0);
    await deleteItemRow(tx, key);
    await journal(tx, {
      audit: [
        {
          workspaceId: scope.workspace.id,
          user: actorOf(scope),
          action: 'item.deleted',
          targetType: 'item',
          targetId: id,
          label: itemLabel(item.data),
          schema: scope.schema.name,
        },
      ],
      events: [{ item: { ...key, version: item.version }, event: 'item.deleted' }],
      changes: [
        { kind: 'items', workspaceId: scope.workspace.id },
        { kind: 'stage', workspaceId: scope.workspace.id },
      ],
      purge: {
        workspaceId: key.workspaceId,
        keys: stages.flatMap((stage) => changedKeys({ ...key, stage }, id)),
      },
    });
  });
  return { id, schema: scope.schema.name, deleted: true as const };
}
