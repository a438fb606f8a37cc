import { expect, test } from '@playwright/test';
import {
  PASSWORD,
  acceptCookies,
  mailLink,
  seedVerifiedUser,
  shot,
  signUpApi,
  uniqueEmail,
} from './fixtures';

test.describe('accounts', () => {
  test.beforeEach(async ({ context }) => acceptCookies(context));

  test('sign out through the user menu and /auth/bye; /auth/bye again goes to welcome', async ({ page }) => {
    const user = await seedVerifiedUser(page.request, 'leaver');
    await page.goto('/workspaces');
    await page.getByTestId('user-menu').click();
    await expect(page.getByText(user.email)).toBeVisible();
    await shot(page, '30-user-menu');
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth\/bye$/);
    await expect(page.getByRole('heading', { name: 'You are signed out' })).toBeVisible();
    await shot(page, '31-bye');

    const me = await page.request.get('/api/v1/me');
    expect(me.status()).toBe(401);
    await page.goto('/auth/bye');
    await expect(page).toHaveURL(/\/auth\/welcome$/);
    await page.goto('/workspaces');
    await expect(page).toHaveURL(/\/auth\/welcome$/);
  });

  test('bad input gets clear messages', async ({ page }) => {
    await page.goto('/auth/welcome');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();

    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    await page.getByLabel('Password', { exact: true }).fill('whatever-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong email or password');
    await shot(page, '32-sign-in-wrong-password');

    await page.getByText('Create account', { exact: true }).click();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await page.getByLabel('Name').fill('Shorty');
    await page.getByLabel('Work email').fill(uniqueEmail('shorty'));
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    // The strength meter judges as the server will (zxcvbn, loaded with the first character typed).
    await expect(page.getByText('Password strength: Too easy to guess')).toBeVisible();
    await shot(page, '33-sign-up-errors');

    // An address that already has an account: the answer does not say so; its owner is mailed instead.
    const taken = uniqueEmail('taken');
    await signUpApi(page.context().request, { name: 'Taken', email: taken, password: PASSWORD });
    await page.context().clearCookies();
    await acceptCookies(page.context());
    await page.getByLabel('Work email').fill(taken);
    await page.getByLabel('Password', { exact: true }).fill('another-guess-77');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toHaveText(/We could not create this account\./);
    await shot(page, '33b-sign-up-registered-address');
    expect(await mailLink(taken, '/auth/forgot-password')).toContain('/auth/forgot-password');
  });

  test('an empty workspace name is refused', async ({ page }) => {
    await seedVerifiedUser(page.request, 'namer');
    await page.goto('/workspaces/create');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expect(page).toHaveURL(/\/workspaces\/create$/);
  });

  test('forgot password → mailed link → new password → sign in with it', async ({ page }) => {
    const user = await seedVerifiedUser(page.request, 'forgetful');
    await page.context().clearCookies();
    await acceptCookies(page.context());

    await page.goto('/auth/welcome');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot-password$/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Check your inbox')).toBeVisible();
    await shot(page, '34-forgot-password-sent');

    await page.goto(await mailLink(user.email, '/auth/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('new-password-123');
    await page.getByLabel('Repeat the new password').fill('different-456');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Repeat the new password').fill('new-password-123');
    await shot(page, '35-reset-password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page).toHaveURL(/\/auth\/welcome/);

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('new-password-123');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/workspaces\/$/);
  });

  test('an unverified user fixes a mistyped address from the verify page', async ({ page }) => {
    const typo = uniqueEmail('tpyo');
    const fixed = uniqueEmail('fixed');
    await signUpApi(page.request, { name: 'Tim Typo', email: typo, password: PASSWORD });
    await page.goto('/user/verify-email');
    await page.getByRole('button', { name: 'Change email address' }).click();
    const form = page.getByRole('form', { name: 'Change email' });
    await form.getByLabel('New email').fill(fixed);
    await form.getByLabel('Current password', { exact: true }).fill('not-my-password');
    await form.getByRole('button', { name: 'Send link to the new address' }).click();
    await expect(form.getByRole('alert')).toBeVisible();
    await shot(page, '38-change-email-error');
    await form.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Send link to the new address' }).click();
    await expect(page.getByText(`We sent a confirmation link to ${fixed}.`)).toBeVisible();

    await page.goto(await mailLink(fixed, '/user/verify-email'));
    await expect(page).toHaveURL(/\/workspaces\/$/);
    const me = await (await page.request.get('/api/v1/me')).json();
    expect(me.user).toMatchObject({ email: fixed, emailVerified: true });
  });

  test('a used or made-up verification link says so', async ({ page }) => {
    await page.goto('/user/verify-email?token=made-up-token');
    await expect(page.getByRole('alert')).toHaveText('This link is invalid or has expired');
    await shot(page, '36-verify-link-invalid');
  });
});

test('the cookie notice sets marquee_cookie_notification for a year and stays hidden', async ({
  page,
  context,
}) => {
  await page.goto('/auth/welcome');
  const notice = page.getByRole('region', { name: 'Cookie notice' });
  await expect(notice).toBeVisible();
  await shot(page, '37-cookie-notice');
  // It never times out.
  await page.waitForTimeout(1500);
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toHaveCount(0);

  const cookie = (await context.cookies()).find((c) => c.name === 'marquee_cookie_notification');
  expect(cookie?.value).toBe('1');
  expect(cookie?.path).toBe('/');
  expect(cookie?.secure).toBe(true);
  const days = (cookie!.expires - Date.now() / 1000) / 86400;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThan(366);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(notice).toHaveCount(0);
});
