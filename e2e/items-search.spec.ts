import { expect, test } from '@playwright/test';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** The items list API's q (case-insensitive, name or title): the list header's search and the reference search. */
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
