import { ITEM_MESSAGES } from '@shared/api/items';
import type { AppContext } from '../context';
import { notFound } from '../http/errors';
import { deleteCopies, deleteItem as deleteItemRow, lockItem } from './repository';
import { keyOf } from './service';
import { requireRight, type SchemaScope } from './scope';
import { actorOf, recordAudit } from '../audit/repository';
import { stageChanged } from '../delivery/listener';
import { enqueueItemEvent } from '../webhooks/repository';

/**
 * Deletes an item and its stage copies in one transaction. Its history, comments and approvals stay:
 * the change log of a deleted item remains readable.
 */
export async function deleteItem(ctx: AppContext, scope: SchemaScope, id: string) {
  requireRight(scope, 'edit');
  const key = keyOf(scope, id);
  await ctx.db.transaction(async (tx) => {
    const item = await lockItem(tx, key);
    if (!item) throw notFound(ITEM_MESSAGES.instanceNotFound);
    await deleteCopies(tx, key);
    await deleteItemRow(tx, key);
    await recordAudit(tx, {
      workspaceId: scope.workspace.id,
      user: actorOf(scope),
      action: 'item.deleted',
      targetType: 'item',
      targetId: id,
      schema: scope.schema.name,
    });
    await enqueueItemEvent(tx, { ...key, version: item.version }, 'item.deleted');
    await stageChanged(tx, scope.workspace.id);
  });
  return { id, schema: scope.schema.name, deleted: true as const };
}
