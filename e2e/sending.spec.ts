import { expect, test } from '@playwright/test';
import { FakeDns } from '../tests/fixtures/dns-server';
import { DNS_PORT, acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

const dns = new FakeDns();
test.beforeAll(async () => {
  await dns.start(DNS_PORT);
});
test.afterAll(() => dns.stop());

test('a manager adds a sender and sees the DNS records its domain needs', async ({ page, context }) => {
  await acceptCookies(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await seedVerifiedUser(page.request, 'sending');
  const workspace = await seedWorkspace(page.request, `Sending ${Date.now().toString(36)}`);

  await page.goto(`/${workspace.id}/_settings`);
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Sending' }).click();
  await expect(page).toHaveURL(`/${workspace.id}/_settings/sending`);
  await expect(page.getByRole('heading', { name: 'Sending' })).toBeVisible();
  await expect(page.getByText('No senders yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add sender' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a sender' });
  await dialog.getByLabel('From name').fill('Acme News');
  await dialog.getByLabel('From address').fill('not an address');
  await dialog.getByRole('button', { name: 'Add sender' }).click();
  await expect(dialog.getByText('Enter a valid email address')).toBeVisible();
  await dialog.getByLabel('From address').fill('news@news.example.test');
  await dialog.getByLabel('Reply-to').fill('team@example.test');
  await dialog.getByRole('button', { name: 'Add sender' }).click();
  await expect(dialog).toBeHidden();

  const senders = page.getByRole('table', { name: 'Senders' });
  await expect(senders.getByText('news@news.example.test')).toBeVisible();
  await expect(senders.getByText('team@example.test')).toBeVisible();
  const domain = page.getByRole('region', { name: 'Domain news.example.test' });
  await expect(domain.getByText('Not verified')).toBeVisible();
  await expect(
    domain.getByText(
      'Mail from this domain will likely land in spam until its SPF and DKIM records are published.',
    ),
  ).toBeVisible();
  await expect(domain.getByTestId('spf-value')).toHaveText('v=spf1 a mx ~all');
  const dkimHost = (await domain
    .getByText(/^marquee-[a-z0-9]+\._domainkey\.news\.example\.test$/)
    .textContent())!;
  const dkim = domain.getByTestId('dkim-value');
  await expect(dkim).toHaveText(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]{300,}=*$/);
  await shot(page, '52-settings-sending');
  await domain.getByRole('button', { name: 'Copy DKIM value' }).click();
  await expect(domain.getByRole('button', { name: 'Copy DKIM value' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await dkim.textContent());

  await page.getByRole('textbox', { name: 'Postal address' }).fill('Acme Ltd\n1 Market Street\nLeeds');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByText('Postal address saved')).toBeVisible();
  await shot(page, '53-settings-sending-records');

  // Checking before the records are published says what is missing; once they are, the domain is verified.
  await domain.getByRole('button', { name: 'Check DNS records' }).click();
  const problems = domain.getByRole('list', { name: 'Problems found' });
  await expect(problems).toContainText('SPF: news.example.test has no TXT record starting with v=spf1');
  await expect(problems).toContainText(`DKIM: ${dkimHost} has no TXT record`);
  dns.txt.set('news.example.test', ['v=spf1 a mx ~all']);
  dns.txt.set(dkimHost, [(await dkim.textContent())!]);
  await domain.getByRole('button', { name: 'Check DNS records' }).click();
  await expect(domain.getByText('Verified', { exact: true })).toBeVisible();
  await expect(problems).toBeHidden();
  await expect(domain.getByText(/likely land in spam/)).toBeHidden();
  await expect(senders.getByText('Verified', { exact: true })).toBeVisible();
  await shot(page, '54-settings-sending-verified');

  // Editing keeps the domain and its key.
  await senders.getByRole('button', { name: 'Edit news@news.example.test' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit sender' });
  await edit.getByLabel('From name').fill('Acme Weekly');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(senders.getByText('Acme Weekly')).toBeVisible();
  await expect(dkim).toHaveText((await dkim.textContent())!);

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Postal address' })).toHaveValue(
    'Acme Ltd\n1 Market Street\nLeeds',
  );
});
