import { expect, test } from '@playwright/test';
import {
  acceptCookies,
  SAME_ORIGIN,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/** Actions › Duplicate on an item's screen: a new draft copy, opened at once; offered only to editors. */
test.beforeEach(async ({ context }) => acceptCookies(context));

test('duplicate a published post into a new draft, and a reader is not offered it', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'duplicate');
  const { id: ws } = await seedWorkspace(page.request, `Duplicate ${Date.now().toString(36)}`, {
    roles: { reader: { name: 'Reader', canEdit: [], canPublish: [], mustApprove: [] } },
  });
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'Spring launch',
    slug: 'spring-launch',
    body: '<p>Our <strong>spring</strong> range is here.</p>',
    tags: ['launch'],
  });
  const published = await page.request.post(
    `/api/v1/workspaces/${ws}/items/blog-post/${post.id}/publish/live`,
    {
      headers: SAME_ORIGIN,
      data: { publishRefs: false },
    },
  );
  expect(published.status(), await published.text()).toBe(200);

  await page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  await expect(page.getByTestId('item-heading')).toHaveText('Spring launch');
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Duplicate' })).toBeVisible();
  await shot(page, 'items-duplicate-01-menu');
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();

  // The copy opens: its own id, the title marked, the slug made unique, the body and tags as they were.
  await expect(page.getByText('Duplicated as “Spring launch (copy)”')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${ws}/blogging/blog-post/(?!${post.id})[A-Za-z0-9_-]+$`));
  await expect(page.getByTestId('item-heading')).toHaveText('Spring launch (copy)');
  await expect(page.getByText('spring-launch-copy')).toBeVisible();
  await expect(page.getByText('spring range is here.')).toBeVisible();
  // A new draft: not published, one version in its history.
  const drawer = page.getByTestId('item-drawer');
  await expect(drawer.getByText('Not published').first()).toBeVisible();
  await shot(page, 'items-duplicate-02-copy');
  await drawer.getByRole('tab', { name: 'History' }).click();
  await expect(drawer.getByText('Version 1', { exact: true })).toBeVisible();
  await expect(drawer.getByText(/^Version \d+$/)).toHaveCount(1);

  await page.goto(`/${ws}/blogging/blog-post`);
  await expect(page.getByTestId('item-title')).toHaveText(['Spring launch (copy)', 'Spring launch']);

  // A member who may only read blog posts is not offered it.
  const reader = await seedMember(browser, page.request, ws, 'Rae Reader', ['reader']);
  await reader.page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  await expect(reader.page.getByTestId('item-heading')).toHaveText('Spring launch');
  await reader.page.getByRole('button', { name: 'Actions' }).click();
  await expect(reader.page.getByRole('menuitem', { name: 'Change log' })).toBeVisible();
  await expect(reader.page.getByRole('menuitem', { name: 'Duplicate' })).toHaveCount(0);
  await reader.context.close();
});
