import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows as resultRows } from '../db/migrate';
import { webhookDeliveries, webhooks } from '../db/schema';
import { enqueue } from '../queue/queue';
import { rowKey, WEBHOOK_DELIVERY_QUEUE, type RowKey } from '../queue/queues';
import { keysRelation, queueDueOutboxRows, waitingOutboxRows } from '../queue/rows';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function insertWebhook(tx: Tx, row: typeof webhooks.$inferInsert) {
  await tx.insert(webhooks).values(row);
}

export async function listWebhooks(db: Db, workspaceId: string) {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.workspaceId, workspaceId))
    .orderBy(webhooks.createdAt, webhooks.id);
}

const webhookKey = (workspaceId: string, id: string) =>
  and(eq(webhooks.workspaceId, workspaceId), eq(webhooks.id, id));

export async function findWebhook(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db.select().from(webhooks).where(webhookKey(workspaceId, id));
  return row;
}

export async function updateWebhook(
  tx: Tx,
  workspaceId: string,
  id: string,
  patch: Partial<Pick<WebhookRow, 'url' | 'events' | 'schemas' | 'active'>>,
) {
  const [row] = await tx.update(webhooks).set(patch).where(webhookKey(workspaceId, id)).returning();
  return row;
}

export async function deleteWebhook(tx: Tx, workspaceId: string, id: string) {
  const [row] = await tx.delete(webhooks).where(webhookKey(workspaceId, id)).returning();
  return row;
}

/** The newest deliveries of a webhook (its log), older than `before` when paging. */
export async function listDeliveries(
  db: Db,
  workspaceId: string,
  webhookId: string,
  limit: number,
  afterId?: string,
) {
  // The cursor is the last delivery of the previous page; its own timestamp, compared in SQL, keeps
  // PostgreSQL's microseconds (a JavaScript Date would drop them and skip rows of the same millisecond).
  const after = afterId
    ? sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (
        select d.created_at, d.id from webhook_deliveries d
        where d.workspace_id = ${workspaceId} and d.webhook_id = ${webhookId} and d.id = ${afterId})`
    : undefined;
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.webhookId, webhookId), after),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(db: Db | Tx, workspaceId: string, webhookId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.id, id),
      ),
    );
  return row;
}

/** Sends the same event again as a new delivery (same body, so receivers can tell it is the same event). */
export async function copyDelivery(tx: Tx, delivery: DeliveryRow, id: string) {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      workspaceId: delivery.workspaceId,
      id,
      webhookId: delivery.webhookId,
      event: delivery.event,
      body: delivery.body,
    })
    .returning();
  await enqueue(
    tx,
    WEBHOOK_DELIVERY_QUEUE,
    { workspaceId: row.workspaceId, id },
    { singletonKey: rowKey(row) },
  );
  return row;
}

export interface ClaimedDelivery {
  workspaceId: string;
  id: string;
  webhookId: string;
  body: string;
  tries: number;
  url: string;
  secret: string;
  active: boolean;
}

/**
 * Claims those of the deliveries `keys` that are due, in one statement: FOR UPDATE SKIP LOCKED, so two
 * processes never take the same row, and a lease (next_at moved on), so a job tried again while its first
 * try is still sending finds the row taken, and a process that dies mid-send leaves it due after the lease.
 */
export async function claimDeliveries(db: Db, keys: RowKey[], leaseMs: number): Promise<ClaimedDelivery[]> {
  const result = await db.execute(sql`
    with due as (
      select d.workspace_id, d.id from webhook_deliveries d join ${keysRelation(keys)} using (workspace_id, id)
      where d.status = 'pending' and d.next_at <= now()
      for update of d skip locked
    )
    update webhook_deliveries d
    set tries = d.tries + 1, next_at = now() + ${leaseMs} * interval '1 millisecond'
    from due, webhooks w
    where d.workspace_id = due.workspace_id and d.id = due.id
      and w.workspace_id = d.workspace_id and w.id = d.webhook_id
    returning d.workspace_id, d.id, d.webhook_id, d.body, d.tries, w.url, w.secret, w.active`);
  return resultRows<Record<string, unknown>>(result).map((r) => ({
    workspaceId: r.workspace_id as string,
    id: r.id as string,
    webhookId: r.webhook_id as string,
    body: r.body as string,
    tries: Number(r.tries),
    url: r.url as string,
    secret: r.secret as string,
    active: Boolean(r.active),
  }));
}

/** Those of the deliveries `keys` still pending, with when they are due (or their lease ends). */
export const waitingDeliveries = (db: Db, keys: RowKey[]) =>
  waitingOutboxRows(db, 'webhook_deliveries', keys);

/** A job for each pending delivery due by now (the sweep: rows whose job was lost or that predate the queue). */
export const queueDueDeliveries = (db: Db) =>
  queueDueOutboxRows(db, 'webhook_deliveries', WEBHOOK_DELIVERY_QUEUE);

/** Records the outcome of a try: delivered, due again at `nextAt`, or failed for good (nextAt null). */
export async function recordTry(
  db: Db | Tx,
  delivery: { workspaceId: string; id: string },
  outcome: { delivered: boolean; statusCode: number | null; error: string | null; nextAt: Date | null },
) {
  await db
    .update(webhookDeliveries)
    .set({
      status: outcome.delivered ? 'delivered' : outcome.nextAt ? 'pending' : 'failed',
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      ...(outcome.delivered ? { deliveredAt: sql`now()` } : {}),
      ...(outcome.nextAt ? { nextAt: outcome.nextAt } : {}),
    })
    .where(
      and(eq(webhookDeliveries.workspaceId, delivery.workspaceId), eq(webhookDeliveries.id, delivery.id)),
    );
}
