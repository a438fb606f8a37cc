import { and, eq, inArray } from 'drizzle-orm';
import type { Item } from '@shared/api/items';
import { PREVIEW_MESSAGES } from '@shared/api/preview';
import type { ModelOp } from '@shared/model/types';
import { landingPage } from '@shared/schemas/blocks-test-data';
import { previewTokens, published } from '@server/db/schema';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { applyModelChange } from '../factories/content-model';
import {
  blogPostData,
  call,
  createItem,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';
import { patchWorkspace } from '../factories/workspaces';
import { makeImage } from '../fixtures/images';
import { uploadImage } from '../fixtures/media';

/** Live preview: drafts through the delivery API with preview tokens, the preview origins, unsaved renders. */

let t: TestApp;
let manager: TestUser;
let editor: TestUser;
let viewer: TestUser;
let team: Team;
let other: Team;
let apiKey: string;

const LOCALES = { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } };
const api = (rest: string, ws = team.ws) => `/api/v1/workspaces/${ws}${rest}`;
const delivery = (rest: string, ws = team.ws) => `/delivery/v1/${ws}/live/${rest}`;
const read = (url: string, credential?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: credential ? { authorization: `Bearer ${credential}` } : {},
  });

async function newToken(user: TestUser, body: object = {}, ws = team.ws) {
  const res = await call(t, 'POST', api('/preview-tokens', ws), user, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; token: string; expiresAt: string };
}

const { blockTypes, ...landingSchema } = landingPage;
const pagesModel: ModelOp[] = [
  { op: 'addDomain', domain: { name: 'pages', title: 'Pages' } },
  ...Object.values(blockTypes ?? {}).map((blockType): ModelOp => ({ op: 'addBlockType', blockType })),
  { op: 'addSchema', domain: 'pages', schema: landingSchema },
];

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Pia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Previews',
    locales: LOCALES,
    roles: { editor: role('Editor', { canEdit: ['blog-post', 'landing-page'] }) },
    people: { 'Ed Editor': ['editor'], 'Vi Viewer': [] },
  });
  editor = team.members['Ed Editor'];
  viewer = team.members['Vi Viewer'];
  await applyModelChange(t, manager, team.ws, pagesModel);
  const patched = await patchWorkspace(t.app, manager, team.ws, {
    basics: { domains: ['blogging', 'pages', 'admin'], stages: ['Live', 'Staging'], locales: LOCALES },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  other = await teamWorkspace(t, manager, { name: 'Previews Other', roles: {}, people: {} });
  const key = await call(t, 'POST', api('/api-keys'), manager, { name: 'Site', stages: ['live', 'staging'] });
  apiKey = key.json().key;
});
afterAll(() => t.close());

describe('preview URLs of a schema', () => {
  const change = async (previewUrls: unknown) => {
    const url = api('/content-model');
    const { version } = (await call(t, 'GET', url, manager)).json();
    return call(t, 'POST', `${url}/apply`, manager, {
      baseVersion: version,
      ops: [{ op: 'updateSchema', schema: 'landing-page', patch: { previewUrls } }],
    });
  };

  it('are set through updateSchema, planned in words and kept in the model', async () => {
    const urls = ['https://www.example.com/pages/{name}?locale={locale}&id={id}'];
    const { version } = (await call(t, 'GET', api('/content-model'), manager)).json();
    const plan = await call(t, 'POST', api('/content-model/plan'), manager, {
      baseVersion: version,
      ops: [{ op: 'updateSchema', schema: 'landing-page', patch: { previewUrls: urls } }],
    });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json().impacts[0].summary).toBe('Change schema "landing-page" (previewUrls)');
    expect((await change(urls)).statusCode).toBe(200);
    const model = (await call(t, 'GET', api('/content-model'), manager)).json().model;
    const schema = model.domains
      .flatMap((domain: { schemas: { name: string }[] }) => domain.schemas)
      .find((s: { name: string }) => s.name === 'landing-page');
    expect(schema.previewUrls).toEqual(urls);
  });

  it('are refused with a message naming the schema and what is wrong', async () => {
    const placeholder = await change(['https://www.example.com/{nope}']);
    expect(placeholder.statusCode).toBe(400);
    expect(placeholder.json().error.message).toContain('Schema "landing-page"');
    expect(placeholder.json().error.message).toContain('"{nope}"');
    expect((await change(['ftp://example.com/{name}'])).statusCode).toBe(400);
    expect((await change(['/relative/{name}'])).statusCode).toBe(400);
    expect((await change(Array.from({ length: 6 }, (_, i) => `https://e.com/${i}`))).statusCode).toBe(400);
    expect((await change([`https://e.com/${'a'.repeat(2000)}`])).statusCode).toBe(400);
    expect((await change('https://e.com')).statusCode).toBe(400);
  });
});

