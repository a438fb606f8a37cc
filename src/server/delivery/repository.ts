import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { published } from '../db/schema';

/** Every copy of one schema in one stage (the delivery cache keeps them in memory). */
export async function loadStageCopies(db: Db, workspaceId: string, stage: string, schema: string) {
  return db
    .select({
      id: published.id,
      version: published.version,
      data: published.data,
      refs: published.refs,
      publishedAt: published.publishedAt,
    })
    .from(published)
    .where(
      and(eq(published.workspaceId, workspaceId), eq(published.stage, stage), eq(published.schema, schema)),
    );
}

export const DELIVERY_CHANNEL = 'marquee_delivery';

/** Tells every server process, once the transaction commits, that something delivery reads changed. */
export async function notifyDelivery(tx: Tx, payload: string) {
  await tx.execute(sql`select pg_notify(${DELIVERY_CHANNEL}, ${payload})`);
}
