import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * Test runs: the test collection's code field has 'Run', which runs the body in the server's
 * QuickJS sandbox and shows the result, the console lines and the error (a throw, the time limit).
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const code = (body: string) =>
  `// Resolve true when the test passes.\nasync function test(api) {\n${body}\n}\n`;

let ws: string;

test.beforeEach(async ({ page }) => {
  await seedVerifiedUser(page.request, 'sandbox');
  ws = (await seedWorkspace(page.request, `Sandbox ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing', 'admin'] });
});

async function openTest(page: Page, name: string, body: string) {
  const { id } = await seedItem(page.request, ws, 'test-collection', {
    name,
    schema: 'copy',
    code: code(body),
  });
  await page.goto(`/${ws}/admin/test-collection/${id}`);
  await expect(page.getByTestId('item-heading')).toHaveText(name);
  return page.getByTestId('run-test');
}

test('Run shows the result and the console lines', async ({ page }) => {
  const panel = await openTest(
    page,
    'Sums',
    '  const n = await Promise.resolve(40);\n  console.log("adding", n);\n  return { sum: n + 2 };',
  );
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(panel.getByText('Passed', { exact: true })).toBeVisible();
  await expect(panel.getByLabel('Result')).toContainText('"sum": 42');
  await expect(panel.getByLabel('Logs')).toHaveText('adding 40');
  await shot(page, 'sandbox-01-result');
});

test('Run shows a thrown error with the logs before it', async ({ page }) => {
  const panel = await openTest(
    page,
    'Throws',
    '  console.log("before");\n  throw new TypeError("copy has no title");',
  );
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(panel.getByText('Failed', { exact: true })).toBeVisible();
  await expect(panel.getByRole('alert')).toContainText('TypeError: copy has no title');
  await expect(panel.getByLabel('Logs')).toHaveText('before');
  await shot(page, 'sandbox-02-error');
});

test('Run shows the time limit for an endless loop', async ({ page }) => {
  const panel = await openTest(page, 'Loops', '  while (true) {}');
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(panel.getByRole('alert')).toContainText(
    'Time limit exceeded: the test ran longer than 1000 ms',
  );
  await shot(page, 'sandbox-03-time-out');
});
