import type { Item, ItemList } from '@shared/api/items';
import type { Release } from '@shared/api/releases';
import type { SchemaType } from '@shared/schemas/types';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { approve, call, createItem, getItem, itemsUrl, publish, role, saveItem } from '../factories/items';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';

/**
 * A schema a workspace made for itself goes every way a built-in one does: roles name it (edit, publish,
 * approve), saved views, approvals, releases and the delivery API follow it.
 */

const landingPage: SchemaType = {
  name: 'landing-page',
  title: 'Landing page',
  pluralTitle: 'Landing pages',
  icon: 'file-text',
  fields: [
    { key: 'name', label: 'Name', type: 'text', required: true },
    {
      key: 'headline',
      label: 'Headline',
      type: 'text',
      required: true,
      validators: [{ expression: '^.{0,20}$', message: '%l is too long: %v' }],
    },
  ],
  topFields: ['name'],
};

let t: TestApp;
let manager: TestUser;
let editor: TestUser;
let legal: TestUser;
let viewer: TestUser;
let ws: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mo Manager' });
  ws = (await createWorkspace(t.app, manager, 'Own schemas')).id;
  const { version } = (await call(t, 'GET', `/api/v1/workspaces/${ws}/content-model`, manager)).json();
  const applied = await call(t, 'POST', `/api/v1/workspaces/${ws}/content-model/apply`, manager, {
    baseVersion: version,
    ops: [{ op: 'addSchema', domain: 'blogging', schema: landingPage }],
  });
  expect(applied.statusCode, applied.body).toBe(200);
  const workspace = (await call(t, 'GET', `/api/v1/workspaces/${ws}`, manager)).json();
  const patched = await patchWorkspace(t.app, manager, ws, {
    basics: { domains: ['blogging'], stages: ['Live', 'Staging'] },
    roles: {
      ...workspace.roles,
      editor: role('Editor', { canEdit: ['landing-page'], canPublish: ['landing-page'] }),
      legal: role('Legal', { mustApprove: ['landing-page'] }),
      viewer: role('Viewer', {}),
    },
    baseVersion: workspace.version,
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const people: Record<string, TestUser> = {};
  for (const [name, roleId] of [
    ['Eve Editor', 'editor'],
    ['Leo Legal', 'legal'],
    ['Val Viewer', 'viewer'],
  ]) {
    const input = newUserInput({ name });
    const invited = await call(t, 'POST', `/api/v1/workspaces/${ws}/members/invitations`, manager, {
      email: input.email,
      roles: [roleId],
    });
    expect(invited.statusCode, invited.body).toBe(201);
    people[roleId] = await verifiedUser(t, input);
  }
  ({ editor, legal, viewer } = people as Record<'editor' | 'legal' | 'viewer', TestUser>);
});
afterAll(() => t.close());

let n = 0;
const page = (overrides: Record<string, unknown> = {}) =>
  createItem(t, editor, ws, 'landing-page', {
    name: `Page ${++n}`,
    headline: 'Spring is here',
    ...overrides,
  });

