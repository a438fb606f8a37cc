import { expect, test } from '@playwright/test';
import { PASSWORD, acceptCookies, mailLink, shot, uniqueEmail } from './fixtures';

test('sign up, verify through the outbox, create a workspace, onboard, land on explore', async ({
  page,
  context,
}) => {
  await acceptCookies(context);
  const email = uniqueEmail('founder');

  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/welcome/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await shot(page, '01-welcome-sign-in');

  await page.getByText('Create account', { exact: true }).click();
  await page.getByLabel('Name').fill('Fiona Founder');
  await page.getByLabel('Work email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await shot(page, '02-welcome-sign-up');
  await page.getByRole('button', { name: 'Create account' }).click();

  // Signed in but unverified: the verify page.
  await expect(page).toHaveURL(/\/user\/verify-email/);
  await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await shot(page, '03-verify-email-pending');

  const link = await mailLink(email, '/user/verify-email');
  await page.goto(link);
  await expect(page).toHaveURL(/\/workspaces\/?$/);
  await expect(page.getByText('No workspaces yet')).toBeVisible();
  await shot(page, '04-workspaces-empty');

  await page.getByRole('link', { name: 'Create a workspace' }).click();
  await expect(page).toHaveURL(/\/workspaces\/create$/);
  const name = `Acme ${Date.now().toString(36)}`;
  await page.getByLabel('Workspace name').fill(name);
  await shot(page, '05-create-workspace');
  await page.getByRole('button', { name: 'Create workspace' }).click();

  await expect(page).toHaveURL(/\/_oobe$/);
  const workspaceId = new URL(page.url()).pathname.split('/')[1];
  await expect(page.getByRole('heading', { name: `Let’s get ${name} ready` })).toBeVisible();
  await shot(page, '06-oobe-name');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('checkbox', { name: 'Blogging' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('checkbox', { name: 'Marketing' }).click();
  await shot(page, '07-oobe-domains');
  await page.getByRole('button', { name: 'Continue' }).click();

  const stages = page.getByRole('combobox', { name: 'Stages' });
  await stages.fill('Staging');
  await stages.press('Enter');
  await shot(page, '08-oobe-stages');
  await page.getByRole('button', { name: 'Continue' }).click();
  await shot(page, '09-oobe-timezones');
  await page.getByRole('button', { name: 'Finish set-up' }).click();

  await expect(page).toHaveURL(new RegExp(`/${workspaceId}/_items/all$`));
  await expect(page.getByText('None so far')).toBeVisible();
  const nav = page.getByRole('navigation').first();
  await expect(nav.getByText('Staging')).toBeVisible();
  await expect(nav.getByText('Audiences')).toBeVisible();
  await expect(nav.getByText('Blog Posts')).toBeVisible();
  await shot(page, '10-explore');

  // The workspace was saved as onboarded: going back to /_oobe now lands on explore.
  await page.goto(`/${workspaceId}/_oobe`);
  await expect(page).toHaveURL(new RegExp(`/${workspaceId}/_items/all$`));
  const saved = await (await page.request.get(`/api/v1/workspaces/${workspaceId}`)).json();
  expect(saved.oobe.done).toBe(true);
  expect(saved.basics.domains).toEqual(expect.arrayContaining(['blogging', 'marketing']));
  expect(saved.basics.stages).toEqual(['Live', 'Staging']);
});
