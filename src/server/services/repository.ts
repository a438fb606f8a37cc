import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { items } from '../db/schema';

/** The workspace's most recently saved `service` item connected to a provider (the one interest searches use). */
export async function latestConnection(db: Db, workspaceId: string, provider: string) {
  const [row] = await db
    .select({ id: items.id, connection: sql<Record<string, unknown>>`${items.data}->'connection'` })
    .from(items)
    .where(
      and(
        eq(items.workspaceId, workspaceId),
        eq(items.schema, 'service'),
        sql`${items.data}->'connection'->>'provider' = ${provider}`,
        sql`${items.data}->'connection' ? 'encTokens'`,
      ),
    )
    .orderBy(desc(items.lastWrittenAt))
    .limit(1);
  return row;
}