describe('preview origins', () => {
  it('are read by any member and set by managers only', async () => {
    expect((await call(t, 'GET', api('/preview-origins'), viewer)).json()).toEqual({ origins: [] });
    const put = await call(t, 'PUT', api('/preview-origins'), manager, {
      origins: ['https://WWW.Example.com', 'http://127.0.0.1:4000', 'https://www.example.com:443'],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ origins: ['https://www.example.com', 'http://127.0.0.1:4000'] });
    expect((await call(t, 'GET', api('/preview-origins'), editor)).json()).toEqual(put.json());
    const denied = await call(t, 'PUT', api('/preview-origins'), editor, { origins: [] });
    expect(denied.statusCode).toBe(403);
    expect((await call(t, 'GET', api('/preview-origins'), viewer)).json()).toEqual(put.json());
  });

  it('refuse what is not an origin, too many, strangers and the signed out', async () => {
    const withPath = await call(t, 'PUT', api('/preview-origins'), manager, {
      origins: ['https://example.com/blog'],
    });
    expect(withPath.statusCode).toBe(400);
    expect(withPath.json().error.message).toContain(PREVIEW_MESSAGES.origin('https://example.com/blog'));
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`);
    expect((await call(t, 'PUT', api('/preview-origins'), manager, { origins: many })).statusCode).toBe(400);
    expect((await call(t, 'PUT', api('/preview-origins'), manager, { origins: 'x' })).statusCode).toBe(400);
    expect((await call(t, 'GET', api('/preview-origins'))).statusCode).toBe(401);
    const stranger = await verifiedUser(t, { name: 'Stan Stranger' });
    expect((await call(t, 'GET', api('/preview-origins'), stranger)).statusCode).toBe(404);
    expect((await call(t, 'PUT', api('/preview-origins'), stranger, { origins: [] })).statusCode).toBe(404);
  });
});

describe('preview tokens', () => {
  it('are made by a member for what they can read, an hour by default', async () => {
    const before = Date.now();
    const { id, token, expiresAt } = await newToken(viewer);
    expect(token.startsWith('mqp_')).toBe(true);
    expect(id).toMatch(/^[A-Za-z0-9]+$/);
    const lives = Date.parse(expiresAt) - before;
    expect(lives).toBeGreaterThan(3590_000);
    expect(lives).toBeLessThan(3700_000);
    const day = await newToken(viewer, { expiresIn: 86_400 });
    expect(Date.parse(day.expiresAt) - before).toBeGreaterThan(86_000_000);
  });

  it('refuse bad input with 4xx', async () => {
    const post = (body: unknown, user = editor) =>
      call(t, 'POST', api('/preview-tokens'), user, body as object);
    for (const expiresIn of [0, -1, 86_401, 1.5, '60'])
      expect((await post({ expiresIn })).statusCode).toBe(400);
    const orphan = await post({ itemId: 'abc' });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().error.message).toContain(PREVIEW_MESSAGES.itemNeedsSchema);
    expect((await post({ nope: true })).statusCode).toBe(400);
    expect((await post({ schema: 'blog-post', itemId: 'missing' })).statusCode).toBe(404);
    expect((await post({ schema: 'no-such-schema' })).statusCode).toBe(404);
    expect((await post({ releaseId: 'missing' })).statusCode).toBe(404);
    expect((await call(t, 'POST', api('/preview-tokens'), undefined, {})).statusCode).toBe(401);
  });

  it('are not made for an item the member cannot read', async () => {
    // Admin domains are the managers' only (and never delivered); a domain the workspace has not
    // enabled is no one's.
    const task = await createItem(t, manager, team.ws, 'client-task', { name: 'Secret task' });
    const denied = await call(t, 'POST', api('/preview-tokens'), viewer, {
      schema: 'client-task',
      itemId: task.id,
    });
    expect(denied.statusCode).toBeGreaterThanOrEqual(400);
    expect(denied.statusCode).toBeLessThan(500);
    expect(denied.body).not.toContain('Secret task');
    const disabled = await call(t, 'POST', api('/preview-tokens'), manager, { schema: 'email' });
    expect(disabled.statusCode).toBeGreaterThanOrEqual(400);
    expect(disabled.statusCode).toBeLessThan(500);
  });

  it('are revoked by their maker or a manager, no one else', async () => {
    const mine = await newToken(viewer);
    expect((await call(t, 'DELETE', api(`/preview-tokens/${mine.id}`), editor)).statusCode).toBe(403);
    expect((await call(t, 'DELETE', api(`/preview-tokens/${mine.id}`), viewer)).statusCode).toBe(204);
    const theirs = await newToken(editor);
    expect((await call(t, 'DELETE', api(`/preview-tokens/${theirs.id}`), manager)).statusCode).toBe(204);
    expect((await call(t, 'DELETE', api('/preview-tokens/missing'), manager)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', api('/preview-tokens/bad..id'), manager)).statusCode).toBe(404);
    expect((await call(t, 'DELETE', api(`/preview-tokens/${theirs.id}`, other.ws), manager)).statusCode).toBe(
      404,
    );
    expect((await call(t, 'DELETE', api(`/preview-tokens/${theirs.id}`))).statusCode).toBe(401);
  });
});

describe('drafts through the delivery API', () => {
  let post: Item;
  let fresh: Item;
  let page: Item;
  let token: string;

  beforeAll(async () => {
    post = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({
        name: 'Published name',
        slug: 'old-slug',
        _locales: { 'fr-FR': { name: 'Nom publié' } },
      }),
    );
    expect((await publish(t, manager, team.ws, 'blog-post', post.id)).statusCode).toBe(200);
    post = await saveItem(
      t,
      editor,
      team.ws,
      'blog-post',
      post.id,
      blogPostData({ name: 'Draft name', slug: 'new-slug', _locales: { 'fr-FR': { name: 'Brouillon' } } }),
      1,
    );
    fresh = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Never out', slug: 'never' }),
    );
    page = await createItem(t, manager, team.ws, 'landing-page', {
      name: 'Spring',
      sections: [
        { _type: 'hero', _key: 'h1', title: 'Hello' },
        {
          _type: 'call-to-action',
          _key: 'c1',
          label: 'Read',
          target: { id: fresh.id, schemaType: 'blog-post', label: 'Never out' },
        },
      ],
    });
    token = (await newToken(editor)).token;
  });

  it('answer an item by id in the published shape, privately, and leave the published answer alone', async () => {
    const url = delivery(`items/blog-post/${post.id}`);
    // Asked twice, the published answer is kept in the delivery cache.
    for (let i = 0; i < 2; i++) expect((await read(url, apiKey)).json().data.name).toBe('Published name');
    const draft = await read(`${url}?preview=draft`, token);
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ id: post.id, schema: 'blog-post', version: 2 });
    expect(draft.json().data.name).toBe('Draft name');
    expect(draft.headers['cache-control']).toBe('private, no-store');
    expect(draft.headers['surrogate-key']).toBeUndefined();
    expect(draft.headers['cache-tag']).toBeUndefined();
    const publishedAgain = await read(url, apiKey);
    expect(publishedAgain.json().data.name).toBe('Published name');
    expect(publishedAgain.headers['cache-control']).toMatch(/^public/);
    expect(publishedAgain.headers['surrogate-key']).toBeTruthy();
    // Nothing was written: the stage still holds version 1.
    const [copy] = await t.database.db
      .select({ version: published.version })
      .from(published)
      .where(and(eq(published.workspaceId, team.ws), eq(published.id, post.id), eq(published.stage, 'live')));
    expect(copy.version).toBe(1);
    // The token in the query string, for pages that cannot send headers.
    const inQuery = await read(`${url}?preview=draft&previewToken=${token}`);
    expect(inQuery.json().data.name).toBe('Draft name');
    // An item never published has a draft all the same.
    const never = await read(delivery(`items/blog-post/${fresh.id}?preview=draft`), token);
    expect(never.json().data.name).toBe('Never out');
    expect((await read(delivery(`items/blog-post/${fresh.id}`), apiKey)).statusCode).toBe(404);
    const missing = await read(delivery('items/blog-post/nothing-here?preview=draft'), token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(PREVIEW_MESSAGES.itemNotFound);
  });

  it('answer by slug (the draft’s, and the one the copy had) and lists, in locales', async () => {
    const bySlug = await read(delivery('items/blog-post/by-slug/new-slug?preview=draft'), token);
    expect(bySlug.statusCode, bySlug.body).toBe(200);
    expect(bySlug.json().data.name).toBe('Draft name');
    const byOld = await read(delivery('items/blog-post/by-slug/old-slug?preview=draft'), token);
    expect(byOld.json()).toMatchObject({ id: post.id, previousSlugs: ['old-slug'] });
    expect((await read(delivery('items/blog-post/by-slug/new-slug'), apiKey)).statusCode).toBe(404);

    const list = await read(delivery('items/blog-post?preview=draft&order=name'), token);
    expect(list.statusCode, list.body).toBe(200);
    const names = list.json().items.map((item: { data: { name: string } }) => item.data.name);
    expect(names).toEqual(expect.arrayContaining(['Draft name', 'Never out']));
    expect(names).not.toContain('Published name');
    expect(list.headers['cache-control']).toBe('private, no-store');

    const french = await read(delivery(`items/blog-post/${post.id}?preview=draft&locale=fr-FR`), token);
    expect(french.json()).toMatchObject({ locale: 'fr-FR', data: { name: 'Brouillon' } });
    const fellBack = await read(delivery(`items/blog-post/${fresh.id}?preview=draft&locale=fr-FR`), token);
    expect(fellBack.json()).toMatchObject({ data: { name: 'Never out' }, _locale: { name: 'en-US' } });
    const fields = await read(delivery(`items/blog-post/${post.id}?preview=draft&fields=name`), token);
    expect(Object.keys(fields.json().data)).toEqual(['name']);
  });

  it('embed references as their drafts, with each field’s edit attribute when asked', async () => {
    const res = await read(
      delivery(`items/landing-page/${page.id}?preview=draft&include=refs&editInfo=true`),
      token,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.refs[fresh.id]).toMatchObject({ id: fresh.id, data: { name: 'Never out' } });
    expect(body._editInfo).toMatchObject({
      name: `${team.ws}:landing-page:${page.id}:name`,
      sections: `${team.ws}:landing-page:${page.id}:sections`,
      'sections.0': `${team.ws}:landing-page:${page.id}:sections.0`,
      'sections.0.title': `${team.ws}:landing-page:${page.id}:sections.0.title`,
      'sections.1.target': `${team.ws}:landing-page:${page.id}:sections.1.target`,
    });
    expect(body.refs[fresh.id]._editInfo.name).toBe(`${team.ws}:blog-post:${fresh.id}:name`);
    const list = await read(delivery('items/landing-page?preview=draft&include=refs&editInfo=true'), token);
    expect(list.json().items[0]._editInfo['sections.1']).toBe(
      `${team.ws}:landing-page:${page.id}:sections.1`,
    );
    const plain = await read(delivery(`items/landing-page/${page.id}?preview=draft`), token);
    expect(plain.json()._editInfo).toBeUndefined();
  });

  it('answer an item by id as a list of the drafts answers it, slugs and references alike', async () => {
    for (const [schema, item] of [
      ['blog-post', post],
      ['landing-page', page],
    ] as const) {
      const byId = await read(delivery(`items/${schema}/${item.id}?preview=draft&include=refs`), token);
      expect(byId.statusCode, byId.body).toBe(200);
      const list = await read(delivery(`items/${schema}?preview=draft&include=refs&limit=100`), token);
      const inList = list.json().items.find((listed: { id: string }) => listed.id === item.id);
      expect(byId.json()).toEqual(inList);
    }
    const byId = await read(delivery(`items/blog-post/${post.id}?preview=draft`), token);
    expect(byId.json()).toMatchObject({ previousSlugs: ['old-slug'] });
  });

  it('sign the images of drafts never published, so that a page loads them', async () => {
    const file = await uploadImage(t, editor, team.ws, await makeImage(), 'cover.png');
    const pictured = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Pictured', slug: 'pictured', coverImage: file }),
    );
    const res = await read(delivery(`items/blog-post/${pictured.id}?preview=draft`), token);
    const { imageUrl, thumbnailUrl } = res.json().data.coverImage;
    expect(imageUrl).toContain('/fun/emailImage/');
    const image = await t.app.inject({ method: 'GET', url: thumbnailUrl.replace(t.config.publicUrl, '') });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
  });

  it('answer GraphQL queries of drafts', async () => {
    const query = encodeURIComponent(`{ blogPost(id: "${post.id}") { name } }`);
    const res = await read(delivery(`graphql?preview=draft&query=${query}`), token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.blogPost).toEqual({ name: 'Draft name' });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['surrogate-key']).toBeUndefined();
    const posted = await t.app.inject({
      method: 'POST',
      url: delivery('graphql?preview=draft'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: `{ blogPost(id: "${fresh.id}") { name } }` }),
    });
    expect(posted.json().data.blogPost).toEqual({ name: 'Never out' });
    const publishedAnswer = await read(delivery(`graphql?query=${query}`), apiKey);
    expect(publishedAnswer.json().data.blogPost).toEqual({ name: 'Published name' });
  });

  it('answer a release as it will leave the stage to a token made for it', async () => {
    const gone = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Gone', slug: 'gone' }),
    );
    await publish(t, manager, team.ws, 'blog-post', gone.id);
    const release = (
      await call(t, 'POST', api('/releases'), manager, { name: 'Spring', stage: 'live' })
    ).json();
    const added = await call(t, 'POST', api(`/releases/${release.id}/entries`), manager, {
      entries: [
        { schema: 'blog-post', itemId: gone.id, action: 'unpublish' },
        { schema: 'blog-post', itemId: post.id, version: 1 },
      ],
    });
    expect(added.statusCode, added.body).toBe(200);
    const releaseToken = (await newToken(viewer, { releaseId: release.id })).token;
    expect((await read(delivery(`items/blog-post/${gone.id}?preview=draft`), releaseToken)).statusCode).toBe(
      404,
    );
    const pinned = await read(delivery(`items/blog-post/${post.id}?preview=draft`), releaseToken);
    expect(pinned.json().data.name).toBe('Published name');
    const draftOutside = await read(delivery(`items/blog-post/${fresh.id}?preview=draft`), releaseToken);
    expect(draftOutside.json().data.name).toBe('Never out');
    expect((await read(delivery(`items/blog-post/${gone.id}?preview=draft`), token)).json().data.name).toBe(
      'Gone',
    );
  });

  it('forget the tokens that expired a week ago when a new one is made, and keep those expired since', async () => {
    const long = await newToken(editor);
    const recent = await newToken(editor);
    const otherWorkspaces = await newToken(manager, {}, other.ws);
    const ago = (days: number) => new Date(Date.now() - days * 24 * 3600_000);
    for (const [id, at] of [
      [long.id, ago(8)],
      [recent.id, ago(6)],
      [otherWorkspaces.id, ago(8)],
    ] as const)
      await t.database.db.update(previewTokens).set({ expiresAt: at }).where(eq(previewTokens.id, id));

    await newToken(editor);
    const left = await t.database.db
      .select({ id: previewTokens.id })
      .from(previewTokens)
      .where(inArray(previewTokens.id, [long.id, recent.id, otherWorkspaces.id]));
    expect(left.map((row) => row.id).sort()).toEqual([recent.id, otherWorkspaces.id].sort());
    expect(
      (await read(delivery(`items/blog-post/${post.id}?preview=draft`), recent.token)).json().error.message,
    ).toBe(PREVIEW_MESSAGES.expired);
  });

  it('refuse expired, revoked, malformed and other workspaces’ tokens, and API keys', async () => {
    const url = delivery(`items/blog-post/${post.id}?preview=draft`);
    const expectRefused = async (res: Awaited<ReturnType<typeof read>>, status: number, message?: string) => {
      expect(res.statusCode).toBe(status);
      if (message) expect(res.json().error.message).toBe(message);
      expect(res.body).not.toContain('Draft name');
    };
    const expired = await newToken(editor, { expiresIn: 60 });
    await t.database.db
      .update(previewTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(previewTokens.id, expired.id));
    await expectRefused(await read(url, expired.token), 401, PREVIEW_MESSAGES.expired);

    const revoked = await newToken(editor);
    expect((await read(url, revoked.token)).statusCode).toBe(200);
    await call(t, 'DELETE', api(`/preview-tokens/${revoked.id}`), editor);
    await expectRefused(await read(url, revoked.token), 401, PREVIEW_MESSAGES.revoked);

    await expectRefused(await read(url, 'mqp_garbage'), 401, PREVIEW_MESSAGES.invalid);
    await expectRefused(await read(url, `${token.slice(0, -2)}xx`), 401, PREVIEW_MESSAGES.invalid);
    await expectRefused(await read(url), 401);
    await expectRefused(await read(url, apiKey), 401, PREVIEW_MESSAGES.apiKeyForDrafts);
    await expectRefused(
      await read(delivery(`items/blog-post/${post.id}`), token),
      401,
      PREVIEW_MESSAGES.draftsOnly,
    );
    await expectRefused(
      await read(delivery(`items/blog-post/${post.id}?previewToken=${token}`), apiKey),
      401,
      PREVIEW_MESSAGES.draftsOnly,
    );

    const otherToken = (await newToken(manager, {}, other.ws)).token;
    await expectRefused(await read(url, otherToken), 404);
    await expectRefused(
      await read(delivery(`items/blog-post/${post.id}?preview=draft`, other.ws), token),
      404,
    );

    // A preview token is no session and no API key anywhere else.
    await expectRefused(await read(api(`/items/blog-post/${post.id}`), token), 401);
    await expectRefused(await read(`/delivery/v1/${team.ws}/types.ts`, token), 401);
  });

  it('keep a token scoped to an item to that item', async () => {
    const scoped = (await newToken(editor, { schema: 'blog-post', itemId: fresh.id })).token;
    expect((await read(delivery(`items/blog-post/${fresh.id}?preview=draft`), scoped)).statusCode).toBe(200);
    const others = [
      `items/blog-post/${post.id}?preview=draft`,
      'items/blog-post/by-slug/new-slug?preview=draft',
      'items/blog-post?preview=draft',
      `items/landing-page/${page.id}?preview=draft`,
      `graphql?preview=draft&query=${encodeURIComponent(`{ blogPost(id: "${post.id}") { name } }`)}`,
    ];
    for (const path of others) {
      const res = await read(delivery(path), scoped);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('Draft name');
    }
    expect((await read(delivery('items/blog-post/by-slug/never?preview=draft'), scoped)).statusCode).toBe(
      200,
    );
  });

  it('refuse bad parameters with 4xx', async () => {
    const base = delivery(`items/blog-post/${post.id}`);
    for (const query of ['preview=published', 'preview=draft&editInfo=yes', 'preview=draft&release=abc']) {
      const res = await read(`${base}?${query}`, token);
      expect(res.statusCode, query).toBe(400);
    }
    expect((await read(`${base}?editInfo=true`, apiKey)).statusCode).toBe(400);
    expect((await read(`${base}?preview=draft&fields=nope`, token)).statusCode).toBe(400);
    expect((await read(delivery('items/blog-post?preview=draft&limit=0'), token)).statusCode).toBe(400);
    expect(
      (await read(`/delivery/v1/${team.ws}/nowhere/items/blog-post/${post.id}?preview=draft`, token))
        .statusCode,
    ).toBe(404);
    expect((await read(delivery('items/no-such/x?preview=draft'), token)).statusCode).toBe(404);
    expect((await read(delivery('items/client-task?preview=draft'), token)).statusCode).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('describes the preview routes and the delivery routes’ draft parameters', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const [path, method] of [
      ['/api/v1/workspaces/{ws}/preview-origins', 'put'],
      ['/api/v1/workspaces/{ws}/preview-tokens', 'post'],
      ['/api/v1/workspaces/{ws}/preview-tokens/{id}', 'delete'],
      ['/api/v1/workspaces/{ws}/preview/render', 'post'],
    ]) {
      expect(doc.paths[path][method].tags, path).toEqual(['preview']);
      expect(doc.paths[path][method].description, path).toBeTruthy();
    }
    const single = doc.paths['/delivery/v1/{ws}/{stage}/items/{schema}/{id}'].get;
    const names = single.parameters.map((parameter: { name: string }) => parameter.name);
    expect(names).toEqual(expect.arrayContaining(['preview', 'previewToken', 'editInfo']));
  });
});

describe('rendering unsaved values', () => {
  const render = (body: object, user: TestUser | null = editor, ws = team.ws) =>
    call(t, 'POST', api('/preview/render', ws), user ?? undefined, body);

  it('answers them in the delivery shape with edit attributes, writing nothing', async () => {
    const target = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Target', slug: 'target' }),
    );
    const page = await createItem(t, manager, team.ws, 'landing-page', { name: 'Saved' });
    const data = {
      name: 'Typed',
      sections: [
        {
          _type: 'call-to-action',
          _key: 'c',
          target: { id: target.id, schemaType: 'blog-post', label: 'T' },
        },
        { _type: 'hero', _key: 'h', title: 'Typed hero' },
      ],
    };
    const res = await render({ schema: 'landing-page', id: page.id, data });
    expect(res.statusCode, res.body).toBe(200);
    const { item, editInfo } = res.json();
    expect(item).toMatchObject({ id: page.id, schema: 'landing-page', data: { name: 'Typed' } });
    expect(item.data.sections[1].title).toBe('Typed hero');
    expect(item.refs[target.id]).toMatchObject({ data: { name: 'Target' } });
    expect(editInfo['sections.1.title']).toBe(`${team.ws}:landing-page:${page.id}:sections.1.title`);
    const stored = await call(t, 'GET', api(`/items/landing-page/${page.id}`), editor);
    expect(stored.json().data.name).toBe('Saved');
    expect(stored.json().version).toBe(1);

    const unsaved = await render({
      schema: 'blog-post',
      data: blogPostData({ name: 'Brand new' }),
      locale: 'fr-FR',
    });
    expect(unsaved.statusCode, unsaved.body).toBe(200);
    expect(unsaved.json().item).toMatchObject({ locale: 'fr-FR', data: { name: 'Brand new' } });
    const list = await call(t, 'GET', api('/items/blog-post'), editor);
    expect(list.body).not.toContain('Brand new');
  });

  it('renders as a release will leave the stage, for a release the caller can read', async () => {
    const gone = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Ref gone', slug: 'ref-gone' }),
    );
    const page = await createItem(t, manager, team.ws, 'landing-page', { name: 'With release' });
    const release = (
      await call(t, 'POST', api('/releases'), manager, { name: 'Later', stage: 'live' })
    ).json();
    await call(t, 'POST', api(`/releases/${release.id}/entries`), manager, {
      entries: [{ schema: 'blog-post', itemId: gone.id, action: 'unpublish' }],
    });
    const data = {
      name: 'With release',
      sections: [
        { _type: 'call-to-action', _key: 'c', target: { id: gone.id, schemaType: 'blog-post', label: 'G' } },
      ],
    };
    const drafts = await render({ schema: 'landing-page', id: page.id, data });
    expect(drafts.json().item.refs[gone.id]).toMatchObject({ data: { name: 'Ref gone' } });
    const released = await render({ schema: 'landing-page', id: page.id, data, releaseId: release.id });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().item.refs[gone.id]).toBeNull();
    expect((await render({ schema: 'landing-page', data, releaseId: 'missing' })).statusCode).toBe(404);
  });

  it('shows the drafts of the items referenced as they are saved, render after render', async () => {
    const target = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'First words' }));
    const page = await createItem(t, manager, team.ws, 'landing-page', { name: 'Follows' });
    const data = {
      name: 'Follows',
      sections: [
        {
          _type: 'call-to-action',
          _key: 'c',
          target: { id: target.id, schemaType: 'blog-post', label: 'T' },
        },
      ],
    };
    const before = await render({ schema: 'landing-page', id: page.id, data });
    expect(before.json().item.refs[target.id].data.name).toBe('First words');
    await saveItem(t, editor, team.ws, 'blog-post', target.id, blogPostData({ name: 'Second words' }), 1);
    const after = await render({ schema: 'landing-page', id: page.id, data });
    expect(after.json().item.refs[target.id]).toMatchObject({ version: 2, data: { name: 'Second words' } });
  });

  it('never shows one editor’s unsaved values to anyone else', async () => {
    const post = await createItem(t, editor, team.ws, 'blog-post', blogPostData({ name: 'Saved words' }));
    const typed = await render({ schema: 'blog-post', id: post.id, data: blogPostData({ name: 'Typing' }) });
    expect(typed.json().item.data.name).toBe('Typing');
    const page = {
      name: 'Elsewhere',
      sections: [
        { _type: 'call-to-action', _key: 'c', target: { id: post.id, schemaType: 'blog-post', label: 'P' } },
      ],
    };
    const others = await render({ schema: 'landing-page', data: page }, manager);
    expect(others.json().item.refs[post.id].data.name).toBe('Saved words');
    const token = (await newToken(manager)).token;
    const draft = await read(delivery(`items/blog-post/${post.id}?preview=draft`), token);
    expect(draft.json().data.name).toBe('Saved words');
  });

  it('refuses bad data, strangers and the signed out', async () => {
    const bad = await render({ schema: 'blog-post', data: { name: 42 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('name');
    expect((await render({ schema: 'blog-post', data: { slug: 'x' } })).statusCode).toBe(400);
    expect((await render({ schema: 'blog-post', data: [] })).statusCode).toBe(400);
    expect((await render({ schema: 'no-such', data: {} })).statusCode).toBe(404);
    expect((await render({ schema: 'blog-post', id: 'missing', data: blogPostData() })).statusCode).toBe(404);
    expect((await render({ schema: 'blog-post', data: blogPostData(), locale: 'de-DE' })).statusCode).toBe(
      400,
    );
    expect(
      (await render({ schema: 'client-task', data: { name: 'x' } }, viewer)).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect((await render({ schema: 'blog-post', data: blogPostData() }, null)).statusCode).toBe(401);
    expect((await render({ schema: 'blog-post', data: blogPostData() }, editor, other.ws)).statusCode).toBe(
      404,
    );
  });
});

describe('draft lists, read from the drafts', () => {
  // Items of their own, told apart from the others' by their author.
  let alpha: Item;
  let echo: Item;
  let bravo: Item;
  let page: Item;
  let token: string;
  const names = (res: { json(): { items: { data: { name: string } }[] } }) =>
    res.json().items.map((item) => item.data.name);

  beforeAll(async () => {
    const post = (data: Record<string, unknown>) =>
      createItem(t, editor, team.ws, 'blog-post', blogPostData(data));
    alpha = await post({ name: 'Alpha', slug: 'lists-alpha', author: 'elsewhere' });
    await publish(t, manager, team.ws, 'blog-post', alpha.id);
    alpha = await saveItem(
      t,
      editor,
      team.ws,
      'blog-post',
      alpha.id,
      blogPostData({ name: 'Delta', slug: 'lists-delta', author: 'lister' }),
      1,
    );
    echo = await post({ name: 'Echo', slug: 'lists-echo', author: 'lister' });
    await publish(t, manager, team.ws, 'blog-post', echo.id);
    echo = await saveItem(
      t,
      editor,
      team.ws,
      'blog-post',
      echo.id,
      blogPostData({ name: 'Echo', slug: 'lists-echo', author: 'gone' }),
      1,
    );
    bravo = await post({
      name: 'Bravo',
      slug: 'lists-bravo',
      author: 'lister',
      _locales: { 'fr-FR': { name: 'Zoulou' } },
    });
    await post({ name: 'Charlie', slug: 'lists-charlie', author: 'lister' });
    page = await createItem(t, manager, team.ws, 'landing-page', {
      name: 'Lists page',
      sections: [
        {
          _type: 'call-to-action',
          _key: 'c1',
          label: 'Read',
          target: { id: alpha.id, schemaType: 'blog-post', label: 'Delta' },
        },
      ],
    });
    token = (await newToken(editor)).token;
  });

  it('filter and order by the drafts’ values, not the published ones', async () => {
    const list = await read(
      delivery('items/blog-post?preview=draft&filter[author]=lister&order=name'),
      token,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(names(list)).toEqual(['Bravo', 'Charlie', 'Delta']);
    const first = list.json().items[0];
    expect(first).toMatchObject({ id: bravo.id, version: 1, previousSlugs: [] });
    const delta = list.json().items[2];
    expect(delta).toMatchObject({ id: alpha.id, version: 2, previousSlugs: ['lists-alpha'] });
    expect(delta.data.slug).toBe('lists-delta');
    expect(list.headers['cache-control']).toBe('private, no-store');
    expect(list.headers['surrogate-key']).toBeUndefined();
    const published = await read(delivery('items/blog-post?filter[author]=lister&order=name'), apiKey);
    expect(names(published)).toEqual(['Echo']);
  });

  it('page by cursor in the order asked for', async () => {
    const url = 'items/blog-post?preview=draft&filter[author][in]=lister,gone&order=-name&limit=2';
    const first = await read(delivery(url), token);
    expect(names(first)).toEqual(['Echo', 'Delta']);
    const { nextCursor } = first.json();
    expect(nextCursor).toEqual(expect.any(String));
    const second = await read(delivery(`${url}&cursor=${encodeURIComponent(nextCursor)}`), token);
    expect(second.statusCode, second.body).toBe(200);
    expect(names(second)).toEqual(['Charlie', 'Bravo']);
    expect(second.json().nextCursor).toBeNull();
  });

  it('answer and order in a locale, with its fallback', async () => {
    const list = await read(
      delivery('items/blog-post?preview=draft&filter[author]=lister&order=name&locale=fr-FR'),
      token,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(names(list)).toEqual(['Charlie', 'Delta', 'Zoulou']);
    expect(list.json().items[0]).toMatchObject({ locale: 'fr-FR', _locale: { name: 'en-US' } });
    expect(list.json().items[2]._locale.name).toBeUndefined();
    const fields = await read(
      delivery('items/blog-post?preview=draft&filter[author]=lister&fields=name'),
      token,
    );
    for (const item of fields.json().items) expect(Object.keys(item.data)).toEqual(['name']);
  });

  it('embed the drafts of the items referenced', async () => {
    const list = await read(
      delivery('items/landing-page?preview=draft&filter[name]=Lists page&include=refs'),
      token,
    );
    expect(list.statusCode, list.body).toBe(200);
    const [item] = list.json().items;
    expect(item.id).toBe(page.id);
    expect(item.refs[alpha.id]).toMatchObject({ version: 2, data: { name: 'Delta' } });
    const bySlug = await read(delivery('items/blog-post/by-slug/lists-alpha?preview=draft'), token);
    expect(bySlug.json()).toMatchObject({ id: alpha.id, data: { name: 'Delta' } });
  });

  it('answer GraphQL lists of drafts', async () => {
    const query = encodeURIComponent(
      '{ blogPostList(order: "name", filter: { author: { eq: "lister" } }) { items { name } } }',
    );
    const res = await read(delivery(`graphql?preview=draft&query=${query}`), token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.blogPostList.items).toEqual([
      { name: 'Bravo' },
      { name: 'Charlie' },
      { name: 'Delta' },
    ]);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const published = await read(delivery(`graphql?query=${query}`), apiKey);
    expect(published.json().data.blogPostList.items).toEqual([{ name: 'Echo' }]);
  });

  it('let a release’s entries win over the drafts for a token made for it', async () => {
    const release = (
      await call(t, 'POST', api('/releases'), manager, { name: 'Lists', stage: 'live' })
    ).json();
    const added = await call(t, 'POST', api(`/releases/${release.id}/entries`), manager, {
      entries: [
        { schema: 'blog-post', itemId: echo.id, action: 'unpublish' },
        { schema: 'blog-post', itemId: alpha.id, version: 1 },
      ],
    });
    expect(added.statusCode, added.body).toBe(200);
    const releaseToken = (await newToken(viewer, { releaseId: release.id })).token;
    const url = delivery('items/blog-post?preview=draft&filter[author][in]=lister,gone,elsewhere&order=name');
    expect(names(await read(url, token))).toEqual(['Bravo', 'Charlie', 'Delta', 'Echo']);
    const inRelease = await read(url, releaseToken);
    expect(inRelease.statusCode, inRelease.body).toBe(200);
    expect(names(inRelease)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const pinned = await read(delivery('items/blog-post/by-slug/lists-alpha?preview=draft'), releaseToken);
    expect(pinned.json()).toMatchObject({ id: alpha.id, version: 1, data: { name: 'Alpha' } });
    const query = encodeURIComponent(`{ blogPost(id: "${echo.id}") { name } }`);
    const gone = await read(delivery(`graphql?preview=draft&query=${query}`), releaseToken);
    expect(gone.json().data.blogPost).toBeNull();
  });
});
