import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { items, previewTokens, publishedSlugs, workspaces, type ItemReference } from '../db/schema';

export async function insertPreviewToken(tx: Tx, row: typeof previewTokens.$inferInsert) {
  await tx.insert(previewTokens).values(row);
}

/**
 * Forgets the workspace's tokens that expired before `before` (each new token clears them). Kept a
 * while after they expire, so that a page still holding one is told it expired, not that it is no token.
 */
export async function deleteExpiredPreviewTokens(tx: Tx, workspaceId: string, before: Date) {
  await tx
    .delete(previewTokens)
    .where(and(eq(previewTokens.workspaceId, workspaceId), lt(previewTokens.expiresAt, before)));
}

export async function revokePreviewToken(tx: Tx, workspaceId: string, id: string, at: Date) {
  await tx
    .update(previewTokens)
    .set({ revokedAt: sql`coalesce(${previewTokens.revokedAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(previewTokens.workspaceId, workspaceId), eq(previewTokens.id, id)));
}

export async function previewOriginsOf(db: Db, workspaceId: string): Promise<string[]> {
  const [row] = await db
    .select({ origins: workspaces.previewOrigins })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.origins ?? [];
}

export async function setPreviewOrigins(tx: Tx, workspaceId: string, origins: string[]) {
  await tx.update(workspaces).set({ previewOrigins: origins }).where(eq(workspaces.id, workspaceId));
}

/**
 * Writes values as an item's working version, a new item's or the next version of the one there (for
 * a render inside a transaction that is rolled back: no history, no journal).
 */
export async function writeWorkingVersion(
  tx: Tx,
  row: {
    workspaceId: string;
    schema: string;
    id: string;
    data: Record<string, unknown>;
    refs: Record<string, ItemReference>;
    modelVersion: number;
    by: string;
  },
) {
  const { by, ...values } = row;
  const now = new Date();
  await tx
    .insert(items)
    .values({ ...values, version: 1, lastWrittenBy: by, lastWrittenAt: now, createdBy: by })
    .onConflictDoUpdate({
      target: [items.workspaceId, items.schema, items.id],
      set: {
        data: values.data,
        refs: values.refs,
        version: sql`${items.version} + 1`,
        lastWrittenAt: now,
        modelVersion: values.modelVersion,
      },
    });
}

/**
 * The slugs other than `slug` an item was published under in a stage, oldest first (a draft's
 * previousSlugs, as releases/stage-copies.ts computes them for a copy put in a stage).
 */
export async function otherSlugsInStage(
  db: Db,
  item: { workspaceId: string; stage: string; schema: string; id: string },
  slug: string,
): Promise<string[]> {
  const found = await db
    .select({ slug: publishedSlugs.slug })
    .from(publishedSlugs)
    .where(
      and(
        eq(publishedSlugs.workspaceId, item.workspaceId),
        eq(publishedSlugs.stage, item.stage),
        eq(publishedSlugs.schema, item.schema),
        eq(publishedSlugs.id, item.id),
        ne(publishedSlugs.slug, slug),
      ),
    )
    .orderBy(publishedSlugs.firstPublishedAt, publishedSlugs.slug);
  return found.map((row) => row.slug);
}
