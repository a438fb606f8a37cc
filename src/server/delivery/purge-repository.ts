import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { DELIVERY_PURGE_QUEUE, type RowKey } from '../queue/queues';
import { keysRelation, queueDueOutboxRows, waitingOutboxRows } from '../queue/rows';
import { rows as resultRows } from '../db/migrate';
import { deliveryPurges } from '../db/schema';

export interface ClaimedPurge {
  workspaceId: string;
  id: string;
  keys: string[];
  tries: number;
}

/**
 * Claims those of the purges `keys` that are due, in one statement, as the webhook sender claims its
 * deliveries: FOR UPDATE SKIP LOCKED, so several processes never take the same row, and a lease (next_at
 * moved on), so a process that dies mid-send leaves the row to be tried again once the lease is over.
 */
export async function claimPurges(db: Db, keys: RowKey[], leaseMs: number): Promise<ClaimedPurge[]> {
  const result = await db.execute(sql`
    with due as (
      select p.workspace_id, p.id from delivery_purges p join ${keysRelation(keys)} using (workspace_id, id)
      where p.status = 'pending' and p.next_at <= now()
      for update of p skip locked
    )
    update delivery_purges p
    set tries = p.tries + 1, next_at = now() + ${leaseMs} * interval '1 millisecond'
    from due
    where p.workspace_id = due.workspace_id and p.id = due.id
    returning p.workspace_id, p.id, p.keys, p.tries`);
  return resultRows<Record<string, unknown>>(result).map((r) => ({
    workspaceId: r.workspace_id as string,
    id: r.id as string,
    keys: r.keys as string[],
    tries: Number(r.tries),
  }));
}

/** Those of the purges `keys` still pending, with when they are due (or their lease ends). */
export const waitingPurges = (db: Db, keys: RowKey[]) => waitingOutboxRows(db, 'delivery_purges', keys);

/** A job for each pending purge due by now (the sweep). */
export const queueDuePurges = (db: Db) => queueDueOutboxRows(db, 'delivery_purges', DELIVERY_PURGE_QUEUE);

const isOneOf = (purges: readonly ClaimedPurge[]): SQL =>
  sql`(${deliveryPurges.workspaceId}, ${deliveryPurges.id}) in (${sql.join(
    purges.map((p) => sql`(${p.workspaceId}, ${p.id})`),
    sql`, `,
  )})`;

/** Purges the endpoint accepted are done: nothing of them is kept. */
export async function deletePurges(db: Db, purges: readonly ClaimedPurge[]) {
  if (purges.length > 0) await db.delete(deliveryPurges).where(isOneOf(purges));
}

/** Records a failed try of purges: due again at `nextAt`, or failed for good (nextAt null). */
export async function recordFailedPurges(
  db: Db | Tx,
  purges: readonly ClaimedPurge[],
  outcome: { error: string; nextAt: Date | null },
) {
  if (purges.length === 0) return;
  await db
    .update(deliveryPurges)
    .set({
      status: outcome.nextAt ? 'pending' : 'failed',
      lastError: outcome.error,
      ...(outcome.nextAt ? { nextAt: outcome.nextAt } : {}),
    })
    .where(isOneOf(purges));
}
