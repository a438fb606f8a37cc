import { rootOf, type Db, type Tx } from '../db/client';
import { deliveryPurges } from '../db/schema';
import { enqueue } from '../queue/queue';
import { DELIVERY_PURGE_QUEUE, rowKey } from '../queue/queues';

/** The cache keys of delivered answers a change made stale (`@shared/publishing/surrogate-keys`). */
export interface DeliveryPurge {
  workspaceId: string;
  keys: string[];
}

/** How many apps built on a database purge a CDN (tests build several apps on one database). */
const purgingApps = new WeakMap<Db, number>();

/**
 * Makes the journal queue a CDN purge with each change to published copies made on `db` (buildApp
 * does, when `DELIVERY_PURGE_URL` is set); answers how to stop, for when the app closes.
 */
export function queueDeliveryPurges(db: Db): () => void {
  purgingApps.set(db, (purgingApps.get(db) ?? 0) + 1);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    purgingApps.set(db, (purgingApps.get(db) ?? 1) - 1);
  };
}

/** Writes the purge's outbox row and its job in the change's transaction, when this database purges a CDN. */
export async function queuePurge(tx: Db | Tx, purge: DeliveryPurge) {
  if (purge.keys.length === 0 || !purgingApps.get(rootOf(tx))) return;
  const [row] = await tx
    .insert(deliveryPurges)
    .values({ workspaceId: purge.workspaceId, keys: [...new Set(purge.keys)] })
    .returning({ workspaceId: deliveryPurges.workspaceId, id: deliveryPurges.id });
  await enqueue(tx, DELIVERY_PURGE_QUEUE, row, { singletonKey: rowKey(row) });
}
