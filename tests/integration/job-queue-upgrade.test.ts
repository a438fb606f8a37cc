import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { openDatabase } from '@server/db/client';
import { rows } from '@server/db/migrate';
import { webhookDeliveries } from '@server/db/schema';
import { jobDb } from '@server/queue/job-db';
import { installJobQueues } from '@server/queue/queue';
import { JOB_QUEUES, rowKey, SCHEDULE_QUEUE, WEBHOOK_DELIVERY_QUEUE } from '@server/queue/queues';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startJobWorkers } from '../helpers/job-workers';
import { Receiver } from '../fixtures/http-receiver';
import { verifiedUser } from '../factories/users';
import { call, teamWorkspace } from '../factories/items';

// A database that ran pg-boss 10 (schema version 24) lost its waiting jobs, or failed to start: pg-boss
// 12 has no migration from it.

let t: TestApp;
let ws: string;
let webhookId: string;
const receiver = new Receiver();

beforeAll(async () => {
  const url = await receiver.start();
  t = await createTestApp({ webhookAllowPrivate: true });
  const manager = await verifiedUser(t, { name: 'Upgrade Manager' });
  ws = (await teamWorkspace(t, manager, { name: 'Upgraded', roles: {}, people: {} })).ws;
  const hook = await call(t, 'POST', `/api/v1/workspaces/${ws}/webhooks`, manager, {
    url,
    events: ['item.saved'],
  });
  expect(hook.statusCode).toBe(201);
  webhookId = hook.json().id;
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

const execute = (text: string, values?: unknown[]) => jobDb(t.database.db).executeSql(text, values);

/** The `pgboss` schema as pg-boss 10 left it: its install, its queues as our worker set them. */
async function installVersion10() {
  await execute('drop schema pgboss cascade');
  const install = fs.readFileSync(new URL('../fixtures/pg-boss-10.sql', import.meta.url), 'utf8');
  await execute(install.replace(/^--.*\n/gm, ''));
  for (const name of [...JOB_QUEUES.map((queue) => queue.name), 'retired'])
    await execute(
      `select pgboss.create_queue($1, json_build_object('policy', 'short', 'retryLimit', 20, 'retryDelay', 1,
        'retryBackoff', true, 'expireInSeconds', 10))`,
      [name],
    );
}

interface Version10Job {
  name: string;
  data: object;
  state: 'created' | 'retry' | 'active' | 'completed';
  singletonKey?: string;
  startAfter?: Date;
  retryCount?: number;
}

/** A job as pg-boss 10 stored it (its insert, with the queue's settings); answers its id. */
async function addVersion10Job(job: Version10Job) {
  const id = crypto.randomUUID();
  const started = job.state !== 'created';
  await execute(
    `insert into pgboss.job (id, name, data, state, singleton_key, start_after, started_on, retry_count,
       retry_limit, retry_delay, retry_backoff, expire_in, policy, keep_until)
     select $1, q.name, $3, $4::pgboss.job_state, $5, coalesce($6::timestamptz, now()), $7, $8, q.retry_limit,
       q.retry_delay, q.retry_backoff, q.expire_seconds * interval '1 second', q.policy, now() + interval '14 days'
     from pgboss.queue q where q.name = $2`,
    [
      id,
      job.name,
      job.data,
      job.state,
      job.singletonKey ?? null,
      job.startAfter ?? null,
      started ? new Date() : null,
      job.retryCount ?? 0,
    ],
  );
  return id;
}

/** A pending delivery row and the job pg-boss 10 had waiting for it. */
async function pendingDelivery(body: string, state: Version10Job['state'], retryCount = 0) {
  const id = crypto.randomUUID();
  await t.database.db
    .insert(webhookDeliveries)
    .values({ workspaceId: ws, id, webhookId, event: 'item.saved', body });
  const key = { workspaceId: ws, id };
  const job = await addVersion10Job({
    name: WEBHOOK_DELIVERY_QUEUE.name,
    data: key,
    state,
    singletonKey: rowKey(key),
    retryCount,
  });
  return { id, job };
}

interface Version12Job {
  id: string;
  name: string;
  state: string;
  data: object;
  singleton_key: string | null;
  start_after: string;
  retry_limit: number;
  expire_seconds: number;
}

const jobs = async () =>
  rows<Version12Job>(
    await t.database.db.execute(
      sql`select id, name, state, data, singleton_key, start_after, retry_limit, expire_seconds from pgboss.job
          where not starts_with(name, '__pgboss__') order by id`,
    ),
  );

describe('a database that ran pg-boss 10', () => {
  it('keeps the jobs it had still to run, which then run once', async () => {
    await installVersion10();
    const waiting = await pendingDelivery('{"n":"waiting"}', 'created');
    const retried = await pendingDelivery('{"n":"retried"}', 'retry', 3);
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const scheduleKey = { workspaceId: ws, id: crypto.randomUUID() };
    const later = await addVersion10Job({
      name: SCHEDULE_QUEUE.name,
      data: scheduleKey,
      state: 'created',
      singletonKey: rowKey(scheduleKey),
      startAfter: tomorrow,
    });
    await addVersion10Job({ name: WEBHOOK_DELIVERY_QUEUE.name, data: {}, state: 'completed' });
    await addVersion10Job({ name: 'retired', data: {}, state: 'created' });

    // Two processes start at once; on PostgreSQL the second has a connection pool of its own.
    const second = t.database.url
      ? await openDatabase({ databaseUrl: t.database.url, maxConnections: 3 })
      : undefined;
    const installs = await Promise.all(
      [t.database, second ?? t.database].map(({ db }) => installJobQueues(db, JOB_QUEUES, () => {})),
    );
    for (const install of installs) await install.stop();
    await second?.close();

    const version = await t.database.db.execute(sql`select version from pgboss.version`);
    expect(rows<{ version: number }>(version)).toEqual([{ version: 46 }]);
    const aside = await t.database.db.execute(sql`select to_regnamespace('pgboss_v10') is null as gone`);
    expect(rows(aside)).toEqual([{ gone: true }]);
    const copied = await jobs();
    expect(copied).toHaveLength(3);
    const byId = new Map(copied.map((job) => [job.id, job]));
    expect(byId.get(waiting.job)).toMatchObject({
      name: WEBHOOK_DELIVERY_QUEUE.name,
      state: 'created',
      data: { workspaceId: ws, id: waiting.id },
      singleton_key: rowKey({ workspaceId: ws, id: waiting.id }),
      retry_limit: 20,
      expire_seconds: 10,
    });
    // Three retries begun and a failed try: of the 20, 16 are left after the one it is due for.
    expect(byId.get(retried.job)).toMatchObject({ state: 'created', retry_limit: 16 });
    const scheduled = byId.get(later);
    expect(scheduled).toMatchObject({ name: SCHEDULE_QUEUE.name, singleton_key: rowKey(scheduleKey) });
    expect(new Date(scheduled!.start_after).getTime()).toBe(tomorrow.getTime());

    const workers = await startJobWorkers(t);
    try {
      const state = async (id: string) => (await jobs()).find((job) => job.id === id)?.state;
      await expect.poll(() => state(waiting.job), { timeout: 10_000 }).toBe('completed');
      await expect.poll(() => state(retried.job), { timeout: 10_000 }).toBe('completed');
      expect(receiver.acknowledged.toSorted()).toEqual(['{"n":"retried"}', '{"n":"waiting"}']);
      expect(await state(later)).toBe('created');
    } finally {
      await workers.close();
    }
    expect(receiver.requests.map((request) => request.body).toSorted()).toEqual([
      '{"n":"retried"}',
      '{"n":"waiting"}',
    ]);
  });
});
