import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { blogPostData, call, createItem, itemsUrl, role, teamWorkspace, type Team } from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Max Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Search And Types',
    domains: ['blogging', 'admin'],
    roles: { writer: role('Writer', { canEdit: ['blog-post', 'client-task'] }) },
    people: { writer: ['writer'] },
  });
  for (const name of ['Spring launch', 'Summer Sale', 'spring cleaning 50%_off', 'Autumn']) {
    await createItem(
      t,
      manager,
      team.ws,
      'blog-post',
      blogPostData({ name, slug: name.toLowerCase().replace(/\W+/g, '-') }),
    );
  }
});
afterAll(() => t.close());

const names = (res: { json(): { items: { data: { name: string } }[] } }) =>
  res
    .json()
    .items.map((i) => i.data.name)
    .sort();

describe('searching items by name', () => {
  it('matches case-insensitively, across schemas or in one', async () => {
    expect(names(await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?q=SPRING`, manager))).toEqual([
      'Spring launch',
      'spring cleaning 50%_off',
    ]);
    expect(names(await call(t, 'GET', `${itemsUrl(team.ws)}?q=sale`, manager))).toEqual(['Summer Sale']);
  });

  it('takes % and _ literally', async () => {
    expect(names(await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?q=50%25_`, manager))).toEqual([
      'spring cleaning 50%_off',
    ]);
    expect(names(await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?q=%25`, manager))).toEqual([
      'spring cleaning 50%_off',
    ]);
  });

  it('answers an empty page when nothing matches', async () => {
    const res = await call(t, 'GET', `${itemsUrl(team.ws, 'blog-post')}?q=winter`, manager);
    expect(res.json()).toEqual({ items: [], nextCursor: null });
  });
});

describe('generate types (spec §7)', () => {
  const url = (schema: string, ws = team.ws) =>
    `/fun/items/generate-types/${schema}?__marquee_workspace=${ws}`;

  it('answers the TypeScript definition of a schema as text', async () => {
    const res = await call(t, 'GET', url('blog-post'), manager);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('export interface BlogPost {');
    expect(res.body).toMatch(/\n {2}name: string;/);
  });

  it('answers 404 for unknown schemas and schemas of domains the workspace has not enabled', async () => {
    expect((await call(t, 'GET', url('no-such-schema'), manager)).statusCode).toBe(404);
    const res = await call(t, 'GET', url('audience'), manager);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Domain "marketing" not available');
  });

  it('answers 401 without credentials and 404 to a non-member', async () => {
    expect((await call(t, 'GET', url('blog-post'))).statusCode).toBe(401);
    const outsider = await verifiedUser(t);
    expect((await call(t, 'GET', url('blog-post'), outsider)).statusCode).toBe(404);
  });
});

describe('admin domains are for workspace managers', () => {
  it('keeps admin schemas from members who do not manage the workspace, even with edit rights', async () => {
    const writer = team.members.writer;
    const res = await call(t, 'POST', itemsUrl(team.ws, 'client-task'), writer, { data: { name: 'Do it' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Domain "admin" not available');
    await createItem(t, manager, team.ws, 'client-task', { name: 'Managers only' });
    const all = await call(t, 'GET', `${itemsUrl(team.ws)}?limit=100`, writer);
    expect(all.json().items.map((i: { schema: string }) => i.schema)).not.toContain('client-task');
    const managerView = await call(t, 'GET', `${itemsUrl(team.ws)}?limit=100`, manager);
    expect(managerView.json().items.map((i: { schema: string }) => i.schema)).toContain('client-task');
  });
});
