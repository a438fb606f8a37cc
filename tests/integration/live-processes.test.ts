// Live streams across real server processes on one PostgreSQL database, as behind a load balancer:
// a write through one process reaches the streams held by another, within their workspace only,
// and a revocation through one process ends the streams on the other.
import {
  callProcess as call,
  createProcessDatabase,
  processUser,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../helpers/server-process';
import { openEventStream, type EventStream } from '../helpers/event-stream';
import { testDatabaseKind } from '../helpers/database';

describe.runIf(testDatabaseKind() === 'postgres')('live streams across two server processes', () => {
  let database: Awaited<ReturnType<typeof createProcessDatabase>>;
  let a: ServerProcess;
  let b: ServerProcess;
  const streams: EventStream[] = [];
  const post = (slug: string) => ({ data: { name: slug, slug, body: '<p>Hi</p>' } });

  beforeAll(async () => {
    database = await createProcessDatabase();
    a = await startServerProcess(database.url);
    b = await startServerProcess(database.url);
  }, 120_000);

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all([a && stopServerProcess(a), b && stopServerProcess(b)]);
    await database?.drop();
  }, 120_000);

  async function open(
    server: ServerProcess,
    ws: string,
    token: string,
    tab = `tab-${streams.length}-process`,
  ) {
    const stream = await openEventStream(`${server.url}/api/v1/workspaces/${ws}/live?tab=${tab}`, token);
    streams.push(stream);
    expect(stream.status).toBe(200);
    await stream.next((e) => e.event === 'ready');
    return stream;
  }

  async function workspaceWithMember(name: string) {
    const manager = await processUser(a, `${name}Manager`);
    const created = await call(a, 'POST', '/workspaces', manager.token, { name });
    const ws = created.body.id as string;
    const member = await processUser(a, `${name}Member`);
    await call(a, 'POST', `/workspaces/${ws}/members/invitations`, manager.token, {
      email: member.email,
      roles: [],
    });
    // The invitation is accepted on the next sign-in of a verified address.
    const again = await call(a, 'POST', '/auth/sign-in', undefined, {
      email: member.email,
      password: 'correct horse battery',
    });
    return { ws, manager, member: { ...member, token: again.body.token as string } };
  }

  it('an item written through one process reaches a stream on the other, and no other workspace’s', async () => {
    const one = await workspaceWithMember('One');
    const two = await workspaceWithMember('Two');
    const onB = await open(b, one.ws, one.member.token);
    const otherOnB = await open(b, two.ws, two.member.token);
    const item = await call(
      a,
      'POST',
      `/workspaces/${one.ws}/items/blog-post`,
      one.manager.token,
      post('first'),
    );
    expect(item.status).toBe(201);
    const told = await onB.next((e) => e.event === 'item' && e.data.id === item.body.id);
    expect(told.data).toMatchObject({ schema: 'blog-post', version: 1, action: 'item.created' });

    const theirs = await call(
      a,
      'POST',
      `/workspaces/${two.ws}/items/blog-post`,
      two.manager.token,
      post('own'),
    );
    await otherOnB.next((e) => e.event === 'item' && e.data.id === theirs.body.id);
    expect(otherOnB.events.filter((e) => e.event === 'item').map((e) => e.data.id)).toEqual([theirs.body.id]);
  });

  it('a member deactivated through one process loses the stream on the other', async () => {
    const one = await workspaceWithMember('Three');
    const onB = await open(b, one.ws, one.member.token);
    const patch = await call(
      a,
      'PATCH',
      `/workspaces/${one.ws}/members/${one.member.id}`,
      one.manager.token,
      {
        active: false,
      },
    );
    expect(patch.status).toBe(200);
    await onB.next((e) => e.event === 'revoked');
    await onB.ended;
  });

  it('a member deprovisioned by SCIM through one process loses the stream and the session on the other', async () => {
    const one = await workspaceWithMember('Scim');
    const made = await call(a, 'POST', `/workspaces/${one.ws}/scim-tokens`, one.manager.token, {
      name: 'Okta',
    });
    const scim = (method: string, path: string, body?: object) =>
      fetch(`${a.url}/scim/v2/${one.ws}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${made.body.token as string}`,
          'content-type': 'application/scim+json',
        },
        body: body && JSON.stringify(body),
      });
    const created = await scim('POST', '/Users', { userName: one.member.email });
    expect(created.status).toBe(201);
    const onB = await open(b, one.ws, one.member.token);
    const { id } = (await created.json()) as { id: string };
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(off.status).toBe(200);
    await onB.next((e) => e.event === 'revoked');
    await onB.ended;
    expect((await call(b, 'GET', '/me', one.member.token)).status).toBe(401);
  });

  it('a sign-out through one process ends the stream on the other', async () => {
    const one = await workspaceWithMember('Four');
    const onB = await open(b, one.ws, one.member.token);
    expect((await call(a, 'POST', '/auth/sign-out', one.member.token)).status).toBe(200);
    await onB.next((e) => e.event === 'revoked');
    await onB.ended;
  });

  it('a take-over through one process tells the first editor on the other; presence crosses too', async () => {
    const one = await workspaceWithMember('Five');
    const item = await call(
      a,
      'POST',
      `/workspaces/${one.ws}/items/blog-post`,
      one.manager.token,
      post('locked'),
    );
    const lock = `/workspaces/${one.ws}/items/blog-post/${item.body.id as string}/lock`;
    const first = await open(b, one.ws, one.manager.token, 'tab-first-editor');
    const firstKey = (await first.next((e) => e.event === 'ready')).data.key;
    expect((await call(b, 'PUT', lock, one.manager.token, { tab: 'tab-first-editor' })).status).toBe(200);
    const second = await call(a, 'PUT', lock, one.member.token, { tab: 'tab-second-editor' });
    // The member holds no edit right here: refused whatever the lock.
    expect(second.status).toBe(403);
    // The same person in another window is another editor: the first window is told of the take-over.
    const tookOver = await call(a, 'PUT', lock, one.manager.token, {
      tab: 'tab-other-window',
      takeOver: true,
    });
    expect(tookOver.status).toBe(200);
    const told = await first.next((e) => e.event === 'lock' && !!e.data.takenFrom);
    // A tab's key is the same in every process; its id is told to none.
    const { key: otherWindowKey } = tookOver.body.lock as { key: string };
    expect(told.data).toMatchObject({ takenFrom: { key: firstKey }, lock: { key: otherWindowKey } });
    expect(otherWindowKey).not.toBe(firstKey);
    expect(JSON.stringify(first.events)).not.toContain('tab-other-window');

    const member = await open(b, one.ws, one.member.token, 'tab-member-here');
    const memberKey = (await member.next((e) => e.event === 'ready')).data.key;
    const here = await call(a, 'PUT', `/workspaces/${one.ws}/live/presence`, one.member.token, {
      tab: 'tab-member-here',
      list: 'blog-post',
    });
    expect(here.status).toBe(200);
    const seen = await first.next((e) => e.event === 'presence' && e.data.key === memberKey);
    expect(seen.data).toMatchObject({ user: { id: one.member.id }, where: { list: 'blog-post' } });

    // Another member's tab with the same id, told and closed on the other process, is a tab of their own.
    const impostor = await open(a, one.ws, one.manager.token, 'tab-member-here');
    const impostorKey = (await impostor.next((e) => e.event === 'ready')).data.key;
    expect(impostorKey).not.toBe(memberKey);
    await call(a, 'PUT', `/workspaces/${one.ws}/live/presence`, one.manager.token, {
      tab: 'tab-member-here',
      list: 'blog-post',
    });
    await first.next((e) => e.event === 'presence' && e.data.key === impostorKey);
    impostor.close();
    await first.next((e) => e.event === 'presence' && e.data.key === impostorKey && e.data.where === null);
    const later = await open(a, one.ws, one.manager.token);
    await later.next((e) => e.event === 'presence' && e.data.key === memberKey && e.data.where !== null);
    expect(
      first.events.some((e) => e.event === 'presence' && e.data.key === memberKey && e.data.where === null),
    ).toBe(false);
  });
});
