import { createTestApp, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import { patchWorkspace } from '../factories/workspaces';
import {
  blogPostData,
  call,
  createItem,
  getItem,
  itemUrl,
  itemsUrl,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';

let t: TestApp;
let manager: TestUser;
let team: Team;
let editor: TestUser;
let publisher: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Items Core',
    domains: ['blogging', 'marketing', 'assets'],
    roles: {
      editor: role('Editor', { canEdit: ['blog-post', 'email', 'audience', 'marquee-assets-image-set'] }),
      publisher: role('Publisher', { canPublish: ['blog-post'] }),
      viewer: role('Viewer', {}),
    },
    people: { 'Eve Editor': ['editor'], 'Pat Publisher': ['publisher'], 'Val Viewer': ['viewer'] },
  });
  editor = team.members['Eve Editor'];
  publisher = team.members['Pat Publisher'];
  viewer = team.members['Val Viewer'];
});
afterAll(() => t.close());

const history = async (id: string, schema = 'blog-post') =>
  (await call(t, 'GET', `${itemUrl(team.ws, schema, id)}/history`, manager)).json().versions as {
    num: number;
  }[];

describe('creating and saving', () => {
  it('creates at version 1 with its writer, time and a first history version', async () => {
    const before = Date.now();
    const res = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, { data: blogPostData() });
    expect(res.statusCode).toBe(201);
    expect(res.headers.etag).toBe('"1"');
    const item = res.json();
    expect(item).toMatchObject({
      schema: 'blog-post',
      data: blogPostData(),
      _references: {},
      version: 1,
      lastWrittenBy: editor.id,
      lastWrittenByName: 'Eve Editor',
      createdBy: editor.id,
      hasErrors: false,
      publishStatus: { live: 'NOT_PUBLISHED', staging: 'NOT_PUBLISHED' },
      published: {},
      fullyApproved: true,
      remainingApprovals: [],
      approvedBy: [],
      abilities: { canEdit: true, canPublish: false, canApprove: false, canDelete: true },
    });
    expect(item.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(Date.parse(item.lastWrittenAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await getItem(t, viewer, team.ws, 'blog-post', item.id)).toMatchObject({
      id: item.id,
      version: 1,
      data: blogPostData(),
    });
    expect(await history(item.id)).toHaveLength(1);
  });

  it('raises the version by exactly 1 per save and keeps the full data of every version', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'One' }));
    const two = await saveItem(t, editor, team.ws, 'blog-post', item.id, blogPostData({ name: 'Two' }), 1);
    const three = await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Three' }),
      2,
    );
    expect([two.version, three.version]).toEqual([2, 3]);
    expect(three).toMatchObject({
      lastWrittenBy: manager.id,
      lastWrittenByName: 'Mia Manager',
      createdBy: editor.id,
    });
    expect((await history(item.id)).map((v) => v.num)).toEqual([3, 2, 1]);
    const v2 = await call(t, 'GET', `${itemUrl(team.ws, 'blog-post', item.id)}/history/2`, viewer);
    expect(v2.json()).toMatchObject({
      num: 2,
      by: editor.id,
      byName: 'Eve Editor',
      data: blogPostData({ name: 'Two' }),
    });
  });

  it('answers 409 to a save based on a stale version and changes nothing', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'Base' }));
    await saveItem(t, manager, team.ws, 'blog-post', item.id, blogPostData({ name: 'Theirs' }), 1);
    const stale = await call(t, 'PUT', itemUrl(team.ws, 'blog-post', item.id), editor, {
      data: blogPostData({ name: 'Mine' }),
      baseVersion: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({
      code: 'conflict',
      message: 'Someone else saved a newer version. Reload to see their changes.',
      details: { version: 2, baseVersion: 1 },
    });
    const after = await getItem(t, editor, team.ws, 'blog-post', item.id);
    expect(after).toMatchObject({ version: 2, data: { name: 'Theirs' }, lastWrittenBy: manager.id });
    expect(await history(item.id)).toHaveLength(2);
  });

  it('lets exactly one of two concurrent saves based on the same version win', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    const url = itemUrl(team.ws, 'blog-post', item.id);
    const results = await Promise.all(
      ['Left', 'Right'].map((name) =>
        call(t, 'PUT', url, editor, { data: blogPostData({ name }), baseVersion: 1 }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.statusCode === 200)!.json();
    expect(await getItem(t, editor, team.ws, 'blog-post', item.id)).toMatchObject({
      version: 2,
      data: { name: winner.data.name },
    });
    expect(await history(item.id)).toHaveLength(2);
  });

  it('takes the base version from If-Match too', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    const url = itemUrl(team.ws, 'blog-post', item.id);
    const ok = await call(
      t,
      'PUT',
      url,
      editor,
      { data: blogPostData({ name: 'A' }) },
      { 'if-match': '"1"' },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.headers.etag).toBe('"2"');
    const stale = await call(
      t,
      'PUT',
      url,
      editor,
      { data: blogPostData({ name: 'B' }) },
      { 'if-match': '1' },
    );
    expect(stale.statusCode).toBe(409);
    const garbage = await call(t, 'PUT', url, editor, { data: blogPostData() }, { 'if-match': 'yesterday' });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().error.message).toBe(
      'If-Match must name the version the edit is based on, e.g. If-Match: 3',
    );
    const mixed = await call(
      t,
      'PUT',
      url,
      editor,
      { data: blogPostData(), baseVersion: 1 },
      { 'if-match': '2' },
    );
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().error.message).toBe('If-Match and baseVersion name different versions');
    expect((await getItem(t, editor, team.ws, 'blog-post', item.id)).data.name).toBe('A');
  });

  it('saves without a base version as the next version', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    await saveItem(t, editor, team.ws, 'blog-post', item.id, blogPostData({ name: 'x' }));
    expect(
      (await saveItem(t, editor, team.ws, 'blog-post', item.id, blogPostData({ name: 'y' }))).version,
    ).toBe(3);
  });

  it("answers 'Instance not found' for items that do not exist", async () => {
    for (const res of [
      await call(t, 'GET', itemUrl(team.ws, 'blog-post', 'nothing-here'), editor),
      await call(t, 'PUT', itemUrl(team.ws, 'blog-post', 'nothing-here'), editor, { data: blogPostData() }),
      await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', 'nothing-here'), editor),
      await call(t, 'GET', itemUrl(team.ws, 'blog-post', 'bad id!'), editor),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Instance not found');
    }
  });

  it('keeps an item under its own schema', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    const res = await call(t, 'GET', itemUrl(team.ws, 'email', item.id), editor);
    expect(res.statusCode).toBe(404);
  });
});

