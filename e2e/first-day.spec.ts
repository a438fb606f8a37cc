import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { attributeRuleOn, group } from '../tests/factories/customers';
import {
  acceptCookies,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/**
 * A marketing team's first day, as one journey on a new workspace: a CRM export imported through the
 * preview without typing a key (its Email, First Name and Email Consent columns recognised), a campaign
 * whose readiness counts only the subscribed members with an address, sent, then sent again to nobody
 * new unless asked, with the results of both sends.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const suffix = Date.now().toString(36);
const address = (name: string) => `${name}-${suffix}@example.com`;
/** Four newsletter readers who subscribed (one without an address), one who opted out, one never asked. */
const CRM = [
  'Customer ID,Email,First Name,Email Consent,Plan',
  `c1,${address('ada')},Ada,Subscribed,news`,
  `c2,${address('bob')},Bob,yes,news`,
  `c3,${address('cy')},Cy,opted in,news`,
  `c4,,Dee,subscribed,news`,
  `c5,${address('eve')},Eve,unsubscribed,news`,
  `c6,${address('fay')},Fay,,news`,
  `c7,${address('gus')},Gus,subscribed,none`,
].join('\n');

async function ok<T>(response: Promise<import('@playwright/test').APIResponse>): Promise<T> {
  const res = await response;
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

async function importCrm(page: Page, ws: string) {
  await page.goto(`/${ws}/marketing/_customers`);
  await page.getByRole('button', { name: 'Import', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import customer data' });
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'crm.csv', mimeType: 'text/csv', buffer: Buffer.from(CRM) });
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(dialog.getByTestId('import-preview')).toContainText('7 rows read');
  // Nothing typed: the well-known columns go where campaigns read them.
  await expect(dialog.getByLabel('Key for Email')).toHaveValue('email');
  await expect(dialog.getByLabel('Key for First Name')).toHaveValue('first-name');
  const own = dialog.getByTestId('own-column');
  await expect(own.filter({ hasText: 'Customer ID' })).toContainText('Customer ID is read as the id');
  await expect(own.filter({ hasText: 'Email Consent' })).toHaveText(
    'Email Consent is read as the email consent of each row.',
  );
  await shot(page, 'first-day-01-import-preview');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('batch-progress')).toHaveAttribute('data-status', 'done');
  await dialog.getByRole('button', { name: 'Done' }).click();
}

/** The audience of the news plan, a sender, the footer's address, an email and the campaign. */
async function seedCampaign(request: APIRequestContext, ws: string) {
  const attributes = await ok<{ items: { id: string; data: { key: string } }[] }>(
    request.get(`/api/v1/workspaces/${ws}/items/customer-profile-attribute?limit=100`),
  );
  const plan = attributes.items.find((item) => item.data.key === 'plan');
  expect(plan, 'the import made the plan attribute').toBeDefined();
  const audience = await seedItem(request, ws, 'audience', {
    name: 'Newsletter readers',
    criteria: group('and', [attributeRuleOn(plan!.id, 'Plan', '==', 'news')]),
  });
  const sender = await ok<{ id: string }>(
    request.post(`/api/v1/workspaces/${ws}/senders`, {
      headers: SAME_ORIGIN,
      data: { fromName: 'Acme News', fromAddress: `news@news-${suffix}.example.test` },
    }),
  );
  await ok(
    request.put(`/api/v1/workspaces/${ws}/senders/postal-address`, {
      headers: SAME_ORIGIN,
      data: { postalAddress: 'Acme Ltd\n1 Market Street\nLeeds' },
    }),
  );
  const email = await seedItem(request, ws, 'email', {
    name: 'Spring letter',
    subject: 'Spring news',
    template: {
      'gjs-nl-html':
        '<table><tr><td><h1>Hi {{first-name|there}}</h1><p>Spring is here.</p></td></tr></table>',
      'gjs-nl-css': 'h1{color:#223344}',
    },
  });
  const campaign = await seedItem(request, ws, 'campaign', {
    name: 'Spring campaign',
    email: { schemaType: 'email', id: email.id, label: 'Spring letter' },
    audience: { schemaType: 'audience', id: audience.id, label: 'Newsletter readers' },
    sender: sender.id,
  });
  return `/${ws}/marketing/campaign/${campaign.id}`;
}

test('a CRM export imported, a campaign sent to the subscribed, sent again only when asked', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await seedVerifiedUser(page.request, 'marketer');
  const ws = (await seedWorkspace(page.request, `First day ${suffix}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  await importCrm(page, ws);

  const campaignUrl = await seedCampaign(page.request, ws);
  await page.goto(campaignUrl);
  const send = page.getByTestId('campaign-send');
  // Six readers: Ada, Bob and Cy subscribed with an address; Dee has none, Eve opted out, Fay never said.
  await expect(send.getByTestId('audience-size')).toHaveText('6');
  await expect(send.getByTestId('will-reach')).toHaveText('Will go to 3 recipients');
  await expect(send).toContainText(
    'Left out: 1 unsubscribed, 1 whose consent is unknown, 1 without an email address in “email”',
  );
  await shot(page, 'first-day-02-readiness');

  await send.getByRole('button', { name: 'Send to 3 recipients' }).click();
  await page
    .getByRole('dialog', { name: 'Send to 3 recipients?' })
    .getByRole('button', { name: 'Send', exact: true })
    .click();
  const results = page.getByTestId('send-results');
  await expect(results.getByTestId('result-delivered')).toContainText('3');

  // Pressing Send again reaches nobody new, unless the sender asks for everyone in the dialog.
  await expect(send.getByTestId('will-reach')).toHaveText('Will go to 0 new recipients');
  await send.getByRole('button', { name: 'Send to 0 new recipients' }).click();
  const again = page.getByRole('dialog', { name: 'Send to 0 new recipients?' });
  await expect(again).toContainText('3 people in the audience already got this campaign in an earlier send');
  await shot(page, 'first-day-03-send-again');
  await again.getByRole('button', { name: 'Send again to everyone' }).click();
  await expect(page.getByTestId('sends-total')).toHaveText('6 / 6');
  await shot(page, 'first-day-04-both-sends');
});
