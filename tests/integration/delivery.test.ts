import type { Item } from '@shared/api/items';
import { createTestApp, startSecondServer, type SecondServer, type TestApp } from '../helpers/test-app';
import { makeImage } from '../fixtures/images';
import { removeFile, uploadImage } from '../fixtures/media';
import { queryRows } from '@server/db/client';
import { testDatabaseKind } from '../helpers/database';
import { verifiedUser, type TestUser } from '../factories/users';
import {
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
let manager: TestUser;
let team: Team;
let editor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Dee Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Delivery',
    domains: ['blogging', 'marketing', 'assets'],
    roles: { editor: role('Editor', { canEdit: ['blog-post'], canPublish: ['blog-post'] }) },
    people: { 'Ed Editor': ['editor'] },
  });
  editor = team.members['Ed Editor'];
});
afterAll(() => t.close());

const keysUrl = (ws: string) => `/api/v1/workspaces/${ws}/api-keys`;

async function newKey(stages: string[] = ['live'], ws = team.ws, user = manager) {
  const res = await call(t, 'POST', keysUrl(ws), user, { name: `Site ${stages.join('+')}`, stages });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; key: string };
}

function read(path: string, key?: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'GET',
    url: `/delivery/v1/${path}`,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
}

const post = (name: string, extra: Record<string, unknown> = {}) =>
  createItem(t, manager, team.ws, 'blog-post', blogPostData({ name, slug: name.toLowerCase(), ...extra }));

describe('API keys', () => {
  it('are created by managers, shown once, listed without the secret and revoked', async () => {
    const created = await newKey(['Live', 'staging']);
    expect(created.key).toMatch(/^mq_[A-Za-z0-9_-]{40,}$/);
    const list = await call(t, 'GET', keysUrl(team.ws), manager);
    expect(list.statusCode).toBe(200);
    const entry = list.json().keys.find((k: { id: string }) => k.id === created.id);
    expect(entry).toMatchObject({
      id: created.id,
      name: 'Site Live+staging',
      stages: ['live', 'staging'],
      createdBy: 'Dee Manager',
      lastUsedAt: null,
    });
    expect(list.body).not.toContain(created.key);
    expect(list.body).not.toContain(created.key.slice(3));

    expect((await read(`${team.ws}/live/items/blog-post`, created.key)).statusCode).toBe(200);
    // The use is noted without holding up the answer.
    await vi.waitFor(
      async () => {
        const again = (await call(t, 'GET', keysUrl(team.ws), manager))
          .json()
          .keys.find((k: { id: string }) => k.id === created.id);
        expect(again.lastUsedAt).not.toBeNull();
      },
      { timeout: 15_000 },
    );

    const revoked = await call(t, 'DELETE', `${keysUrl(team.ws)}/${created.id}`, manager);
    expect(revoked.statusCode).toBe(200);
    const after = await read(`${team.ws}/live/items/blog-post`, created.key);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.message).toBe('This API key is not valid or was revoked');
    expect((await call(t, 'DELETE', `${keysUrl(team.ws)}/${created.id}`, manager)).statusCode).toBe(404);
  });

  it('refuses strangers (401), other workspaces (404), non-managers (403) and bad input (400)', async () => {
    expect((await call(t, 'GET', keysUrl(team.ws))).statusCode).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Stan Stranger' });
    expect((await call(t, 'GET', keysUrl(team.ws), stranger)).statusCode).toBe(404);
    expect(
      (await call(t, 'POST', keysUrl(team.ws), stranger, { name: 'x', stages: ['live'] })).statusCode,
    ).toBe(404);
    const asEditor = await call(t, 'POST', keysUrl(team.ws), editor, { name: 'x', stages: ['live'] });
    expect(asEditor.statusCode).toBe(403);
    expect(asEditor.json().error.message).toBe('Only workspace managers can do this');
    expect((await call(t, 'GET', keysUrl(team.ws), editor)).statusCode).toBe(403);
    const { id } = await newKey();
    expect((await call(t, 'DELETE', `${keysUrl(team.ws)}/${id}`, editor)).statusCode).toBe(403);

    const noName = await call(t, 'POST', keysUrl(team.ws), manager, { name: ' ', stages: ['live'] });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.message).toBe('name: Name is required');
    const badStage = await call(t, 'POST', keysUrl(team.ws), manager, { name: 'x', stages: ['Moon'] });
    expect(badStage.statusCode).toBe(400);
    expect(badStage.json().error.message).toBe('stages: Stage "Moon" not found in this workspace');
  });
});

