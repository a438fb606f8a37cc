import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { items, testSends } from '../db/schema';

export type TestSendRow = typeof testSends.$inferSelect;

/**
 * Records a test send as 'sending' when the workspace is under its hourly limit, in one transaction
 * holding the workspace's advisory lock, so concurrent sends (from any server process) cannot overshoot.
 * Answers null when the limit is reached.
 */
export async function startTestSend(
  db: Db,
  row: Omit<typeof testSends.$inferInsert, 'status' | 'at' | 'id'>,
  perHour: number,
): Promise<TestSendRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`test_sends:${row.workspaceId}`}))`);
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(testSends)
      .where(
        and(eq(testSends.workspaceId, row.workspaceId), sql`${testSends.at} > now() - interval '1 hour'`),
      );
    if (count >= perHour) return null;
    const [inserted] = await tx
      .insert(testSends)
      .values({ ...row, status: 'sending' })
      .returning();
    return inserted;
  });
}

export async function finishTestSend(
  db: Db | Tx,
  key: { workspaceId: string; id: number },
  result: { status: 'sent' | 'failed'; error?: string },
): Promise<TestSendRow> {
  const [row] = await db
    .update(testSends)
    .set({ status: result.status, error: result.error ?? null })
    .where(and(eq(testSends.workspaceId, key.workspaceId), eq(testSends.id, key.id)))
    .returning();
  return row;
}

/** The newest test sends of an email item. */
export async function listTestSends(db: Db, workspaceId: string, itemId: string, limit = 20) {
  return db
    .select()
    .from(testSends)
    .where(and(eq(testSends.workspaceId, workspaceId), eq(testSends.itemId, itemId)))
    .orderBy(desc(testSends.at), desc(testSends.id))
    .limit(limit);
}

/** Keys and names of the workspace's customer profile attributes (items of that schema). */
export async function listAttributeKeys(db: Db, workspaceId: string) {
  return db
    .select({
      key: sql<string | null>`${items.data}->>'key'`,
      name: sql<string | null>`${items.data}->>'name'`,
    })
    .from(items)
    .where(and(eq(items.workspaceId, workspaceId), eq(items.schema, 'customer-profile-attribute')))
    .orderBy(sql`${items.data}->>'key'`)
    .limit(1000);
}
