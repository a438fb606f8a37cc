import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { openEventStream, type EventStream } from '../helpers/event-stream';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace } from '../factories/workspaces';
import {
  blogPostData,
  call,
  createItem,
  itemUrl,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

/**
 * The workspace event stream in one server (the embedded database's only mode; on PostgreSQL too):
 * writes reach the streams of their workspace only, and a member who loses access loses the stream.
 */

let t: TestApp;
let base: string;
let manager: TestUser;
let team: Team;
let outsider: TestUser;
let otherWs: string;
const streams: EventStream[] = [];

const liveUrl = (ws: string, tab = 'tab-one-1234') => `${base}/api/v1/workspaces/${ws}/live?tab=${tab}`;
async function open(ws: string, user: TestUser, tab?: string) {
  const stream = await openEventStream(liveUrl(ws, tab), user.token);
  streams.push(stream);
  if (stream.status === 200) await stream.next((e) => e.event === 'ready');
  return stream;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Live',
    roles: { writer: role('Writer', { canEdit: ['blog-post'] }), reader: role('Reader', {}) },
    people: { Wes: ['writer'], Vic: ['writer'], Sid: ['writer'], Lee: ['writer'], Rae: ['reader'] },
  });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  otherWs = (await createWorkspace(t.app, outsider, 'Elsewhere')).id;
}, 60_000);

afterAll(async () => {
  for (const stream of streams) stream.close();
  await t?.close();
});

it('tells a member of each item written in the workspace: what, which version, who', async () => {
  const stream = await open(team.ws, team.members.Wes);
  const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ slug: 'live-one' }));
  const created = await stream.next((e) => e.event === 'item' && e.data.id === item.id);
  expect(created.data).toMatchObject({
    schema: 'blog-post',
    version: 1,
    action: 'item.created',
    actor: { id: manager.id, name: 'Mia Manager' },
  });
  await saveItem(
    t,
    manager,
    team.ws,
    'blog-post',
    item.id,
    blogPostData({ slug: 'live-one', name: 'Two' }),
    1,
  );
  const saved = await stream.next((e) => e.event === 'item' && e.data.id === item.id && e.data.version === 2);
  expect(saved.data).toMatchObject({ action: 'item.saved', actor: { id: manager.id } });
  expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), manager)).statusCode).toBe(200);
  const deleted = await stream.next((e) => e.event === 'item' && e.data.action === 'item.deleted');
  expect(deleted.data).toMatchObject({ id: item.id, version: null });
});

it('sends nothing of one workspace to another workspace’s stream', async () => {
  const theirs = await open(otherWs, outsider, 'tab-other-1234');
  const ours = await open(team.ws, manager, 'tab-ours-12345');
  const secret = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ slug: 'secret' }));
  await ours.next((e) => e.event === 'item' && e.data.id === secret.id);
  // The other workspace's own write comes after ours on every stream, so by then ours would have arrived.
  const own = await createItem(t, outsider, otherWs, 'blog-post', blogPostData({ slug: 'own' }));
  await theirs.next((e) => e.event === 'item' && e.data.id === own.id);
  expect(theirs.events.filter((e) => e.event === 'item').map((e) => e.data.id)).toEqual([own.id]);
  expect(ours.events.some((e) => e.data.id === own.id)).toBe(false);
});

it('is refused without a session, to non-members, and with a malformed tab id', async () => {
  const anonymous = await fetch(liveUrl(team.ws));
  expect(anonymous.status).toBe(401);
  expect((await open(team.ws, outsider)).status).toBe(404);
  expect((await open(team.ws, manager, 'no')).status).toBe(400);
});

it('ends at once when the member is deactivated', async () => {
  const stream = await open(team.ws, team.members.Vic);
  const patch = await call(
    t,
    'PATCH',
    `/api/v1/workspaces/${team.ws}/members/${team.members.Vic.id}`,
    manager,
    {
      active: false,
    },
  );
  expect(patch.statusCode).toBe(200);
  await stream.next((e) => e.event === 'revoked');
  await stream.ended;
  expect((await open(team.ws, team.members.Vic)).status).toBe(404);
});

it('ends at once when the member signs out, and not for another session of theirs', async () => {
  const other = await call(t, 'POST', '/api/v1/auth/sign-in', undefined, {
    email: team.members.Sid.email,
    password: team.members.Sid.password,
  });
  const otherSession = await open(team.ws, { ...team.members.Sid, token: other.json().token as string });
  const stream = await open(team.ws, team.members.Sid);
  expect((await call(t, 'POST', '/api/v1/auth/sign-out', team.members.Sid)).statusCode).toBe(200);
  await stream.next((e) => e.event === 'revoked');
  await stream.ended;
  const item = await createItem(t, manager, team.ws, 'blog-post', blogPostData({ slug: 'after-sign-out' }));
  await otherSession.next((e) => e.event === 'item' && e.data.id === item.id);
  expect(otherSession.events.some((e) => e.event === 'revoked')).toBe(false);
});

