import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { acceptCookies, PASSWORD, SAME_ORIGIN, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** A code of the secret's step `steps` periods from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Date.now() / 1000 + steps * 30 });

test('a user sets up two-factor sign-in from the user menu and signs in with a code', async ({ page }) => {
  await acceptCookies(page.context());
  const user = await seedVerifiedUser(page.request, 'totp');
  await page.goto('/workspaces');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
  await expect(dialog.getByRole('link', { name: /^otpauth:\/\/totp\// })).toBeVisible();
  await dialog.getByLabel('Code').fill('000000');
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('That code is not valid');
  await dialog.getByLabel('Code').fill(await codeAt(secret));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  await expect(dialog.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
  await shot(page, 'two-factor-recovery-codes');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog.getByText('10 of 10 recovery codes left')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.request.post('/api/v1/auth/sign-out', { headers: SAME_ORIGIN });
  await page.goto('/auth/welcome');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Enter the code your authenticator app shows')).toBeVisible();
  expect((await page.request.get('/api/v1/me')).status()).toBe(401);
  await shot(page, 'two-factor-sign-in-step');
  await page.getByLabel('Code').fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/workspaces/);
  expect((await page.request.get('/api/v1/me')).status()).toBe(200);

  // With it on, the user may require it of their workspace's members.
  const workspace = await seedWorkspace(page.request, 'Two-factor team');
  await page.goto(`/${workspace.id}/_settings/sso`);
  const requirement = page.getByRole('switch', { name: 'Require two-factor sign-in of members' });
  await requirement.click();
  await expect(requirement).toBeChecked();
  await page.reload();
  await expect(requirement).toBeChecked();
  await shot(page, 'two-factor-requirement');
});
