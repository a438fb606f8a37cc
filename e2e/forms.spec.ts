import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, patchBasics, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * An item of each built-in schema that the form can save is created and saved through the
 * form in Chromium (image sets need an uploaded master image, blog posts a rich-text body and services
 * a connection: those editors belong to the media and services screens).
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

let ws: string;

test.beforeEach(async ({ page }) => {
  await seedVerifiedUser(page.request, 'forms');
  const workspace = await seedWorkspace(page.request, `Forms ${Date.now().toString(36)}`);
  ws = workspace.id;
  await patchBasics(page.request, ws, {
    domains: ['marketing', 'assets', 'blogging', 'admin'],
    timezones: ['America/New_York', 'America/Chicago', 'Europe/London'],
  });
});

/** The form's input of a field, by its label (inputs carry their field's label as aria-label). */
const input = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openNew(page: Page, domain: string, schema: string, title: string) {
  await page.goto(`/${ws}/${domain}/${schema}/new`);
  // The email editor's chunk is the largest there is: on a busy machine it takes over ten seconds.
  await expect(page.getByTestId('item-heading')).toHaveText(`New ${title}`, { timeout: 30_000 });
}

/** Saves the new item and answers its stored JSON once the screen has moved to its id. */
async function saveNew(page: Page, domain: string, schema: string) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/${domain}/${schema}/(?!new)[A-Za-z0-9_-]+$`));
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const res = await page.request.get(`/api/v1/workspaces/${ws}/items/${schema}/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as {
    id: string;
    version: number;
    data: Record<string, unknown>;
    hasErrors: boolean;
  };
}

