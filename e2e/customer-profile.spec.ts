import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
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
 * A customer found by email on the Customers screen, opened: attributes under their labels, consent,
 * the audiences it is in and its timeline (paged, filtered by event); an attribute edited; then erased
 * and kept on the suppression list, which Settings › Suppression list shows. Seeded through the API.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

/** Serious and critical axe violations of the page as it is, and its number of level-one headings. */
async function accessibilityProblems(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const h1s = await page.locator('h1').count();
  return {
    violations: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    h1s,
  };
}

test('find a customer by email, read the timeline, edit, erase and see the suppression list', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'prof');
  const { id: ws } = await seedWorkspace(page.request, `Profiles ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  for (const [name, key, attributeType] of [
    ['Email address', 'email', 'string'],
    ['First name', 'name', 'string'],
    ['City', 'city', 'string'],
    ['Lifetime value', 'ltv', 'number'],
  ]) {
    await seedItem(page.request, ws, 'customer-profile-attribute', { name, key, attributeType });
  }
  await seedItem(page.request, ws, 'behavioral-event', {
    name: 'Page view',
    key: 'visit',
    properties: [{ name: 'url', type: 'string' }],
  });
  await seedItem(page.request, ws, 'behavioral-event', {
    name: 'Purchase',
    key: 'purchase',
    properties: [{ name: 'amount', type: 'number' }],
  });
  const csv = [
    'id,email,name,city,ltv,emailConsent',
    'crm-1001,maria.lopez@example.com,Maria,Madrid,420,subscribed',
    'crm-1002,tom.baker@example.org,Tom,Leeds,80,',
    'crm-1003,maria.k@sample.net,Maria,Oslo,15,unsubscribed',
  ].join('\n');
  const imported = await page.request.post(`/api/v1/workspaces/${ws}/profiles/import`, {
    headers: { ...SAME_ORIGIN, 'content-type': 'text/csv' },
    data: csv,
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect((await imported.json()).batch).toMatchObject({ processed: 3, failed: 0 });
  const events = ['profileId,event,at,url,amount'];
  for (let n = 1; n <= 30; n++) {
    const at = new Date(Date.UTC(2026, 9, 1, 9, n)).toISOString();
    events.push(`crm-1001,visit,${at},/products/${n},`);
  }
  events.push('crm-1001,purchase,2026-10-01T09:15:30Z,,129.5', 'crm-1002,visit,2026-10-02T10:00:00Z,/,');
  const eventsRes = await page.request.post(`/api/v1/workspaces/${ws}/customer-events/import`, {
    headers: { ...SAME_ORIGIN, 'content-type': 'text/csv' },
    data: events.join('\n'),
  });
  expect(eventsRes.status(), await eventsRes.text()).toBe(201);
  expect((await eventsRes.json()).batch).toMatchObject({ processed: 32, failed: 0 });
  await seedItem(page.request, ws, 'audience', {
    name: 'Big spenders',
    criteria: {
      label: '1',
      predicate: 'and',
      children: [
        {
          type: 'attribute',
          predicate: {
            attribute: {
              schemaType: 'customer-profile-attribute',
              id: await attributeId(page.request, ws, 'ltv'),
              label: 'Lifetime value',
            },
          },
          operator: '>=',
          value: 100,
        },
      ],
    },
  });

  await page.goto(`/${ws}/marketing/_customers`);
  const search = page.getByRole('textbox', { name: 'Search customers' });
  await search.fill('maria.lopez@example');
  const table = page.getByTestId('profiles-table');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('crm-1001');
  await shot(page, 'customer-profile-01-search');

  await table.getByRole('link', { name: 'crm-1001' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/_customers/crm-1001$`));
  const attributes = page.getByTestId('profile-attributes');
  await expect(attributes.getByRole('row', { name: /Email address/ })).toContainText(
    'maria.lopez@example.com',
  );
  await expect(page.getByTestId('email-consent')).toHaveText('subscribed');
  await expect(page.getByTestId('profile-audiences')).toHaveText('Big spenders');
  const timeline = page.getByTestId('profile-timeline');
  await expect(timeline.getByRole('row')).toHaveCount(25);
  await expect(timeline.getByRole('row').first()).toContainText('/products/30');
  await expect(timeline.getByRole('row').nth(15)).toContainText('Purchase');
  await shot(page, 'customer-profile-02-profile');
  expect(await accessibilityProblems(page)).toEqual({ violations: [], h1s: 1 });
  await page.getByRole('button', { name: 'Load More' }).click();
  await expect(timeline.getByRole('row')).toHaveCount(31);
  await page.getByRole('combobox', { name: 'Filter by event' }).click();
  await page.getByRole('option', { name: 'Purchase', exact: true }).click();
  await expect(timeline.getByRole('row')).toHaveCount(1);
  await expect(timeline).toContainText('amount: 129.5');

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await attributes.getByRole('textbox', { name: 'City' }).fill('Sevilla');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(attributes.getByRole('row', { name: /City/ })).toContainText('Sevilla');
  await shot(page, 'customer-profile-03-edited');

  await page.getByRole('button', { name: 'Erase customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase customer' });
  await expect(dialog.getByRole('checkbox')).toBeChecked();
  await shot(page, 'customer-profile-04-erase');
  await dialog.getByRole('button', { name: 'Erase customer' }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/_customers$`));
  await expect(page.getByText('Customer erased with 31 events')).toBeVisible();
  await expect(page.getByTestId('profiles-table')).not.toContainText('crm-1001');
  await expect(page.getByTestId('profiles-table')).toContainText('crm-1002');
  const gone = await page.request.get(`/api/v1/workspaces/${ws}/profiles/crm-1001`);
  expect(gone.status()).toBe(404);

  await page.goto(`/${ws}/_settings/suppressions`);
  const list = page.getByTestId('suppressions-table');
  await expect(list.getByRole('row', { name: /crm-1001/ })).toContainText('Erased');
  await shot(page, 'customer-profile-05-suppressions');
  expect(await accessibilityProblems(page)).toEqual({ violations: [], h1s: 1 });
});

async function attributeId(request: import('@playwright/test').APIRequestContext, ws: string, key: string) {
  const res = await request.get(`/api/v1/workspaces/${ws}/audiences/definitions`);
  expect(res.status(), await res.text()).toBe(200);
  const { attributes } = (await res.json()) as { attributes: { id: string; key: string }[] };
  return attributes.find((a) => a.key === key)!.id;
}
