import { expect, test, type APIRequest, type Locator, type Page } from '@playwright/test';
import {
  BASE_URL,
  SAME_ORIGIN,
  acceptCookies,
  itemField,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/** Settings › Content model: a manager changes the blog posts' fields; editors and the delivery API follow. */

const roles = {
  writer: { name: 'Writer', canEdit: ['blog-post'], canPublish: ['blog-post'], mustApprove: [] },
};

test.beforeEach(async ({ context }) => acceptCookies(context));

/** A manager's workspace with one blog post (its excerpt and author filled), seeded through the API. */
async function seedBlog(page: Page, name: string) {
  await seedVerifiedUser(page.request, 'modeller');
  const ws = (await seedWorkspace(page.request, `${name} ${Date.now().toString(36)}`, { roles })).id;
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'Harbour walk',
    slug: 'harbour-walk',
    body: '<p>Along the harbour.</p>',
    excerpt: 'A short walk by the water',
    author: 'Ada Author',
  });
  return { ws, id: post.id, itemUrl: `/${ws}/blogging/blog-post/${post.id}` };
}

async function openBlogPost(page: Page, ws: string) {
  await page.goto(`/${ws}/_settings/content-model`);
  await expect(page.getByRole('heading', { level: 1, name: 'Content model' })).toBeVisible();
  await page.getByRole('button', { name: /^Blog Post blog-post/ }).click();
  await expect(page.getByRole('button', { name: 'Add field to Blog Post' })).toBeVisible();
}

/** Applies the pending change set from its panel and waits for the new version. */
async function applyPending(page: Page, count: string) {
  const panel = page.getByRole('region', { name: 'Pending changes' });
  await expect(panel).toContainText(`${count} not applied`);
  await panel.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(page.getByText('Content model updated')).toBeVisible();
  await expect(panel).toBeHidden();
}

/** The item form of an item, in edit mode. */
async function editItem(page: Page, itemUrl: string) {
  await page.goto(itemUrl);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
}

/** Publishes the open item to Live from its Actions menu and waits for its Live chip to say CURRENT. */
async function publishToLive(page: Page) {
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Publish…', exact: true }).click();
  await page.getByRole('button', { name: 'Publish to Live' }).click();
  await expect(
    page.getByTestId('item-heading').locator('..').getByTestId('publish-chip-live'),
  ).toHaveAttribute('data-status', 'CURRENT');
}

/** What the delivery API answers a website (no session, the API key alone) as an item's data. */
async function deliveredData(playwright: { request: APIRequest }, path: string, key: string) {
  const site = await playwright.request.newContext({ baseURL: BASE_URL });
  try {
    const res = await site.get(path, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as Record<string, unknown>;
  } finally {
    await site.dispose();
  }
}

test('a manager adds SEO description to blog posts; an editor fills it in and publishes; the delivery API answers it', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const { ws, id, itemUrl } = await seedBlog(page, 'Model');
  const keyRes = await page.request.post(`/api/v1/workspaces/${ws}/api-keys`, {
    headers: SAME_ORIGIN,
    data: { name: 'Website', stages: ['live'], preview: false },
  });
  expect(keyRes.status(), await keyRes.text()).toBe(201);
  const { key } = (await keyRes.json()) as { key: string };

  await openBlogPost(page, ws);
  await shot(page, 'content-model-01-blog-post');
  await page.getByRole('button', { name: 'Add field to Blog Post' }).click();
  const editor = page.getByRole('dialog', { name: 'New field in Blog Post' });
  await editor.getByRole('textbox', { name: 'Label', exact: true }).fill('SEO description');
  await expect(editor.getByRole('textbox', { name: 'Key', exact: true })).toHaveValue('seoDescription');
  await editor.getByLabel('Type', { exact: true }).click();
  await page.getByRole('option', { name: 'Multiline text' }).click();
  await expect(editor.getByLabel('Rows')).toBeVisible();
  await shot(page, 'content-model-02-field-editor');
  await editor.getByRole('button', { name: 'Add field' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByTestId('field-seoDescription')).toContainText('Not applied');
  const panel = page.getByRole('region', { name: 'Pending changes' });
  await expect(panel).toContainText('1 change not applied');
  await expect(panel).toContainText('Add field "seoDescription" (multiline) to "blog-post"');
  await shot(page, 'content-model-03-pending');

  await panel.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review 1 change' });
  await expect(review.getByTestId('plan')).toContainText('0 items touched');
  await expect(review.getByTestId('plan')).toContainText('No item becomes incomplete');
  await shot(page, 'content-model-04-review');
  await review.getByRole('button', { name: 'Apply 1 change' }).click();
  await expect(page.getByText('Content model updated')).toBeVisible();
  await expect(page.getByTestId('field-seoDescription')).not.toContainText('Not applied');

  // A second member, who edits and publishes blog posts, finds the field in the item form.
  const writer = await seedMember(browser, page.request, ws, 'Wren Writer', ['writer']);
  const w = writer.page;
  // The screen is for managers: a writer is refused it, and the API refuses the writer's plans too.
  await w.goto(`/${ws}/_settings/content-model`);
  await expect(w.getByText('Only workspace managers can open settings')).toBeVisible();
  await expect(w).toHaveURL(`/${ws}/_items/all`);
  const refused = await w.request.post(`/api/v1/workspaces/${ws}/content-model/plan`, {
    headers: SAME_ORIGIN,
    data: { baseVersion: 1, ops: [{ op: 'removeField', schema: 'blog-post', key: 'excerpt' }] },
  });
  expect(refused.status()).toBe(403);
  await editItem(w, itemUrl);
  await itemField(w, 'seoDescription').fill('A walk along the old harbour, with photos.');
  await shot(w, 'content-model-05-item-form');
  await w.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(w.getByTestId('item-version')).toHaveText('Version 2');
  await publishToLive(w);
  await writer.context.close();

  const delivered = await deliveredData(playwright, `/delivery/v1/${ws}/live/items/blog-post/${id}`, key);
  expect(delivered.seoDescription).toBe('A walk along the old harbour, with photos.');

  // History lists the change with its operation in words.
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByTestId('change-v1')).toContainText(
    'Add field "seoDescription" (multiline) to "blog-post"',
  );
  await expect(page.getByTestId('change-v1')).toContainText('Modeller Tester');
  await shot(page, 'content-model-06-history');
});

