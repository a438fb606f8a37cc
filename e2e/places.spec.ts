import { expect, test } from '@playwright/test';
import { acceptCookies, patchBasics, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * An event's address found through the (fake) geocoder the config starts, its point dragged
 * on the map, saved with geohashes, shown on the list and in view mode, and found again with Near.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

test('an event gets its address from the lookup and the map, and Near finds it', async ({ page }) => {
  await seedVerifiedUser(page.request, 'places');
  const { id: ws } = await seedWorkspace(page.request, `Places ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'] });

  await page.goto(`/${ws}/marketing/event/new`);
  await page.getByLabel('Name', { exact: true }).fill('Harbour gala');
  await page.getByLabel('Start Time', { exact: true }).fill('2026/07/01 18:00');
  await page.getByLabel('End Time', { exact: true }).fill('2026/07/01 23:00');

  // Search through the geocoder: debounced suggestions, a pick fills every part.
  const search = page.getByRole('textbox', { name: 'Search address' });
  await search.fill('opera');
  await expect(page.getByRole('option', { name: /Sydney Opera House/ })).toBeVisible();
  await shot(page, 'places-00-suggestions');
  await page.getByRole('option', { name: /Sydney Opera House/ }).click();
  await expect(page.getByLabel('City', { exact: true })).toHaveValue('Sydney');
  await expect(page.getByLabel('Street', { exact: true })).toHaveValue('Macquarie Street');
  await expect(page.getByLabel('Postal code', { exact: true })).toHaveValue('2000');
  await expect(page.getByLabel('Latitude', { exact: true })).toHaveValue('-33.8567844');
  const marker = page.locator('.leaflet-marker-icon');
  await marker.scrollIntoViewIfNeeded();
  await expect(marker).toBeVisible();
  await shot(page, 'places-01-picked');

  // Drag the marker: the point moves, the parts stay (and stay editable).
  const box = (await marker.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 50, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByLabel('Latitude', { exact: true })).not.toHaveValue('-33.8567844');
  await page.getByLabel('Unit', { exact: true }).fill('Forecourt');
  await shot(page, 'places-02-dragged');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const stored = await (await page.request.get(`/api/v1/workspaces/${ws}/items/event/${id}`)).json();
  const location = stored.data.location;
  expect(location).toMatchObject({ city: 'Sydney', unit: 'Forecourt', streetAddress: 'Macquarie Street' });
  expect(location.latitude).toBeLessThan(-33.8567844);
  expect(location.longitude).toBeGreaterThan(151.2152967);
  expect(location.geohash.p_12).toHaveLength(12);
  expect(location.geohashes[4]).toBe(location.geohash.p_5);

  // View mode: one line and a small map.
  const view = page.getByTestId('address-view');
  await expect(view.getByTestId('address-line')).toHaveText(
    '2 Macquarie Street, Forecourt, Sydney, New South Wales 2000, AU',
  );
  await expect(view.getByTestId('address-map')).toBeVisible();
  await view.scrollIntoViewIfNeeded();
  await shot(page, 'places-03-view');

  // The list shows the address; Near finds the event, nearest first, and not from far away.
  await page.goto(`/${ws}/marketing/event`);
  const entry = page.getByTestId('item-entry').filter({ hasText: 'Harbour gala' });
  await expect(entry.getByTestId('item-address')).toContainText('2 Macquarie Street, Forecourt, Sydney');
  await page.getByRole('button', { name: 'Near', exact: true }).click();
  // The centre comes from the lookup too: the picked place's point fills the coordinates.
  await page.getByRole('textbox', { name: 'Find a place' }).fill('sydney opera');
  await page.getByRole('option', { name: /Sydney Opera House/ }).click();
  await expect(page.getByLabel('Near latitude, longitude')).toHaveValue('-33.856784, 151.215297');
  await page.getByLabel('Near latitude, longitude').fill('-33.87, 151.21');
  await page.getByLabel('Radius (km)').fill('5');
  await shot(page, 'places-04-near-filter');
  const asked = page.waitForRequest((req) => new URL(req.url()).searchParams.get('near') === '-33.87,151.21');
  await page.getByRole('button', { name: 'Show nearby' }).click();
  await asked;
  await expect(entry.getByTestId('item-address')).toContainText('km away');
  await expect(page.getByRole('button', { name: 'Near · 5 km' })).toBeVisible();
  await shot(page, 'places-05-near');

  await page.getByRole('button', { name: 'Near · 5 km' }).click();
  await page.getByLabel('Near latitude, longitude').fill('48.8566, 2.3522');
  await page.getByRole('button', { name: 'Show nearby' }).click();
  await expect(page.getByTestId('items-empty')).toBeVisible();
  await expect(page.getByTestId('item-entry')).toHaveCount(0);
});
