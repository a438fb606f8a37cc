import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { mailLink, PASSWORD, shot, tokenOf, uniqueEmail } from './fixtures';

/**
 * WebAuthn refuses IP addresses as relying party ids, and the suite's server is on 127.0.0.1: this spec
 * starts one of its own (the same build) whose public URL is on localhost, with a data directory of its own.
 */
const PORT = Number(process.env.E2E_PORT ?? 8090) + 3000;
const LOCAL_URL = `http://localhost:${PORT}`;
const LOCAL = { origin: LOCAL_URL };

test.use({ baseURL: LOCAL_URL, extraHTTPHeaders: LOCAL });

let server: ChildProcess;
let dataDir: string;

test.beforeAll(async ({ request }) => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'marquee-e2e-passkeys-'));
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: LOCAL_URL,
      AUTH_RATE_LIMIT: '1000',
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      () =>
        request
          .get(`${LOCAL_URL}/healthz`)
          .then((res) => res.status())
          .catch(() => 0),
      { timeout: 120_000, message: 'the passkey server starts' },
    )
    .toBe(200);
});

test.afterAll(() => {
  server?.kill();
});

/** A platform authenticator that holds discoverable credentials and verifies its user, as a laptop's does. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function seedVerifiedUser(page: Page) {
  const account = { name: 'Passkey Tester', email: uniqueEmail('passkey'), password: PASSWORD };
  expect((await page.request.post('/api/v1/auth/sign-up', { data: account })).status()).toBe(202);
  const signedIn = await page.request.post('/api/v1/auth/sign-in', {
    data: { email: account.email, password: PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  const link = await mailLink(account.email, '/user/verify-email', dataDir);
  const verified = await page.request.post('/api/v1/auth/verify-email', { data: { token: tokenOf(link) } });
  expect(verified.status(), await verified.text()).toBe(200);
  return account;
}

test('a user adds a passkey from the user menu, signs out, and signs in with it', async ({ page }) => {
  await page.context().addCookies([{ name: 'marquee_cookie_notification', value: '1', url: LOCAL_URL }]);
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  const user = await seedVerifiedUser(page);
  await page.goto('/workspaces');
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Passkeys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Passkeys' });
  await expect(dialog.getByText('No passkeys yet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(
    dialog.getByText('Name the passkey, for example after the device that holds it'),
  ).toBeVisible();
  await dialog.getByLabel('Passkey name').fill('Work laptop');
  await dialog.getByRole('button', { name: 'Add a passkey' }).click();
  const table = dialog.getByRole('table', { name: 'Passkeys' });
  await expect(table.getByText('Work laptop')).toBeVisible();
  await expect(table.getByText('Never')).toBeVisible();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.isResidentCredential).toBe(true);
  await shot(page, 'passkeys-list');
  await page.keyboard.press('Escape');

  await page.goto('/auth/bye');
  await page.goto('/auth/welcome');
  await expect(page.getByLabel('Email')).toBeVisible();
  expect((await page.request.get('/api/v1/me')).status()).toBe(401);
  await shot(page, 'passkeys-sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/workspaces/);
  expect((await page.request.get('/api/v1/me')).status()).toBe(200);

  // After a password, the passkey is the second step.
  await page.goto('/auth/bye');
  await page.goto('/auth/welcome');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText('Confirm it is you with one of your passkeys.')).toBeVisible();
  expect((await page.request.get('/api/v1/me')).status()).toBe(401);
  await shot(page, 'passkeys-second-step');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/workspaces/);

  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Passkeys' }).click();
  await expect(table.getByText('Work laptop')).toBeVisible();
  await table.getByRole('button', { name: 'Remove Work laptop' }).click();
  await expect(dialog.getByText('No passkeys yet.')).toBeVisible();
});
