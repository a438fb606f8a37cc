import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { apiKeys } from '../db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;

export async function insertApiKey(tx: Tx, row: NewApiKey) {
  await tx.insert(apiKeys).values(row);
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** Deletes a key; answers the deleted row (undefined when it did not exist). */
export async function deleteApiKey(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx
    .delete(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id)))
    .returning();
  return row;
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
  return row;
}

/** Notes a use of the key, writing at most once a minute per key. */
export async function touchApiKey(db: Db, workspaceId: string, id: string, at: Date) {
  const minuteAgo = new Date(at.getTime() - 60_000);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(
      and(
        eq(apiKeys.workspaceId, workspaceId),
        eq(apiKeys.id, id),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, minuteAgo)),
      ),
    );
}
