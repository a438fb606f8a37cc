import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '@server/context';
import { sendWebhooks } from '@server/jobs/webhook-sender';
import { claimDeliveries } from '@server/webhooks/repository';
import { buildApp } from '@server/app';
import { webhookDeliveries } from '@server/db/schema';
import { rows } from '@server/db/migrate';
import { enqueue } from '@server/queue/queue';
import { rowKey, WEBHOOK_DELIVERY_QUEUE } from '@server/queue/queues';
import type { Tx } from '@server/db/client';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { Receiver } from '../fixtures/http-receiver';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';

let t: TestApp;
let worker: FastifyInstance;
let manager: TestUser;
let ws: string;
const receiver = new Receiver();

beforeAll(async () => {
  const url = await receiver.start();
  t = await createTestApp({ webhookAllowPrivate: true });
  worker = await startJobWorker();
  manager = await verifiedUser(t, { name: 'Queue Manager' });
  ws = (await teamWorkspace(t, manager, { name: 'Queued', roles: {}, people: {} })).ws;
  const hook = await call(t, 'POST', `/api/v1/workspaces/${ws}/webhooks`, manager, {
    url,
    events: ['item.saved'],
  });
  expect(hook.statusCode).toBe(201);
  webhookId = hook.json().id;
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await receiver.stop();
});

let webhookId: string;

/** Another app on the same database running the job worker, as a second server process would. */
const startJobWorker = () =>
  buildApp({
    config: { ...t.config, jobs: true, jobsPollMs: 50, webhookAllowPrivate: true },
    db: t.database.db,
    logger: false,
  });

/** A delivery row and its job, written in `tx` as the journal writes them. */
async function queueDelivery(tx: Tx, body: string) {
  const id = crypto.randomUUID();
  await tx.insert(webhookDeliveries).values({ workspaceId: ws, id, webhookId, event: 'item.saved', body });
  await enqueue(
    tx,
    WEBHOOK_DELIVERY_QUEUE,
    { workspaceId: ws, id },
    { singletonKey: rowKey({ workspaceId: ws, id }) },
  );
  return id;
}

const jobsOf = async (id: string) =>
  rows<{ state: string }>(
    await t.database.db.execute(
      sql`select state from pgboss.job where name = ${WEBHOOK_DELIVERY_QUEUE.name} and data->>'id' = ${id}`,
    ),
  );

describe('the job queue', () => {
  it('never runs a job enqueued in a transaction that rolled back', async () => {
    let rolledBack = '';
    await expect(
      t.database.db.transaction(async (tx) => {
        rolledBack = await queueDelivery(tx, '{"n":"rolled back"}');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const committed = await t.database.db.transaction((tx) => queueDelivery(tx, '{"n":"committed"}'));

    await expect.poll(() => receiver.acknowledged, { timeout: 10_000 }).toContain('{"n":"committed"}');
    await expect.poll(() => jobsOf(committed)).toEqual([{ state: 'completed' }]);
    expect(await jobsOf(rolledBack)).toEqual([]);
    expect(receiver.requests.map((r) => r.body)).not.toContain('{"n":"rolled back"}');
  });

  it('drops a second waiting job for the same row, and sends the row once', async () => {
    const before = receiver.requests.length;
    // Nothing runs it before the second enqueue: the worker is stopped meanwhile.
    await worker.close();
    const id = await t.database.db.transaction(async (tx) => {
      const queued = await queueDelivery(tx, '{"n":"twice asked"}');
      const key = { workspaceId: ws, id: queued };
      expect(await enqueue(tx, WEBHOOK_DELIVERY_QUEUE, key, { singletonKey: rowKey(key) })).toBeNull();
      return queued;
    });
    expect(await jobsOf(id)).toEqual([{ state: 'created' }]);
    worker = await startJobWorker();
    await expect.poll(() => receiver.acknowledged, { timeout: 10_000 }).toContain('{"n":"twice asked"}');
    expect(receiver.requests.slice(before).map((r) => r.body)).toEqual(['{"n":"twice asked"}']);
  });

  it('does not send a delivery again when its job is tried while the first try still holds the row', async () => {
    await worker.close();
    const id = await t.database.db.transaction((tx) => queueDelivery(tx, '{"n":"held"}'));
    const key = { workspaceId: ws, id };
    // The first try claimed the row and is still sending (or its process died): a lease of 2 s.
    expect(await claimDeliveries(t.database.db, [key], 2000)).toHaveLength(1);
    const before = receiver.requests.length;
    const ctx = { db: t.database.db, config: { ...t.config, webhookAllowPrivate: true }, log: t.app.log };
    await sendWebhooks(ctx as AppContext, [key], new AbortController().signal);
    expect(receiver.requests.length).toBe(before);

    // Once the lease is over, the work is taken over.
    worker = await startJobWorker();
    await expect.poll(() => receiver.acknowledged, { timeout: 10_000 }).toContain('{"n":"held"}');
    // The row records the answer a moment after the receiver has it.
    const row = async () =>
      (await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
    await expect.poll(row).toMatchObject({ status: 'delivered', tries: 2 });
  });

  it('picks up due rows that have no job (written before the queue, or whose job was lost)', async () => {
    const id = crypto.randomUUID();
    await t.database.db
      .insert(webhookDeliveries)
      .values({ workspaceId: ws, id, webhookId, event: 'item.saved', body: '{"n":"no job"}' });
    expect(await jobsOf(id)).toEqual([]);
    // The sweep runs every minute and at each worker's start.
    await worker.close();
    worker = await startJobWorker();
    await expect.poll(() => receiver.acknowledged, { timeout: 10_000 }).toContain('{"n":"no job"}');
  });
});
