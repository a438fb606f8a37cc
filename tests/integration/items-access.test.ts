import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, itemUrl, teamWorkspace } from '../factories/items';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let ws: string;
let id = '{id}';

beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Olivia Owner' });
  outsider = await verifiedUser(t, { name: 'Oscar Outsider' });
  ws = (await teamWorkspace(t, owner, { name: 'Guarded', roles: {}, people: {} })).ws;
  id = (await createItem(t, owner, ws, 'blog-post', blogPostData())).id;
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Every route of items and what hangs under an item, with a body that would be valid. */
const routes: [Method, (ws: string) => string, (() => object)?][] = [
  ['GET', (w) => `/api/v1/workspaces/${w}/items`],
  ['GET', (w) => `/api/v1/workspaces/${w}/items/blog-post`],
  ['POST', (w) => `/api/v1/workspaces/${w}/items/blog-post`, () => ({ data: blogPostData() })],
  ['GET', (w) => itemUrl(w, 'blog-post', id)],
  ['PUT', (w) => itemUrl(w, 'blog-post', id), () => ({ data: blogPostData() })],
  ['DELETE', (w) => itemUrl(w, 'blog-post', id)],
  ['GET', (w) => `${itemUrl(w, 'blog-post', id)}/history`],
  ['GET', (w) => `${itemUrl(w, 'blog-post', id)}/history/1`],
  ['GET', (w) => `${itemUrl(w, 'blog-post', id)}/comments`],
  ['POST', (w) => `${itemUrl(w, 'blog-post', id)}/comments`, () => ({ text: 'Hi' })],
  ['GET', (w) => `${itemUrl(w, 'blog-post', id)}/approvals`],
  ['POST', (w) => `${itemUrl(w, 'blog-post', id)}/approvals`, () => ({ roleId: 'admin' })],
  ['POST', (w) => `${itemUrl(w, 'blog-post', id)}/publish/live`, () => ({})],
  ['DELETE', (w) => `${itemUrl(w, 'blog-post', id)}/publish/live`],
  ['POST', (w) => `/fun/items/blog-post?__marquee_workspace=${w}`, () => ({ data: blogPostData() })],
  ['PUT', (w) => `/fun/items/blog-post/${id}?__marquee_workspace=${w}`, () => ({ data: blogPostData() })],
  [
    'POST',
    (w) => `/fun/publish/publish/?__marquee_workspace=${w}`,
    () => ({ id, schemaType: 'blog-post', destination: 'live', publishRefs: false }),
  ],
];
const named = routes.map(([method, url, body]) => [`${method} ${url('{ws}')}`, method, url, body] as const);

describe.each(named)('%s', (_name, method, url, body) => {
  it('answers 401 without a signed-in user', async () => {
    const res = await call(t, method, url(ws), undefined, body?.());
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('No user. Please sign out and sign in');
  });

  it("answers 404 'Workspace not found' in a workspace the caller is not a member of", async () => {
    const res = await call(t, method, url(ws), outsider, body?.());
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Workspace not found');
    const missing = await call(t, method, url('no-such-workspace'), outsider, body?.());
    expect(missing.json()).toEqual(res.json());
  });
});

it("never reaches another workspace's item through the caller's own workspace", async () => {
  const own = await teamWorkspace(t, outsider, { name: 'Elsewhere', roles: {}, people: {} });
  for (const suffix of ['', '/history', '/comments', '/approvals']) {
    const res = await call(t, 'GET', `${itemUrl(own.ws, 'blog-post', id)}${suffix}`, outsider);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Instance not found');
  }
  const publish = await call(t, 'POST', `${itemUrl(own.ws, 'blog-post', id)}/publish/live`, outsider, {});
  expect(publish.statusCode).toBe(404);
  const list = (await call(t, 'GET', `/api/v1/workspaces/${own.ws}/items`, outsider)).json();
  expect(list.items).toEqual([]);
});
