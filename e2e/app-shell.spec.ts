import { expect, test } from '@playwright/test';
import { acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** The public configuration read at start (version in the user menu) and spec §8's filter log. */
test.beforeEach(async ({ context }) => acceptCookies(context));

test('the user menu shows the app version from /__/config.json', async ({ page }) => {
  await seedVerifiedUser(page.request, 'version');
  const ws = (await seedWorkspace(page.request, `Version ${Date.now().toString(36)}`)).id;
  const config = page.waitForResponse((res) => res.url().endsWith('/__/config.json'));
  await page.goto(`/${ws}/_items/all`);
  expect((await config).status()).toBe(200);
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('app-version')).toHaveText('Marquee 1.8.0');
  await shot(page, 'app-shell-01-version');
});

test("a URL filter contradicting the saved view is dropped with 'CONFLICTING FILTERS REMOVED'", async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'filters');
  const ws = (await seedWorkspace(page.request, `Filters ${Date.now().toString(36)}`)).id;
  const warned = page.waitForEvent('console', (msg) => msg.text().startsWith('CONFLICTING FILTERS REMOVED'));
  await page.goto(`/${ws}/_items/all?stage=live&keep=1`);
  await warned;
  await expect(page).toHaveURL(`/${ws}/_items/all?keep=1`);
  await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
});

test('a screen whose chunk does not arrive shows load failed with the offer to reload', async ({ page }) => {
  await seedVerifiedUser(page.request, 'chunk');
  const ws = (await seedWorkspace(page.request, `Chunk ${Date.now().toString(36)}`)).id;
  await page.goto(`/${ws}/_items/all`);
  await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
  await page.route(/\/assets\/dashboard-route-[^/]+\.js$/, (route) => route.abort('failed'));
  const failedEvent = page.waitForRequest(
    (req) => req.url().endsWith('/api/v1/events') && (req.postData() ?? '').includes('navigation_failed'),
  );
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Navigation error: Load failed:');
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  await failedEvent;
  await shot(page, 'app-shell-02-load-failed');
});
