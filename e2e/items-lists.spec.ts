import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SAME_ORIGIN, acceptCookies, patchBasics, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

async function createItem(
  request: APIRequestContext,
  ws: string,
  schema: string,
  data: Record<string, unknown>,
) {
  const res = await request.post(`/api/v1/workspaces/${ws}/items/${schema}`, {
    headers: SAME_ORIGIN,
    data: { data },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; version: number };
}

async function setup(page: Page, domains: string[]) {
  await seedVerifiedUser(page.request, 'lister');
  const workspace = await seedWorkspace(page.request, `Lists ${Date.now().toString(36)}`);
  await patchBasics(page.request, workspace.id, { domains });
  return workspace.id;
}

test('pages of 12 with Load More, explore across schemas, the Add dialog, references in nested quick views', async ({
  page,
}) => {
  const ws = await setup(page, ['marketing', 'assets', 'blogging']);
  const copies = [];
  for (let i = 1; i <= 13; i++)
    copies.push(await createItem(page.request, ws, 'copy', { name: `Copy ${i}`, text: `Text ${i}` }));
  await createItem(page.request, ws, 'event', {
    name: 'Launch party',
    startTime: '2026-04-10T22:00:00.000Z',
    startTime_tz: 'America/New_York',
    endTime: '2026-04-11T02:00:00.000Z',
    endTime_tz: 'America/New_York',
    copy: [
      { id: copies[0].id, schemaType: 'copy', label: 'Copy 1' },
      { id: copies[1].id, schemaType: 'copy', label: 'Copy 2' },
    ],
  });

  // A schema's list: 12, then Load More for the 13th.
  await page.goto(`/${ws}/marketing/copy`);
  await expect(page.getByTestId('item-entry')).toHaveCount(12);
  await expect(page.getByTestId('item-title').first()).toHaveText('Copy 13');
  await page.getByRole('button', { name: 'Load More' }).click();
  await expect(page.getByTestId('item-entry')).toHaveCount(13);
  await expect(page.getByRole('button', { name: 'Load More' })).toHaveCount(0);

  // Explore mixes schemas; each entry names its type.
  await page.goto(`/${ws}/_items/all`);
  await expect(page.getByRole('heading', { name: 'All items' })).toBeVisible();
  const event = page.getByTestId('item-entry').filter({ hasText: 'Launch party' });
  await expect(event).toContainText('Event');
  await shot(page, 'items-20-explore');

  // Add: several editable types, grouped by domain, and the image upload option.
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an item' });
  await expect(dialog.getByText('Marketing', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Blogging', { exact: true })).toBeVisible();
  await expect(dialog.getByTestId('upload-images-option')).toBeVisible();
  await shot(page, 'items-21-add-dialog');
  await dialog.getByRole('link', { name: 'New Event' }).click();
  await expect(page).toHaveURL(`/${ws}/marketing/event/new`);

  // The reference field searches the items of its target schema.
  await page.getByLabel('Name', { exact: true }).fill('Summer party');
  await page.getByLabel('Start Time', { exact: true }).fill('2026/07/01 18:00');
  await page.getByLabel('End Time', { exact: true }).fill('2026/07/01 23:00');
  await page.getByRole('combobox', { name: 'Copy', exact: true }).click();
  await page.getByRole('combobox', { name: 'Copy', exact: true }).fill('Copy 13');
  await page.getByRole('option', { name: 'Copy 13' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  const summerId = new URL(page.url()).pathname.split('/').pop()!;
  const summer = await (await page.request.get(`/api/v1/workspaces/${ws}/items/event/${summerId}`)).json();
  expect(summer._references).toEqual({
    [copies[12].id]: expect.objectContaining({ schemaType: 'copy', label: 'Copy 13', fieldKey: 'copy' }),
  });

  // A quick view from the list shows the references; inside it they open nested panels, 5% wider each.
  await page.goto(`/${ws}/_items/all`);
  await page
    .getByTestId('item-entry')
    .filter({ hasText: 'Launch party' })
    .getByRole('button', { name: 'Quick view of Launch party' })
    .click();
  const first = page.getByTestId('quick-view-0');
  await expect(first.getByTestId('item-references')).toContainText('Copy 1');
  await first.getByTestId('item-references').getByRole('link', { name: 'Copy 2' }).click();
  const nested = page.getByTestId('quick-view-1');
  await expect(nested.getByTestId('quick-view-item')).toContainText('Text 2');
  const widths = await page
    .locator('.mantine-Drawer-content')
    .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
  expect(Math.round((widths[1] / widths[0]) * 75)).toBe(80);
  await shot(page, 'items-22-nested-quick-view');
  await nested.getByRole('link', { name: 'Details' }).click();
  await expect(page).toHaveURL(`/${ws}/marketing/copy/${copies[1].id}`);
  await expect(page.getByTestId('item-heading')).toHaveText('Copy 2');
});

test('a stale save is refused with a conflict and the latest version can be reloaded', async ({ page }) => {
  const ws = await setup(page, ['marketing']);
  const item = await createItem(page.request, ws, 'copy', { name: 'Original', text: 'Body' });
  await page.goto(`/${ws}/marketing/copy/${item.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('Mine');

  // Someone else saves version 2 meanwhile.
  const other = await page.request.put(`/api/v1/workspaces/${ws}/items/copy/${item.id}`, {
    headers: SAME_ORIGIN,
    data: { data: { name: 'Theirs', text: 'Body' }, baseVersion: 1 },
  });
  expect(other.status()).toBe(200);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByText(
      'Item update failed. Error: Someone else saved a newer version. Reload to see their changes.',
    ),
  ).toBeVisible();
  await expect(page.getByTestId('conflict-alert')).toBeVisible();
  await shot(page, 'items-23-conflict');
  await page.getByRole('button', { name: 'Reload the latest version' }).click();
  await expect(page.getByTestId('item-heading')).toHaveText('Theirs');
  await expect(page.getByTestId('item-version')).toHaveText('Version 2');
  await expect(page.locator('[data-item-form]')).toHaveAttribute('data-mode', 'view');
});

test('domains: the chooser, a landing schema, an unavailable domain and a disabled one on a single item', async ({
  page,
}) => {
  const ws = await setup(page, ['marketing', 'blogging']);
  const item = await createItem(page.request, ws, 'copy', { name: 'Orphan', text: 'x' });

  await page.goto(`/${ws}/_domains`);
  await expect(page.getByRole('heading', { name: 'Domains' })).toBeVisible();
  await page.getByRole('link', { name: /Blogging/ }).click();
  await expect(page).toHaveURL(`/${ws}/blogging/blog-post`);
  await expect(page.getByRole('heading', { name: 'All Blog Posts' })).toBeVisible();

  await page.goto(`/${ws}/assets`);
  await expect(page.getByText('Domain "assets" not available')).toBeVisible();

  await patchBasics(page.request, ws, { domains: ['blogging'] });
  await page.goto(`/${ws}/marketing/copy/${item.id}`);
  await expect(
    page.getByText(
      "This Item's domain has been disabled. Please ask the Workspace administrator to re-enable the domain",
    ),
  ).toBeVisible();
  await shot(page, 'items-24-domain-disabled');

  // One domain left: the chooser skips to it, and it jumps to its landing schema.
  await page.goto(`/${ws}/_domains`);
  await expect(page).toHaveURL(`/${ws}/blogging/blog-post`);
});

test('on a phone the item drawer opens from the Activity button', async ({ page }) => {
  const ws = await setup(page, ['marketing']);
  const item = await createItem(page.request, ws, 'copy', {
    name: 'Pocket banner',
    text: 'Small screens too.',
  });
  await page.request.post(`/api/v1/workspaces/${ws}/items/copy/${item.id}/comments`, {
    headers: SAME_ORIGIN,
    data: { text: 'Looks good on my phone.' },
  });
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/${ws}/marketing/copy/${item.id}`);
  await expect(page.getByTestId('item-heading')).toHaveText('Pocket banner');
  await expect(page.getByTestId('item-drawer')).toHaveCount(0);
  await shot(page, 'items-25-phone-item');
  await page.getByRole('button', { name: 'Activity' }).click();
  await page.getByRole('tab', { name: 'Comments' }).click();
  await expect(page.getByTestId('comment')).toContainText('Looks good on my phone.');
  await shot(page, 'items-26-phone-drawer');
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`/${ws}/marketing/copy`);
  await expect(page.getByTestId('item-entry')).toHaveCount(1);
  await shot(page, 'items-27-phone-list');
});
