import { expect, test } from '@playwright/test';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * A CRM export with camelCase and snake_case headers imported through the preview: columns matched
 * to existing attributes or proposed as new ones with inferred types, one renamed and one skipped
 * before anything is written; new keys in the workspace's style (kebab-case), the address to `email`;
 * a second import of the same file says its rows were duplicates; Settings › Batches groups row errors.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const CRM = [
  'id,firstName,last_name,Email Address,age,is_vip,signup_date,interests,notes',
  'c1,Ada,Lovelace,ada@example.com,36,yes,2024-03-01,math|poetry,first',
  'c2,Alan,Turing,alan@example.com,41,no,2024-04-12,math|chess,',
  'c3,Grace,Hopper,grace@example.com,85,yes,2023-12-09,navy,',
  'c4,Edsger,Dijkstra,edsger@example.com,old,no,2024-01-05,math,',
].join('\n');

test('import a CRM export through the preview, then read its grouped errors in Settings › Batches', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'crm');
  const { id: ws } = await seedWorkspace(page.request, `CRM ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'Age',
    key: 'age',
    attributeType: 'number',
  });

  await page.goto(`/${ws}/marketing/_customers`);
  await page.getByRole('button', { name: 'Import', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import customer data' });
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'crm-export.csv', mimeType: 'text/csv', buffer: Buffer.from(CRM) });
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = dialog.getByTestId('import-preview');
  await expect(preview).toContainText('4 rows read');
  // Keys in one style, the workspace's; the address goes where campaigns read it, and says so.
  await expect(dialog.getByLabel('Key for firstName')).toHaveValue('first-name');
  await expect(dialog.getByLabel('Key for last_name')).toHaveValue('last-name');
  await expect(dialog.getByLabel('Key for Email Address')).toHaveValue('email');
  await expect(preview.locator('[data-column="Email Address"]')).toContainText('Becomes "email"');
  await expect(preview.locator('[data-column="age"]')).toContainText('matched');
  await expect(dialog.getByLabel('Type of signup_date')).toHaveValue('Date');
  await expect(dialog.getByLabel('Type of interests')).toHaveValue('List of text');
  await expect(dialog.getByLabel('Type of is_vip')).toHaveValue('Yes / no');
  // Rename one key and skip one column before anything is written.
  await dialog.getByLabel('Key for is_vip').fill('vip');
  await dialog.getByLabel('Import column notes').uncheck();
  await shot(page, 'customer-import-01-preview');

  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  const progress = dialog.getByTestId('batch-progress');
  await expect(progress).toHaveAttribute('data-status', 'done with errors');
  await expect(progress).toContainText('3 processed, 1 failed');
  await expect(dialog.getByTestId('batch-errors')).toContainText('age: "old" is not a number — 1 row: 5');
  await shot(page, 'customer-import-02-done');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const profile = await (await page.request.get(`/api/v1/workspaces/${ws}/profiles/c1`)).json();
  expect(profile.profile.attributes).toEqual({
    'first-name': 'Ada',
    'last-name': 'Lovelace',
    email: 'ada@example.com',
    age: 36,
    vip: true,
    'signup-date': '2024-03-01T00:00:00.000Z',
    interests: ['math', 'poetry'],
  });

  // The same file again: its rows change nothing, and the result says they were duplicates.
  await page.getByRole('button', { name: 'Import', exact: true }).first().click();
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'crm-export.csv', mimeType: 'text/csv', buffer: Buffer.from(CRM) });
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
  // The attribute made from is_vip is found again by its name.
  await expect(dialog.getByLabel('Key for is_vip')).toHaveValue('vip');
  await dialog.getByLabel('Import column notes').uncheck();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('batch-progress')).toContainText(
    '3 processed: 0 stored, 3 duplicates skipped, 1 failed',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A file of 1,200 rows that all fail: one line on the page, all of them in the CSV.
  const bad = ['id,phone', ...Array.from({ length: 1200 }, (_, i) => `x${i},555-${i}`)].join('\n');
  const res = await page.request.post(`/api/v1/workspaces/${ws}/profiles/import`, {
    headers: { 'content-type': 'text/csv', 'x-file-name': 'bad.csv', origin: new URL(page.url()).origin },
    data: bad,
  });
  expect(res.status(), await res.text()).toBe(201);
  const badBatch = (await res.json()).batch;
  expect(badBatch.status).toBe('failed');

  await page.goto(`/${ws}/_settings/batches`);
  const row = page.locator(`[data-batch="${badBatch.id}"]`);
  await expect(row.getByTestId('batch-progress')).toHaveAttribute('data-status', 'failed');
  await expect(row.getByTestId('batch-errors')).toContainText(
    'unknown attribute "phone" — 1,200 rows: 2, 3, 4',
  );
  // The CRM export, imported twice.
  await expect(page.locator('[data-status="done with errors"]')).toHaveCount(2);
  const download = page.waitForEvent('download');
  await row.getByRole('link', { name: /Download all 1,200 row errors/ }).click();
  const csv = await (
    await download
  )
    .path()
    .then((path) => import('node:fs').then((fs) => fs.readFileSync(path, 'utf8')));
  expect(csv.trimEnd().split('\r\n')).toHaveLength(1201);
  await shot(page, 'customer-import-03-batches');
});
