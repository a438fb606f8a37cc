import { and, eq, exists, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { files, published } from '../db/schema';
import type { DeliveredIn } from './image-links';

/**
 * Whether a signed image may still load, in one query of two primary-key lookups: the file still
 * exists and, for a link delivered in an item, that item is still published in that stage.
 */
export async function isImageServable(
  db: Db,
  workspaceId: string,
  storageName: string,
  item: DeliveredIn | undefined,
): Promise<boolean> {
  const file = and(eq(files.workspaceId, workspaceId), eq(files.storageName, storageName));
  const stillPublished = item
    ? exists(
        db
          .select({ one: sql`1` })
          .from(published)
          .where(
            and(
              eq(published.workspaceId, workspaceId),
              eq(published.schema, item.schema),
              eq(published.id, item.id),
              eq(published.stage, item.stage),
            ),
          ),
      )
    : undefined;
  const rows = await db
    .select({ one: sql`1` })
    .from(files)
    .where(and(file, stillPublished));
  return rows.length > 0;
}
