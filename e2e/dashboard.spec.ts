import { expect, test } from '@playwright/test';
import {
  acceptCookies,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/** The workspace dashboard: counts from GET …/stats in charts with table views, changing after a publish. */
test.beforeEach(async ({ context }) => acceptCookies(context));

test('the dashboard shows counts that change after a publish', async ({ page }) => {
  await seedVerifiedUser(page.request, 'dashboard');
  const ws = (await seedWorkspace(page.request, `Dashboard ${Date.now().toString(36)}`)).id;
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    ids.push(
      (
        await seedItem(page.request, ws, 'blog-post', {
          name: `Post ${n}`,
          slug: `post-${n}`,
          body: '<p>Hi</p>',
        })
      ).id,
    );
  }
  await page.goto(`/${ws}/_items/all`);
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page).toHaveURL(`/${ws}/_dashboard`);
  await expect(page.getByTestId('stat-total')).toContainText('3');
  await expect(page.getByTestId('stat-published-30')).toContainText('0');
  await expect(page.getByTestId('chart-items').locator('.recharts-surface')).toBeVisible();
  await shot(page, 'dashboard-01-charts');

  const status = page.getByTestId('chart-status');
  await status.getByText('Table', { exact: true }).click();
  await expect(status.getByRole('row', { name: 'Live 0 0 3' })).toBeVisible();

  const published = await page.request.post(
    `/api/v1/workspaces/${ws}/items/blog-post/${ids[0]}/publish/live`,
    {
      headers: SAME_ORIGIN,
      data: { publishRefs: false },
    },
  );
  expect(published.status(), await published.text()).toBe(200);

  await page.getByRole('link', { name: 'All items', exact: true }).click();
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page.getByTestId('stat-published-30')).toContainText('1');
  await page.getByTestId('chart-status').getByText('Table', { exact: true }).click();
  await expect(page.getByTestId('chart-status').getByRole('row', { name: 'Live 1 0 2' })).toBeVisible();
  await shot(page, 'dashboard-02-after-publish');
});

test('a manager fetches the visualisation; the dashboard charts the latest result and the history', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'visual');
  const ws = (await seedWorkspace(page.request, `Visual ${Date.now().toString(36)}`)).id;
  await page.goto(`/${ws}/_dashboard`);
  await expect(page.getByText('No result fetched yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Fetch now' }).click();
  const card = page.getByTestId('visualisation');
  await expect(card.locator('.recharts-surface')).toBeVisible();
  await page.getByRole('button', { name: 'Fetch now' }).click();
  await card.getByText('Table', { exact: true }).click();
  await expect(card.getByRole('row')).toHaveCount(3);
  const latest = await (await page.request.get(`/api/v1/workspaces/${ws}/visualisation`)).json();
  await expect(card.getByRole('row').nth(1)).toContainText(JSON.stringify(latest.latest.result));
  await card.getByText('Chart', { exact: true }).click();
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-03-visualisation');
});

test('the dashboard charts audience sizes over time, recorded when the audience list measures them', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'sizes');
  const ws = (await seedWorkspace(page.request, `Sizes ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  await seedItem(page.request, ws, 'audience', {
    name: 'Everyone',
    criteria: { label: '1', predicate: 'and', children: [] },
  });
  await page.goto(`/${ws}/marketing/audience`);
  await expect(page.getByTestId('audience-list-size')).toHaveText('0');

  await page.goto(`/${ws}/_dashboard`);
  const card = page.getByTestId('chart-audiences');
  await expect(card.locator('.recharts-surface')).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-04-audience-sizes');
  await card.getByText('Table', { exact: true }).click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(card.getByRole('row', { name: `${today} 0` })).toBeVisible();
  await expect(card.getByRole('columnheader', { name: 'Everyone' })).toBeVisible();
});
