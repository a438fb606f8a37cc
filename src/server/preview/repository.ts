import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { previewTokens, workspaces } from '../db/schema';

export async function insertPreviewToken(tx: Tx, row: typeof previewTokens.$inferInsert) {
  await tx.insert(previewTokens).values(row);
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
