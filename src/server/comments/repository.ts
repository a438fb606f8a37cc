import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { comments } from '../db/schema';
import type { ItemKey } from '../items/repository';

export type CommentRow = typeof comments.$inferSelect;

export async function insertComment(db: Db | Tx, row: typeof comments.$inferInsert) {
  const [inserted] = await db.insert(comments).values(row).returning();
  return inserted;
}

/** The comments on an item, oldest first. */
export async function listComments(db: Db, key: ItemKey) {
  return db
    .select()
    .from(comments)
    .where(
      and(
        eq(comments.workspaceId, key.workspaceId),
        eq(comments.schema, key.schema),
        eq(comments.itemId, key.id),
      ),
    )
    .orderBy(asc(comments.at), asc(comments.id));
}
