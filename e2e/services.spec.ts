import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, patchBasics, seedMember, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/**
 * A manager connects Facebook through the 600 × 600 pop-up (against the fake provider the
 * config starts), sees 'Connected as', saves, checks the connection; a marketer picks three interests
 * for an audience and saves; the manager deletes the service.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

/** A new service item named after the provider, connected through the 600 × 600 pop-up. */
async function connectThroughPopup(page: Page, ws: string, provider: string, account: string) {
  await page.goto(`/${ws}/admin/service/new`);
  await page.getByLabel('Name', { exact: true }).fill(`Team ${provider}`);
  await page.getByPlaceholder('Pick a provider').click();
  await page.getByRole('option', { name: provider, exact: true }).click();
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Authenticate', exact: true }).click();
  const popup = await popupOpened;
  expect(popup.viewportSize()).toEqual({ width: 600, height: 600 });
  // Polled rather than awaited as an event: the fake provider can finish and the pop-up close before a
  // 'close' listener is attached, and the wait then ran into the test's timeout (CI, once).
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(page.getByText(`Connected as ${account}`)).toBeVisible();
  await expect(page.getByTestId('service-status')).toHaveText('Service Connected');
}

test('a service is connected through the pop-up, checked, used for interests and deleted', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'services');
  const { id: ws } = await seedWorkspace(page.request, `Services ${Date.now().toString(36)}`, {
    roles: { marketer: { name: 'Marketer', canEdit: ['audience'], canPublish: [], mustApprove: [] } },
  });
  await patchBasics(page.request, ws, { domains: ['admin', 'marketing'] });

  await connectThroughPopup(page, ws, 'Facebook', 'Fiona Facebook');
  // Details are picked from the lists Facebook returned: the ad account and the page.
  await page.getByRole('combobox', { name: 'Ad account' }).click();
  await page.getByRole('option', { name: 'Acme Ads (act_7001)' }).click();
  await page.getByRole('combobox', { name: 'Page', exact: true }).click();
  await page.getByRole('option', { name: 'Acme Events (1002)' }).click();
  await shot(page, 'services-00-connected');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const stored = await (await page.request.get(`/api/v1/workspaces/${ws}/items/service/${id}`)).json();
  expect(stored.data.connection).toMatchObject({
    provider: 'facebook',
    profile: { name: 'Fiona Facebook' },
    serviceDetails: { accountId: 'act_7001', pageId: '1002' },
  });
  expect(stored.data.connection.encTokens).toMatch(/^v1\./);
  await expect(page.getByText('Connected as Fiona Facebook')).toBeVisible();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Check Connection' }).click();
  await expect(page.getByTestId('service-status')).toHaveText('Service Connected');
  await shot(page, 'services-01-checked');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();

  // A marketer searches the workspace's Facebook connection for interests.
  const marketer = await seedMember(browser, page.request, ws, 'Mara Marketer', ['marketer']);
  const m = marketer.page;
  await m.goto(`/${ws}/marketing/audience/new`);
  await m.getByLabel('Name', { exact: true }).fill('Film fans');
  const interests = m.getByTestId('social-interests');
  await expect(interests.getByText('None Selected')).toBeVisible();
  const search = interests.getByPlaceholder('Search interests');
  await search.fill('movie');
  await m.getByRole('option', { name: 'Movies', exact: true }).click();
  await search.fill('movie th');
  await m.getByRole('option', { name: 'Movie theater' }).click();
  await search.fill('football');
  await m.getByRole('option', { name: /Association football/ }).click();
  await expect(interests.getByTestId('interest-chip')).toHaveCount(3);
  await shot(m, 'services-02-interests');
  await m.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(m.getByTestId('item-version')).toHaveText('Version 1');
  const audienceId = new URL(m.url()).pathname.split('/').pop()!;
  const audience = await (
    await m.request.get(`/api/v1/workspaces/${ws}/items/audience/${audienceId}`)
  ).json();
  expect(audience.data.socialInterests).toEqual([
    { id: '6003139266461', name: 'Movies' },
    { id: '6003348604581', name: 'Movie theater' },
    { id: '6003107902433', name: 'Association football (Soccer)' },
  ]);
  await marketer.context.close();

  // The manager deletes the service: revoked at the provider and cleared on the server.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Delete Service' }).click();
  await expect(page.getByRole('button', { name: 'Authenticate', exact: true })).toBeVisible();
  await expect(page.getByText('Connected as')).toHaveCount(0);
  await shot(page, 'services-03-deleted');
  const cleared = await (await page.request.get(`/api/v1/workspaces/${ws}/items/service/${id}`)).json();
  expect(cleared.data.connection).toEqual({ provider: 'facebook' });
  // The screen reloads the version the delete saved, so saving the form afterwards is not stale.
  await expect(page.getByText('Version 2', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 3');
});

test('X connects through OAuth 1.0a in the pop-up, is checked, searched for interests and deleted', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'services-x');
  const { id: ws } = await seedWorkspace(page.request, `Services X ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['admin', 'marketing'] });

  await connectThroughPopup(page, ws, 'X', 'Xavier X');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  const id = new URL(page.url()).pathname.split('/').pop()!;

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Check Connection' }).click();
  await expect(page.getByTestId('service-status')).toHaveText('Service Connected');
  await shot(page, 'services-10-x-checked');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();

  // The Ads API's interest search, signed with the stored token and secret.
  await page.goto(`/${ws}/marketing/audience/new`);
  await page.getByLabel('Name', { exact: true }).fill('Soccer fans');
  const interests = page.getByTestId('social-interests');
  await interests.getByText('X', { exact: true }).click();
  await interests.getByPlaceholder('Search interests').fill('sports');
  await page.getByRole('option', { name: /Sports\/Soccer/ }).click();
  await expect(interests.getByTestId('interest-chip')).toHaveCount(1);
  await shot(page, 'services-11-x-interests');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  const audienceId = new URL(page.url()).pathname.split('/').pop()!;
  const audience = await (
    await page.request.get(`/api/v1/workspaces/${ws}/items/audience/${audienceId}`)
  ).json();
  expect(audience.data.socialInterests).toEqual([{ id: '16', name: 'Sports/Soccer', type: 'INTEREST' }]);

  await page.goto(`/${ws}/admin/service/${id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('button', { name: 'Delete Service' }).click();
  await expect(page.getByRole('button', { name: 'Authenticate', exact: true })).toBeVisible();
  const cleared = await (await page.request.get(`/api/v1/workspaces/${ws}/items/service/${id}`)).json();
  expect(cleared.data.connection).toEqual({ provider: 'x' });
});
