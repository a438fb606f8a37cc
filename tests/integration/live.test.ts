import type { AddressInfo } from 'node:net';
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
    roles: { writer: role('Writer', { canEdit: ['blog-post'] }) },
    people: { Wes: ['writer'], Vic: ['writer'], Sid: ['writer'] },
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
