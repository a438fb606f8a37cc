import { expect, test } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../tests/helpers/oidc-provider';
import {
  acceptCookies,
  BASE_URL,
  mailLink,
  PASSWORD,
  SAME_ORIGIN,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  signUpApi,
  tokenOf,
} from './fixtures';

let op: TestOidcProvider | undefined;
test.afterAll(async () => op?.close());

test('a manager sets up OpenID Connect with a group rule; a new person signs in there and lands with that role', async ({
  page,
  browser,
}) => {
  await acceptCookies(page.context());
  await seedVerifiedUser(page.request, 'manager');
  const name = `Single sign-on ${Date.now().toString(36)}`;
  const workspace = await seedWorkspace(page.request, name, {
    roles: { editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] } },
  });
  const redirectUri = `${BASE_URL}/api/v1/auth/sso/${workspace.id}/callback`;
  op = await startOidcProvider([redirectUri]);
  const domain = `corp-${Date.now().toString(36)}.test`;
  op.accounts.set('nina', { email: `nina@${domain}`, name: 'Nina Newcomer', groups: ['marketing'] });

  await page.goto(`/${workspace.id}/_settings`);
  await page.getByRole('link', { name: 'Single sign-on' }).click();
  await expect(page).toHaveURL(`/${workspace.id}/_settings/sso`);
  await expect(page.getByTestId('sso-redirect-uri')).toHaveText(redirectUri);
  await page.getByLabel('Issuer URL').fill(op.issuer);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('sso-test-result')).toContainText(op.issuer);
  await page.getByLabel('Client ID').fill(op.clientId);
  await page.getByLabel('Client secret').fill(op.clientSecret);
  const domains = page.getByRole('combobox', { name: 'Email domains' });
  await domains.fill(domain);
  await domains.press('Enter');
  await page.getByRole('button', { name: 'Add rule' }).click();
  const rules = page.getByRole('table', { name: 'Role rules' });
  await rules.getByLabel('Value').fill('marketing');
  await rules.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'Editor' }).click();
  await page.keyboard.press('Escape');
  await shot(page, 'sso-settings');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Single sign-on saved')).toBeVisible();
  await expect(page.getByPlaceholder('Saved — leave empty to keep it')).toBeVisible();

  // Someone new, at the workspace's domain, signs in at the provider from Marquee's sign-in page.
  const context = await browser.newContext();
  await acceptCookies(context);
  const newcomer = await context.newPage();
  await newcomer.goto('/auth/welcome');
  await newcomer.getByLabel('Email').fill(`nina@${domain}`);
  await shot(newcomer, 'sso-welcome');
  await newcomer.getByRole('button', { name: 'Continue with single sign-on' }).click();
  await newcomer.getByPlaceholder('Enter any login').fill('nina');
  await newcomer.getByPlaceholder('and password').fill('any');
  await newcomer.getByRole('button', { name: 'Sign-in' }).click();
  await expect(newcomer).toHaveURL(new RegExp(`/${workspace.id}(/|$)`));
  await expect(newcomer.getByText(name).first()).toBeVisible();
  await shot(newcomer, 'sso-signed-in');

  const members = await (await page.request.get(`/api/v1/workspaces/${workspace.id}/members`)).json();
  expect(members.members).toContainEqual(
    expect.objectContaining({ email: `nina@${domain}`, roles: ['editor'], isWorkspaceManager: false }),
  );
  await context.close();

  // Someone with a password account at that domain links their identity at the provider from the user menu.
  const owner = await browser.newContext();
  await acceptCookies(owner);
  const ownerPage = await owner.newPage();
  const email = `olga@${domain}`;
  await signUpApi(ownerPage.request, { name: 'Olga Owner', email, password: PASSWORD });
  const link = await mailLink(email, '/user/verify-email');
  await ownerPage.request.post('/api/v1/auth/verify-email', {
    headers: SAME_ORIGIN,
    data: { token: tokenOf(link) },
  });
  op.accounts.set('olga', { email, name: 'Olga at the provider', groups: ['marketing'] });
  await ownerPage.goto('/workspaces');
  await ownerPage.getByTestId('user-menu').click();
  await ownerPage.getByRole('menuitem', { name: 'Link single sign-on' }).click();
  await ownerPage.getByPlaceholder('Enter any login').fill('olga');
  await ownerPage.getByPlaceholder('and password').fill('any');
  await ownerPage.getByRole('button', { name: 'Sign-in' }).click();
  await expect(ownerPage).toHaveURL(/\/workspaces$/);
  const linked = await (await page.request.get(`/api/v1/workspaces/${workspace.id}/members`)).json();
  expect(linked.members).toContainEqual(expect.objectContaining({ email, roles: ['editor'] }));
  await owner.close();
});

test('a manager makes a SCIM token shown once; the identity provider provisions with it until it is revoked', async ({
  page,
}) => {
  await acceptCookies(page.context());
  await seedVerifiedUser(page.request, 'manager');
  const workspace = await seedWorkspace(page.request, `Provisioning ${Date.now().toString(36)}`);
  await page.goto(`/${workspace.id}/_settings/sso`);
  const section = page.getByRole('region', { name: 'Provisioning (SCIM)' });
  await expect(section.getByTestId('scim-base-url')).toHaveText(`${BASE_URL}/scim/v2/${workspace.id}`);
  await expect(section.getByText('No SCIM tokens yet.')).toBeVisible();
  await section.getByLabel('Identity provider').fill('Entra ID');
  await section.getByRole('button', { name: 'Make token' }).click();
  const secret = (await section.getByTestId('scim-token-secret').textContent())!;
  expect(secret).toMatch(/^mqscim_/);
  const tokens = section.getByRole('table', { name: 'SCIM tokens' });
  await expect(tokens.getByRole('row', { name: /Entra ID/ })).toContainText('Never');
  await tokens.scrollIntoViewIfNeeded();
  await shot(page, 'sso-scim-token');

  const provision = () =>
    page.request.post(`/scim/v2/${workspace.id}/Users`, {
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' },
      data: { userName: `nia-${Date.now().toString(36)}@corp.test`, active: true },
    });
  expect((await provision()).status()).toBe(201);
  await page.reload();
  await expect(tokens.getByRole('row', { name: /Entra ID/ })).not.toContainText('Never');
  await expect(section.getByTestId('scim-token-secret')).toHaveCount(0);

  await tokens.getByRole('button', { name: 'Revoke Entra ID' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(section.getByText('No SCIM tokens yet.')).toBeVisible();
  expect((await provision()).status()).toBe(401);
});
