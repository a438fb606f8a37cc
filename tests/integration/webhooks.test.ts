import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebhookDelivery } from '@shared/api/webhooks';
import { sql } from 'drizzle-orm';
import { buildApp } from '@server/app';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { Receiver } from '../fixtures/http-receiver';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  blogPostData,
  call,
  createItem,
  itemUrl,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let worker: FastifyInstance;
let manager: TestUser;
let team: Team;
let approver: TestUser;
const receiver = new Receiver();
let receiverUrl: string;

const jobConfig = () => ({
  ...t.config,
  jobs: true,
  jobsPollMs: 50,
  webhookAllowPrivate: true,
  webhookRetryBaseMs: 50,
});

beforeAll(async () => {
  receiverUrl = await receiver.start();
  t = await createTestApp({ webhookAllowPrivate: true });
  // A second app on the same database runs the job worker, like a second server process would.
  worker = await buildApp({ config: jobConfig(), db: t.database.db, logger: false });
  manager = await verifiedUser(t, { name: 'Web Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Hooked',
    roles: { legal: role('Legal', { mustApprove: [] }) },
    people: { 'Ann Approver': ['legal'] },
  });
  approver = team.members['Ann Approver'];
});
afterAll(async () => {
  await worker?.close();
  await t.close();
  await receiver.stop();
});

const hooksUrl = (ws = team.ws) => `/api/v1/workspaces/${ws}/webhooks`;

async function register(body: object) {
  const res = await call(t, 'POST', hooksUrl(), manager, body);
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; secret: string };
}

async function deliveries(id: string): Promise<WebhookDelivery[]> {
  const res = await call(t, 'GET', `${hooksUrl()}/${id}/deliveries`, manager);
  expect(res.statusCode).toBe(200);
  return res.json().deliveries;
}

function verify(secret: string, header: string, body: string) {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match).not.toBeNull();
  const expected = crypto.createHmac('sha256', secret).update(`${match![1]}.${body}`).digest('hex');
  expect(match![2]).toBe(expected);
  expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(60);
}