test('renaming a field keeps its values in the item form', async ({ page }) => {
  const { ws, itemUrl } = await seedBlog(page, 'Rename');
  await openBlogPost(page, ws);
  await page.getByRole('button', { name: 'More for Excerpt' }).click();
  await page.getByRole('menuitem', { name: 'Rename key' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit field “Excerpt” of Blog Post' });
  const key = editor.getByRole('textbox', { name: 'Key', exact: true });
  await expect(key).toBeFocused();
  await key.fill('summary');
  await expect(editor).toContainText('Existing values move to the new key.');
  await editor.getByRole('button', { name: 'Change field' }).click();
  await expect(page.getByTestId('field-summary')).toBeVisible();
  await applyPending(page, '1 change');

  await editItem(page, itemUrl);
  await expect(itemField(page, 'summary')).toHaveValue('A short walk by the water');
  await shot(page, 'content-model-07-renamed-in-form');
});

test('a removed field comes back with its value when the change is reverted in History', async ({ page }) => {
  const { ws, itemUrl } = await seedBlog(page, 'Revert');
  await openBlogPost(page, ws);
  await page.getByRole('button', { name: 'More for Author' }).click();
  await page.getByRole('menuitem', { name: 'Remove field' }).click();
  await expect(page.getByTestId('field-author')).toHaveCount(0);
  // The author is a top field of blog posts: it leaves them in the same change set.
  await expect(page.getByRole('region', { name: 'Pending changes' })).toContainText(
    'Change schema "blog-post" (topFields)',
  );
  await applyPending(page, '2 changes');

  await editItem(page, itemUrl);
  await expect(page.locator('[data-field="author"]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();

  await page.goto(`/${ws}/_settings/content-model`);
  await page.getByRole('tab', { name: 'History' }).click();
  const change = page.getByTestId('change-v1');
  await expect(change).toContainText('Remove field "author" from "blog-post"');
  await change.getByRole('button', { name: 'Details of version 1' }).click();
  await expect(page.getByTestId('change-details')).toContainText('1 item transformed');
  await shot(page, 'content-model-08-change-details');
  await page.keyboard.press('Escape');
  await change.getByRole('button', { name: 'Revert version 1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revert version 1?' });
  await expect(confirm).toContainText('Remove field "author" from "blog-post"');
  await shot(page, 'content-model-09-revert-confirm');
  await confirm.getByRole('button', { name: 'Revert', exact: true }).click();
  await expect(page.getByText('Version 1 reverted')).toBeVisible();
  await expect(page.getByTestId('change-v1')).toContainText('Reverted in v2');
  await expect(page.getByTestId('change-v2')).toContainText('Reverts v1');
  await shot(page, 'content-model-10-reverted');

  await editItem(page, itemUrl);
  await expect(itemField(page, 'author')).toHaveValue('Ada Author');
});

/** Block types a landing page is built from, applied through the API (the screen adds the third). */
async function seedBlockTypes(page: Page, ws: string) {
  const current = (await (await page.request.get(`/api/v1/workspaces/${ws}/content-model`)).json()) as {
    version: number;
  };
  const text = (key: string, label: string, required = false) => ({ key, label, type: 'text', required });
  const res = await page.request.post(`/api/v1/workspaces/${ws}/content-model/apply`, {
    headers: SAME_ORIGIN,
    data: {
      baseVersion: current.version,
      ops: [
        {
          op: 'addBlockType',
          blockType: {
            name: 'hero',
            title: 'Hero',
            icon: 'photo',
            fields: [text('title', 'Title', true), text('tagline', 'Tagline')],
          },
        },
        {
          op: 'addBlockType',
          blockType: { name: 'feature', title: 'Feature', fields: [text('name', 'Name', true)] },
        },
        {
          op: 'addBlockType',
          blockType: {
            name: 'feature-grid',
            title: 'Feature grid',
            fields: [
              text('heading', 'Heading'),
              { key: 'features', label: 'Features', type: 'blocks', blockTypes: ['feature'] },
            ],
          },
        },
      ],
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('a manager makes a Landing page schema with a blocks field; an editor builds a page from blocks and publishes it; the delivery API answers its blocks', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(300_000);
  await seedVerifiedUser(page.request, 'modeller');
  const ws = (await seedWorkspace(page.request, `Landing ${Date.now().toString(36)}`)).id;
  await seedBlockTypes(page, ws);
  await page.goto(`/${ws}/_settings/content-model`);
  await expect(page.getByRole('heading', { level: 1, name: 'Content model' })).toBeVisible();

  // A block type of its own, with a field, from the screen.
  await page.getByRole('button', { name: 'Add block type' }).click();
  const typeDialog = page.getByRole('dialog', { name: 'Add a block type' });
  await typeDialog.getByRole('textbox', { name: 'Title' }).fill('Call to action');
  await expect(typeDialog.getByRole('textbox', { name: 'Name' })).toHaveValue('call-to-action');
  await typeDialog.getByRole('button', { name: 'Add block type' }).click();
  await page.getByRole('button', { name: /^Call to action call-to-action/ }).click();
  await page.getByRole('button', { name: 'Add field to Call to action' }).click();
  const ctaField = page.getByRole('dialog', { name: 'New field in Call to action' });
  await ctaField.getByRole('textbox', { name: 'Label', exact: true }).fill('Label');
  await ctaField.getByRole('button', { name: 'Add field' }).click();
  await expect(ctaField).toBeHidden();

  // The Landing page schema, from scratch, with its Sections blocks field.
  await page.getByRole('button', { name: 'Add schema to Blogging' }).click();
  const schemaDialog = page.getByRole('dialog', { name: 'Add a schema' });
  await schemaDialog.getByRole('textbox', { name: 'Title' }).fill('Landing page');
  await expect(schemaDialog.getByRole('textbox', { name: 'Name' })).toHaveValue('landing-page');
  await schemaDialog.getByRole('button', { name: 'Add schema' }).click();
  await page.getByRole('button', { name: /^Landing page landing-page/ }).click();
  await page.getByRole('button', { name: 'Add field to Landing page' }).click();
  const sections = page.getByRole('dialog', { name: 'New field in Landing page' });
  await sections.getByRole('textbox', { name: 'Label', exact: true }).fill('Sections');
  await sections.getByLabel('Type', { exact: true }).click();
  await page.getByRole('option', { name: 'Blocks', exact: true }).click();
  await sections.getByRole('combobox', { name: 'Allowed block types' }).click();
  for (const title of ['Hero', 'Feature grid', 'Call to action'])
    await page.getByRole('option', { name: title, exact: true }).click();
  await page.keyboard.press('Escape');
  await shot(page, 'content-model-11-blocks-field');
  await sections.getByRole('button', { name: 'Add field' }).click();
  await expect(sections).toBeHidden();
  await applyPending(page, '4 changes');
  await shot(page, 'content-model-12-landing-page');

  // The schema is new: the writer's role is given it once it exists.
  const workspace = (await (await page.request.get(`/api/v1/workspaces/${ws}`)).json()) as {
    version: number;
    roles: Record<string, unknown>;
  };
  const rolesRes = await page.request.patch(`/api/v1/workspaces/${ws}`, {
    headers: SAME_ORIGIN,
    data: {
      roles: {
        ...workspace.roles,
        writer: { name: 'Writer', canEdit: ['landing-page'], canPublish: ['landing-page'], mustApprove: [] },
      },
      baseVersion: workspace.version,
    },
  });
  expect(rolesRes.status(), await rolesRes.text()).toBe(200);
  const keyRes = await page.request.post(`/api/v1/workspaces/${ws}/api-keys`, {
    headers: SAME_ORIGIN,
    data: { name: 'Website', stages: ['live'], preview: false },
  });
  expect(keyRes.status(), await keyRes.text()).toBe(201);
  const { key } = (await keyRes.json()) as { key: string };

  // An editor builds a page from blocks: a hero, a feature grid with two features inside, a call to action.
  const writer = await seedMember(browser, page.request, ws, 'Wren Writer', ['writer']);
  const w = writer.page;
  await w.goto(`/${ws}/blogging/landing-page/new`);
  await itemField(w, 'name').fill('Spring launch');
  const addBlock = async (scope: Locator, title: string) => {
    await scope.getByRole('button', { name: 'Add block' }).last().click();
    await w.getByRole('menuitem', { name: title, exact: true }).click();
  };
  const form = w.locator('[data-blocks="sections"]');
  await addBlock(form, 'Hero');
  const hero = w.getByRole('group', { name: 'Hero 1' });
  await hero.getByLabel('Title').fill('Spring is here');
  await hero.getByLabel('Tagline').fill('Fresh things for fresh days');
  await addBlock(form, 'Feature grid');
  const grid = w.getByRole('group', { name: 'Feature grid 2' });
  await grid.getByLabel('Heading').fill('Why us');
  await addBlock(grid, 'Feature');
  await grid.getByRole('group', { name: 'Feature 1' }).getByLabel('Name').fill('Fast');
  await addBlock(grid, 'Feature');
  await grid.getByRole('group', { name: 'Feature 2' }).getByLabel('Name').fill('Friendly');
  await addBlock(form, 'Call to action');
  await w.getByRole('group', { name: 'Call to action 3' }).getByLabel('Label').fill('Shop now');
  await shot(w, 'content-model-13-page-from-blocks');
  await w.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(w.getByTestId('item-version')).toHaveText('Version 1');
  const id = new URL(w.url()).pathname.split('/').pop()!;
  await publishToLive(w);
  await writer.context.close();

  const delivered = await deliveredData(playwright, `/delivery/v1/${ws}/live/items/landing-page/${id}`, key);
  const blocks = delivered.sections as Record<string, unknown>[];
  expect(blocks).toEqual([
    {
      _type: 'hero',
      _key: expect.any(String),
      title: 'Spring is here',
      tagline: 'Fresh things for fresh days',
    },
    {
      _type: 'feature-grid',
      _key: expect.any(String),
      heading: 'Why us',
      features: [
        { _type: 'feature', _key: expect.any(String), name: 'Fast' },
        { _type: 'feature', _key: expect.any(String), name: 'Friendly' },
      ],
    },
    { _type: 'call-to-action', _key: expect.any(String), label: 'Shop now' },
  ]);
  expect(new Set(blocks.map((block) => block._key)).size).toBe(3);
});

test('a manager adds a table "Specs" with two columns; an editor fills two rows; a renamed and a retyped column keep their values', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const { ws, id, itemUrl } = await seedBlog(page, 'Columns');
  await openBlogPost(page, ws);
  await page.getByRole('button', { name: 'Add field to Blog Post' }).click();
  const editor = page.getByRole('dialog', { name: 'New field in Blog Post' });
  await editor.getByRole('textbox', { name: 'Label', exact: true }).fill('Specs');
  await editor.getByLabel('Type', { exact: true }).click();
  await page.getByRole('option', { name: 'Table', exact: true }).click();
  await expect(editor.getByText('No columns yet.')).toBeVisible();
  // Escape closes a column's editor alone.
  await editor.getByRole('button', { name: 'Add column to Specs' }).click();
  await expect(page.getByRole('dialog', { name: 'New column in Specs' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'New column in Specs' })).toBeHidden();
  await expect(editor).toBeVisible();
  for (const [label, type] of [
    ['Size', 'Text'],
    ['Weight', 'Number'],
  ] as const) {
    await editor.getByRole('button', { name: 'Add column to Specs' }).click();
    const column = page.getByRole('dialog', { name: 'New column in Specs' });
    await column.getByRole('textbox', { name: 'Label', exact: true }).fill(label);
    await column.getByLabel('Type', { exact: true }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
    if (label === 'Weight') await shot(page, 'content-model-20-column-editor');
    await column.getByRole('button', { name: 'Add column' }).click();
    await expect(column).toBeHidden();
  }
  const columns = editor.getByRole('table', { name: 'Columns of Specs' });
  await expect(columns.getByTestId('column-size')).toContainText('Text');
  await expect(columns.getByTestId('column-weight')).toContainText('Number');
  await shot(page, 'content-model-21-table-columns');
  await editor.getByRole('button', { name: 'Add field' }).click();
  await expect(page.getByRole('region', { name: 'Pending changes' })).toContainText(
    'Add field "specs" (table) to "blog-post"',
  );
  await applyPending(page, '1 change');

  const writer = await seedMember(browser, page.request, ws, 'Wren Writer', ['writer']);
  const w = writer.page;
  await editItem(w, itemUrl);
  const rows = w.getByRole('table', { name: 'Specs' }).locator('tbody tr');
  for (const [index, size, weight] of [
    [0, 'A4', '120'],
    [1, 'A5', '80'],
  ] as const) {
    await w.getByRole('button', { name: 'Add row' }).click();
    await rows.nth(index).getByLabel('Size', { exact: true }).fill(size);
    await rows.nth(index).getByLabel('Weight', { exact: true }).fill(weight);
  }
  await w.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(w.getByTestId('item-version')).toHaveText('Version 2');

  // The manager renames Size to Format (key and label) and makes Weight text, all by keyboard-reachable actions.
  await page.getByRole('button', { name: 'Edit Specs' }).click();
  const table = page.getByRole('dialog', { name: 'Edit field “Specs” of Blog Post' });
  await table.getByRole('button', { name: 'More for Size' }).click();
  await page.getByRole('menuitem', { name: 'Rename key' }).click();
  const size = page.getByRole('dialog', { name: 'Edit column “Size” of Specs' });
  await expect(size.getByRole('textbox', { name: 'Key', exact: true })).toBeFocused();
  await size.getByRole('textbox', { name: 'Key', exact: true }).fill('format');
  await size.getByRole('textbox', { name: 'Label', exact: true }).fill('Format');
  await expect(size).toContainText('Existing values move to the new key.');
  await size.getByRole('button', { name: 'Change column' }).click();
  await expect(size).toBeHidden();
  await table.getByRole('button', { name: 'More for Weight' }).click();
  await page.getByRole('menuitem', { name: 'Change type' }).click();
  const weight = page.getByRole('dialog', { name: 'Edit column “Weight” of Specs' });
  await weight.getByLabel('Type', { exact: true }).click();
  await page.getByRole('option', { name: 'Text', exact: true }).click();
  await weight.getByRole('button', { name: 'Change column' }).click();
  await expect(table.getByTestId('column-format')).toContainText('Format');
  await expect(table.getByTestId('column-weight')).toContainText('Text');
  await shot(page, 'content-model-22-columns-changed');
  // Escape closes the table's editor; its column changes are already pending.
  await page.keyboard.press('Escape');
  await expect(table).toBeHidden();
  const panel = page.getByRole('region', { name: 'Pending changes' });
  await expect(panel).toContainText('Rename field "size" of table "specs" of "blog-post" to "format"');
  await expect(panel).toContainText(
    'Change the type of field "weight" of table "specs" of "blog-post" to text',
  );
  await shot(page, 'content-model-23-column-ops-pending');
  await applyPending(page, '3 changes');

  await editItem(w, itemUrl);
  const specs = w.getByRole('table', { name: 'Specs' });
  await expect(specs.locator('thead')).toContainText('Format');
  await expect(rows.nth(0).getByLabel('Format', { exact: true })).toHaveValue('A4');
  await expect(rows.nth(1).getByLabel('Format', { exact: true })).toHaveValue('A5');
  await expect(rows.nth(0).getByLabel('Weight', { exact: true })).toHaveValue('120');
  await specs.scrollIntoViewIfNeeded();
  await shot(w, 'content-model-24-rows-after-columns-changed');
  const saved = await (await w.request.get(`/api/v1/workspaces/${ws}/items/blog-post/${id}`)).json();
  expect(saved.data.specs).toEqual([
    { format: 'A4', weight: '120' },
    { format: 'A5', weight: '80' },
  ]);
  await writer.context.close();
});
