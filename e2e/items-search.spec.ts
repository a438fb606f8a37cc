import { expect, test } from '@playwright/test';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** The items list API's q (case-insensitive, an item's words): the list header's search and the reference search. */
test.beforeEach(async ({ context }) => acceptCookies(context));

test('the list searches names, and a reference field finds an item older than the newest hundred', async ({
  page,
}) => {
  // 102 items are seeded one request at a time; on a busy machine that alone can take most of a minute.
  await seedVerifiedUser(page.request, 'search');
  const { id: ws } = await seedWorkspace(page.request, `Search ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  // The one to find is the oldest of 102 copies: a search of the newest 100 in the browser missed it.
  await seedItem(page.request, ws, 'copy', { name: 'Autumn Sale banner', text: 'Up to 30% off' });
  for (let i = 1; i <= 100; i++)
    await seedItem(page.request, ws, 'copy', { name: `Copy ${i}`, text: 'Filler' });
  await seedItem(page.request, ws, 'copy', { name: 'autumn newsletter intro', text: 'Hello' });

  await page.goto(`/${ws}/marketing/copy`);
  await expect(page.getByTestId('item-entry')).toHaveCount(12);
  const asked = page.waitForRequest((req) => new URL(req.url()).searchParams.get('q') === 'AUTUMN');
  await page.getByRole('searchbox', { name: 'Search items' }).fill('AUTUMN');
  await asked;
  await expect(page.getByTestId('item-title')).toHaveText(['autumn newsletter intro', 'Autumn Sale banner']);
  await shot(page, 'items-search-01-list');
  await page.getByRole('searchbox', { name: 'Search items' }).fill('no such thing');
  await expect(page.getByTestId('items-empty')).toContainText('None so far');
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByTestId('item-entry')).toHaveCount(12);

  await page.goto(`/${ws}/marketing/event/new`);
  const copyField = page.getByRole('combobox', { name: 'Copy', exact: true });
  await copyField.click();
  await copyField.fill('sale ban');
  await page.getByRole('option', { name: 'Autumn Sale banner' }).click();
  await expect(page.locator('[data-reference-chip]')).toContainText('Autumn Sale banner');
});

test('the list finds a word in the body of a post, and never matches markup', async ({ page }) => {
  await seedVerifiedUser(page.request, 'search-body');
  const { id: ws } = await seedWorkspace(page.request, `Body search ${Date.now().toString(36)}`);
  const posts = [
    { name: 'Harbour walks', body: '<h2>Routes</h2><p>The <strong>lighthouse</strong> trail at dawn</p>' },
    { name: 'Bridge guide', body: '<p>The longest <em>span</em> in the city</p>' },
    {
      name: 'Styled notes',
      body: '<p><span>Plain</span> text in a <a href="https://example.com/span">link</a></p>',
    },
  ];
  for (const post of posts) await seedItem(page.request, ws, 'blog-post', { ...post, slug: '' });

  await page.goto(`/${ws}/blogging/blog-post`);
  await expect(page.getByTestId('item-entry')).toHaveCount(3);
  const search = page.getByRole('searchbox', { name: 'Search items' });
  await expect(search).toHaveAttribute('placeholder', 'Search titles and text');
  await search.fill('lighthouse');
  await expect(page.getByTestId('item-title')).toHaveText(['Harbour walks']);
  await shot(page, 'items-search-02-body-word');
  // A word that is only a tag name or an address in the markup of the third post finds the one post that says it.
  await search.fill('span');
  await expect(page.getByTestId('item-title')).toHaveText(['Bridge guide']);
  await search.fill('plain text');
  await expect(page.getByTestId('item-title')).toHaveText(['Styled notes']);
});