describe('webhooks', () => {
  it('are registered by managers, listed without their secret and refused to others', async () => {
    const created = await register({ url: receiverUrl, events: ['item.published'], active: false });
    expect(created.secret).toMatch(/^whsec_/);
    const list = await call(t, 'GET', hooksUrl(), manager);
    expect(list.json().webhooks).toContainEqual(
      expect.objectContaining({
        id: created.id,
        url: receiverUrl,
        events: ['item.published'],
        active: false,
      }),
    );
    expect(list.body).not.toContain(created.secret);
    // Kept sealed at rest: the database never holds the secret itself.
    const stored = await t.database.db.execute(sql`select secret from webhooks where id = ${created.id}`);
    expect(JSON.stringify(stored)).not.toContain(created.secret);

    expect((await call(t, 'GET', hooksUrl())).statusCode).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Str Anger' });
    expect((await call(t, 'GET', hooksUrl(), stranger)).statusCode).toBe(404);
    expect(
      (await call(t, 'POST', hooksUrl(), approver, { url: receiverUrl, events: ['item.saved'] })).statusCode,
    ).toBe(403);
    expect((await call(t, 'GET', `${hooksUrl()}/${created.id}/deliveries`, approver)).statusCode).toBe(403);

    const badEvent = await call(t, 'POST', hooksUrl(), manager, { url: receiverUrl, events: ['item.eaten'] });
    expect(badEvent.statusCode).toBe(400);
    const ftp = await call(t, 'POST', hooksUrl(), manager, {
      url: 'ftp://example.com/x',
      events: ['item.saved'],
    });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json().error.message).toBe('url: Webhooks are sent only to http(s) URLs');
    expect(
      (
        await call(t, 'POST', hooksUrl(), manager, {
          url: receiverUrl,
          events: ['item.saved'],
          schemas: ['nope'],
        })
      ).statusCode,
    ).toBe(400);

    expect((await call(t, 'DELETE', `${hooksUrl()}/${created.id}`, manager)).statusCode).toBe(200);
    expect((await call(t, 'GET', `${hooksUrl()}/${created.id}/deliveries`, manager)).statusCode).toBe(404);
  });

  // Broke: `http://[::127.0.0.1]/` and NAT64 `http://[64:ff9b::7f00:1]/` were accepted as targets.
  it('refuses private, loopback and link-local addresses unless WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const strict = await buildApp({
      config: { ...t.config, webhookAllowPrivate: false },
      db: t.database.db,
      logger: false,
    });
    try {
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://10.1.2.3/x',
        'http://169.254.169.254/latest',
        'http://[::1]/x',
        'http://localhost/x',
        'http://[::127.0.0.1]/',
        'http://[64:ff9b::7f00:1]/',
        'http://[::ffff:7f00:1]/',
        'http://[2002:a9fe:a9fe::]/',
        'http://[fec0::1]/',
        'http://2130706433/',
        'http://0x7f.1/',
      ]) {
        const res = await strict.inject({
          method: 'POST',
          url: hooksUrl(),
          headers: manager.auth,
          payload: { url, events: ['item.saved'] },
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error).toEqual({
          code: 'invalid_request',
          message: 'url: Webhooks may not call private, loopback or link-local addresses',
          details: { setting: 'WEBHOOK_ALLOW_PRIVATE' },
        });
      }
    } finally {
      await strict.close();
    }
  });

  // Broke: delivery let a stored NAT64 address of the loopback through, and resolved a name to check it
  // apart from the resolution its connection used.
  it('checks the address again at delivery, where the request connects', async () => {
    const port = new URL(receiverUrl).port;
    const hooks = [
      await register({ url: `http://localhost:${port}/hook`, events: ['item.saved'] }),
      await register({ url: `http://[64:ff9b::7f00:1]:${port}/hook`, events: ['item.saved'] }),
    ];
    await worker.close();
    const strict = await buildApp({
      config: { ...jobConfig(), webhookAllowPrivate: false },
      db: t.database.db,
      logger: false,
    });
    try {
      const before = receiver.requests.length;
      await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Strict', slug: 'strict' }));
      for (const hook of hooks)
        await vi.waitFor(
          async () =>
            expect((await deliveries(hook.id))[0]).toMatchObject({
              lastStatusCode: null,
              lastError: 'url: Webhooks may not call private, loopback or link-local addresses',
            }),
          { timeout: 15_000 },
        );
      expect(receiver.requests.length).toBe(before);
    } finally {
      await strict.close();
      for (const hook of hooks) await call(t, 'DELETE', `${hooksUrl()}/${hook.id}`, manager);
      worker = await buildApp({ config: jobConfig(), db: t.database.db, logger: false });
    }
  });

  it('sends each event signed, written with the change, for the schemas asked', async () => {
    const hook = await register({
      url: receiverUrl,
      events: ['item.published', 'item.unpublished', 'item.saved', 'item.deleted', 'item.approved'],
      schemas: ['blog-post'],
    });
    const other = await register({ url: receiverUrl, events: ['item.saved'], schemas: ['copy'] });
    const item = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Hooked', slug: 'hooked' }),
    );
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Hooked', slug: 'hooked', excerpt: 'x' }),
      1,
    );
    const current = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, {
      roles: { ...current.roles, legal: role('Legal', { mustApprove: ['blog-post'] }) },
    });
    expect((await approve(t, approver, team.ws, 'blog-post', item.id, 'legal')).statusCode).toBe(200);
    expect((await publish(t, manager, team.ws, 'blog-post', item.id)).statusCode).toBe(200);
    await call(t, 'DELETE', `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`, manager);
    await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), manager);
    await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, { roles: current.roles });

    await vi.waitFor(
      async () => {
        const log = await deliveries(hook.id);
        expect(log).toHaveLength(6);
        expect(log.every((d) => d.status === 'delivered' && d.lastStatusCode === 200)).toBe(true);
      },
      { timeout: 15_000 },
    );
    const log = (await deliveries(hook.id)).reverse();
    // Paged two at a time with the cursor, the log is the same six deliveries, newest first.
    const paged: WebhookDelivery[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const query: string = cursor ? `limit=2&cursor=${cursor}` : 'limit=2';
      const page = (await call(t, 'GET', `${hooksUrl()}/${hook.id}/deliveries?${query}`, manager)).json();
      paged.push(...page.deliveries);
      cursor = page.nextCursor;
    }
    expect(paged.map((d) => d.id)).toEqual([...log].reverse().map((d) => d.id));
    expect(log.map((d) => d.event)).toEqual([
      'item.saved',
      'item.saved',
      'item.approved',
      'item.published',
      'item.unpublished',
      'item.deleted',
    ]);
    const published = JSON.parse(log[3].body);
    expect(Object.keys(published)).toEqual([
      'id',
      'event',
      'workspace',
      'schema',
      'itemId',
      'version',
      'stage',
      'at',
    ]);
    expect(published).toMatchObject({
      id: log[3].id,
      event: 'item.published',
      workspace: team.ws,
      schema: 'blog-post',
      itemId: item.id,
      version: 2,
      stage: 'live',
    });
    expect(new Date(published.at).toISOString()).toBe(published.at);
    expect(JSON.parse(log[0].body)).not.toHaveProperty('stage');

    const sent = receiver.requests.find((r) => r.body === log[3].body)!;
    expect(sent.headers['content-type']).toBe('application/json');
    verify(hook.secret, sent.headers['x-marquee-signature'] as string, sent.body);
    expect(await deliveries(other.id)).toEqual([]);
    await call(t, 'DELETE', `${hooksUrl()}/${other.id}`, manager);
    await call(t, 'DELETE', `${hooksUrl()}/${hook.id}`, manager);
  });

  it('retries with backoff until the receiver answers, and redelivers on demand', async () => {
    const hook = await register({ url: receiverUrl, events: ['item.saved'] });
    receiver.plan = [500, 503];
    const before = receiver.requests.length;
    const item = await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Retry', slug: 'retry' }),
    );
    await vi.waitFor(
      async () => {
        const [delivery] = await deliveries(hook.id);
        expect(delivery).toMatchObject({
          status: 'delivered',
          tries: 3,
          lastStatusCode: 200,
          lastError: null,
        });
      },
      { timeout: 10_000 },
    );
    const tries = receiver.requests.slice(before);
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.body)).size).toBe(1);
    expect(JSON.parse(tries[0].body).itemId).toBe(item.id);

    const [first] = await deliveries(hook.id);
    const again = await call(t, 'POST', `${hooksUrl()}/${hook.id}/deliveries/${first.id}/redeliver`, manager);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ status: 'pending', tries: 0, body: first.body });
    await vi.waitFor(
      async () => {
        const log = await deliveries(hook.id);
        expect(log).toHaveLength(2);
        expect(log.every((d) => d.status === 'delivered')).toBe(true);
      },
      { timeout: 15_000 },
    );
    expect(
      (await call(t, 'POST', `${hooksUrl()}/${hook.id}/deliveries/${crypto.randomUUID()}/redeliver`, manager))
        .statusCode,
    ).toBe(404);
    await call(t, 'DELETE', `${hooksUrl()}/${hook.id}`, manager);
  });

  it('loses nothing when the server stops mid-delivery and starts again', async () => {
    const hook = await register({ url: receiverUrl, events: ['item.saved'] });
    receiver.plan = ['hang'];
    const before = receiver.requests.length;
    await createItem(t, manager, team.ws, 'blog-post', blogPostData({ name: 'Crash', slug: 'crash' }));
    await vi.waitFor(() => expect(receiver.requests.length).toBe(before + 1), { timeout: 15_000 });

    await worker.close();
    const [interrupted] = await deliveries(hook.id);
    expect(interrupted).toMatchObject({
      status: 'pending',
      tries: 1,
      lastError: 'Interrupted by a server shutdown',
    });

    worker = await buildApp({ config: jobConfig(), db: t.database.db, logger: false });
    await vi.waitFor(
      async () => {
        const [delivery] = await deliveries(hook.id);
        expect(delivery).toMatchObject({ status: 'delivered', tries: 2, lastStatusCode: 200 });
      },
      { timeout: 15_000 },
    );
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);
    expect(receiver.acknowledged.filter((body) => body === sent[0].body)).toHaveLength(1);
    await call(t, 'DELETE', `${hooksUrl()}/${hook.id}`, manager);
  });
});