describe('edit locks', () => {
  let postId: string;
  const lockUrl = () => `${itemUrl(team.ws, 'blog-post', postId)}/lock`;
  const take = (user: TestUser, tab: string, takeOver = false) =>
    call(t, 'PUT', lockUrl(), user, { tab, takeOver });
  beforeAll(async () => {
    postId = (await createItem(t, manager, team.ws, 'blog-post', blogPostData({ slug: 'locked' }))).id;
  });

  it('is taken, renewed by its tab, refused to another editor, taken over with the first editor told, released', async () => {
    const first = await open(team.ws, manager, 'tab-mia-12345');
    const taken = await take(manager, 'tab-mia-12345');
    expect(taken.statusCode).toBe(200);
    expect(taken.json().lock).toMatchObject({
      userId: manager.id,
      name: 'Mia Manager',
      tab: 'tab-mia-12345',
    });
    const renewed = await take(manager, 'tab-mia-12345');
    expect(renewed.json().lock.takenAt).toBe(taken.json().lock.takenAt);
    expect(Date.parse(renewed.json().lock.expiresAt)).toBeGreaterThanOrEqual(
      Date.parse(taken.json().lock.expiresAt),
    );

    const refused = await take(team.members.Lee, 'tab-lee-12345');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      message: 'Being edited by Mia Manager',
      details: { lock: { userId: manager.id } },
    });
    // The same person in another tab is another editor too.
    expect((await take(manager, 'tab-mia-other')).statusCode).toBe(409);
    expect((await call(t, 'GET', lockUrl(), team.members.Lee)).json().lock).toMatchObject({
      userId: manager.id,
    });

    const tookOver = await take(team.members.Lee, 'tab-lee-12345', true);
    expect(tookOver.statusCode).toBe(200);
    expect(tookOver.json().lock).toMatchObject({ userId: team.members.Lee.id, tab: 'tab-lee-12345' });
    const told = await first.next((e) => e.event === 'lock' && e.data.id === postId && !!e.data.takenFrom);
    expect(told.data).toMatchObject({
      lock: { userId: team.members.Lee.id },
      takenFrom: { userId: manager.id, tab: 'tab-mia-12345' },
    });

    // Only the holder's tab releases it.
    expect((await call(t, 'DELETE', `${lockUrl()}?tab=tab-mia-12345`, manager)).json().lock).toMatchObject({
      userId: team.members.Lee.id,
    });
    const released = await call(t, 'DELETE', `${lockUrl()}?tab=tab-lee-12345`, team.members.Lee);
    expect(released.json()).toEqual({ lock: null });
    await first.next((e) => e.event === 'lock' && e.data.id === postId && e.data.lock === null);
  });

  it('lapses after five minutes without renewal, when anyone may take it', async () => {
    expect((await take(manager, 'tab-mia-12345')).statusCode).toBe(200);
    expect((await take(team.members.Lee, 'tab-lee-12345')).statusCode).toBe(409);
    // Five minutes idle, without waiting for them: the lock's end moved back.
    await t.database.db.execute(
      sql`update item_locks set expires_at = now() - interval '1 second' where item_id = ${postId}`,
    );
    expect((await call(t, 'GET', lockUrl(), team.members.Lee)).json()).toEqual({ lock: null });
    const taken = await take(team.members.Lee, 'tab-lee-12345');
    expect(taken.statusCode).toBe(200);
    expect(taken.json().lock).toMatchObject({ userId: team.members.Lee.id });
    await call(t, 'DELETE', `${lockUrl()}?tab=tab-lee-12345`, team.members.Lee);
  });

  it('is refused to a member who may not edit, and for an item that does not exist', async () => {
    expect((await take(team.members.Rae, 'tab-rae-12345')).statusCode).toBe(403);
    const missing = await call(t, 'PUT', `${itemUrl(team.ws, 'blog-post', 'nope')}/lock`, manager, {
      tab: 'tab-mia-12345',
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('presence', () => {
  it('tells the workspace’s streams where a tab is, shows it to streams opened later, and that it left', async () => {
    const watcher = await open(team.ws, team.members.Lee, 'tab-lee-watch');
    const leaving = await open(team.ws, team.members.Wes, 'tab-wes-leave');
    const here = await call(t, 'PUT', `/api/v1/workspaces/${team.ws}/live/presence`, team.members.Wes, {
      tab: 'tab-wes-leave',
      item: { schema: 'blog-post', id: 'abc' },
      field: 'body',
    });
    expect(here.statusCode).toBe(200);
    const seen = await watcher.next((e) => e.event === 'presence' && e.data.tab === 'tab-wes-leave');
    expect(seen.data).toEqual({
      tab: 'tab-wes-leave',
      user: { id: team.members.Wes.id, name: 'Wes' },
      where: { item: { schema: 'blog-post', id: 'abc' }, field: 'body' },
    });
    const later = await open(team.ws, manager, 'tab-mia-later');
    await later.next((e) => e.event === 'presence' && e.data.tab === 'tab-wes-leave');
    leaving.close();
    await watcher.next(
      (e) => e.event === 'presence' && e.data.tab === 'tab-wes-leave' && e.data.where === null,
    );
  });
});
