import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, BASE_URL, mailLink, SAME_ORIGIN, shot } from './fixtures';
import { seedCampaignBasics } from './campaign-seed';

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
  const target = `${BASE_URL}/healthz?from=autumn`;
  // Customer data (three readers of the newsletter plan and one other), a sender whose domain is not
  // verified, the footer's postal address and the email template.
  const basics = await seedCampaignBasics(page.request, {
    name: 'Campaigns',
    readers: ['Ada', 'Bob', 'Cy'],
    link: target,
  });
  const { ws, recipients, senderAddress } = basics;
  // The Admin role (the creator's) must approve every campaign version before it can go.
  const workspace = (await (await page.request.get(`/api/v1/workspaces/${ws}`)).json()) as {
    version: number;
    roles: Record<string, { mustApprove: string[] }>;
  };
  const patched = await page.request.patch(`/api/v1/workspaces/${ws}`, {
    headers: SAME_ORIGIN,
    data: {
      roles: { ...workspace.roles, admin: { ...workspace.roles.admin, mustApprove: ['campaign'] } },
      baseVersion: workspace.version,
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  // The audience, built in the rule builder over those profiles.
  await page.goto(`/${ws}/marketing/audience/new`);
  await page.getByLabel('Name', { exact: true }).fill('Newsletter readers');
  await page.getByTestId('criteria-builder').getByRole('button', { name: 'Attribute rule' }).click();
  await choose(page, 'Attribute of rule 1.1', 'Plan');
  await choose(page, 'Value of rule 1.1', 'news');
  await expect(page.getByTestId('audience-size')).toContainText('3 of 4 profiles match');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/audience/(?!new)[A-Za-z0-9_-]+$`));

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
  const option = page.getByRole('option', { name: `Acme News <${senderAddress}>` });
  await expect(option).toContainText('not verified: likely spam');
  await option.click();
  await expect(page.getByText(/Not verified: Mail from this sender will likely land in spam/)).toBeVisible();
  await shot(page, 'campaigns-00-new');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/campaign/(?!new)[A-Za-z0-9_-]+$`));
  const campaignUrl = new URL(page.url()).pathname;
  await expect(page.getByText(`Acme News <${senderAddress}>`)).toBeVisible();

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
  // Send again goes to nobody new unless the sender chooses to send to everyone again.
  await expect(send.getByTestId('will-reach')).toHaveText('Will go to 0 new recipients');
  await send.getByRole('button', { name: 'Send to 0 new recipients' }).click();
  const again = page.getByRole('dialog', { name: 'Send to 0 new recipients?' });
  await expect(again).toContainText('3 people in the audience already got this campaign in an earlier send');
  await expect(again.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await expect(again.getByRole('button', { name: 'Send again to everyone' })).toBeEnabled();
  await again.getByRole('button', { name: 'Cancel' }).click();

  // One recipient opens the link of the message they got, twice.
  const link = await mailLink(recipients[0], '/t/c/');
  for (let i = 0; i < 2; i++) {
    await page.goto(link);
    await expect(page).toHaveURL(target);
  }

  await page.goto(campaignUrl);
  await expect(results.getByTestId('result-clicked')).toContainText('1');
  const clicks = page.getByRole('table', { name: 'Clicks per link' });
  const row = clicks.getByRole('row', { name: new RegExp(target.replace(/[?.]/g, '\\$&')) });
  // One person, two clicks: each column says which it counts.
  await expect(clicks.getByRole('columnheader')).toHaveText(['Link', 'People who clicked', 'Total clicks']);
  await expect(row.getByRole('cell')).toHaveText([target, '1', '2']);
  await shots(page, 'campaigns-05-results', 'campaign-results');
});
