import type { FastifyBaseLogger } from 'fastify';
import { nowAndAfterCommit, rootOf, type Db, type Tx } from '../db/client';
import { deliveryCacheOf } from './cache';
import { DELIVERY_CHANNEL, notifyDelivery } from './repository';

/**
 * Announces a change delivery reads (`stage\t{ws}\t{stage}`, `workspace\t{ws}`, `keys\t{ws}`): this
 * process drops its cached copies now and after the commit; other processes get a NOTIFY on commit.
 */
export async function announceDeliveryChange(tx: Tx, payload: string) {
  const cache = deliveryCacheOf(rootOf(tx));
  nowAndAfterCommit(tx, () => cache.apply(payload));
  await notifyDelivery(tx, payload);
}

export const stageChanged = (tx: Tx, workspaceId: string, stage?: string) =>
  announceDeliveryChange(
    tx,
    stage === undefined ? `workspace\t${workspaceId}` : `stage\t${workspaceId}\t${stage}`,
  );

interface PostgresJsClient {
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListen?: () => void,
  ): Promise<{ unlisten(): Promise<void> }>;
}

/**
 * Listens for other processes' delivery changes on PostgreSQL (LISTEN on its own connection, which
 * postgres.js re-opens after a drop; everything cached is dropped then, as notifications may have been
 * missed). Embedded PGlite has one process, whose own changes apply directly: nothing to listen to.
 */
export async function listenForDeliveryChanges(db: Db, log: FastifyBaseLogger): Promise<() => Promise<void>> {
  const client = (db as unknown as { $client?: unknown }).$client as Partial<PostgresJsClient> & {
    unsafe?: unknown;
  };
  if (!client || typeof client.unsafe !== 'function' || typeof client.listen !== 'function') {
    return async () => {};
  }
  const cache = deliveryCacheOf(db);
  let listens = 0;
  const subscription = await client.listen(
    DELIVERY_CHANNEL,
    (payload) => cache.apply(payload),
    () => {
      if (listens++ > 0) {
        log.warn('delivery listener reconnected: dropping cached copies');
        cache.clear();
      }
    },
  );
  return () => subscription.unlisten();
}
