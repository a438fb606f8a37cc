import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '@server/app';
import type { Config } from '@server/config';
import { rows } from '@server/db/migrate';
import { WEBHOOK_MAX_TRIES } from '@server/jobs/webhook-sender';
import { itemKey, schemaKey } from '@shared/publishing/surrogate-keys';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { Receiver } from '../fixtures/http-receiver';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  itemUrl,
  publish,
  teamWorkspace,
  type Team,
} from '../factories/items';

const TOKEN = 'cdn-purge-token';
const cdn = new Receiver();
let t: TestApp;
let worker: FastifyInstance;
let manager: TestUser;
let team: Team;

/** A second process on the same database running the job worker, retrying at once. */
const startWorker = (config: Config) =>
  buildApp({
    config: { ...config, jobs: true, jobsPollMs: 50, webhookRetryBaseMs: 1 },
    db: t.database.db,
    logger: false,
  });

beforeAll(async () => {
  const url = await cdn.start('/purge');
  t = await createTestApp({ deliveryPurge: { url, token: TOKEN } });
  worker = await startWorker(t.config);
  manager = await verifiedUser(t, { name: 'Cdn Manager' });
  team = await teamWorkspace(t, manager, { name: 'Purged', roles: {}, people: {} });
});
afterAll(async () => {
  await worker?.close();
  await t.close();
  await cdn.stop();
});

const place = (stage: string) => ({ workspaceId: team.ws, stage, schema: 'blog-post' });
const keysOf = (stage: string, id: string) => [schemaKey(place(stage)), itemKey(place(stage), id)];

async function newPost(slug: string) {
  return createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: slug, slug }));
}

async function publishTo(id: string, stage: string) {
  expect((await publish(t, manager, team.ws, 'blog-post', id, stage)).statusCode).toBe(200);
}

/** The queued purges as stored (the outbox rows). */
async function queued(db = t.database.db) {
  return rows<{ keys: string[]; status: string; tries: number; last_error: string | null }>(
    await db.execute(sql`select keys, status, tries, last_error from delivery_purges order by created_at`),
  );
}

/** Waits until the CDN acknowledged purges holding every key, sent after request number `from`. */
async function purgedAfter(from: number, keys: string[]) {
  await vi.waitFor(
    () => {
      const sent = cdn.acknowledged.slice(from).flatMap((body) => JSON.parse(body).keys as string[]);
      expect(sent).toEqual(expect.arrayContaining(keys));
    },
    { timeout: 10_000 },
  );
  await vi.waitFor(async () => expect(await queued()).toEqual([]), { timeout: 10_000 });
}

