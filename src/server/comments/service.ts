import { can } from '@shared/permissions/permissions';
import type { AppContext } from '../context';
import { forbidden } from '../http/errors';
import { keyOf, requireItem, versionKey } from '../items/service';
import type { SchemaScope } from '../items/scope';
import { actorOf, itemLabel, journal } from '../journal/journal';
import * as repo from './repository';

const toComment = (row: repo.CommentRow) => ({
  id: String(row.id),
  at: row.at.toISOString(),
  by: row.by,
  byName: row.byName,
  text: row.text,
});

export async function listComments(ctx: AppContext, scope: SchemaScope, id: string) {
  await requireItem(ctx, scope, id);
  return (await repo.listComments(ctx.db, keyOf(scope, id))).map(toComment);
}

/** Anyone who may edit, publish or approve the schema may comment; read-only members may not. */
export async function addComment(ctx: AppContext, scope: SchemaScope, id: string, text: string) {
  if (
    !(['edit', 'publish', 'approve'] as const).some((action) =>
      can(scope.permissions, action, scope.schema.name),
    )
  ) {
    throw forbidden(`You do not have permission to comment on ${scope.schema.pluralTitle}`);
  }
  const item = await requireItem(ctx, scope, id);
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertComment(tx, {
      ...versionKey(keyOf(scope, id)),
      at: new Date(),
      by: scope.user.id,
      byName: scope.member.displayName,
      text,
    });
    await journal(tx, {
      audit: [
        {
          workspaceId: scope.workspace.id,
          user: actorOf(scope),
          action: 'comment.created',
          targetType: 'item',
          targetId: id,
          label: itemLabel(item.data),
          schema: scope.schema.name,
          detail: { comment: String(inserted.id) },
        },
      ],
    });
    return inserted;
  });
  return toComment(row);
}