describe('validation', () => {
  it('refuses data that does not fit the schema with a message naming the field', async () => {
    const unknown = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, {
      data: blogPostData({ colour: 'red' }),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('data: Unknown field "colour" in blog-post');
    const wrongType = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, {
      data: blogPostData({ name: 42 }),
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().error.message).toMatch(/^data\.name: /);
    const badRef = await call(t, 'POST', itemsUrl(team.ws, 'email'), editor, {
      data: { name: 'E', subject: 'S', images: [{ id: 'x', schemaType: 'copy' }] },
    });
    expect(badRef.statusCode).toBe(400);
    expect(badRef.json().error.message).toBe(
      'data.images.0.schemaType: Reference must be to marquee-assets-image-set',
    );
  });

  it('refuses a body without data or with data that is not an object', async () => {
    const missing = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/^data: /);
    const list = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, { data: [1, 2] });
    expect(list.statusCode).toBe(400);
    const extra = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, {
      data: blogPostData(),
      version: 3,
    });
    expect(extra.statusCode).toBe(400);
  });

  it("blocks saving with validation errors with the spec's message and the field errors", async () => {
    const res = await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), editor, {
      data: { slug: 'x', body: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'validation_failed',
      message: 'Please fix validation errors before saving',
      details: { errors: { name: 'Title is required', body: 'Body is required' } },
    });
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    const save = await call(t, 'PUT', itemUrl(team.ws, 'blog-post', item.id), editor, {
      data: { ...blogPostData(), name: '' },
    });
    expect(save.statusCode).toBe(400);
    expect((await getItem(t, editor, team.ws, 'blog-post', item.id)).version).toBe(1);
  });

  it('stores an incomplete item with hasErrors where the schema allows saving with errors', async () => {
    const draft = await createItem(t, editor, team.ws, 'audience', { description: 'no name yet' });
    expect(draft.hasErrors).toBe(true);
    const done = await saveItem(t, editor, team.ws, 'audience', draft.id, { name: 'Big spenders' }, 1);
    expect(done.hasErrors).toBe(false);
  });
});

