import { expect, test } from '@playwright/test';
import {
  BASE_URL,
  PASSWORD,
  SAME_ORIGIN,
  acceptCookies,
  mailLink,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  uniqueEmail,
} from './fixtures';

test('a manager invites a writer, who joins on sign-up and sees only what the role allows', async ({
  page,
  browser,
}) => {
  await acceptCookies(page.context());
  await seedVerifiedUser(page.request, 'manager');
  const workspace = await seedWorkspace(page.request, `Team ${Date.now().toString(36)}`, {
    roles: { writer: { name: 'Writer', canEdit: ['blog-post'], canPublish: [], mustApprove: [] } },
  });

  // The manager invites through the UI.
  const inviteeEmail = uniqueEmail('writer');
  await page.goto(`/${workspace.id}/_settings/users`);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  const invite = page.getByRole('form', { name: 'Invite people' });
  await invite.getByLabel('Email').fill(inviteeEmail);
  await invite.getByPlaceholder('Choose roles').click();
  await page.getByRole('option', { name: 'Writer' }).click();
  await page.keyboard.press('Escape');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId(`invitation-${inviteeEmail}`)).toBeVisible();
  await expect(
    page.getByTestId(`invitation-${inviteeEmail}`).getByText('Writer', { exact: true }),
  ).toBeVisible();
  await shot(page, '20-settings-users-invited');

  // The invitee follows the mailed link, signs up with that address and verifies.
  const inviteLink = await mailLink(inviteeEmail, '/auth/welcome');
  const inviteeContext = await browser.newContext({ baseURL: BASE_URL });
  await acceptCookies(inviteeContext);
  const invitee = await inviteeContext.newPage();
  await invitee.goto(inviteLink);
  // Someone without an account lands on creating it, not on 'Welcome back'.
  await expect(invitee.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(invitee.getByTestId('invitation-notice')).toHaveText(
    `You have been invited to Marquee. Create your account with ${inviteeEmail} to join.`,
  );
  await expect(invitee.getByLabel('Work email')).toHaveValue(inviteeEmail);
  await shot(invitee, '20b-invitee-lands-on-create-account');
  await invitee.getByLabel('Name').fill('Walt Writer');
  await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await invitee.getByRole('button', { name: 'Create account' }).click();
  await expect(invitee).toHaveURL(/\/user\/verify-email/);
  await invitee.goto(await mailLink(inviteeEmail, '/user/verify-email'));

  // One workspace: after verifying they land on / → the list, and the workspace is there.
  await invitee.goto('/auth/welcome');
  await expect(invitee).toHaveURL(`/${workspace.id}/_items/all`);
  await expect(invitee.getByText('None so far')).toBeVisible();
  await expect(invitee.getByTestId('explore-aside').getByText('Writer')).toBeVisible();
  await expect(invitee.getByTestId('explore-aside').getByText('Blog Posts')).toBeVisible();
  // A member with a role sees 'Need my approval'; without manager rights there is no Settings link.
  await expect(invitee.getByRole('link', { name: 'Need my approval' })).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await shot(invitee, '21-explore-as-writer');

  // Settings are refused: a notification, and the user stays on explore.
  await invitee.goto(`/${workspace.id}/_settings`);
  await expect(invitee.getByText('Only workspace managers can open settings')).toBeVisible();
  await expect(invitee).toHaveURL(`/${workspace.id}/_items/all`);
  await shot(invitee, '22-settings-refused');

  // And the server refuses their PATCH.
  const patch = await invitee.request.patch(`/api/v1/workspaces/${workspace.id}`, {
    headers: SAME_ORIGIN,
    data: { basics: { name: 'Hijacked' } },
  });
  expect(patch.status()).toBe(403);

  // The manager now sees them as a member; deactivating removes the workspace from their list.
  await page.reload();
  const row = page.getByTestId(`member-${inviteeEmail}`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId(`invitation-${inviteeEmail}`)).toHaveCount(0);
  await row.getByRole('switch', { name: `${inviteeEmail} is active` }).click({ force: true });
  await expect(page.getByText(`${inviteeEmail} deactivated`)).toBeVisible();
  await shot(page, '23-settings-users-members');

  const list = await (await invitee.request.get('/api/v1/workspaces')).json();
  expect(list.workspaces.map((w: { id: string }) => w.id)).not.toContain(workspace.id);
  await inviteeContext.close();
});

test('a manager revokes a pending invitation', async ({ page }) => {
  await acceptCookies(page.context());
  await seedVerifiedUser(page.request, 'revoker');
  const workspace = await seedWorkspace(page.request, `Revoke ${Date.now().toString(36)}`);
  const email = uniqueEmail('never');
  const res = await page.request.post(`/api/v1/workspaces/${workspace.id}/members/invitations`, {
    headers: SAME_ORIGIN,
    data: { email, roles: [], isWorkspaceManager: false },
  });
  expect(res.status()).toBe(201);

  await page.goto(`/${workspace.id}/_settings/users`);
  await page.getByTestId(`invitation-${email}`).getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByTestId(`invitation-${email}`)).toHaveCount(0);
  await expect(page.getByText('No pending invitations.')).toBeVisible();
});
