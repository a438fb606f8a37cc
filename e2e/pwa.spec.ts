import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * The service worker precaches the app, so it starts with no network after one visit, and a new
 * build deployed beside open tabs is offered through the update notice.
 */
const run = promisify(execFile);
// The build the e2e server serves (WEB_DIR unset: dist/web of this checkout).
const WEB_DIR = path.resolve('dist/web');

test.use({ serviceWorkers: 'allow' });
test.beforeEach(async ({ context }) => acceptCookies(context));

test('the manifest is served; the shell and a visited screen load offline after one visit', async ({
  page,
  context,
}) => {
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
  // The shell comes from the worker's cache (without it Chromium shows its offline page), and the visited
  // screen renders from it: its frame, heading and navigation, with the offline notice; the list's data
  // needs the API, which is never cached, and says so.
  await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
  await expect(page.getByTestId('offline-notice')).toContainText('You are offline.');
  await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(
    page.getByText('Cannot reach the server. Check your connection and try again.').first(),
  ).toBeVisible();
  await shot(page, 'pwa-01-offline');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'pwa-01-offline-phone');
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByTestId('offline-notice')).toBeHidden();
});

/** Copies every file of `from` into `to`, leaving what `to` already holds (a deploy over the served build). */
const deploy = (from: string, to: string) => fs.cpSync(from, to, { recursive: true });

test('a rebuilt app shows the update notice; IGNORE, the 10 s close, and REFRESH loads the new build', async ({
  page,
}) => {
  test.setTimeout(600_000);
  // The new build: the same sources built again with another build id, into a folder of its own.
  const rebuilt = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-rebuilt-'));
  const backup = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-served-'));
  await run(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--outDir', rebuilt, '--logLevel', 'error'],
    {
      env: { ...process.env, MARQUEE_BUILD_ID: 'e2e-rebuilt' },
    },
  );
  fs.cpSync(WEB_DIR, backup, { recursive: true });

  await seedVerifiedUser(page.request, 'update');
  const ws = (await seedWorkspace(page.request, `Update ${Date.now().toString(36)}`)).id;
  await page.clock.install();
  await page.goto(`/${ws}/_items/all`);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // A returning user: this tab is now controlled by the installed worker.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
  await page.getByTestId('user-menu').click();
  const build = page.getByTestId('app-build');
  await expect(build).not.toHaveText('Build e2e-rebuilt');
  await page.keyboard.press('Escape');

  const notice = page.getByTestId('update-notice');
  try {
    deploy(rebuilt, WEB_DIR);
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())!.update();
    });
    await expect(notice).toContainText('NEWER VERSION AVAILABLE. PLEASE REFRESH');
    await shot(page, 'pwa-02-update-notice');
    await notice.getByRole('button', { name: 'IGNORE' }).click();
    await expect(notice).toBeHidden();

    // The new worker keeps waiting: the next load offers it again, and the notice closes itself after 10000 ms.
    await page.reload();
    await expect(notice).toBeVisible();
    await page.clock.fastForward(9_000);
    await expect(notice).toBeVisible();
    await page.clock.fastForward(1_000);
    await expect(notice).toBeHidden();
    await page.getByTestId('user-menu').click();
    await expect(build).not.toHaveText('Build e2e-rebuilt');
    await page.keyboard.press('Escape');

    await page.reload();
    await notice.getByRole('button', { name: 'REFRESH' }).click();
    // The new worker takes over and the page reloads with the new build.
    await page.waitForEvent('load');
    await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
    await page.getByTestId('user-menu').click();
    await expect(build).toHaveText('Build e2e-rebuilt');
    await expect(notice).toBeHidden();
    await shot(page, 'pwa-03-after-refresh');
  } finally {
    fs.rmSync(WEB_DIR, { recursive: true, force: true });
    fs.cpSync(backup, WEB_DIR, { recursive: true });
    fs.rmSync(backup, { recursive: true, force: true });
    fs.rmSync(rebuilt, { recursive: true, force: true });
  }
});
