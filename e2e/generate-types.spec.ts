import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * Spec §2 field screens, §7 generate-types and §8 'Types not generated. {detail}': a manager's test
 * collection asks the server for the TypeScript of the schema it picks, on the single item and in the
 * quick view; a failure is a persistent centre notification and a typegen_failed event.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const TEST_CODE = '// Resolve true when the test passes.\nasync function test(api) {\n  return true;\n}\n';

let ws: string;
let itemId: string;

test.beforeEach(async ({ page }) => {
  await seedVerifiedUser(page.request, 'typegen');
  const workspace = await seedWorkspace(page.request, `Typegen ${Date.now().toString(36)}`);
  ws = workspace.id;
  // Test collections are in the admin domain, which the workspace basics must enable.
  await patchBasics(page.request, ws, { domains: ['marketing', 'blogging', 'admin'] });
  ({ id: itemId } = await seedItem(page.request, ws, 'test-collection', {
    name: 'Copy smoke test',
    schema: 'copy',
    code: TEST_CODE,
  }));
});

const generated = (page: Page) => page.getByTestId('generated-types');

test('a manager picks a schema, generates its types and copies them', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`/${ws}/admin/test-collection/${itemId}`);
  await expect(page.getByTestId('item-heading')).toHaveText('Copy smoke test');
  const copy = page.getByRole('button', { name: 'Copy', exact: true });
  await expect(copy).toBeDisabled();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('combobox', { name: 'Schema', exact: true }).click();
  await page.getByRole('option', { name: 'Blog Post (Blogging)', exact: true }).click();
  const answer = page.waitForResponse((res) =>
    res.url().includes('/fun/items/generate-types/blog-post?__marquee_workspace='),
  );
  await page.getByRole('button', { name: 'Generate Types', exact: true }).click();
  expect((await answer).status()).toBe(200);
  await expect(generated(page)).toContainText('export interface BlogPost {');
  await shot(page, 'generate-types-01-blog-post');

  await expect(copy).toBeEnabled();
  await copy.click();
  await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  const clipboard = await page.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toContain('export interface BlogPost {');

  // Cancel with a changed schema asks first (the confirm dialog's provider loads after the first paint).
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByText('You will lose the changes')).toBeVisible();
  await page.getByRole('button', { name: 'YES', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
});

test('the quick view generates types; a failure is a persistent notification and a typegen_failed event', async ({
  page,
}) => {
  await page.goto(`/${ws}/admin/test-collection`);
  await page.getByRole('button', { name: 'Quick view of Copy smoke test' }).click();
  const panel = page.getByTestId('quick-view-0');
  await panel.getByRole('button', { name: 'Generate Types', exact: true }).click();
  await expect(panel.getByTestId('generated-types')).toContainText('export interface Copy {');

  // The server's answer to a schema it does not know, as the schema selector would get it.
  await page.route('**/fun/items/generate-types/**', (route) =>
    route.fulfill({
      status: 404,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'not_found', message: 'Schema "copy" not found' } }),
    }),
  );
  const event = page.waitForRequest(
    (req) => req.url().endsWith('/api/v1/events') && req.postData()?.includes('typegen_failed') === true,
  );
  await panel.getByRole('button', { name: 'Generate Types', exact: true }).click();
  const notice = page.getByText('Types not generated. Schema "copy" not found');
  await expect(notice).toBeVisible();
  expect(JSON.parse((await event).postData()!)).toMatchObject({
    eventType: 'typegen_failed',
    data: { schema: 'copy' },
  });
  await shot(page, 'generate-types-02-failed');
  // autoClose: false — still there well after Mantine's default 4 s.
  await page.waitForTimeout(4_500);
  await expect(notice).toBeVisible();
});
