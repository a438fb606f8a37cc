// Several server processes: a sign-out or a deactivation made through one process was served
// from another process's read cache until READ_CACHE_TTL_MS ran out. Two real server processes on one
// PostgreSQL database must refuse the revoked caller once the change notice reaches the other process,
// a moment after the writer answered, well before the TTL (5 s here) would have dropped the entry.
import type { Item } from '@shared/api/items';
import {
  callProcess,
  createProcessDatabase,
  PROCESS_PASSWORD,
  processUser,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../helpers/server-process';
import { Receiver } from '../fixtures/http-receiver';
import { testDatabaseKind } from '../helpers/database';

const startServer = (databaseUrl: string, env: Record<string, string> = {}) =>
  startServerProcess(databaseUrl, { READ_CACHE_TTL_MS: '5000', ...env });
const stopServer = stopServerProcess;
const call = callProcess;
const createDatabase = createProcessDatabase;
const verifiedUserOf = (a: ServerProcess, name: string) => processUser(a, name);

describe.runIf(testDatabaseKind() === 'postgres')('two server processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    database = await createDatabase();
    // One after the other: the first migrates the new database.
    a = await startServer(database.url);
    b = await startServer(database.url);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a && stopServer(a), b && stopServer(b)]);
    await database?.drop();
  }, 60_000);

  const verifiedUser = (name: string) => verifiedUserOf(a, name);

  /** Well under the TTL: a process that missed the notice would still answer from its cache. */
  const NOTICE_MS = 2000;

  /** Two reads, so that the second surely came from the process's cache. */
  async function warm(server: ServerProcess, url: string, token: string, status: number) {
    expect((await call(server, 'GET', url, token)).status).toBe(status);
    expect((await call(server, 'GET', url, token)).status).toBe(status);
  }

  it('a sign-out through one process is refused by the other once it hears of it', async () => {
    const user = await verifiedUser('Sam');
    await warm(a, '/me', user.token, 200);
    await warm(b, '/me', user.token, 200);
    expect((await call(a, 'POST', '/auth/sign-out', user.token)).status).toBe(200);
    await expect
      .poll(async () => (await call(b, 'GET', '/me', user.token)).status, { timeout: NOTICE_MS })
      .toBe(401);
    expect((await call(a, 'GET', '/me', user.token)).status).toBe(401);
  });

  it('a member deactivated through one process is refused by the other once it hears of it', async () => {
    const manager = await verifiedUser('Mia');
    const created = await call(a, 'POST', '/workspaces', manager.token, { name: 'Two Processes' });
    expect(created.status).toBe(201);
    const ws = created.body.id as string;
    const editor = await verifiedUser('Eddie');
    const invite = await call(a, 'POST', `/workspaces/${ws}/members/invitations`, manager.token, {
      email: editor.email,
      roles: [],
    });
    expect(invite.status).toBe(201);
    // The invitation is accepted on the next sign-in of a verified address.
    const again = await call(a, 'POST', '/auth/sign-in', undefined, {
      email: editor.email,
      password: PROCESS_PASSWORD,
    });
    expect(again.status).toBe(200);
    await warm(b, `/workspaces/${ws}`, editor.token, 200);
    const patch = await call(a, 'PATCH', `/workspaces/${ws}/members/${editor.id}`, manager.token, {
      active: false,
    });
    expect(patch.status).toBe(200);
    await expect
      .poll(async () => (await call(b, 'GET', `/workspaces/${ws}`, editor.token)).status, {
        timeout: NOTICE_MS,
      })
      .toBe(404);
  });

  // Items and first pages are answered from each process's memory (items/cache.ts).
  it('an item written through one process is read as written through the other, and in its list', async () => {
    const manager = await verifiedUser('Max');
    const created = await call(a, 'POST', '/workspaces', manager.token, { name: 'Two Processes Items' });
    expect(created.status).toBe(201);
    const ws = created.body.id as string;
    const items = `/workspaces/${ws}/items/blog-post`;
    const post = (name: string) => ({ data: { name, slug: name.toLowerCase(), body: '<p>Hi</p>' } });
    const item = await call(a, 'POST', items, manager.token, post('First'));
    expect(item.status).toBe(201);
    const url = `${items}/${item.body.id as string}`;
    const page = async () => (await call(b, 'GET', `${items}?limit=12`, manager.token)).body.items as Item[];
    await warm(b, url, manager.token, 200);
    await warm(b, `${items}?limit=12`, manager.token, 200);

    // The other process hears of a write once PostgreSQL delivers the notice to its listening
    // connection, which may come a moment after the writer heard its own: each read waits for it.
    const saved = await call(a, 'PUT', url, manager.token, { ...post('Second'), baseVersion: 1 });
    expect(saved.status).toBe(200);
    await expect.poll(async () => (await call(b, 'GET', url, manager.token)).body.version).toBe(2);
    expect((await call(b, 'GET', url, manager.token)).body).toMatchObject({ data: { name: 'Second' } });
    await expect.poll(async () => (await page())[0].version).toBe(2);
    expect((await page())[0]).toMatchObject({ data: { name: 'Second' } });

    const other = await call(a, 'POST', items, manager.token, post('Third'));
    expect(other.status).toBe(201);
    await expect.poll(async () => (await page()).map((i) => i.id)).toEqual([other.body.id, item.body.id]);

    await warm(b, url, manager.token, 200);
    expect((await call(a, 'POST', `${url}/publish/live`, manager.token, { publishRefs: false })).status).toBe(
      200,
    );
    await expect
      .poll(async () => Object.keys((await call(b, 'GET', url, manager.token)).body.published))
      .toEqual(['live']);

    expect((await call(a, 'DELETE', url, manager.token)).status).toBe(200);
    await expect.poll(async () => (await call(b, 'GET', url, manager.token)).status).toBe(404);
    await expect.poll(async () => (await page()).map((i) => i.id)).toEqual([other.body.id]);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('the job worker across server processes', () => {
  const receiver = new Receiver();
  let receiverUrl: string;
  let database: Awaited<ReturnType<typeof createDatabase>>;
  const servers: ServerProcess[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const server = await startServer(database.url, {
      WEBHOOK_ALLOW_PRIVATE: '1',
      JOBS_POLL_MS: '500',
      ...env,
    });
    servers.push(server);
    return server;
  };

  beforeEach(async () => {
    receiverUrl = await receiver.start();
    receiver.requests = [];
    receiver.acknowledged = [];
    database = await createDatabase();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(stopServer));
    await receiver.stop();
    await database?.drop();
  }, 60_000);

  /** A workspace with a webhook on `item.saved` to the receiver; answers its items URL and the token. */
  async function hookedWorkspace(server: ServerProcess) {
    const manager = await verifiedUserOf(server, 'Hank');
    const created = await call(server, 'POST', '/workspaces', manager.token, { name: 'Hooked' });
    expect(created.status).toBe(201);
    const ws = created.body.id as string;
    const hook = await call(server, 'POST', `/workspaces/${ws}/webhooks`, manager.token, {
      url: receiverUrl,
      events: ['item.saved'],
    });
    expect(hook.status).toBe(201);
    return { items: `/workspaces/${ws}/items/blog-post`, token: manager.token };
  }
  const post = (name: string) => ({ data: { name, slug: name.toLowerCase(), body: '<p>Hi</p>' } });

  it('two processes share the webhook deliveries and none is sent twice', async () => {
    const a = await start();
    const b = await start();
    const { items, token } = await hookedWorkspace(a);
    const names = Array.from({ length: 30 }, (_, i) => `Shared${i}`);
    for (const [i, name] of names.entries())
      expect((await call(i % 2 ? a : b, 'POST', items, token, post(name))).status).toBe(201);

    await expect.poll(() => receiver.acknowledged.length, { timeout: 60_000 }).toBe(names.length);
    const itemIds = receiver.requests.map((r) => JSON.parse(r.body).itemId as string);
    expect(new Set(itemIds).size).toBe(names.length);
    expect(receiver.requests).toHaveLength(names.length);
  }, 120_000);

  it('a process killed mid-delivery has its delivery finished by another', async () => {
    // Fast takeover: a try counts as abandoned after 10 s, looked for every second, retried after 1 s.
    const fast = { JOBS_EXPIRE_SECONDS: '10', JOBS_CHECK_SECONDS: '1', JOBS_RETRY_SECONDS: '1' };
    const api = await start({ JOBS: '0' });
    const doomed = await start(fast);
    const { items, token } = await hookedWorkspace(api);
    receiver.plan = ['hang'];
    expect((await call(api, 'POST', items, token, post('Doomed'))).status).toBe(201);
    await expect.poll(() => receiver.requests.length, { timeout: 30_000 }).toBe(1);
    doomed.child.kill('SIGKILL');

    await start(fast);
    await expect.poll(() => receiver.acknowledged.length, { timeout: 60_000 }).toBe(1);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].body).toBe(receiver.requests[0].body);
  }, 120_000);
});
