import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * Customer data imported through the Customers screen (bad rows reported, the batch watched to
 * the end), then an audience built with the rule builder — attribute rule, behavior rule and a nested
 * NOT group — whose live size follows the rules, with its sample, saved and read back unchanged.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function importFile(page: Page, kind: 'Profiles' | 'Events', name: string, csv: string) {
  await page.getByRole('button', { name: 'Import', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import customer data' });
  await dialog.getByText(kind, { exact: true }).click();
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(dialog.getByTestId('import-preview')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('batch-progress')).toHaveAttribute('data-status', 'done with errors');
  return dialog;
}

test('import customers, build an audience with a live size, save and read it back', async ({ page }) => {
  test.setTimeout(240_000);
  await seedVerifiedUser(page.request, 'aud');
  const { id: ws } = await seedWorkspace(page.request, `Audiences ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'Age',
    key: 'age',
    attributeType: 'number',
  });
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'Tier',
    key: 'tier',
    attributeType: 'categorical',
    options: ['gold', 'silver', 'bronze'],
  });
  await seedItem(page.request, ws, 'behavioral-event', {
    name: 'Purchase',
    key: 'purchase',
    properties: [{ name: 'amount', type: 'number' }],
  });

  await page.goto(`/${ws}/marketing/_customers`);
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
  const profiles = [
    'id,age,tier',
    'u1,35,gold',
    'u2,42,silver',
    'u3,25,bronze',
    'u4,abc,gold',
    'u5,60,silver',
  ].join('\n');
  let dialog = await importFile(page, 'Profiles', 'profiles.csv', profiles);
  await expect(dialog.getByTestId('batch-errors')).toContainText('age: "abc" is not a number');
  await expect(dialog.getByTestId('batch-progress')).toContainText('4 processed, 1 failed');
  await shot(page, 'audiences-01-import-profiles');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const at = new Date(Date.now() - 3_600_000).toISOString();
  const events = [
    'profileId,event,at,amount',
    `u1,purchase,${at},10`,
    `u2,purchase,${at},50`,
    `u5,purchase,${at},5`,
    'u9,purchase,not-a-date,1',
  ].join('\n');
  dialog = await importFile(page, 'Events', 'events.csv', events);
  await expect(dialog.getByTestId('batch-errors')).toContainText('at: "not-a-date" is not a date');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('profiles-table')).toContainText('u5');
  await shot(page, 'audiences-02-customers');
  await page.getByRole('link', { name: 'u2', exact: true }).click();
  await expect(page.getByTestId('profile-timeline')).toContainText('Purchase');

  await page.goto(`/${ws}/_settings/batches`);
  await expect(page.locator('[data-status="done with errors"]')).toHaveCount(2);
  await expect(page.getByTestId('batch-errors').first()).toBeVisible();
  await shot(page, 'audiences-03-batches');

  await page.goto(`/${ws}/marketing/audience/new`);
  await page.getByLabel('Name', { exact: true }).fill('Loyal non-gold buyers');
  const builder = page.getByTestId('criteria-builder');
  const size = page.getByTestId('audience-size');

  await builder.getByRole('button', { name: 'Attribute rule' }).click();
  await choose(page, 'Attribute of rule 1.1', 'Age');
  await choose(page, 'Operator of rule 1.1', '>=');
  await page.getByLabel('Value of rule 1.1', { exact: true }).fill('30');
  await expect(size).toContainText('3 of 4 profiles match');

  await builder.getByRole('button', { name: 'Behavior rule' }).first().click();
  await choose(page, 'Event of rule 1.2', 'Purchase');
  await choose(page, 'Look-back unit of rule 1.2', 'days');
  await page.getByLabel('Look-back of rule 1.2', { exact: true }).fill('30');
  await expect(size).toContainText('3 of 4 profiles match');

  await builder.getByRole('button', { name: 'Group' }).first().click();
  await page.getByLabel('Predicate of group 1.3').getByText('NOT').click();
  await builder.locator('[data-group="1.3"]').getByRole('button', { name: 'Attribute rule' }).click();
  await choose(page, 'Attribute of rule 1.3.1', 'Tier');
  await choose(page, 'Value of rule 1.3.1', 'gold');
  await expect(size).toContainText('2 of 4 profiles match');

  // The size follows a rule's change.
  await page.getByLabel('Value of rule 1.1', { exact: true }).fill('50');
  await expect(size).toContainText('1 of 4 profiles match');
  await shot(page, 'audiences-04-builder');

  await size.getByRole('button', { name: 'Sample' }).click();
  await expect(page.getByTestId('audience-sample')).toContainText('u5');
  await shot(page, 'audiences-05-sample');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/audience/(?!new)[A-Za-z0-9_-]+$`));
  const id = page.url().split('/').pop()!;
  const saved = (await (await page.request.get(`/api/v1/workspaces/${ws}/items/audience/${id}`)).json()).data
    .criteria;
  expect(saved).toMatchObject({
    label: '1',
    predicate: 'and',
    children: [
      { type: 'attribute', operator: '>=', value: 50 },
      {
        type: 'event',
        lookBackUnit: 'days',
        lookBackValue: 30,
        aggregator: 'COUNT',
        aggregatorCondition: '>=',
        aggregatorValue: 1,
      },
      { label: '1.3', predicate: 'not', children: [{ type: 'attribute', operator: '==', value: 'gold' }] },
    ],
  });

  await page.reload();
  await expect(page.getByTestId('criteria-builder')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Attribute of rule 1.3.1' })).toHaveValue('Tier');
  await expect(page.getByLabel('Value of rule 1.1', { exact: true })).toHaveValue('50');
  await expect(page.getByTestId('audience-size')).toContainText('1 of 4 profiles match');
  const reloaded = (await (await page.request.get(`/api/v1/workspaces/${ws}/items/audience/${id}`)).json())
    .data.criteria;
  expect(reloaded).toEqual(saved);
  await shot(page, 'audiences-06-reloaded');

  // The audience list shows each audience's size.
  await page.goto(`/${ws}/marketing/audience`);
  await expect(page.getByTestId('audience-list-size')).toHaveText('1');
  await shot(page, 'audiences-07-list');
});
