import { expect, test } from '@playwright/test';
import { acceptCookies, seedVerifiedUser, shot, signInApi } from './fixtures';

test('the Sessions list in the user menu ends another session of the same account', async ({
  page,
  browser,
}) => {
  await acceptCookies(page.context());
  const user = await seedVerifiedUser(page.request, 'sessions');
  const other = await browser.newContext();
  await signInApi(other.request, user.email);
  expect((await other.request.get('/api/v1/me')).status()).toBe(200);
  await page.goto('/workspaces');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sessions' }).click();
  const table = page.getByRole('dialog').getByRole('table', { name: 'Sessions' });
  await expect(table.getByText('This device')).toBeVisible();
  await expect(table.getByRole('button', { name: 'End' })).toHaveCount(1);
  await shot(page, 'sessions-list');
  await table.getByRole('button', { name: 'End' }).click();
  await expect(table.getByRole('button', { name: 'End' })).toHaveCount(0);
  expect((await other.request.get('/api/v1/me')).status()).toBe(401);
  await other.close();
});