const list = async (user: TestUser, query: string) => {
  const res = await call(t, 'GET', `${itemsUrl(ws)}?${query}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ItemList).items;
};

describe('a schema of the workspace', () => {
  it('is edited by the roles that name it and refused to the others, on the server', async () => {
    const created = await page();
    expect(created).toMatchObject({ schema: 'landing-page', version: 1 });
    expect(created.abilities).toMatchObject({ canEdit: true, canPublish: true });
    const refused = await call(t, 'POST', itemsUrl(ws, 'landing-page'), viewer, {
      data: { name: 'Not mine', headline: 'No' },
    });
    expect(refused.statusCode).toBe(403);
    const saveRefused = await call(t, 'PUT', `${itemsUrl(ws, 'landing-page')}/${created.id}`, legal, {
      data: { name: 'Changed', headline: 'No' },
      baseVersion: 1,
    });
    expect(saveRefused.statusCode).toBe(403);
    expect((await getItem(t, viewer, ws, 'landing-page', created.id)).data.name).toBe(created.data.name);
  });

  it('runs its own fields’ rules on save: required values and validators', async () => {
    const missing = await call(t, 'POST', itemsUrl(ws, 'landing-page'), editor, {
      data: { name: 'No headline' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.errors).toEqual({ headline: 'Headline is required' });
    const tooLong = await call(t, 'POST', itemsUrl(ws, 'landing-page'), editor, {
      data: { name: 'Long', headline: 'Twenty-one characters' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details.errors).toEqual({
      headline: 'Headline is too long: Twenty-one characters',
    });
  });

  it('waits for the approval its role must give before publishing, and need-my-approval lists it', async () => {
    const waiting = await page();
    expect((await publish(t, editor, ws, 'landing-page', waiting.id)).statusCode).toBe(409);
    expect((await list(legal, 'view=need-my-approval&limit=100')).map((item) => item.id)).toContain(
      waiting.id,
    );
    expect((await list(editor, 'view=last-updated-by-me&limit=100')).map((item) => item.id)).toContain(
      waiting.id,
    );
    expect((await approve(t, viewer, ws, 'landing-page', waiting.id, 'legal')).statusCode).toBe(403);
    expect((await approve(t, legal, ws, 'landing-page', waiting.id, 'legal')).statusCode).toBe(200);
    expect((await list(legal, 'view=need-my-approval&limit=100')).map((item) => item.id)).not.toContain(
      waiting.id,
    );
    const published = await publish(t, editor, ws, 'landing-page', waiting.id);
    expect(published.statusCode, published.body).toBe(200);
    const keyRes = await call(t, 'POST', `/api/v1/workspaces/${ws}/api-keys`, manager, {
      name: 'Site',
      stages: ['live'],
    });
    const { key } = keyRes.json() as { key: string };
    const delivered = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws}/live/items/landing-page?filter[headline]=Spring is here`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json().items.map((item: { id: string }) => item.id)).toEqual([waiting.id]);
  });

  it('goes out in a release once approved, at the pinned version', async () => {
    const first = await page();
    const second = await saveItem(t, editor, ws, 'landing-page', first.id, {
      name: first.data.name,
      headline: 'Summer now',
    });
    const created = await call(t, 'POST', `/api/v1/workspaces/${ws}/releases`, manager, {
      name: 'Launch',
      stage: 'live',
    });
    expect(created.statusCode, created.body).toBe(201);
    const releaseUrl = `/api/v1/workspaces/${ws}/releases/${created.json().id}`;
    const added = await call(t, 'POST', `${releaseUrl}/entries`, manager, {
      entries: [{ schema: 'landing-page', itemId: first.id, version: second.version }],
    });
    expect(added.statusCode, added.body).toBe(200);
    const entry = (added.json() as Release).entries[0];
    expect(entry.blockers).toEqual(['This item needs approval before publishing. Waiting for: Legal']);
    expect((await call(t, 'POST', `${releaseUrl}/publish`, manager)).statusCode).toBe(409);
    expect((await approve(t, legal, ws, 'landing-page', first.id, 'legal')).statusCode).toBe(200);
    const published = await call(t, 'POST', `${releaseUrl}/publish`, manager);
    expect(published.statusCode, published.body).toBe(200);
    const item: Item = await getItem(t, manager, ws, 'landing-page', first.id);
    expect(item.published.live?.version).toBe(second.version);
  });

  it('names a field renamed lately in the model it answers, so open forms move what users typed', async () => {
    const { version } = (await call(t, 'GET', `/api/v1/workspaces/${ws}/content-model`, editor)).json();
    const renamed = await call(t, 'POST', `/api/v1/workspaces/${ws}/content-model/apply`, manager, {
      baseVersion: version,
      ops: [{ op: 'renameField', schema: 'landing-page', from: 'headline', to: 'title' }],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const answer = (await call(t, 'GET', `/api/v1/workspaces/${ws}/content-model`, editor)).json();
    expect(answer.renamed).toEqual([
      { schema: 'landing-page', from: 'headline', to: 'title', until: expect.any(String) },
    ]);
    expect(Date.parse(answer.renamed[0].until)).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
  });

  it('cannot be removed while a reference field of another schema targets it: the 400 names the field', async () => {
    const other = (await createWorkspace(t.app, manager, 'Referenced schema')).id;
    const apply = async (ops: unknown[]) => {
      const { version } = (await call(t, 'GET', `/api/v1/workspaces/${other}/content-model`, manager)).json();
      return call(t, 'POST', `/api/v1/workspaces/${other}/content-model/apply`, manager, {
        baseVersion: version,
        ops,
      });
    };
    const related = {
      key: 'related',
      label: 'Related',
      type: 'reference-list',
      schemaTypes: ['landing-page'],
    };
    const added = await apply([
      { op: 'addSchema', domain: 'blogging', schema: landingPage },
      { op: 'addField', schema: 'blog-post', field: related },
    ]);
    expect(added.statusCode, added.body).toBe(200);
    const removal = { op: 'removeSchema', schema: 'landing-page' };
    const refused = await apply([removal]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe(
      'ops.0 (removeSchema): Schema "landing-page" cannot be removed: field "related" of schema "blog-post" refers to it; remove that field or take "landing-page" out of its schemas first',
    );
    const withField = await apply([removal, { op: 'removeField', schema: 'blog-post', key: 'related' }]);
    expect(withField.statusCode, withField.body).toBe(200);
  });
});
