import { expect, test, type Page } from '@playwright/test';
import { SAME_ORIGIN, acceptCookies, itemField, shot } from './fixtures';
import { seedPreviewWorkspace, startSite, type Site } from './preview-site';

/**
 * Live preview: a website on another origin, with /sdk/preview.js, beside the item form. What is typed
 * shows on the page without a reload, a click on the page focuses its field, the locale and a release
 * change what the page shows, and a page of an origin the workspace does not list gets nothing.
 */

// The site's requests in the frame must carry their own Origin (Chromium refuses an imposed one); the
// seeding requests name the app's origin themselves.
test.use({ extraHTTPHeaders: {} });
test.beforeEach(async ({ context }) => acceptCookies(context));

const frameOf = (page: Page) => page.frameLocator('iframe[title="Preview of Landing page on the website"]');

let sites: Site[] = [];
test.afterEach(async () => {
  await Promise.all(sites.map((site) => site.close()));
  sites = [];
});

async function seed(page: Page) {
  let site: Site | undefined;
  let elsewhere: Site | undefined;
  const seeded = await seedPreviewWorkspace(page.request, async (ws) => {
    site = await startSite(ws);
    elsewhere = await startSite(ws);
    sites.push(site, elsewhere);
    return { site, elsewhere };
  });
  return { ...seeded, site: site!, elsewhere: elsewhere! };
}