describe('delivery API', () => {
  it('answers 401 without a valid key', async () => {
    const none = await read(`${team.ws}/live/items/blog-post`);
    expect(none.statusCode).toBe(401);
    expect(none.json().error.message).toBe('An API key is required: send Authorization: Bearer mq_…');
    expect(none.headers['access-control-allow-origin']).toBe('*');
    expect((await read(`${team.ws}/live/items/blog-post`, 'mq_nope')).statusCode).toBe(401);
    // A member's session is not a delivery key.
    const session = await read(`${team.ws}/live/items/blog-post`, undefined, manager.auth);
    expect(session.statusCode).toBe(401);
  });

  it('never delivers drafts: only the published version of the stage', async () => {
    const { key } = await newKey(['live', 'staging']);
    const draft = await post('Draft only');
    expect((await read(`${team.ws}/live/items/blog-post/${draft.id}`, key)).statusCode).toBe(404);

    const item = await post('Shown', { excerpt: 'first' });
    expect((await publish(t, manager, team.ws, 'blog-post', item.id)).statusCode).toBe(200);
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Shown', slug: 'shown', excerpt: 'second draft' }),
      1,
    );

    const single = await read(`${team.ws}/live/items/blog-post/${item.id}`, key);
    expect(single.statusCode).toBe(200);
    expect(single.json()).toMatchObject({
      id: item.id,
      schema: 'blog-post',
      version: 1,
      data: { excerpt: 'first' },
    });
    expect(single.body).not.toContain('second draft');
    // Not published in staging.
    expect((await read(`${team.ws}/staging/items/blog-post/${item.id}`, key)).statusCode).toBe(404);

    const list = (await read(`${team.ws}/live/items/blog-post?limit=100`, key)).json();
    const ids = list.items.map((i: Item) => i.id);
    expect(ids).toContain(item.id);
    expect(ids).not.toContain(draft.id);
    expect(JSON.stringify(list)).not.toContain('second draft');

    // Publishing the new version replaces the copy at once; unpublishing removes it.
    expect((await publish(t, manager, team.ws, 'blog-post', item.id)).statusCode).toBe(200);
    expect((await read(`${team.ws}/live/items/blog-post/${item.id}`, key)).json().data.excerpt).toBe(
      'second draft',
    );
    const un = await call(t, 'DELETE', `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`, manager);
    expect(un.statusCode).toBe(200);
    expect((await read(`${team.ws}/live/items/blog-post/${item.id}`, key)).statusCode).toBe(404);
  });

  it('drops deleted items', async () => {
    const { key } = await newKey();
    const item = await post('Deleted soon');
    await publish(t, manager, team.ws, 'blog-post', item.id);
    expect((await read(`${team.ws}/live/items/blog-post/${item.id}`, key)).statusCode).toBe(200);
    expect((await call(t, 'DELETE', itemUrl(team.ws, 'blog-post', item.id), manager)).statusCode).toBe(200);
    expect((await read(`${team.ws}/live/items/blog-post/${item.id}`, key)).statusCode).toBe(404);
  });

  it('answers many reads by id at once, each with its own item, in batches under way together', async () => {
    const { key } = await newKey();
    const items: Item[] = [];
    for (let n = 0; n < 12; n++) items.push(await post(`Crowd ${n}`));
    for (const item of items.slice(0, 9)) await publish(t, manager, team.ws, 'blog-post', item.id);
    // Six waves of every item, a turn of the event loop apart: each wave's batch goes out while those
    // before it are still under way, and the same item is in several; the three never published
    // answer 404 every time.
    const wanted: typeof items = [];
    const pending = [];
    for (let wave = 0; wave < 6; wave++) {
      const order = wave % 2 ? [...items].reverse() : items;
      wanted.push(...order);
      pending.push(...order.map((item) => read(`${team.ws}/live/items/blog-post/${item.id}`, key)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answers = await Promise.all(pending);
    answers.forEach((res, at) => {
      const item = wanted[at];
      if (items.indexOf(item) < 9) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ id: item.id, data: { name: item.data.name } });
      } else expect(res.statusCode).toBe(404);
    });
  });

  it('reads only the key’s workspace (404) and stages (403)', async () => {
    const { key: stagingKey } = await newKey(['staging']);
    const res = await read(`${team.ws}/live/items/blog-post`, stagingKey);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('This API key may not read the stage "live"');
    expect((await read(`${team.ws}/staging/items/blog-post`, stagingKey)).statusCode).toBe(200);

    const other = await teamWorkspace(t, manager, { name: 'Other Delivery', roles: {}, people: {} });
    const { key: otherKey } = await newKey(['live'], other.ws);
    const foreign = await read(`${team.ws}/live/items/blog-post`, otherKey);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe('Workspace not found');

    const { key } = await newKey();
    expect((await read(`${team.ws}/live/items/no-such-schema`, key)).statusCode).toBe(404);
    expect((await read(`${team.ws}/live/items/client-task`, key)).statusCode).toBe(404);
  });

  it('answers 304 to If-None-Match and a new ETag after a publish', async () => {
    const { key } = await newKey();
    const item = await post('Tagged');
    await publish(t, manager, team.ws, 'blog-post', item.id);
    const first = await read(`${team.ws}/live/items/blog-post/${item.id}`, key);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    expect(first.headers.vary).toBe('Authorization');
    const itemKey = `mq:${team.ws}:live:blog-post:${item.id}`;
    expect(String(first.headers['surrogate-key']).split(' ')).toEqual([
      `mq:${team.ws}`,
      `mq:${team.ws}:live`,
      itemKey,
    ]);
    expect(first.headers['cache-tag']).toBe(`mq:${team.ws},mq:${team.ws}:live,${itemKey}`);
    const again = await read(`${team.ws}/live/items/blog-post/${item.id}`, key, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const listEtag = (await read(`${team.ws}/live/items/blog-post`, key)).headers.etag as string;
    expect(
      (await read(`${team.ws}/live/items/blog-post`, key, { 'if-none-match': `W/${listEtag}` })).statusCode,
    ).toBe(304);

    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Tagged', slug: 'tagged', excerpt: 'new' }),
      1,
    );
    // A save alone changes nothing delivered.
    expect(
      (await read(`${team.ws}/live/items/blog-post/${item.id}`, key, { 'if-none-match': etag })).statusCode,
    ).toBe(304);
    await publish(t, manager, team.ws, 'blog-post', item.id);
    const changed = await read(`${team.ws}/live/items/blog-post/${item.id}`, key, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(
      (await read(`${team.ws}/live/items/blog-post`, key, { 'if-none-match': listEtag })).statusCode,
    ).toBe(200);
  });

  it('answers CORS preflights for GET', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: `/delivery/v1/${team.ws}/live/items/blog-post`,
      headers: { origin: 'https://site.example', 'access-control-request-method': 'GET' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toContain('Authorization');
  });

  it("sends a JSON API's security headers, not a web page's, on answers, errors and unknown routes", async () => {
    const { key } = await newKey(['live']);
    const answers = [
      await read(`${team.ws}/live/items/blog-post`, key),
      await read(`${team.ws}/live/items/blog-post`),
      await read(`${team.ws}/live/nothing-here/at/all`, key),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 401, 404]);
    expect(answers[2].json().error.message).toBe(
      `No route GET /delivery/v1/${team.ws}/live/nothing-here/at/all`,
    );
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
    // The app's other answers keep helmet's whole set.
    const other = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(other.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(other.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('pages with a cursor, picks fields, filters and orders on top-level fields', async () => {
    const paged = await teamWorkspace(t, manager, { name: 'Paged Delivery', roles: {}, people: {} });
    const { key } = await newKey(['live'], paged.ws);
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];
    for (const [i, name] of names.entries()) {
      const item = await createItem(t, manager, paged.ws, 'blog-post', {
        ...blogPostData({ name, slug: name.toLowerCase() }),
        author: i % 2 ? 'odd' : 'even',
        publishDate: `2026-0${i + 1}-01`,
        tags: i === 2 ? ['news', 'tips'] : ['misc'],
      });
      expect((await publish(t, manager, paged.ws, 'blog-post', item.id)).statusCode).toBe(200);
    }
    const base = `${paged.ws}/live/items/blog-post`;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `order=name&limit=2&fields=name${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await read(`${base}?${query}`, key);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      for (const item of body.items) {
        expect(Object.keys(item.data)).toEqual(['name']);
        seen.push(item.data.name);
      }
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(names);
    expect(pages).toBe(3);

    const desc = (await read(`${base}?order=-name&limit=2`, key)).json();
    expect(desc.items.map((i: Item) => i.data.name)).toEqual(['Echo', 'Delta']);

    const names$ = async (query: string) =>
      (await read(`${base}?${query}`, key))
        .json()
        .items.map((i: Item) => i.data.name)
        .sort();
    expect(await names$('filter[author]=odd')).toEqual(['Bravo', 'Delta']);
    expect(await names$('filter[publishDate][gte]=2026-03-01')).toEqual(['Charlie', 'Delta', 'Echo']);
    expect(await names$('filter[publishDate][lt]=2026-03-01&filter[author]=even')).toEqual(['Alpha']);
    expect(await names$('filter[tags]=news')).toEqual(['Charlie']);
    expect(await names$('filter[name][in]=Alpha,Echo')).toEqual(['Alpha', 'Echo']);
    expect(await names$('filter[name][ne]=Alpha')).toEqual(['Bravo', 'Charlie', 'Delta', 'Echo']);

    const unknownField = await read(`${base}?filter[color]=red`, key);
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error.message).toBe('filter[color]: unknown field "color"');
    expect((await read(`${base}?filter[name][like]=A`, key)).json().error.message).toBe(
      'filter[name]: unknown operator "like" (use eq, ne, gt, gte, lt, lte, in)',
    );
    expect((await read(`${base}?fields=name,secret`, key)).json().error.message).toBe(
      'fields: unknown field "secret"',
    );
    expect((await read(`${base}?order=-color`, key)).statusCode).toBe(400);
    expect((await read(`${base}?limit=101`, key)).statusCode).toBe(400);
    expect((await read(`${base}?cursor=garbage`, key)).statusCode).toBe(400);
    expect((await read(`${base}?colour=red`, key)).json().error.message).toBe(
      'Unknown query parameter "colour"',
    );
  });

  it('embeds referenced items published in the same stage with include=refs, at most 3 deep', async () => {
    const { key } = await newKey(['live', 'staging']);
    const image = async (name: string) => ({
      name,
      altText: name,
      masterImage: {
        ...(await uploadImage(t, manager, team.ws, await makeImage(), `${name}.png`)),
        focusX: 0.25,
        focusY: 0.75,
      },
    });
    const cat = await createItem(t, manager, team.ws, 'marquee-assets-image-set', await image('cat'));
    const dog = await createItem(t, manager, team.ws, 'marquee-assets-image-set', await image('dog'));
    const email = await createItem(t, manager, team.ws, 'email', {
      name: 'Pets',
      subject: 'Pets',
      images: [
        { id: cat.id, schemaType: cat.schema, label: 'Cat' },
        { id: dog.id, schemaType: dog.schema, label: 'Dog' },
      ],
    });
    await publish(t, manager, team.ws, 'marquee-assets-image-set', cat.id, 'live');
    await publish(t, manager, team.ws, 'marquee-assets-image-set', dog.id, 'staging');
    await publish(t, manager, team.ws, 'email', email.id, 'live');

    const plain = (await read(`${team.ws}/live/items/email/${email.id}`, key)).json();
    expect(plain.refs).toBeUndefined();
    const res = await read(`${team.ws}/live/items/email/${email.id}?include=refs`, key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.refs[dog.id]).toBeNull();
    expect(body.refs[cat.id]).toMatchObject({
      id: cat.id,
      schema: 'marquee-assets-image-set',
      data: { name: 'cat' },
    });
    const catFile = cat.data.masterImage as { publicUrl: string; storageName: string };
    expect(body.refs[cat.id].data.masterImage).toMatchObject({
      publicUrl: `${t.config.publicUrl}/fun/emailImage/?id=${catFile.storageName}&__marquee_workspace=${team.ws}&stage=live&schema=marquee-assets-image-set&item=${cat.id}&sig=${new URL(body.refs[cat.id].data.masterImage.imageUrl).searchParams.get('sig')}`,
      focusX: 0.25,
      focusY: 0.75,
      thumbnailUrl: expect.stringContaining(`/fun/emailImage/?id=${catFile.storageName}&w=400`),
      imageUrl: expect.stringContaining(`/fun/emailImage/?id=${catFile.storageName}&w=1200`),
    });
    // A website holding only the key loads the image through its signed link, without a session.
    const thumbnail = await t.app.inject({
      method: 'GET',
      url: body.refs[cat.id].data.masterImage.thumbnailUrl.replace(t.config.publicUrl, ''),
    });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toMatch(/^image\//);
    // The link is signed for the cat's file: it shows no other.
    const dogFile = dog.data.masterImage as { storageName: string };
    const forged = await t.app.inject({
      method: 'GET',
      url: body.refs[cat.id].data.masterImage.thumbnailUrl
        .replace(t.config.publicUrl, '')
        .replace(catFile.storageName, dogFile.storageName),
    });
    expect(forged.statusCode).toBe(404);
    const list = (await read(`${team.ws}/live/items/email?include=refs&depth=3`, key)).json();
    expect(list.items[0].refs[cat.id].data.name).toBe('cat');
    expect((await read(`${team.ws}/live/items/email?include=refs&depth=4`, key)).statusCode).toBe(400);

    // Publishing the referenced item in the stage shows up in the embedding at once.
    await publish(t, manager, team.ws, 'marquee-assets-image-set', dog.id, 'live');
    const after = (await read(`${team.ws}/live/items/email/${email.id}?include=refs`, key)).json();
    expect(after.refs[dog.id]).toMatchObject({ id: dog.id, data: { name: 'dog' } });
  });

  it("signs the workspace's own images in delivered rich text, so a website loads them without a session", async () => {
    const { key } = await newKey();
    const file = await uploadImage(t, manager, team.ws, await makeImage(), 'inline.png');
    const resized = `/fun/imageResize/?id=${file.storageName}&w=640&__marquee_workspace=${team.ws}`;
    const post = await createItem(t, manager, team.ws, 'blog-post', {
      name: 'Inline images',
      slug: 'inline-images',
      body: `<p>Look:</p><img src="${file.publicUrl}" alt="full"><img src="${resized.replace(/&/g, '&amp;')}" alt="resized">`,
    });
    await publish(t, manager, team.ws, 'blog-post', post.id, 'live');
    // Without signing, the stored links need a member's session.
    const stored = String(post.data.body);
    const unsigned = /src="([^"]+)"/.exec(stored)![1];
    expect(
      (await t.app.inject({ method: 'GET', url: unsigned.replace(t.config.publicUrl, '') })).statusCode,
    ).toBe(401);

    const body = String((await read(`${team.ws}/live/items/blog-post/${post.id}`, key)).json().data.body);
    const sources = [...body.matchAll(/src="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(sources).toHaveLength(2);
    expect(sources[0]).toMatch(
      new RegExp(`^${t.config.publicUrl}/fun/emailImage/\\?id=${file.storageName}&w=1200&`),
    );
    expect(sources[1]).toMatch(
      new RegExp(`^${t.config.publicUrl}/fun/emailImage/\\?id=${file.storageName}&w=640&`),
    );
    for (const src of sources) {
      const image = await t.app.inject({ method: 'GET', url: src.replace(t.config.publicUrl, '') });
      expect(image.statusCode, src).toBe(200);
      expect(image.headers['content-type']).toMatch(/^image\//);
      // Not immutable: the image stops loading when the post is unpublished.
      expect(image.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
      const again = await t.app.inject({
        method: 'GET',
        url: src.replace(t.config.publicUrl, ''),
        headers: { 'if-none-match': String(image.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    }
  });

  describe('images of delivered content', () => {
    const path = (url: string) => url.replace(t.config.publicUrl, '');
    const load = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: path(url), headers });
    const unpublish = (schema: string, id: string, stage = 'live') =>
      call(t, 'DELETE', `${itemUrl(team.ws, schema, id)}/publish/${stage}`, manager);
    const upload = async (name: string, seed: number) =>
      uploadImage(t, manager, team.ws, await makeImage({ seed }), name);

    /** A published image set, a blog post with an inline image and a cover, an event with both images. */
    async function publishedContent() {
      const master = await upload('master.png', 11);
      const set = await createItem(t, manager, team.ws, 'marquee-assets-image-set', {
        name: 'Harbour',
        altText: 'Harbour',
        masterImage: master,
      });
      const inline = await upload('inline.png', 12);
      const cover = await upload('cover.png', 13);
      const blog = await createItem(t, manager, team.ws, 'blog-post', {
        name: 'Signed images',
        slug: `signed-images-${set.id.toLowerCase()}`,
        body: `<p><img src="${inline.publicUrl}" alt="Harbour" data-ref-id="${set.id}" data-ref-schema-type="${set.schema}"></p>`,
        coverImage: cover,
      });
      const event = await createItem(t, manager, team.ws, 'event', {
        name: 'Harbour walk',
        startTime: '2026-06-01T10:00:00.000Z',
        endTime: '2026-06-01T12:00:00.000Z',
        images: [{ id: set.id, schemaType: set.schema, label: 'Harbour', thumbId: master.storageName }],
      });
      for (const [schema, id] of [
        [set.schema, set.id],
        ['blog-post', blog.id],
        ['event', event.id],
      ])
        expect((await publish(t, manager, team.ws, schema, id)).statusCode).toBe(200);
      return { master, inline, cover, set, blog, event };
    }

    it('are signed links for the published item that load without a session until it is unpublished', async () => {
      const { key } = await newKey();
      const { master, inline, cover, set, blog, event } = await publishedContent();
      const post = (await read(`${team.ws}/live/items/blog-post/${blog.id}?include=refs`, key)).json();
      const inlineUrl = /src="([^"]+)"/.exec(post.data.body)![1].replace(/&amp;/g, '&');
      const coverUrls = [post.data.coverImage.thumbnailUrl, post.data.coverImage.imageUrl] as string[];
      const embeddedUrl: string = post.refs[set.id].data.masterImage.thumbnailUrl;
      const delivered = (await read(`${team.ws}/live/items/event/${event.id}`, key)).json();
      const referenceUrl: string = delivered.data.images[0].thumbnailUrl;
      expect(delivered.data.images[0]).toMatchObject({ id: set.id, thumbId: master.storageName });

      const named = (url: string, storageName: string, schema: string, id: string) => {
        const query = new URL(url).searchParams;
        expect(url.startsWith(`${t.config.publicUrl}/fun/emailImage/?`), url).toBe(true);
        expect(Object.fromEntries(query)).toMatchObject({
          id: storageName,
          __marquee_workspace: team.ws,
          stage: 'live',
          schema,
          item: id,
        });
      };
      named(inlineUrl, inline.storageName, 'blog-post', blog.id);
      for (const url of coverUrls) named(url, cover.storageName, 'blog-post', blog.id);
      named(referenceUrl, master.storageName, 'event', event.id);
      // An embedded item's images are signed for that item.
      named(embeddedUrl, master.storageName, set.schema, set.id);

      const ownUrls = [inlineUrl, ...coverUrls, referenceUrl];
      for (const url of [...ownUrls, embeddedUrl]) {
        const image = await load(url);
        expect(image.statusCode, url).toBe(200);
        expect(image.headers['content-type']).toMatch(/^image\/(png|jpeg)$/);
        expect(image.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
      }

      expect((await unpublish('blog-post', blog.id)).statusCode).toBe(200);
      expect((await unpublish('event', event.id)).statusCode).toBe(200);
      for (const url of ownUrls) {
        expect((await load(url)).statusCode, url).toBe(404);
        // Nor does a cached copy's ETag bring it back.
        expect((await load(url, { 'if-none-match': '*' })).statusCode, url).toBe(404);
      }
      // The image set is still published: its own links still load, until it is unpublished too.
      expect((await load(embeddedUrl)).statusCode).toBe(200);
      expect((await unpublish(set.schema, set.id)).statusCode).toBe(200);
      expect((await load(embeddedUrl)).statusCode).toBe(404);

      // Published again, the same links load again.
      expect((await publish(t, manager, team.ws, 'blog-post', blog.id)).statusCode).toBe(200);
      expect((await load(inlineUrl)).statusCode).toBe(200);
    });

    it('are resized on the fly and encoded as WebP or AVIF when asked, the format outside the signature', async () => {
      const { key } = await newKey();
      const { blog } = await publishedContent();
      const post = (await read(`${team.ws}/live/items/blog-post/${blog.id}`, key)).json();
      const thumbnail: string = post.data.coverImage.thumbnailUrl;
      const png = await load(thumbnail);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.headers.vary).toBe('Accept');
      const webp = await load(`${thumbnail}&format=webp`);
      expect(webp.statusCode).toBe(200);
      expect(webp.headers['content-type']).toBe('image/webp');
      expect(webp.rawPayload.subarray(8, 12).toString()).toBe('WEBP');
      expect(webp.headers.etag).not.toBe(png.headers.etag);
      const avif = await load(`${thumbnail}&format=avif`, { accept: 'image/webp' });
      expect(avif.headers['content-type']).toBe('image/avif');
      const again = await load(`${thumbnail}&format=webp`, { 'if-none-match': String(webp.headers.etag) });
      expect(again.statusCode).toBe(304);

      const unknown = await load(`${thumbnail}&format=gif`);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.message).toMatch(/format must be one of webp, avif/);
    });

    it('answer 404 once the file is removed, and for a tampered link', async () => {
      const { key } = await newKey();
      const { cover, inline, blog } = await publishedContent();
      const post = (await read(`${team.ws}/live/items/blog-post/${blog.id}`, key)).json();
      const thumbnail: string = post.data.coverImage.thumbnailUrl;
      expect((await load(thumbnail)).statusCode).toBe(200);

      const tampered = (param: string, value: string) => {
        const url = new URL(thumbnail);
        url.searchParams.set(param, value);
        return load(url.toString());
      };
      for (const [param, value] of [
        ['sig', 'forged'],
        ['id', inline.storageName],
        ['__marquee_workspace', 'another-workspace'],
        ['item', 'another'],
        ['stage', 'staging'],
        ['schema', 'event'],
      ])
        expect((await tampered(param, value)).statusCode, param).toBe(404);
      const unnamed = new URL(thumbnail);
      unnamed.searchParams.delete('item');
      expect((await load(unnamed.toString())).statusCode).toBe(404);

      await removeFile(t, team.ws, cover.storageName);
      expect((await load(thumbnail)).statusCode).toBe(404);
      expect((await load(post.data.coverImage.imageUrl)).statusCode).toBe(404);
    });
  });

  it('documents the delivery routes in OpenAPI under their own tag', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const route = doc.paths['/delivery/v1/{ws}/{stage}/items/{schema}'];
    expect(route.get.tags).toEqual(['delivery']);
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('delivery');
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('delivery cache across server processes', () => {
  let other: SecondServer;

  beforeAll(async () => {
    other = await startSecondServer(t);
  });
  afterAll(async () => {
    await other.close();
  });

  it('drops another process’s cached copies when this one publishes (LISTEN/NOTIFY)', async () => {
    const { key } = await newKey();
    const item = await post('Across');
    await publish(t, manager, team.ws, 'blog-post', item.id);
    const readOther = () =>
      other.app.inject({
        method: 'GET',
        url: `/delivery/v1/${team.ws}/live/items/blog-post/${item.id}`,
        headers: { authorization: `Bearer ${key}` },
      });
    expect((await readOther()).json().version).toBe(1);
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Across', slug: 'across', excerpt: 'v2' }),
      1,
    );
    await publish(t, manager, team.ws, 'blog-post', item.id);
    await vi.waitFor(async () => expect((await readOther()).json().version).toBe(2), { timeout: 15_000 });
    await call(t, 'DELETE', `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`, manager);
    await vi.waitFor(async () => expect((await readOther()).statusCode).toBe(404), { timeout: 15_000 });
  });

  it('stops another process’s delivered images when this one unpublishes or removes the file', async () => {
    const { key } = await newKey();
    const cover = await uploadImage(t, manager, team.ws, await makeImage({ seed: 21 }), 'cover.png');
    const item = await post('Pictured', { coverImage: cover });
    await publish(t, manager, team.ws, 'blog-post', item.id);
    const delivered = (await read(`${team.ws}/live/items/blog-post/${item.id}`, key)).json();
    const loadOther = (url: string) =>
      other.app.inject({ method: 'GET', url: url.replace(t.config.publicUrl, '') });
    const { thumbnailUrl, imageUrl } = delivered.data.coverImage as {
      thumbnailUrl: string;
      imageUrl: string;
    };
    expect((await loadOther(thumbnailUrl)).statusCode).toBe(200);
    await call(t, 'DELETE', `${itemUrl(team.ws, 'blog-post', item.id)}/publish/live`, manager);
    await vi.waitFor(async () => expect((await loadOther(thumbnailUrl)).statusCode).toBe(404), {
      timeout: 15_000,
    });

    // Published again it loads again, until its file is removed.
    await publish(t, manager, team.ws, 'blog-post', item.id);
    expect((await loadOther(imageUrl)).statusCode).toBe(200);
    await removeFile(t, team.ws, cover.storageName);
    await vi.waitFor(async () => expect((await loadOther(imageUrl)).statusCode).toBe(404), {
      timeout: 15_000,
    });
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('reads by id on PostgreSQL', () => {
  /** The backends, other than the one asking, that ran the statement reading copies by id. */
  const readers = () =>
    queryRows<{ pid: number }>(
      t.database.db,
      `select pid from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and query like $1`,
      ['%jsonb_array_elements($1::jsonb) with ordinality as wanted%'],
    );

  it('go out on one connection of their own, opened again once lost', async () => {
    const { key } = await newKey();
    const items: Item[] = [];
    for (let n = 0; n < 5; n++) items.push(await post(`Reconnected ${n}`));
    for (const item of items) await publish(t, manager, team.ws, 'blog-post', item.id);
    const readItem = (item: Item) => read(`${team.ws}/live/items/blog-post/${item.id}`, key);

    // Waves a turn of the event loop apart: several batches under way at once, all on that connection.
    const pending = [];
    for (let wave = 0; wave < 6; wave++) {
      pending.push(...items.slice(0, 3).map(readItem));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const answers = await Promise.all(pending);
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    // One backend (another server process of this file's, closed before, may take a moment to go).
    await vi.waitFor(async () => expect(await readers()).toHaveLength(1), { timeout: 15_000 });
    const [reader] = await readers();

    await queryRows(t.database.db, 'select pg_terminate_backend($1)', [reader.pid]);
    await vi.waitFor(async () => expect((await readers()).map((r) => r.pid)).not.toContain(reader.pid), {
      timeout: 15_000,
    });
    // Items not read before (the others' answers are kept), on a new connection: a read handed to the
    // lost one is sent again.
    expect((await readItem(items[3])).statusCode).toBe(200);
    expect((await readItem(items[4])).json()).toMatchObject({ id: items[4].id, version: 1 });
    const [again] = await readers();
    expect(again.pid).not.toBe(reader.pid);
  });
});