describe('references', () => {
  it('rebuilds _references from the reference fields on every save', async () => {
    const images = [
      { id: 'img-1', schemaType: 'marquee-assets-image-set', label: 'Cat', thumbId: 'ws/cat.png' },
      { id: 'img-2', schemaType: 'marquee-assets-image-set' },
    ];
    const email = await createItem(t, editor, team.ws, 'email', { name: 'Hi', subject: 'Hello', images });
    expect(email._references).toEqual({
      'img-1': {
        schemaType: 'marquee-assets-image-set',
        label: 'Cat',
        fieldKey: 'images',
        thumbId: 'ws/cat.png',
      },
      'img-2': { schemaType: 'marquee-assets-image-set', label: '', fieldKey: 'images' },
    });
    const saved = await saveItem(
      t,
      editor,
      team.ws,
      'email',
      email.id,
      { name: 'Hi', subject: 'Hello', images: [images[1]] },
      1,
    );
    expect(Object.keys(saved._references)).toEqual(['img-2']);
    const version1 = await call(t, 'GET', `${itemUrl(team.ws, 'email', email.id)}/history/1`, editor);
    expect(Object.keys(version1.json()._references)).toEqual(['img-1', 'img-2']);
  });
});

describe('rights', () => {
  it('lets members without edit rights read items, read-only', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    const seen = await getItem(t, viewer, team.ws, 'blog-post', item.id);
    expect(seen.abilities).toEqual({
      canEdit: false,
      canPublish: false,
      canApprove: false,
      canDelete: false,
    });
    expect((await call(t, 'GET', itemsUrl(team.ws, 'blog-post'), viewer)).statusCode).toBe(200);
    expect((await getItem(t, publisher, team.ws, 'blog-post', item.id)).abilities).toEqual({
      canEdit: false,
      canPublish: true,
      canApprove: false,
      canDelete: false,
    });
  });

  it.each([
    ['viewer', () => viewer],
    ['publisher', () => publisher],
  ])('answers 403 to every write by a %s, who may not edit', async (_label, who) => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData());
    for (const res of [
      await call(t, 'POST', itemsUrl(team.ws, 'blog-post'), who(), { data: blogPostData() }),
      await call(t, 'PUT', itemUrl(team.ws, 'blog-post', item.id), who(), {
        data: blogPostData({ name: 'X' }),
      }),
      await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), who()),
      await call(t, 'POST', `/fun/items/blog-post?__marquee_workspace=${team.ws}`, who(), {
        data: blogPostData(),
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('You do not have permission to edit Blog Posts');
    }
    expect(await getItem(t, editor, team.ws, 'blog-post', item.id)).toMatchObject({
      version: 1,
      data: blogPostData(),
    });
  });

  it('answers 403 to an editor writing a schema their roles do not list', async () => {
    const res = await call(t, 'POST', itemsUrl(team.ws, 'copy'), editor, { data: { name: 'C', text: 'T' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('You do not have permission to edit Copies');
  });
});

describe('schemas and domains', () => {
  it('answers 404 for unknown schemas and schemas of domains the workspace has not enabled', async () => {
    const unknown = await call(t, 'GET', itemsUrl(team.ws, 'spaceship'), manager);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Schema "spaceship" not found');
    const disabled = await call(t, 'POST', itemsUrl(team.ws, 'client-task'), manager, {
      data: { name: 'Task' },
    });
    expect(disabled.statusCode).toBe(404);
    expect(disabled.json().error).toEqual({
      code: 'domain_not_available',
      message: 'Domain "admin" not available',
    });
    const badName = await call(t, 'GET', itemsUrl(team.ws, 'Not_A_Schema'), manager);
    expect(badName.statusCode).toBe(404);
  });

  it('hides the items of a domain once it is disabled', async () => {
    const ws = await teamWorkspace(t, manager, {
      name: 'Domain Toggle',
      domains: ['blogging', 'assets'],
      roles: {},
      people: {},
    });
    const image = await createItem(t, manager, ws.ws, 'marquee-assets-image-set', {
      name: 'Cat',
      altText: 'A cat',
      masterImage: await uploadImage(t, manager, ws.ws, await makeImage(), 'c.png'),
    });
    const current = (await call(t, 'GET', `/api/v1/workspaces/${ws.ws}`, manager)).json();
    await patchWorkspace(t.app, manager, ws.ws, {
      basics: { domains: ['blogging'] },
      baseVersion: current.version,
    });
    const res = await call(t, 'GET', itemUrl(ws.ws, 'marquee-assets-image-set', image.id), manager);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Domain "assets" not available');
    expect((await call(t, 'GET', itemsUrl(ws.ws), manager)).json().items).toEqual([]);
  });
});

describe('variations', () => {
  it("stores the item's own variation values", async () => {
    const ws = await teamWorkspace(t, manager, {
      name: 'Variations',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    const copy = await createItem(t, manager, ws.ws, 'copy', {
      name: 'Hi',
      text: 'Hello',
      _variation: { locale: 'en-GB' },
    });
    expect(copy.variation).toEqual({ locale: 'en-GB' });
    const bad = await call(t, 'POST', itemsUrl(ws.ws, 'copy'), manager, {
      data: { name: 'Hi', text: 'x', _variation: { locale: 'xx' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^data\._variation\.locale: /);
  });
});

describe('deleting', () => {
  it('removes the item and its stage copies and keeps its history', async () => {
    const item = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'Doomed' }));
    await saveItem(t, editor, team.ws, 'blog-post', item.id, blogPostData({ name: 'Doomed 2' }), 1);
    expect(
      (await call(t, 'POST', `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`, publisher, {}))
        .statusCode,
    ).toBe(200);
    // Deleting a published item unpublishes it: the manager may edit and publish.
    const res = await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), manager);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: item.id, schema: 'blog-post', deleted: true });
    expect((await call(t, 'GET', itemUrl(team.ws, 'blog-post', item.id), editor)).statusCode).toBe(404);
    const live = (
      await call(t, 'GET', `${itemsUrl(team.ws)}?view=published-in&stage=live&limit=100`, editor)
    ).json();
    expect(live.items.map((i: { id: string }) => i.id)).not.toContain(item.id);
    expect((await history(item.id)).map((v) => v.num)).toEqual([2, 1]);
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), editor)).statusCode).toBe(404);
  });
});