test('the website beside the form follows typing, reordering, clicks, the locale and a release', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { ws, pageId, site, elsewhere } = await seed(page);
  const itemPath = `/${ws}/blogging/landing-page/${pageId}`;
  await page.goto(itemPath);
  const tokenRequest = page.waitForRequest((req) => req.url().endsWith('/preview-tokens'));
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Preview', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect((await tokenRequest).postDataJSON()).toEqual({ schema: 'landing-page', itemId: pageId });

  const frame = frameOf(page);
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer at the harbour');
  await expect(frame.locator('section')).toHaveCount(2);
  const loadId = await frame.locator('#page').getAttribute('data-load-id');
  const src = (await page.locator('iframe').getAttribute('src'))!;
  expect(src.startsWith(`${site.origin}/landing/summer?locale=en-US&previewToken=mqp_`), src).toBe(true);
  await shot(page, 'preview-01-pane');

  // Typing: the page shows the unsaved title, without a reload.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const title = itemField(page, 'title');
  await title.fill('Summer at the harbour');
  await title.pressSequentially(', at last');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer at the harbour, at last');
  await expect(frame.locator('#page')).toHaveAttribute('data-load-id', loadId!);
  await shot(page, 'preview-02-typed');

  // Reordering two blocks swaps them on the page.
  await page.getByRole('button', { name: 'Move Quote 2 up' }).click();
  await expect(frame.locator('section').first()).toHaveClass(/quote/);
  await expect(frame.locator('section').nth(1)).toHaveClass(/hero/);
  await expect(frame.locator('#page')).toHaveAttribute('data-load-id', loadId!);

  // A click on the hero's paragraph focuses its field, the hero now being the second block.
  await frame.locator('section.hero p').hover();
  await expect(frame.locator('[data-marquee-outline]')).toBeVisible();
  await shot(page, 'preview-03-hover-outline');
  await frame.locator('section.hero p').click();
  const tagline = page.locator('[data-block="1"] [data-field="tagline"] input');
  await expect(tagline).toBeFocused();
  await expect(tagline).toHaveValue('Every weekend in July');
  await expect(tagline).toBeInViewport();
  await shot(page, 'preview-04-clicked-field-focused');

  // Saved: the page keeps showing it, and reads it as the saved draft once loaded again.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved as version 2')).toBeVisible();
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer at the harbour, at last');

  // Another locale: the page in French, its title localised.
  await page.getByRole('combobox', { name: 'Page locale' }).click();
  await page.getByRole('listbox').getByRole('option', { name: 'fr-FR', exact: true }).click();
  await expect(page.locator('iframe')).toHaveAttribute('src', /locale=fr-FR/);
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('L’été au port');
  await expect(frame.locator('section').first()).toHaveClass(/quote/);
  await shot(page, 'preview-05-french');

  // Device widths.
  await page.getByText('Phone', { exact: true }).click();
  await expect(page.locator('iframe')).toHaveCSS('width', '375px');
  await shot(page, 'preview-06-phone');
  await page.getByText('Desktop', { exact: true }).click();

  // The template on an origin the workspace does not list is not offered, and its site was never asked.
  await expect(page.getByRole('combobox', { name: 'Page URL' })).toHaveCount(0);
  expect(elsewhere.requests).toEqual([]);
  expect(site.requests.some((url) => url.startsWith('/landing/'))).toBe(true);

  // A release: its entry opens the pane showing the release, with a token scoped to it.
  const created = await page.request.post(`/api/v1/workspaces/${ws}/releases`, {
    headers: SAME_ORIGIN,
    data: { name: 'July launch', stage: 'live' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const release = (await created.json()) as { id: string };
  const added = await page.request.post(`/api/v1/workspaces/${ws}/releases/${release.id}/entries`, {
    headers: SAME_ORIGIN,
    data: { entries: [{ schema: 'landing-page', itemId: pageId }] },
  });
  expect(added.status(), await added.text()).toBe(200);
  await page.goto(`/${ws}/_releases/${release.id}`);
  const releaseToken = page.waitForRequest((req) => req.url().endsWith('/preview-tokens'));
  await page.getByRole('link', { name: 'Preview Summer at the harbour, at last in this release' }).click();
  expect((await releaseToken).postDataJSON()).toEqual({
    schema: 'landing-page',
    itemId: pageId,
    releaseId: release.id,
  });
  await expect(page.getByRole('combobox', { name: 'Versions shown' })).toHaveValue('Release: July launch');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer at the harbour, at last');
  await shot(page, 'preview-07-release');
  expect(elsewhere.requests).toEqual([]);
});

test('a page on an origin the workspace does not list gets nothing', async ({ page }) => {
  const { ws, pageId, site, elsewhere } = await seed(page);
  const itemPath = `/${ws}/blogging/landing-page/${pageId}`;
  await page.goto(`${itemPath}?preview`);
  const frame = frameOf(page);
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer at the harbour');

  // A page of the unlisted origin in the editor's window: it says it is ready, and is sent nothing.
  await page.evaluate((url) => {
    const intruder = document.createElement('iframe');
    intruder.title = 'Unlisted page';
    intruder.src = url;
    document.body.append(intruder);
  }, `${elsewhere.origin}/landing/summer`);
  const intruder = page.frameLocator('iframe[title="Unlisted page"]');
  // Without a token the delivery API gives it no draft either.
  await expect(intruder.locator('#page')).toHaveAttribute('data-error', /401/);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await itemField(page, 'title').fill('Summer, for the listed site only');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Summer, for the listed site only');
  await expect(intruder.locator('#page')).not.toHaveAttribute('data-renders', /.*/);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const confirm = page.getByRole('button', { name: 'YES' });
  if (await confirm.isVisible()) await confirm.click();

  // The listed site is taken off the list: the pane offers no page, makes no token and asks no site.
  const cleared = await page.request.put(`/api/v1/workspaces/${ws}/preview-origins`, {
    headers: SAME_ORIGIN,
    data: { origins: [] },
  });
  expect(cleared.status(), await cleared.text()).toBe(200);
  const tokens: string[] = [];
  page.on('request', (req) => req.url().endsWith('/preview-tokens') && tokens.push(req.url()));
  const asked = site.requests.length;
  await page.goto(`${itemPath}?preview`);
  await expect(page.getByText('Nothing to preview')).toBeVisible();
  await expect(page.locator('iframe')).toHaveCount(0);
  await shot(page, 'preview-08-no-listed-origin');
  expect(tokens).toEqual([]);
  expect(site.requests.length).toBe(asked);
});
