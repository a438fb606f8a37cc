import { expect, test } from '@playwright/test';
import { acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** Issue 14: the service worker precaches the app, so it starts with no network after one visit. */
test.use({ serviceWorkers: 'allow' });
test.beforeEach(async ({ context }) => acceptCookies(context));

test('the manifest is served and the app shell loads offline after one visit', async ({ page, context }) => {
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect((await manifest.json()).icons).toHaveLength(3);

  await seedVerifiedUser(page.request, 'offline');
  const ws = (await seedWorkspace(page.request, `Offline ${Date.now().toString(36)}`)).id;
  await page.goto(`/${ws}/_items/all`);
  await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // API answers are never cached by the worker.
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const urls: string[] = [];
    for (const name of names) urls.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
    return urls;
  });
  expect(cached.some((url) => url.includes('/index.html'))).toBe(true);
  expect(cached.some((url) => /\/(api|fun)\//.test(url))).toBe(false);

  await context.setOffline(true);
  await page.reload();
  // The shell comes from the worker's cache (without it Chromium shows its offline page); the screen's data
  // needs the API, which is never cached.
  await expect(
    page.getByText('Loading Marquee…').or(page.getByRole('heading', { name: 'All items' })),
  ).toBeVisible();
  await shot(page, 'pwa-01-offline');
  await context.setOffline(false);
});