describe('function service', () => {
  const fun = (path: string, ws = team.ws) => `/fun${path}?__marquee_workspace=${ws}`;

  it('creates with POST /fun/items/{schema} and saves with PUT /fun/items/{schema}/{id}', async () => {
    const created = await call(t, 'POST', fun('/items/blog-post'), editor, { data: blogPostData() });
    expect(created.statusCode).toBe(201);
    const { id, version } = created.json();
    expect(version).toBe(1);
    const saved = await call(t, 'PUT', fun(`/items/blog-post/${id}`), editor, {
      data: blogPostData({ name: 'Fun' }),
      baseVersion: 1,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ id, version: 2 });
    const stale = await call(t, 'PUT', fun(`/items/blog-post/${id}`), editor, {
      data: blogPostData(),
      baseVersion: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect((await getItem(t, editor, team.ws, 'blog-post', id)).data.name).toBe('Fun');
  });

  it('needs the workspace parameter, a bearer token and a membership', async () => {
    const noWorkspace = await call(t, 'POST', '/fun/items/blog-post', editor, { data: blogPostData() });
    expect(noWorkspace.statusCode).toBe(400);
    expect(noWorkspace.json().error.message).toMatch(/^__marquee_workspace: /);
    expect(
      (await call(t, 'POST', fun('/items/blog-post'), undefined, { data: blogPostData() })).statusCode,
    ).toBe(401);
    const outsider = await verifiedUser(t);
    const res = await call(t, 'POST', fun('/items/blog-post'), outsider, { data: blogPostData() });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Workspace not found');
    const invalid = await call(t, 'POST', fun('/items/blog-post'), editor, { data: { name: 'x' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.message).toBe('Please fix validation errors before saving');
  });
});
