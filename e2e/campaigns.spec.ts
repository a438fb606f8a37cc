import { expect, test, type Page } from '@playwright/test';
import {
  acceptCookies,
  BASE_URL,
  mailLink,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/**
 * A campaign end to end: profiles imported, an audience built over them, a campaign with an email
 * template and a sender, approved, sent while its progress shows, and one recipient's click on a link
 * of the message they got counted in the results.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1360, height: 860 };

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Desktop and phone screenshots of the campaign panel's part in view. */
async function shots(page: Page, name: string, testId: string) {
  await page.getByTestId(testId).scrollIntoViewIfNeeded();
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await page.getByTestId(testId).scrollIntoViewIfNeeded();
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

test('build an audience, send an approved campaign, watch it go, and see a click in the results', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await seedVerifiedUser(page.request, 'campaign');
  const suffix = Date.now().toString(36);
  const workspace = await seedWorkspace(page.request, `Campaigns ${suffix}`);
  const ws = workspace.id;
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  // The Admin role (the creator's) must approve every campaign version before it can go.
  const roles = workspace.roles as Record<string, { mustApprove: string[] }>;
  const patched = await page.request.patch(`/api/v1/workspaces/${ws}`, {
    headers: SAME_ORIGIN,
    data: {
      roles: { ...roles, admin: { ...roles.admin, mustApprove: ['campaign'] } },
      baseVersion: (
        (await (await page.request.get(`/api/v1/workspaces/${ws}`)).json()) as { version: number }
      ).version,
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  // Customer data: three readers of the newsletter plan and one other.
  for (const [name, key] of [
    ['Email', 'email'],
    ['First name', 'firstName'],
  ])
    await seedItem(page.request, ws, 'customer-profile-attribute', { name, key, attributeType: 'string' });
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'Plan',
    key: 'plan',
    attributeType: 'categorical',
    options: ['news', 'none'],
  });
  const recipients = ['ada', 'bob', 'cy'].map((name) => `${name}-${suffix}@example.com`);
  const csv = [
    'id,email,firstName,plan',
    `p-ada,${recipients[0]},Ada,news`,
    `p-bob,${recipients[1]},Bob,news`,
    `p-cy,${recipients[2]},Cy,news`,
    `p-dee,dee-${suffix}@example.com,Dee,none`,
  ].join('\n');
  const imported = await page.request.post(`/api/v1/workspaces/${ws}/profiles/import`, {
    headers: { ...SAME_ORIGIN, 'Content-Type': 'text/csv' },
    data: csv,
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect(((await imported.json()) as { batch: { status: string } }).batch.status).toBe('done');

  // The audience, built in the rule builder over those profiles.
  await page.goto(`/${ws}/marketing/audience/new`);
  await page.getByLabel('Name', { exact: true }).fill('Newsletter readers');
  await page.getByTestId('criteria-builder').getByRole('button', { name: 'Attribute rule' }).click();
  await choose(page, 'Attribute of rule 1.1', 'Plan');
  await choose(page, 'Value of rule 1.1', 'news');
  await expect(page.getByTestId('audience-size')).toContainText('3 of 4 profiles match');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/audience/(?!new)[A-Za-z0-9_-]+$`));

  // A sender (its domain not verified) and the footer's postal address.
  const sender = await page.request.post(`/api/v1/workspaces/${ws}/senders`, {
    headers: SAME_ORIGIN,
    data: { fromName: 'Acme News', fromAddress: `news@news-${suffix}.example.test` },
  });
  expect(sender.status(), await sender.text()).toBe(201);
  const address = await page.request.put(`/api/v1/workspaces/${ws}/senders/postal-address`, {
    headers: SAME_ORIGIN,
    data: { postalAddress: 'Acme Ltd\n1 Market Street\nLeeds' },
  });
  expect(address.status(), await address.text()).toBe(200);

  const target = `${BASE_URL}/healthz?from=autumn`;
  await seedItem(page.request, ws, 'email', {
    name: 'Autumn letter',
    subject: 'Autumn news',
    testAddresses: `qa-${suffix}@example.com`,
    template: {
      'gjs-nl-html': `<table><tr><td><h1>Autumn is here</h1><p><a href="${target}">Read the autumn news</a></p></td></tr></table>`,
      'gjs-nl-css': 'h1{color:#223344}',
    },
  });
  // The campaign, made on its screen: the email template, the audience and the sender, whose
  // unverified domain is marked.
  await page.goto(`/${ws}/marketing/campaign/new`);
  await page.getByLabel('Name', { exact: true }).fill('Autumn campaign');
  for (const [field, search, label] of [
    ['Email', 'autumn', 'Autumn letter'],
    ['Audience', 'newsletter', 'Newsletter readers'],
  ]) {
    const input = page.getByRole('combobox', { name: field, exact: true });
    await input.click();
    await input.fill(search);
    await page.getByRole('option', { name: label }).click();
  }
  await page.getByRole('combobox', { name: 'Sender', exact: true }).click();
  const option = page.getByRole('option', { name: `Acme News <news@news-${suffix}.example.test>` });
  await expect(option).toContainText('not verified: likely spam');
  await option.click();
  await expect(page.getByText(/Not verified: Mail from this sender will likely land in spam/)).toBeVisible();
  await shot(page, 'campaigns-00-new');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/campaign/(?!new)[A-Za-z0-9_-]+$`));
  const campaignUrl = new URL(page.url()).pathname;
  await expect(page.getByText(`Acme News <news@news-${suffix}.example.test>`)).toBeVisible();

  // Before approval: the audience and reach show, Send is refused with the reason.
  const send = page.getByTestId('campaign-send');
  await expect(send.getByTestId('audience-size')).toHaveText('3');
  await expect(send.getByTestId('will-reach')).toHaveText('Will go to 3 recipients');
  await expect(send.getByRole('button', { name: 'Send to 3 recipients' })).toBeDisabled();
  await expect(send.getByTestId('send-blocker')).toHaveText(
    'This version of the campaign needs every approval before it can be sent',
  );
  await expect(page.getByTestId('campaign-preview-subject')).toHaveText('Autumn news');
  await shots(page, 'campaigns-01-not-approved', 'campaign-send');

  // Preview as one of the profiles.
  await page.getByRole('combobox', { name: 'Preview as' }).fill('bob-');
  await page.getByRole('option', { name: new RegExp(`^Bob <${recipients[1]}>`) }).click();
  await expect(
    page.frameLocator('iframe[title="Campaign message preview"]').getByText('Read the autumn news'),
  ).toBeVisible();
  await shots(page, 'campaigns-02-preview', 'campaign-preview-section');

  // Approved: Send goes, after the confirmation.
  await page.getByRole('tab', { name: 'Approvals' }).click();
  await page.getByRole('button', { name: 'Approve as Admin' }).click();
  await expect(send.getByTestId('send-blocker')).toBeHidden();
  await send.getByRole('button', { name: 'Send to 3 recipients' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send to 3 recipients?' });
  await shot(page, 'campaigns-03-confirm');
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();

  // The test server sends a message a second (playwright.config.ts): the progress bar shows while the
  // send starts and goes, then gives way to the results.
  const progress = send.getByTestId('send-progress');
  const results = page.getByTestId('send-results');
  await expect(progress.getByTestId('send-progress-bar')).toBeVisible();
  await expect(progress).toContainText(/Starting…|[0-2] of 3 sent/);
  await shots(page, 'campaigns-04-progress', 'campaign-send');
  await expect(progress).toBeHidden();
  await expect(results.getByTestId('result-delivered')).toContainText('3');
  await expect(send.getByRole('button', { name: 'Send to 3 recipients' })).toBeVisible();

  // One recipient opens the link of the message they got.
  const link = await mailLink(recipients[0], '/t/c/');
  await page.goto(link);
  await expect(page).toHaveURL(target);

  await page.goto(campaignUrl);
  await expect(results.getByTestId('result-clicked')).toContainText('1');
  const clicks = page.getByRole('table', { name: 'Clicks per link' });
  await expect(clicks.getByRole('row', { name: new RegExp(target.replace(/[?.]/g, '\\$&')) })).toContainText(
    '1',
  );
  await shots(page, 'campaigns-05-results', 'campaign-results');
});
