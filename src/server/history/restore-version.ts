import { ITEM_MESSAGES } from '@shared/api/items';
import type { AppContext } from '../context';
import { findVersion } from './repository';
import { inCallersModel } from './service';
import { notFound } from '../http/errors';
import { keyOf, requireItem, updateItem } from '../items/service';
import { requireRight, type SchemaScope } from '../items/scope';

/**
 * 'Restore this version': saves that version's data as the next version (the history keeps everything
 * in between). It is an ordinary save: checked against today's schema, approvals start over, stale
 * base versions answer 409, and it is audited as item.restored and sent to webhooks as item.saved.
 */
export async function restoreVersion(
  ctx: AppContext,
  scope: SchemaScope,
  id: string,
  num: number,
  baseVersion: number | undefined,
) {
  requireRight(scope, 'edit');
  const current = await requireItem(ctx, scope, id);
  const found = await findVersion(ctx.db, keyOf(scope, id), num);
  if (!found) throw notFound(ITEM_MESSAGES.versionNotFound);
  const [version] = await inCallersModel(ctx, scope, [found.version]);
  return updateItem(ctx, scope, id, version.data, baseVersion ?? current.version, {
    action: 'item.restored',
    detail: { restoredFrom: num },
  });
}
