import { expect, test } from '@playwright/test';
import { acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

test('a manager edits basics and roles, and sees subscription and batches', async ({ page }) => {
  await seedVerifiedUser(page.request, 'admin');
  const workspace = await seedWorkspace(page.request, `Settings ${Date.now().toString(36)}`);

  await page.goto(`/${workspace.id}/_items/all`);
  await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
  await expect(page).toHaveURL(`/${workspace.id}/_settings`);
  await expect(page.getByRole('heading', { name: 'Basics' })).toBeVisible();
  await shot(page, '40-settings-basics');

  // Basics: add a stage and the assets domain.
  const stages = page.getByRole('combobox', { name: 'Stages' });
  await stages.fill('Preview');
  await stages.press('Enter');
  await page.getByRole('checkbox', { name: 'Assets' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Basics saved')).toBeVisible();
  const saved = await (await page.request.get(`/api/v1/workspaces/${workspace.id}`)).json();
  expect(saved.basics.stages).toEqual(['Live', 'Preview']);
  expect(saved.basics.domains).toEqual(expect.arrayContaining(['blogging', 'assets']));

  // Roles: add one that may edit blog posts.
  await page.getByRole('link', { name: 'Roles' }).click();
  await expect(page).toHaveURL(`/${workspace.id}/_settings/roles`);
  await page.getByRole('button', { name: 'Add role' }).click();
  await page.getByRole('dialog').getByLabel('Role name').fill('Reviewer');
  await page.getByRole('dialog').getByRole('button', { name: 'Add role' }).click();
  const reviewer = page.getByTestId('role-reviewer');
  await expect(reviewer).toBeVisible();
  await reviewer.getByRole('combobox', { name: 'Must approve' }).click();
  await page.getByRole('option', { name: 'Blog Posts' }).click();
  await page.keyboard.press('Escape');
  await shot(page, '41-settings-roles');
  await page.getByRole('button', { name: 'Save roles' }).click();
  await expect(page.getByText('Roles saved')).toBeVisible();
  const withRoles = await (await page.request.get(`/api/v1/workspaces/${workspace.id}`)).json();
  expect(withRoles.roles.reviewer).toEqual({
    name: 'Reviewer',
    canEdit: [],
    canPublish: [],
    mustApprove: ['blog-post'],
    customerData: [],
  });

  await page.getByRole('link', { name: 'Subscription' }).click();
  await expect(page.getByTestId('plan-name')).toBeVisible();
  await expect(page.getByText('Members', { exact: true })).toBeVisible();
  await shot(page, '42-settings-subscription');

  await page.getByRole('link', { name: 'Batches' }).click();
  await expect(page.getByText('No bulk jobs yet')).toBeVisible();
  await shot(page, '43-settings-batches');

  await page.getByRole('link', { name: 'Back to content' }).click();
  await expect(page).toHaveURL(`/${workspace.id}/_items/all`);
  await expect(page.getByRole('navigation').first().getByText('Preview')).toBeVisible();
});

test('the shell on a phone: drawers closed, toggled by the menu button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await seedVerifiedUser(page.request, 'mobile');
  const workspace = await seedWorkspace(page.request, `Phone ${Date.now().toString(36)}`);
  await page.goto(`/${workspace.id}/_items/all`);
  await expect(page.getByText('None so far')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Last updated by me' })).not.toBeInViewport();
  await shot(page, '50-mobile-explore');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(page.getByRole('link', { name: 'Last updated by me' })).toBeInViewport();
  await shot(page, '51-mobile-nav-open');
  await page.getByRole('link', { name: 'Last updated by me' }).click();
  await expect(page).toHaveURL(`/${workspace.id}/_items/last-updated-by-me`);
  await expect(page.getByRole('link', { name: 'Last updated by me' })).not.toBeInViewport();
});
