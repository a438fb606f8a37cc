import { and, eq, sql } from 'drizzle-orm';
import type { ContentModelAnswer, ModelApplied, PlanAnswer } from '@shared/api/content-model';
import { CONTENT_MODEL_MESSAGES } from '@shared/api/content-model';
import { builtInModelDoc } from '@shared/model/registry';
import type { ContentModelDoc, ModelOp } from '@shared/model/types';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { rows } from '@server/db/migrate';
import {
  auditLog,
  contentModelChanges,
  contentModels,
  itemVersions,
  published,
  workspaces,
} from '@server/db/schema';
import { createTestApp, startSecondServer, type TestApp } from '../helpers/test-app';
import { migrateModelData } from '../factories/content-model';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  blogPostData,
  call,
  createItem,
  getItem,
  publish,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';
import { createWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let editor: TestUser;
let stranger: TestUser;
let team: Team;

beforeAll(async () => {
  t = await createTestApp({ webhookAllowPrivate: true });
  manager = await verifiedUser(t, { name: 'Moe Modeller' });
  team = await teamWorkspace(t, manager, {
    name: 'Modelling',
    domains: ['blogging', 'marketing', 'assets'],
    roles: { editor: role('Editor', { canEdit: ['blog-post', 'copy'], canPublish: ['blog-post'] }) },
    people: { 'Edie Editor': ['editor'] },
  });
  editor = team.members['Edie Editor'];
  stranger = await verifiedUser(t, { name: 'Stu Stranger' });
});
afterAll(() => t.close());

const modelUrl = (rest = '', ws = team.ws) => `/api/v1/workspaces/${ws}/content-model${rest}`;

async function currentModel(ws = team.ws, user = manager): Promise<ContentModelAnswer> {
  const res = await call(t, 'GET', modelUrl('', ws), user);
  expect(res.statusCode).toBe(200);
  return res.json();
}

const migrate = (ws = team.ws) => migrateModelData(t, ws);

/** Applies a change set and, once its data has followed, answers the change as it then is. */
async function apply(ops: ModelOp[], ws = team.ws, user = manager): Promise<ModelApplied> {
  const { version } = await currentModel(ws);
  const res = await call(t, 'POST', modelUrl('/apply', ws), user, { baseVersion: version, ops });
  if (res.statusCode !== 200) throw new Error(`apply failed: ${res.statusCode} ${res.body}`);
  return settled(res.json(), ws);
}

async function settled(applied: ModelApplied, ws = team.ws): Promise<ModelApplied> {
  if (applied.change?.state !== 'running') return applied;
  await migrate(ws);
  const change = await call(t, 'GET', modelUrl(`/changes/${applied.change.id}`, ws), manager);
  expect(change.json().state).toBe('done');
  return { version: applied.version, change: change.json() };
}

async function plan(ops: ModelOp[], ws = team.ws): Promise<PlanAnswer> {
  const { version } = await currentModel(ws);
  const res = await call(t, 'POST', modelUrl('/plan', ws), manager, { baseVersion: version, ops });
  if (res.statusCode !== 200) throw new Error(`plan failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

const schemaOf = (doc: ContentModelDoc, name: string): SchemaType | undefined =>
  doc.domains.flatMap((domain) => domain.schemas).find((schema) => schema.name === name);

const fieldOf = (doc: ContentModelDoc, schema: string, key: string): FieldDef | undefined =>
  schemaOf(doc, schema)?.fields.find((field) => field.key === key);

async function modelRowsOf(ws: string) {
  const [row] = await t.database.db
    .select({ modelVersion: workspaces.modelVersion })
    .from(workspaces)
    .where(eq(workspaces.id, ws));
  const changes = await t.database.db
    .select({ id: contentModelChanges.id })
    .from(contentModelChanges)
    .where(eq(contentModelChanges.workspaceId, ws));
  const versions = await t.database.db
    .select({ version: contentModels.version })
    .from(contentModels)
    .where(eq(contentModels.workspaceId, ws));
  return { modelVersion: row.modelVersion, changes: changes.length, versions: versions.length };
}

const itemUrl = (id: string, ws = team.ws) => `/api/v1/workspaces/${ws}/items/blog-post/${id}`;

const post = (name: string, extra: Record<string, unknown> = {}) =>
  createItem(
    t,
    manager,
    team.ws,
    'blog-post',
    blogPostData({ name, slug: name.toLowerCase().replace(/ /g, '-'), ...extra }),
  );

describe('the model as workspace data', () => {
  it('starts as the built-in model at version 0, and a change makes version 1 of this workspace only', async () => {
    const ws = await createWorkspace(t.app, manager, 'Fresh Model');
    const fresh = await currentModel(ws.id);
    expect(fresh.version).toBe(0);
    expect(fresh.model).toEqual(JSON.parse(JSON.stringify(builtInModelDoc())));

    const applied = await apply(
      [
        {
          op: 'addField',
          schema: 'blog-post',
          field: { key: 'seoDescription', label: 'SEO description', type: 'multiline' },
        },
      ],
      ws.id,
    );
    expect(applied.version).toBe(1);
    expect(applied.change).toMatchObject({ baseVersion: 0, version: 1, state: 'done', revertible: true });
    const after = await currentModel(ws.id);
    expect(fieldOf(after.model, 'blog-post', 'seoDescription')).toMatchObject({ type: 'multiline' });
    // Another workspace still has the built-in model.
    expect(fieldOf((await currentModel()).model, 'blog-post', 'seoDescription')).toBeUndefined();
    const workspace = await call(t, 'GET', `/api/v1/workspaces/${ws.id}`, manager);
    expect(workspace.json().modelVersion).toBe(1);
  });

  it('lets an editor fill a field added live, and the delivery API answers it', async () => {
    await apply([
      {
        op: 'addField',
        schema: 'blog-post',
        field: { key: 'seoDescription', label: 'SEO description', type: 'multiline' },
        index: 3,
      },
    ]);
    const created = await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Seo', slug: 'seo', seoDescription: 'Found' }),
    );
    expect((await getItem(t, editor, team.ws, 'blog-post', created.id)).data.seoDescription).toBe('Found');
    expect((await publish(t, editor, team.ws, 'blog-post', created.id)).statusCode).toBe(200);
    const key = (
      await call(t, 'POST', `/api/v1/workspaces/${team.ws}/api-keys`, manager, {
        name: 'Site',
        stages: ['live'],
      })
    ).json().key;
    const delivered = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${team.ws}/live/items/blog-post/${created.id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json().data.seoDescription).toBe('Found');
    // Lists filter and order on the new field like on any other.
    await createItem(
      t,
      editor,
      team.ws,
      'blog-post',
      blogPostData({ name: 'Other', slug: 'other', seoDescription: 'Lost' }),
    ).then((other) => publish(t, editor, team.ws, 'blog-post', other.id));
    const filtered = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${team.ws}/live/items/blog-post?filter[seoDescription]=Found&order=seoDescription`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(filtered.statusCode).toBe(200);
    expect(filtered.json().items.map((i: { id: string }) => i.id)).toEqual([created.id]);
    // An unknown field is still refused.
    const unknown = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/items/blog-post`, editor, {
      data: blogPostData({ slug: 'x', nonsense: 1 }),
    });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('changing a model that holds data', () => {
  it('renames a field keeping its values in the item, its stage copy and its history', async () => {
    const item = await post('Rename me', { excerpt: 'Short' });
    await saveItem(
      t,
      manager,
      team.ws,
      'blog-post',
      item.id,
      blogPostData({ name: 'Rename me', slug: 'rename-me', excerpt: 'Shorter' }),
      1,
    );
    expect((await publish(t, manager, team.ws, 'blog-post', item.id)).statusCode).toBe(200);

    const planned = await plan([{ op: 'renameField', schema: 'blog-post', from: 'excerpt', to: 'summary' }]);
    const [counted] = rows<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from items where workspace_id = ${team.ws} and schema = 'blog-post' and data ? 'excerpt'`,
      ),
    );
    expect(planned.impacts[0].touched).toBe(counted.n);
    expect(planned.impacts[0].failing.count).toBe(0);

    await apply([{ op: 'renameField', schema: 'blog-post', from: 'excerpt', to: 'summary' }]);
    const read = await getItem(t, manager, team.ws, 'blog-post', item.id);
    expect(read.data.summary).toBe('Shorter');
    expect(read.data).not.toHaveProperty('excerpt');
    const copies = await t.database.db
      .select({ data: published.data })
      .from(published)
      .where(and(eq(published.workspaceId, team.ws), eq(published.id, item.id)));
    expect(copies[0].data.summary).toBe('Shorter');
    // History keeps each version as it was saved, read under the field's new name.
    const history = await Promise.all(
      [1, 2].map(async (num) => {
        const res = await call(t, 'GET', `${itemUrl(item.id)}/history/${num}`, manager);
        expect(res.statusCode).toBe(200);
        return res.json().data;
      }),
    );
    expect(history.map((data) => data.summary)).toEqual(['Short', 'Shorter']);
    expect(history.map((data) => data.excerpt)).toEqual([undefined, undefined]);
  });

  it('retypes text to number, converting what converts and keeping what does not, flagged incomplete', async () => {
    await apply([
      {
        op: 'addField',
        schema: 'blog-post',
        field: { key: 'readingTime', label: 'Reading time', type: 'text' },
      },
    ]);
    const good = await post('Quick read', { readingTime: '4' });
    const bad = await post('Long read', { readingTime: 'about ten' });
    const planned = await plan([
      {
        op: 'retypeField',
        schema: 'blog-post',
        key: 'readingTime',
        field: { key: 'readingTime', label: 'Reading time', type: 'number' },
      },
    ]);
    expect(planned.impacts[0].touched).toBe(2);
    expect(planned.impacts[0].failing).toEqual({ count: 1, ids: [bad.id] });

    const applied = await apply([
      {
        op: 'retypeField',
        schema: 'blog-post',
        key: 'readingTime',
        field: { key: 'readingTime', label: 'Reading time', type: 'number' },
      },
    ]);
    expect(applied.change!.transformed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: bad.id, failed: [expect.stringContaining('readingTime')] }),
      ]),
    );
    const converted = await getItem(t, manager, team.ws, 'blog-post', good.id);
    expect(converted.data.readingTime).toBe(4);
    expect(converted.hasErrors).toBe(false);
    const kept = await getItem(t, manager, team.ws, 'blog-post', bad.id);
    expect(kept.data.readingTime).toBe('about ten');
    expect(kept.hasErrors).toBe(true);
    const refused = await publish(t, manager, team.ws, 'blog-post', bad.id);
    expect(refused.statusCode).toBe(409);
  });

  it('removes a field without deleting its values, and revert brings them back', async () => {
    const item = await post('Authored', { author: 'Ann Author' });
    const removal = await apply([{ op: 'removeField', schema: 'blog-post', key: 'author' }]);
    expect(fieldOf((await currentModel()).model, 'blog-post', 'author')).toBeUndefined();
    const read = await getItem(t, manager, team.ws, 'blog-post', item.id);
    expect(read.data).not.toHaveProperty('author');
    // The item's versions keep the value.
    const [v1] = await t.database.db
      .select({ data: itemVersions.data })
      .from(itemVersions)
      .where(
        and(eq(itemVersions.workspaceId, team.ws), eq(itemVersions.itemId, item.id), eq(itemVersions.num, 1)),
      );
    expect(v1.data.author).toBe('Ann Author');

    const { version } = await currentModel();
    const reverted = await call(t, 'POST', modelUrl(`/changes/${removal.change!.id}/revert`), manager, {
      baseVersion: version,
    });
    expect(reverted.statusCode).toBe(200);
    expect(reverted.json().change.reverts).toBe(removal.change!.id);
    expect(fieldOf((await currentModel()).model, 'blog-post', 'author')).toMatchObject({ type: 'text' });
    expect((await getItem(t, manager, team.ws, 'blog-post', item.id)).data.author).toBe('Ann Author');

    const again = await call(t, 'POST', modelUrl(`/changes/${removal.change!.id}/revert`), manager, {
      baseVersion: (await currentModel()).version,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CONTENT_MODEL_MESSAGES.alreadyReverted);
  });

  it('makes existing items without the value incomplete when a field becomes required, never refusing the change', async () => {
    const withTags = await post('Tagged', { tags: ['news'] });
    const without = await post('Untagged');
    const planned = await plan([
      { op: 'updateField', schema: 'blog-post', key: 'tags', patch: { required: true } },
    ]);
    const [{ n }] = rows<{ n: number }>(
      await t.database.db.execute(
        sql`select count(*)::int as n from items where workspace_id = ${team.ws} and schema = 'blog-post'
          and coalesce(jsonb_array_length(case when jsonb_typeof(data->'tags') = 'array' then data->'tags' end), 0) = 0`,
      ),
    );
    expect(planned.impacts[0].failing.count).toBe(n);
    expect(planned.impacts[0].failing.ids).toContain(without.id);
    expect(planned.impacts[0].failing.ids).not.toContain(withTags.id);

    await apply([{ op: 'updateField', schema: 'blog-post', key: 'tags', patch: { required: true } }]);
    expect((await getItem(t, manager, team.ws, 'blog-post', without.id)).hasErrors).toBe(true);
    expect((await getItem(t, manager, team.ws, 'blog-post', withTags.id)).hasErrors).toBe(false);
    expect((await publish(t, manager, team.ws, 'blog-post', without.id)).statusCode).toBe(409);
    await apply([{ op: 'updateField', schema: 'blog-post', key: 'tags', patch: { required: null } }]);
    expect((await getItem(t, manager, team.ws, 'blog-post', without.id)).hasErrors).toBe(false);
  });

  it('keeps the items of a removed schema and restores them on revert, trimming roles', async () => {
    await apply([
      {
        op: 'addSchema',
        domain: 'blogging',
        schema: {
          name: 'recipe',
          title: 'Recipe',
          pluralTitle: 'Recipes',
          icon: 'chef-hat',
          fields: [
            { key: 'name', label: 'Name', type: 'text', required: true },
            { key: 'steps', label: 'Steps', type: 'multiline' },
          ],
          topFields: ['name'],
        },
      },
    ]);
    const roles = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json().roles;
    const patched = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, {
      roles: { ...roles, editor: { ...roles.editor, canEdit: [...roles.editor.canEdit, 'recipe'] } },
    });
    expect(patched.statusCode).toBe(200);
    const recipe = await createItem(t, editor, team.ws, 'recipe', { name: 'Soup', steps: 'Boil' });
    const planned = await plan([{ op: 'removeSchema', schema: 'recipe' }]);
    expect(planned.impacts[0].touched).toBe(1);
    expect(planned.impacts[0].warning).toMatch(/kept and come back on revert/);
    const removal = await apply([{ op: 'removeSchema', schema: 'recipe' }]);
    expect(
      (await call(t, 'GET', `/api/v1/workspaces/${team.ws}/items/recipe/${recipe.id}`, manager)).statusCode,
    ).toBe(404);
    const trimmed = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json().roles;
    expect(trimmed.editor.canEdit).not.toContain('recipe');

    await call(t, 'POST', modelUrl(`/changes/${removal.change!.id}/revert`), manager, {
      baseVersion: (await currentModel()).version,
    });
    expect((await getItem(t, manager, team.ws, 'recipe', recipe.id)).data.steps).toBe('Boil');
  });

  it('refuses to remove a schema Marquee relies on', async () => {
    const { version } = await currentModel();
    const res = await call(t, 'POST', modelUrl('/apply'), manager, {
      baseVersion: version,
      ops: [{ op: 'removeSchema', schema: 'campaign' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/Schema "campaign" cannot be removed/);
  });
});

describe('change sets', () => {
  it('are refused when stale (409) and write nothing', async () => {
    const before = await modelRowsOf(team.ws);
    const res = await call(t, 'POST', modelUrl('/apply'), manager, {
      baseVersion: before.modelVersion - 1,
      ops: [{ op: 'addField', schema: 'blog-post', field: { key: 'late', label: 'Late', type: 'text' } }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(CONTENT_MODEL_MESSAGES.stale);
    expect(await modelRowsOf(team.ws)).toEqual(before);
  });

  it('are for managers only: 403 for members and 404 for strangers, with nothing written', async () => {
    const before = await modelRowsOf(team.ws);
    const { version } = await currentModel();
    const body = {
      baseVersion: version,
      ops: [{ op: 'addField', schema: 'blog-post', field: { key: 'x', label: 'X', type: 'text' } }],
    };
    const [change] = await t.database.db
      .select({ id: contentModelChanges.id })
      .from(contentModelChanges)
      .where(eq(contentModelChanges.workspaceId, team.ws))
      .limit(1);
    const routes: [string, string, object | undefined][] = [
      ['POST', modelUrl('/plan'), body],
      ['POST', modelUrl('/apply'), body],
      ['GET', modelUrl('/export'), undefined],
      ['GET', modelUrl('/changes'), undefined],
      ['GET', modelUrl(`/changes/${change.id}`), undefined],
      ['POST', modelUrl(`/changes/${change.id}/revert`), { baseVersion: version }],
    ];
    for (const [method, url, payload] of routes) {
      expect((await call(t, method as 'GET', url, editor, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(t, method as 'GET', url, stranger, payload)).statusCode, `${method} ${url}`).toBe(
        404,
      );
      expect((await call(t, method as 'GET', url, undefined, payload)).statusCode, `${method} ${url}`).toBe(
        401,
      );
    }
    // Every member reads the model their forms are built from.
    expect((await call(t, 'GET', modelUrl(), editor)).statusCode).toBe(200);
    expect(await modelRowsOf(team.ws)).toEqual(before);
  });

  it.each<[string, ModelOp[], RegExp]>([
    [
      'a reserved key',
      [{ op: 'addField', schema: 'blog-post', field: { key: '_locales', label: 'L', type: 'text' } }],
      /_locales/,
    ],
    [
      'the key id',
      [{ op: 'addField', schema: 'blog-post', field: { key: 'id', label: 'Id', type: 'text' } }],
      /"id"/,
    ],
    [
      '__proto__',
      [{ op: 'addField', schema: 'blog-post', field: { key: '__proto__', label: 'P', type: 'text' } }],
      /__proto__/,
    ],
    [
      'a duplicate key',
      [{ op: 'addField', schema: 'blog-post', field: { key: 'slug', label: 'Slug 2', type: 'text' } }],
      /slug/,
    ],
    [
      'a display condition naming nothing',
      [
        {
          op: 'addField',
          schema: 'blog-post',
          field: {
            key: 'teaser',
            label: 'Teaser',
            type: 'text',
            displayIf: { field: 'ghost', notEmpty: true },
          },
        },
      ],
      /ghost/,
    ],
    [
      'a reference naming nothing',
      [
        {
          op: 'addField',
          schema: 'blog-post',
          field: { key: 'related', label: 'Related', type: 'reference', schemaTypes: ['ghost-schema'] },
        },
      ],
      /ghost-schema/,
    ],
    [
      'a block type that contains itself',
      [
        {
          op: 'addBlockType',
          blockType: {
            name: 'section',
            title: 'Section',
            fields: [{ key: 'title', label: 'Title', type: 'text' }],
          },
        },
        {
          op: 'addField',
          blockType: 'section',
          field: { key: 'inner', label: 'Inner', type: 'blocks', blockTypes: ['section'] },
        },
      ],
      /section/,
    ],
    ['removing a locked field', [{ op: 'removeField', schema: 'blog-post', key: 'slug' }], /slug/],
  ])('refuse %s with a 400 naming it, writing nothing', async (_, ops, message) => {
    const before = await modelRowsOf(team.ws);
    const { version } = await currentModel();
    for (const route of ['/plan', '/apply']) {
      const res = await call(t, 'POST', modelUrl(route), manager, { baseVersion: version, ops });
      expect(res.statusCode, route).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect(await modelRowsOf(team.ws)).toEqual(before);
  });

  it('go through the journal: an audit row with the operations and a model.changed webhook delivery', async () => {
    const hook = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/webhooks`, manager, {
      url: 'http://127.0.0.1:9/hook',
      events: ['model.changed'],
    });
    expect(hook.statusCode).toBe(201);
    const applied = await apply([{ op: 'updateSchema', schema: 'blog-post', patch: { icon: 'news' } }]);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, team.ws), eq(auditLog.targetId, applied.change!.id)));
    expect(audit).toMatchObject({ action: 'model.changed', targetType: 'content-model' });
    expect((audit.detail as { ops: unknown[] }).ops).toHaveLength(1);
    const deliveries = await t.database.db.execute(
      sql`select body from webhook_deliveries where workspace_id = ${team.ws} and event = 'model.changed'`,
    );
    const bodies = rows<{ body: string }>(deliveries).map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      expect.objectContaining({ change: applied.change!.id, version: applied.version }),
    ]);
  });
});

describe('model as code', () => {
  it('exports a document that, applied to another workspace, gives the same model; applying it twice changes nothing', async () => {
    const exported = (await call(t, 'GET', modelUrl('/export'), manager)).json() as ContentModelAnswer;
    const other = await createWorkspace(t.app, manager, 'Model Copy');
    const first = await call(t, 'POST', modelUrl('/apply', other.id), manager, { document: exported.model });
    expect(first.statusCode).toBe(200);
    expect((await currentModel(other.id)).model).toEqual(exported.model);
    const second = await call(t, 'POST', modelUrl('/apply', other.id), manager, { document: exported.model });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ version: first.json().version, change: null });
    const planned = await call(t, 'POST', modelUrl('/plan', other.id), manager, { document: exported.model });
    expect(planned.json().ops).toEqual([]);
  });
});

describe('a document that only reorders', () => {
  it('moves domains, block types and schemas into its order, once', async () => {
    const other = await createWorkspace(t.app, manager, 'Model Order');
    const blockTypes = ['hero', 'quote'].map((name) => ({ name, title: name, fields: [] }));
    const added = await call(t, 'POST', modelUrl('/apply', other.id), manager, {
      document: { ...builtInModelDoc(), blockTypes },
    });
    expect(added.statusCode).toBe(200);
    const document = builtInModelDoc();
    document.domains.reverse();
    document.domains[0].schemas.reverse();
    document.blockTypes = [...blockTypes].reverse();
    const first = await call(t, 'POST', modelUrl('/apply', other.id), manager, { document });
    expect(first.statusCode).toBe(200);
    expect(new Set((first.json() as ModelApplied).change!.ops.map((op) => op.op))).toEqual(
      new Set(['moveDomain', 'moveSchema', 'moveBlockType']),
    );
    expect((await currentModel(other.id)).model).toEqual(document);
    const second = await call(t, 'POST', modelUrl('/apply', other.id), manager, { document });
    expect(second.json()).toEqual({ version: first.json().version, change: null });
  });
});

describe.runIf(process.env.MARQUEE_TEST_DB === 'postgres')('on several server processes', () => {
  it('a model change is seen by a second process without a restart', async () => {
    const other = await startSecondServer(t);
    try {
      const read = () =>
        other.app
          .inject({ method: 'GET', url: modelUrl(), headers: manager.auth })
          .then((res) => res.json() as ContentModelAnswer);
      const before = await read();
      await apply([
        { op: 'addField', schema: 'blog-post', field: { key: 'subtitle', label: 'Subtitle', type: 'text' } },
      ]);
      await expect.poll(async () => (await read()).version).toBe(before.version + 1);
      expect(fieldOf((await read()).model, 'blog-post', 'subtitle')).toBeDefined();
      const saved = await other.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${team.ws}/items/blog-post`,
        headers: manager.auth,
        payload: { data: blogPostData({ name: 'Sub', slug: 'sub', subtitle: 'Seen' }) },
      });
      expect(saved.statusCode).toBe(201);
    } finally {
      await other.close();
    }
  });
});

describe('delivery after a rename', () => {
  it('answers the old field name too for 30 days, named in _deprecated', async () => {
    const ws = await createWorkspace(t.app, manager, 'Rename Delivery');
    const item = await createItem(
      t,
      manager,
      ws.id,
      'blog-post',
      blogPostData({ name: 'Kept', slug: 'kept', author: 'Ann' }),
    );
    expect((await publish(t, manager, ws.id, 'blog-post', item.id)).statusCode).toBe(200);
    const key = (
      await call(t, 'POST', `/api/v1/workspaces/${ws.id}/api-keys`, manager, {
        name: 'Site',
        stages: ['live'],
      })
    ).json().key;
    await apply([{ op: 'renameField', schema: 'blog-post', from: 'author', to: 'writer' }], ws.id);
    const delivered = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws.id}/live/items/blog-post/${item.id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    const body = delivered.json();
    expect(body.data).toMatchObject({ writer: 'Ann', author: 'Ann' });
    const until = Date.parse(body._deprecated.author.until);
    expect(body._deprecated.author.renamedTo).toBe('writer');
    expect(until - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(until - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
  });
});

describe('blocks', () => {
  const text = (key: string, label: string, extra: Record<string, unknown> = {}) =>
    ({ key, label, type: 'text', ...extra }) as FieldDef;
  const landingPage: ModelOp[] = [
    { op: 'addDomain', domain: { name: 'pages', title: 'Pages' } },
    {
      op: 'addBlockType',
      blockType: {
        name: 'hero',
        title: 'Hero',
        fields: [text('title', 'Title', { required: true }), text('subtitle', 'Subtitle')],
      },
    },
    {
      op: 'addBlockType',
      blockType: { name: 'feature', title: 'Feature', fields: [text('name', 'Name', { required: true })] },
    },
    {
      op: 'addBlockType',
      blockType: {
        name: 'feature-grid',
        title: 'Feature grid',
        fields: [{ key: 'features', label: 'Features', type: 'blocks', blockTypes: ['feature'] }],
      },
    },
    {
      op: 'addBlockType',
      blockType: {
        name: 'call-to-action',
        title: 'Call to action',
        fields: [
          text('label', 'Label', { required: true }),
          text('url', 'URL', {
            validators: [{ expression: '^https://', message: '%l must start with https://' }],
          }),
        ],
      },
    },
    {
      op: 'addSchema',
      domain: 'pages',
      schema: {
        name: 'landing-page',
        title: 'Landing page',
        pluralTitle: 'Landing pages',
        icon: 'layout',
        fields: [
          { key: 'name', label: 'Name', type: 'text', required: true },
          { key: 'slug', label: 'Slug', type: 'name-slug', from: 'name', required: true },
          {
            key: 'sections',
            label: 'Sections',
            type: 'blocks',
            blockTypes: ['hero', 'feature-grid', 'call-to-action'],
          },
        ],
        topFields: ['name', 'slug'],
      },
    },
  ];

  it('are validated on the server like any field, published and delivered with _type and _key, and typed', async () => {
    const ws = await createWorkspace(t.app, manager, 'Landing');
    await apply(landingPage, ws.id);
    await call(t, 'PATCH', `/api/v1/workspaces/${ws.id}`, manager, {
      basics: { domains: ['blogging', 'pages'] },
    });
    const url = `/api/v1/workspaces/${ws.id}/items/landing-page`;
    const invalid = await call(t, 'POST', url, manager, {
      data: {
        name: 'Launch',
        sections: [
          { _type: 'hero', _key: 'h1' },
          { _type: 'call-to-action', _key: 'c1', label: 'Buy', url: 'http://insecure.example' },
        ],
      },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.details.errors).toMatchObject({
      'sections.0.title': 'Title is required',
      'sections.1.url': 'URL must start with https://',
    });
    const wrongType = await call(t, 'POST', url, manager, {
      data: { name: 'Launch', sections: [{ _type: 'feature', _key: 'f', name: 'Fast' }] },
    });
    expect(wrongType.statusCode).toBe(400);

    const sections = [
      { _type: 'hero', _key: 'h1', title: 'Launch day', subtitle: 'At last' },
      { _type: 'feature-grid', _key: 'g1', features: [{ _type: 'feature', _key: 'f1', name: 'Fast' }] },
      { _type: 'call-to-action', _key: 'c1', label: 'Buy', url: 'https://shop.example' },
    ];
    const page = await createItem(t, manager, ws.id, 'landing-page', { name: 'Launch', sections });
    expect((await publish(t, manager, ws.id, 'landing-page', page.id)).statusCode).toBe(200);
    const key = (
      await call(t, 'POST', `/api/v1/workspaces/${ws.id}/api-keys`, manager, {
        name: 'Site',
        stages: ['live'],
      })
    ).json().key;
    const delivered = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws.id}/live/items/landing-page/by-slug/launch`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json().data.sections).toEqual(sections);

    const types = await t.app.inject({
      method: 'GET',
      url: `/delivery/v1/${ws.id}/types.ts`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(types.statusCode).toBe(200);
    expect(types.body).toContain('export interface LandingPage');
    expect(types.body).toContain("_type: 'feature-grid'");
    expect(types.body).toContain("'landing-page': LandingPage;");
    // Admin domains are not delivered, so they are not typed either.
    expect(types.body).not.toContain('ClientTask');
  });

  it('refuse a block type nested deeper than 5 levels', async () => {
    const ws = await createWorkspace(t.app, manager, 'Deep Blocks');
    const level = (n: number): ModelOp => ({
      op: 'addBlockType',
      blockType: {
        name: `level-${n}`,
        title: `Level ${n}`,
        fields:
          n === 7
            ? [text('title', 'Title')]
            : [{ key: 'inner', label: 'Inner', type: 'blocks', blockTypes: [`level-${n + 1}`] }],
      },
    });
    const ops = [7, 6, 5, 4, 3, 2, 1].map(level);
    const res = await call(t, 'POST', modelUrl('/apply', ws.id), manager, { baseVersion: 0, ops });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/level-/);
  });
});
