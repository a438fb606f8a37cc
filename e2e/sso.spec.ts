import { expect, test } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../tests/helpers/oidc-provider';
import {
  IDP_CERT,
  IDP_ENTITY_ID,
  IDP_ENTRY_POINT,
  readAuthnRequest,
  samlResponse,
} from '../tests/fixtures/saml-idp';
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

test('a manager sets up SAML 2.0 with a group rule; a new person signs in at the identity provider and lands with that role', async ({
  page,
  browser,
}) => {
  await acceptCookies(page.context());
  await seedVerifiedUser(page.request, 'manager');
  const name = `SAML sign-on ${Date.now().toString(36)}`;
  const workspace = await seedWorkspace(page.request, name, {
    roles: { editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] } },
  });
  const domain = `saml-${Date.now().toString(36)}.test`;

  await page.goto(`/${workspace.id}/_settings/sso`);
  await page.getByText('SAML 2.0', { exact: true }).click();
  const acsUrl = `${BASE_URL}/api/v1/auth/sso/${workspace.id}/saml/acs`;
  await expect(page.getByTestId('saml-acs-url')).toHaveText(acsUrl);
  await expect(page.getByTestId('saml-metadata')).toContainText('WantAssertionsSigned="true"');
  const form = page.getByRole('form', { name: 'SAML 2.0' });
  await form.getByLabel('Single sign-on URL').fill(IDP_ENTRY_POINT);
  await form.getByLabel('Identity provider entity ID').fill(IDP_ENTITY_ID);
  await form.getByLabel('Signing certificate').fill('not a certificate');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(form.getByText('Paste the identity provider’s signing certificate (PEM)')).toBeVisible();
  await form.getByLabel('Signing certificate').fill(IDP_CERT);
  const domains = form.getByRole('combobox', { name: 'Email domains' });
  await domains.fill(domain);
  await domains.press('Enter');
  await form.getByRole('button', { name: 'Add rule' }).click();
  const rules = form.getByRole('table', { name: 'Role rules' });
  await rules.getByLabel('Value').fill('marketing');
  await rules.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'Editor' }).click();
  await page.keyboard.press('Escape');
  await shot(page, 'sso-saml-settings');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Single sign-on saved')).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('form', { name: 'SAML 2.0' }).getByLabel('Identity provider entity ID'),
  ).toHaveValue(IDP_ENTITY_ID);

  // The identity provider made by the test answers our AuthnRequest with a signed assertion, posted
  // by the browser to our ACS as a real one's page would.
  const context = await browser.newContext();
  await acceptCookies(context);
  await context.route(`${IDP_ENTRY_POINT}?**`, (route) => {
    const request = readAuthnRequest(route.request().url());
    const response = samlResponse({
      nameId: 'nina-at-idp',
      inResponseTo: request.id,
      acsUrl: request.acsUrl,
      audience: request.issuer,
      attributes: { email: [`nina@${domain}`], displayName: ['Nina Saml'], groups: ['marketing'] },
    });
    const field = (key: string, value: string) => `<input type="hidden" name="${key}" value="${value}">`;
    return route.fulfill({
      contentType: 'text/html',
      body:
        `<form method="post" action="${request.acsUrl}">${field('SAMLResponse', response)}` +
        `${field('RelayState', request.relayState)}</form><script>document.forms[0].submit()</script>`,
    });
  });
  const newcomer = await context.newPage();
  await newcomer.goto('/auth/welcome');
  await newcomer.getByLabel('Email').fill(`nina@${domain}`);
  await newcomer.getByRole('button', { name: 'Continue with single sign-on' }).click();
  await expect(newcomer).toHaveURL(new RegExp(`/${workspace.id}(/|$)`));
  await expect(newcomer.getByText(name).first()).toBeVisible();
  const members = await (await page.request.get(`/api/v1/workspaces/${workspace.id}/members`)).json();
  expect(members.members).toContainEqual(
    expect.objectContaining({ email: `nina@${domain}`, roles: ['editor'], isWorkspaceManager: false }),
  );
  await context.close();
});
