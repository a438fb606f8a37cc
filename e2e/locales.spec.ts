import { expect, test } from '@playwright/test';
import {
  FRENCH_EDITOR,
  SAME_ORIGIN,
  acceptCookies,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

test('a manager adds fr-FR, a French post is published and read in French; a French-only editor is refused English', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await seedVerifiedUser(page.request, 'locales');
  const workspace = await seedWorkspace(page.request, `Locales ${Date.now().toString(36)}`, {
    roles: { french: FRENCH_EDITOR },
  });
  const ws = workspace.id;
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'Good morning',
    slug: 'good-morning',
    body: '<p>Morning</p>',
  });

  // Settings › Locales: the first locale becomes the default, the next falls back to it.
  await page.goto(`/${ws}/_settings/locales`);
  await expect(page.getByRole('heading', { level: 1, name: 'Locales' })).toBeVisible();
  const adding = page.getByRole('textbox', { name: 'Add a locale' });
  await adding.fill('en-us');
  await page.getByRole('button', { name: 'Add locale' }).click();
  await expect(page.getByText('Unknown locale "en-us": use a BCP 47 tag such as fr-FR')).toBeVisible();
  await adding.fill('en-US');
  await page.getByRole('button', { name: 'Add locale' }).click();
  await adding.fill('fr-FR');
  await adding.press('Enter');
  await expect(page.getByRole('radio', { name: 'en-US is the default locale' })).toBeChecked();
  await expect(page.getByRole('combobox', { name: 'fr-FR falls back to' })).toHaveValue('en-US');
  await shot(page, 'locales-settings');
  await page.getByRole('button', { name: 'Save locales' }).click();
  await expect(page.getByText('Locales saved')).toBeVisible();
  const saved = await (await page.request.get(`/api/v1/workspaces/${ws}`)).json();
  expect(saved.basics.locales).toEqual({
    tags: ['en-US', 'fr-FR'],
    default: 'en-US',
    fallback: { 'fr-FR': 'en-US' },
  });

  // Settings › Roles: the French editor is limited to fr-FR.
  await page.goto(`/${ws}/_settings/roles`);
  const role = page.getByTestId('role-french');
  const roleLocales = role.getByLabel('Locales', { exact: true });
  await expect(roleLocales).toHaveAttribute('placeholder', 'All locales');
  await roleLocales.click();
  await page.getByRole('option', { name: 'fr-FR · French (France)' }).click();
  await page.keyboard.press('Escape');
  await expect(role.getByText('fr-FR only')).toBeVisible();
  await shot(page, 'locales-role-limit');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'locales-role-limit-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Save roles' }).click();
  await expect(page.getByText('Roles saved')).toBeVisible();
  const withRole = await (await page.request.get(`/api/v1/workspaces/${ws}`)).json();
  expect(withRole.roles.french.locales).toEqual(['fr-FR']);

  // The French editor opens the post in French and translates it beside the English.
  const french = await seedMember(browser, page.request, ws, 'Fran French', ['french']);
  await french.page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  await french.page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(french.page.getByRole('combobox', { name: 'Locale' })).toHaveValue('fr-FR');
  const title = french.page.locator('[data-field="name"]');
  await expect(title.getByText('Falling back to en-US')).toBeVisible();
  await french.page.getByRole('switch', { name: 'Side by side with en-US' }).check();
  await expect(title.getByRole('group', { name: 'Title (en-US)' })).toContainText('Good morning');
  await french.page.getByRole('textbox', { name: 'Title (fr-FR)' }).fill('Bonjour');
  await expect(title.getByText('Translated')).toBeVisible();
  await shot(french.page, 'locales-side-by-side');
  await french.page.setViewportSize({ width: 390, height: 844 });
  await shot(french.page, 'locales-side-by-side-phone');
  await french.page.setViewportSize({ width: 1280, height: 800 });
  await french.page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(french.page.getByTestId('item-version')).toHaveText('Version 2');
  // English stays read-only for a French editor, and the server refuses an English change.
  await french.page.getByRole('button', { name: 'Edit', exact: true }).click();
  await french.page.getByRole('combobox', { name: 'Locale' }).selectOption('en-US');
  await expect(french.page.locator('[data-field="name"]')).toContainText('Good morning');
  await expect(french.page.getByRole('textbox', { name: 'Title' })).toHaveCount(0);
  const current = await (
    await french.page.request.get(`/api/v1/workspaces/${ws}/items/blog-post/${post.id}`)
  ).json();
  expect(current.data._locales).toEqual({ 'fr-FR': { name: 'Bonjour', slug: 'bonjour' } });
  const english = await french.page.request.put(`/api/v1/workspaces/${ws}/items/blog-post/${post.id}`, {
    headers: SAME_ORIGIN,
    data: { data: { ...current.data, name: 'Changed' }, baseVersion: current.version },
  });
  expect(english.status()).toBe(403);
  expect((await english.json()).error.message).toBe(
    'You do not have permission to edit en-US values of Blog Posts',
  );
  await french.context.close();

  // Settings › Users names the limit beside the member's role.
  await page.goto(`/${ws}/_settings/users`);
  await expect(
    page.getByTestId(`member-${french.email}`).getByText('French editor (fr-FR only)'),
  ).toBeVisible();
  await shot(page, 'locales-users-role-limit');

  // The list finds the posts still missing French values.
  await seedItem(page.request, ws, 'blog-post', {
    name: 'Untranslated',
    slug: 'untranslated',
    body: '<p>x</p>',
  });
  await seedItem(page.request, ws, 'blog-post', {
    name: 'All French',
    slug: 'all-french',
    body: '<p>y</p>',
    _locales: { 'fr-FR': { name: 'Tout français', body: '<p>z</p>' } },
  });
  await page.goto(`/${ws}/blogging/blog-post`);
  await expect(page.getByText('All French')).toBeVisible();
  await page.getByRole('combobox', { name: 'Translations' }).selectOption('fr-FR');
  await expect(page.getByText('Untranslated')).toBeVisible();
  await expect(page.getByText('Good morning')).toBeVisible(); // its body is not translated yet
  await expect(page.getByText('All French')).toHaveCount(0);
  await shot(page, 'locales-missing-filter');

  // A save from the item screen keeps the translations it does not show.
  await page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.locator('[data-field="excerpt"]').locator('textarea').first().fill('A short one');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 3');
  const afterUiSave = await (
    await page.request.get(`/api/v1/workspaces/${ws}/items/blog-post/${post.id}`)
  ).json();
  expect(afterUiSave.data).toMatchObject({
    excerpt: 'A short one',
    _locales: { 'fr-FR': { name: 'Bonjour' } },
  });

  // History says which locales each version changed, and narrows to French changes.
  await page.getByRole('tab', { name: 'History' }).click();
  const history = page.getByTestId('history-panel');
  const changesOf = (num: number) => history.getByRole('list', { name: `Version ${num} changed` });
  await expect(changesOf(3)).toHaveText('Shared fields');
  await expect(changesOf(2)).toHaveText('fr-FR');
  await history.getByRole('combobox', { name: 'Show' }).selectOption('fr-FR');
  await expect(history.locator('[data-version]')).toHaveCount(1);
  await shot(page, 'locales-history');
  // Compare opens in French: the title fell back to English before, and reads Bonjour after.
  await history.getByRole('link', { name: 'Compare with version 1' }).click();
  await expect(page.getByRole('combobox', { name: 'Locale' })).toHaveValue('fr-FR');
  await expect(page.getByRole('combobox', { name: 'Locale' })).toContainText('fr-FR (differs)');
  const compared = page.locator('[data-field="name"]');
  await expect(compared).toHaveAttribute('data-changed', 'true');
  await expect(compared).toContainText('Title (fr-FR)');
  await expect(compared.locator('[data-side="before"]')).toContainText('Falling back to en-US');
  await expect(compared.locator('[data-side="after"]')).toContainText('Bonjour');
  await expect(page.getByText('_locales')).toHaveCount(0);
  await shot(page, 'locales-compare');

  const published = await page.request.post(
    `/api/v1/workspaces/${ws}/items/blog-post/${post.id}/publish/live`,
    {
      headers: SAME_ORIGIN,
      data: { publishRefs: false },
    },
  );
  expect(published.status(), await published.text()).toBe(200);
  const key = await page.request.post(`/api/v1/workspaces/${ws}/api-keys`, {
    headers: SAME_ORIGIN,
    data: { name: 'Site', stages: ['live'] },
  });
  const { key: token } = await key.json();
  const read = await page.request.get(
    `/delivery/v1/${ws}/live/items/blog-post/by-slug/bonjour?locale=fr-FR`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  expect(read.status(), await read.text()).toBe(200);
  expect(await read.json()).toMatchObject({
    id: post.id,
    locale: 'fr-FR',
    data: { name: 'Bonjour', slug: 'bonjour', body: '<p>Morning</p>' },
    _locale: { body: 'en-US' },
  });

  // Removing a locale asks first.
  await page.goto(`/${ws}/_settings/locales`);
  await page.getByRole('button', { name: 'Remove fr-FR' }).click();
  await page.getByRole('button', { name: 'Save locales' }).click();
  await expect(page.getByRole('dialog', { name: 'Remove fr-FR?' })).toBeVisible();
  await shot(page, 'locales-remove-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Locales saved')).toBeVisible();
  const after = await (await page.request.get(`/api/v1/workspaces/${ws}`)).json();
  expect(after.basics.locales.tags).toEqual(['en-US']);

  // History still shows the French values its versions hold, here at phone width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  await page.getByRole('button', { name: 'Activity' }).click();
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('list', { name: 'Version 2 changed' })).toHaveText('fr-FR');
  await shot(page, 'locales-history-phone');
  await page.goto(`/${ws}/changelog/blogging/blog-post/${post.id}?from=1&to=2&locale=fr-FR`);
  await expect(page.getByRole('combobox', { name: 'Locale' })).toHaveValue('fr-FR');
  await expect(page.locator('[data-field="name"] [data-side="after"]')).toContainText('Bonjour');
  await page.getByTestId('compare-locale-bar').evaluate((bar) => bar.scrollIntoView({ block: 'center' }));
  await shot(page, 'locales-compare-phone');
});
