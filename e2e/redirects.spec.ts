import { expect, test } from '@playwright/test';
import {
  BASE_URL,
  PASSWORD,
  acceptCookies,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  signUpApi,
  uniqueEmail,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

test('/ goes to /workspaces/, and signed out on to the welcome page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/welcome$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('a private URL while signed out goes to welcome, and back to that URL after signing in', async ({
  page,
  browser,
}) => {
  // Seed in a separate context so this page starts signed out.
  const seedContext = await browser.newContext({ baseURL: BASE_URL });
  const user = await seedVerifiedUser(seedContext.request, 'returner');
  const workspace = await seedWorkspace(seedContext.request, `Return ${Date.now().toString(36)}`);
  await seedContext.close();

  const attempted = `/${workspace.id}/_settings/roles`;
  await page.goto(attempted);
  await expect(page).toHaveURL(`/auth/welcome?returnTo=${encodeURIComponent(attempted)}`);
  await expect(page.getByText('Sign in to continue to the page you asked for.')).toBeVisible();
  await shot(page, '11-welcome-with-return');

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(attempted);
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
});

test('an unverified user is sent to the verify-email page from any private page', async ({ page }) => {
  const email = uniqueEmail('unverified');
  await signUpApi(page.request, { name: 'Una Verified', email, password: PASSWORD });

  await page.goto('/workspaces/create');
  await expect(page).toHaveURL(/\/user\/verify-email\?returnTo=%2Fworkspaces%2Fcreate$/);
  await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible();

  await page.getByRole('button', { name: 'Resend confirmation email' }).click();
  await expect(page.getByText('A new confirmation link is on its way.')).toBeVisible();
  await page.getByRole('button', { name: 'I have confirmed my email' }).click();
  await expect(page.getByText('Not confirmed yet')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/verify-email/);
});

test('with exactly one workspace, welcome goes to its explore view; with two, to /', async ({ page }) => {
  await seedVerifiedUser(page.request, 'single');
  const first = await seedWorkspace(page.request, `Solo ${Date.now().toString(36)}`);

  await page.goto('/auth/welcome');
  await expect(page).toHaveURL(`/${first.id}/_items/all`);
  await expect(page.getByText('None so far')).toBeVisible();

  const second = await seedWorkspace(page.request, `Duo ${Date.now().toString(36)}`);
  await page.goto('/auth/welcome');
  await expect(page).toHaveURL(/\/workspaces\/$/);
  await expect(page.getByTestId('workspace-list').getByText(second.id)).toBeVisible();
  await shot(page, '12-workspaces-list');

  // /{workspace} goes to the explore view.
  await page.goto(`/${second.id}`);
  await expect(page).toHaveURL(`/${second.id}/_items/all`);
});

test('onboarding is forced until done', async ({ page }) => {
  await seedVerifiedUser(page.request, 'onboarder');
  const workspace = await seedWorkspace(page.request, `Fresh ${Date.now().toString(36)}`, { done: false });
  await page.goto(`/${workspace.id}/_settings/users`);
  await expect(page).toHaveURL(`/${workspace.id}/_oobe`);
});

test("a workspace the user is not a member of: 'Workspace not found', back to /workspaces", async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'outsider');
  await page.goto('/no-such-workspace-here/_items/all');
  await expect(page).toHaveURL(/\/workspaces$/);
  await expect(page.getByText('Workspace not found')).toBeVisible();
  await shot(page, '13-workspace-not-found');
});

test('any other path shows the not-found page', async ({ page }) => {
  await seedVerifiedUser(page.request, 'lost');
  await page.goto('/auth/does-not-exist');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await shot(page, '14-not-found');
  await page.goto('/Bad_Path!/x/y');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/workspaces/nothing/here');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