test('customer profile attribute: slug from the name, a failed required field, then tags', async ({
  page,
}) => {
  await openNew(page, 'marketing', 'customer-profile-attribute', 'Customer Profile Attribute');
  await input(page, 'Name').fill('Loyalty Tier');
  await expect(input(page, 'Key')).toHaveValue('loyalty-tier');
  await choose(page, 'Attribute Type', 'Categorical');
  // Options is required for a categorical attribute: saving is blocked and the field says so.
  await expect(page.getByText('Please fix validation errors before saving')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Show what to fix' }).click();
  await expect(page.getByText('Options is required')).toBeVisible();
  await shot(page, 'forms-01-required-failed');
  const tags = page.locator('[data-field="options"] input').first();
  await tags.fill('gold');
  await tags.press('Enter');
  await tags.fill('silver');
  await tags.press('Enter');
  await tags.fill('gold');
  await tags.press('Enter');
  await expect(page.getByText('Options is required')).toBeHidden();
  // A typed key becomes kebab-case.
  await input(page, 'Key').fill('Loyalty Tier Code');
  await input(page, 'Key').blur();
  const saved = await saveNew(page, 'marketing', 'customer-profile-attribute');
  expect(saved.data).toMatchObject({
    name: 'Loyalty Tier',
    key: 'loyalty-tier-code',
    attributeType: 'categorical',
    options: ['gold', 'silver'],
  });
});

test('behavioral event: a table of properties', async ({ page }) => {
  await openNew(page, 'marketing', 'behavioral-event', 'Behavioral Event');
  await input(page, 'Name').fill('Checkout Completed');
  const table = page.getByRole('table', { name: 'Properties' });
  await page.getByRole('button', { name: 'Add row' }).click();
  await page.getByRole('button', { name: 'Add row' }).click();
  const rows = table.locator('tbody tr');
  await rows.nth(0).getByLabel('Name', { exact: true }).fill('total');
  await rows.nth(0).getByRole('combobox', { name: 'Type', exact: true }).click();
  await page.getByRole('option', { name: 'Number', exact: true }).click();
  await rows.nth(1).getByLabel('Name', { exact: true }).fill('coupon');
  await rows.nth(1).getByRole('combobox', { name: 'Type', exact: true }).click();
  await page.getByRole('option', { name: 'String', exact: true }).click();
  await page.getByRole('button', { name: 'Move row 2 up' }).click();
  await shot(page, 'forms-02-table');
  const saved = await saveNew(page, 'marketing', 'behavioral-event');
  expect(saved.data).toMatchObject({
    name: 'Checkout Completed',
    key: 'checkout-completed',
    properties: [
      { name: 'coupon', type: 'string' },
      { name: 'total', type: 'number' },
    ],
  });
});

test('copy: a date with a time zone and a combination', async ({ page }) => {
  await openNew(page, 'marketing', 'copy', 'Copy');
  await input(page, 'Name').fill('Welcome banner');
  await input(page, 'Text').fill('Welcome to the spring collection.');
  await choose(page, 'Channel', 'Web');
  await choose(page, 'Start Time time zone', 'America/Chicago');
  await input(page, 'Start Time').fill('2026/03/01 09:30');
  await input(page, 'Start Time').blur();
  await page.getByRole('button', { name: 'Add combination' }).click();
  await page.getByLabel('Combination 1 name').fill('UK Mobile');
  await page.getByLabel('Combination 1 name').blur();
  await expect(page.getByLabel('Combination 1 name')).toHaveValue('uk-mobile');
  const combination = page.locator('[data-combination="0"]');
  await combination.getByRole('combobox', { name: 'Locale' }).click();
  await page.getByRole('option', { name: 'English (UK)' }).click();
  await page.getByRole('combobox', { name: 'Add override to combination 1' }).click();
  await page.getByRole('option', { name: 'Text', exact: true }).click();
  await combination.getByLabel('Text', { exact: true }).fill('Welcome, mate.');
  await shot(page, 'forms-03-copy-combination');
  const saved = await saveNew(page, 'marketing', 'copy');
  expect(saved.data).toMatchObject({
    name: 'Welcome banner',
    channel: 'web',
    startTime: '2026-03-01T15:30:00.000Z',
    startTime_tz: 'America/Chicago',
    combinations: [
      { _slug: 'uk-mobile', variations: { locale: 'en-GB' }, overrides: { text: 'Welcome, mate.' } },
    ],
  });
  // Shown back in its zone.
  await expect(page.locator('[data-field="startTime"]')).toContainText('Sun Mar 1st, 2026 9:30 AM');
});

test('email, event, audience, client task and test collection save through the form', async ({ page }) => {
  // Five schemas, one after the other.
  test.setTimeout(180_000);
  await openNew(page, 'marketing', 'email', 'Email Template');
  await input(page, 'Name').fill('Spring newsletter');
  await input(page, 'Subject').fill('Fresh arrivals');
  await input(page, 'Test Addresses').fill('not-an-address');
  await page.getByRole('button', { name: 'Show what to fix' }).click();
  await expect(
    page.getByText('Test Addresses must be comma-separated email addresses: not-an-address'),
  ).toBeVisible();
  await input(page, 'Test Addresses').fill('ana@example.com, bo@example.org');
  expect((await saveNew(page, 'marketing', 'email')).data).toMatchObject({
    subject: 'Fresh arrivals',
    testAddresses: 'ana@example.com, bo@example.org',
  });

  await openNew(page, 'marketing', 'event', 'Event');
  await input(page, 'Name').fill('Spring launch party');
  await input(page, 'Start Time').fill('2026/04/10 18:00');
  await input(page, 'End Time').fill('2026/04/10 22:00');
  await input(page, 'End Time').blur();
  const event = await saveNew(page, 'marketing', 'event');
  expect(event.data.startTime_tz).toMatch(/^(UTC|[A-Za-z_]+\/[A-Za-z_]+)$/);

  await openNew(page, 'marketing', 'audience', 'Audience');
  await input(page, 'Name').fill('Loyal shoppers');
  await input(page, 'Description').fill('Bought three times this year.');
  expect((await saveNew(page, 'marketing', 'audience')).data).toMatchObject({ name: 'Loyal shoppers' });

  await openNew(page, 'admin', 'client-task', 'Client Task');
  // Spec §5: Save is enabled only when the form is dirty (the result of isDisabled() was never checked).
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await input(page, 'Name').fill('Send the brief');
  await input(page, 'Due Date').fill('2026/05/15');
  await input(page, 'Due Date').blur();
  expect((await saveNew(page, 'admin', 'client-task')).data).toMatchObject({
    name: 'Send the brief',
    dueDate: '2026-05-15',
  });

  await openNew(page, 'admin', 'test-collection', 'Test Collection');
  await input(page, 'Name').fill('Copy smoke test');
  await choose(page, 'Schema', 'Copy (Marketing)');
  await expect(page.getByText('Loaded default code')).toBeVisible();
  const collection = await saveNew(page, 'admin', 'test-collection');
  expect(collection.data).toMatchObject({ name: 'Copy smoke test', schema: 'copy' });
  expect(String(collection.data.code)).toContain('return true;');
  await shot(page, 'forms-04-test-collection');

  // A second save of a saved item is version 2.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await input(page, 'Name').fill('Copy smoke test (v2)');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 2');
});
