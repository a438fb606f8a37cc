import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { acceptCookies, BASE_URL, SAME_ORIGIN, shot } from './fixtures';
import { seedCampaign, seedCampaignBasics, startSend } from './campaign-seed';

/**
 * A campaign's A/B test on its screen: the experiment edited (variants, share, holdout, wait, rule)
 * and saved, then sent, and each variant's results compared with their intervals.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const LINK = `${BASE_URL}/healthz?from=experiment`;
const READERS = Array.from({ length: 8 }, (_, i) => `Reader${i + 1}`);

test('edit a campaign A/B test, send it, and compare its variants', async ({ page }) => {
  const basics = await seedCampaignBasics(page.request, { name: 'Experiment', readers: READERS, link: LINK });
  const campaign = await seedCampaign(page.request, basics);
  await page.goto(campaign.path);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();

  const field = page.getByTestId('experiment-field');
  await field.getByRole('switch', { name: 'Test variants on a share of the audience first' }).check();
  await expect(field.getByTestId('variant-A')).toBeVisible();
  await expect(field.getByTestId('variant-B')).toBeVisible();
  await field.getByTestId('variant-A').getByLabel('Subject').fill('Autumn is here');
  await field.getByTestId('variant-B').getByLabel('Subject').fill('Your autumn letter');
  await field.getByTestId('variant-B').getByLabel('Sender name').fill('Ada at Acme');
  await field.getByRole('button', { name: 'Add variant' }).click();
  await expect(field.getByTestId('variant-C')).toBeVisible();
  await field.getByRole('button', { name: 'Remove variant C' }).click();
  await expect(field.getByTestId('variant-C')).toBeHidden();

  // A share and a holdout over 100% say so before saving.
  await field.getByLabel('Test share (%)').fill('90');
  await field.getByLabel('Holdout (%)').fill('20');
  await expect(field.getByTestId('experiment-problem')).toHaveText(
    'The test share and the holdout together are at most 100%',
  );
  await field.getByLabel('Test share (%)').fill('50');
  await field.getByLabel('Holdout (%)').fill('25');
  await expect(field.getByTestId('experiment-problem')).toBeHidden();
  await field.getByLabel('Wait (hours)').fill('2');
  await field.getByRole('combobox', { name: 'Winner by' }).click();
  await page.getByRole('option', { name: 'Click rate' }).click();
  await shot(page, 'campaign-experiment-1-edit');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  await expect(page.getByText('2 variants on 50% of the audience, 25% held out')).toBeVisible();

  const saved = await page.request.get(`/api/v1/workspaces/${basics.ws}/items/campaign/${campaign.id}`);
  expect((await saved.json()).data.experiment).toMatchObject({
    variants: [{ subject: 'Autumn is here' }, { subject: 'Your autumn letter', fromName: 'Ada at Acme' }],
    testPercent: 50,
    holdoutPercent: 25,
    waitHours: 2,
    winnerBy: 'clicks',
  });

  // Sent: each variant goes to its share; the results compare them while the winner waits.
  await startSend(page.request, basics.ws, campaign.id);
  await page.reload();
  const results = page.getByTestId('experiment-results');
  await expect(results).toBeVisible({ timeout: 30_000 });
  await expect(results.getByTestId('variant-result-A')).toContainText('Variant A');
  await expect(results.getByTestId('variant-result-B')).toContainText('Ada at Acme');
  await expect(results.getByTestId('variant-result-holdout')).toContainText('Holdout');
  await expect(results.getByTestId('experiment-verdict')).toContainText(/winner by click rate is picked/);
  await results.scrollIntoViewIfNeeded();
  await shot(page, 'campaign-experiment-2-results');
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="experiment-results"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // Another send is refused while the test waits for its winner.
  const again = await page.request.post(`/api/v1/workspaces/${basics.ws}/campaigns/${campaign.id}/send`, {
    headers: SAME_ORIGIN,
    data: {},
  });
  expect(again.status()).toBe(409);

  // Once the test sends are done, the campaign list says it is testing, and when the winner is picked.
  await page.goto(`/${basics.ws}/marketing/campaign`);
  const status = page.getByTestId('campaign-status').first();
  await expect(async () => {
    await page.reload();
    await expect(status).toContainText('testing', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(status).toContainText('winner picked');
  await shot(page, 'campaign-experiment-3-list-testing');
});