describe('CDN purges (DELIVERY_PURGE_URL)', () => {
  it('a publish POSTs its schema and item keys with the bearer token', async () => {
    const post = await newPost('first');
    const from = cdn.acknowledged.length;
    const before = cdn.requests.length;
    await publishTo(post.id, 'live');
    await purgedAfter(from, keysOf('live', post.id));

    const [request] = cdn.requests.slice(before);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(request.body)).toEqual({
      keys: [`mq:${team.ws}:live:blog-post`, `mq:${team.ws}:live:blog-post:${post.id}`],
    });
  });

  it('a publish through the function service purges too', async () => {
    const post = await newPost('fun');
    const from = cdn.acknowledged.length;
    const res = await call(t, 'POST', `/fun/publish/publish/?__marquee_workspace=${team.ws}`, manager, {
      id: post.id,
      schemaType: 'blog-post',
      destination: 'Staging',
      publishRefs: false,
    });
    expect(res.statusCode).toBe(200);
    await purgedAfter(from, keysOf('staging', post.id));
  });

  it('a scheduled publish purges when the worker runs it', async () => {
    const post = await newPost('planned');
    const from = cdn.acknowledged.length;
    const at = new Date(Date.now() + 300).toISOString();
    const res = await call(t, 'POST', `${itemUrl(team.ws, 'blog-post', post.id)}/schedules`, manager, {
      stage: 'live',
      at,
    });
    expect(res.statusCode).toBe(201);
    await purgedAfter(from, keysOf('live', post.id));
  });

  it('an unpublish purges the keys of its stage', async () => {
    const post = await newPost('unpublished');
    const published = cdn.acknowledged.length;
    await publishTo(post.id, 'staging');
    await purgedAfter(published, keysOf('staging', post.id));
    const from = cdn.acknowledged.length;
    const res = await call(t, 'DELETE', `${itemUrl(team.ws, 'blog-post', post.id)}/publish/staging`, manager);
    expect(res.statusCode).toBe(200);
    await purgedAfter(from, keysOf('staging', post.id));
  });

  it('a delete purges the keys of every stage the item was published in', async () => {
    const post = await newPost('deleted');
    const published = cdn.acknowledged.length;
    await publishTo(post.id, 'live');
    await publishTo(post.id, 'staging');
    await purgedAfter(published, [...keysOf('live', post.id), ...keysOf('staging', post.id)]);
    const from = cdn.acknowledged.length;
    const before = cdn.requests.length;
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', post.id), manager)).statusCode).toBe(200);
    await purgedAfter(from, [...keysOf('live', post.id), ...keysOf('staging', post.id)]);
    expect(JSON.parse(cdn.requests[before].body).keys).toHaveLength(4);

    // An item published nowhere changes no delivered answer: its delete queues nothing.
    const draft = await newPost('draft');
    await worker.close();
    try {
      expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', draft.id), manager)).statusCode).toBe(
        200,
      );
      expect(await queued()).toEqual([]);
    } finally {
      worker = await startWorker(t.config);
    }
  });

  it('queues one row per change in its transaction and sends those of the same moment as one request', async () => {
    const [a, b] = [await newPost('coalesced-a'), await newPost('coalesced-b')];
    await worker.close();
    const before = cdn.requests.length;
    try {
      await publishTo(a.id, 'live');
      await publishTo(b.id, 'live');
      expect((await queued()).map((row) => row.keys)).toEqual([keysOf('live', a.id), keysOf('live', b.id)]);
    } finally {
      worker = await startWorker(t.config);
    }
    await vi.waitFor(async () => expect(await queued()).toEqual([]), { timeout: 10_000 });
    const sent = cdn.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0].body).keys.sort()).toEqual(
      [schemaKey(place('live')), itemKey(place('live'), a.id), itemKey(place('live'), b.id)].sort(),
    );
  });

  it('retries a failing endpoint until it accepts, and the publish stands meanwhile', async () => {
    const post = await newPost('retried');
    cdn.plan = [500, 503];
    const before = cdn.requests.length;
    const from = cdn.acknowledged.length;
    await publishTo(post.id, 'live');
    await purgedAfter(from, keysOf('live', post.id));
    const tries = cdn.requests.slice(before);
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.body)).size).toBe(1);
  });

  it('keeps a purge as failed once its tries run out', async () => {
    const post = await newPost('refused');
    cdn.plan = Array.from({ length: WEBHOOK_MAX_TRIES }, () => 500);
    const before = cdn.requests.length;
    await publishTo(post.id, 'live');
    await vi.waitFor(
      async () =>
        expect(await queued()).toEqual([
          {
            keys: keysOf('live', post.id),
            status: 'failed',
            tries: WEBHOOK_MAX_TRIES,
            last_error: 'Answered HTTP 500',
          },
        ]),
      { timeout: 10_000 },
    );
    expect(cdn.requests.slice(before)).toHaveLength(WEBHOOK_MAX_TRIES);
    expect(cdn.plan).toEqual([]);
    await t.database.db.execute(sql`delete from delivery_purges`);
  });

  it('lets a CDN keep answers until purged, by the keys a purge names', async () => {
    const post = await newPost('kept-at-the-edge');
    await publishTo(post.id, 'live');
    const created = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/api-keys`, manager, {
      name: 'Edge',
      stages: ['live'],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${team.ws}/live/items/blog-post/${post.id}`,
      headers: { authorization: `Bearer ${created.json().key}` },
    });
    expect(res.headers['cache-control']).toBe(
      'public, max-age=60, stale-while-revalidate=600, s-maxage=86400',
    );
    expect(String(res.headers['surrogate-key']).split(' ')).toContain(itemKey(place('live'), post.id));
  });

  it('queues nothing when DELIVERY_PURGE_URL is not set', async () => {
    const plain = await createTestApp();
    const before = cdn.requests.length;
    try {
      const owner = await verifiedUser(plain, { name: 'Plain Owner' });
      const ws = (await teamWorkspace(plain, owner, { name: 'Plain', roles: {}, people: {} })).ws;
      const post = await createItem(plain, owner, ws, 'blog-post', blogPostData());
      const url = itemUrl(ws, 'blog-post', post.id);
      expect((await publish(plain, owner, ws, 'blog-post', post.id)).statusCode).toBe(200);
      expect((await call(plain, 'DELETE', `${url}/publish/live`, owner)).statusCode).toBe(200);
      expect((await publish(plain, owner, ws, 'blog-post', post.id, 'staging')).statusCode).toBe(200);
      expect((await call(plain, 'DELETE', url, owner)).statusCode).toBe(200);
      expect(await queued(plain.database.db)).toEqual([]);
      expect(cdn.requests.length).toBe(before);
    } finally {
      await plain.close();
    }
  });
});
