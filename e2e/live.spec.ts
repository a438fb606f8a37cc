import { expect, test } from '@playwright/test';
import {
  acceptCookies,
  patchBasics,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  itemField,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const roles = { editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] } };

const field = itemField;

test('two members: a save reaches the other tab’s list and item, presence shows, a lock is taken over', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await seedVerifiedUser(page.request, 'ada');
  const workspace = await seedWorkspace(page.request, `Live ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, workspace.id, { domains: ['blogging'] });
  const ws = workspace.id;
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'Harbour notes',
    body: '<p>Boats.</p>',
  });
  const bea = await seedMember(browser, page.request, ws, 'Bea Editor', ['editor']);
  const b = bea.page;
  const listUrl = `/${ws}/blogging/blog-post`;
  const itemUrl = `${listUrl}/${post.id}`;

  // Bea watches the list; Ada opens it too and both see each other.
  await b.goto(listUrl);
  await expect(b.getByText('Harbour notes', { exact: true })).toBeVisible();
  await page.goto(listUrl);
  await expect(b.getByRole('group', { name: 'Also on this list' }).getByRole('img')).toHaveCount(1);

  // Ada adds an item through the API: it appears in Bea's list without a reload.
  await seedItem(page.request, ws, 'blog-post', { name: 'Lighthouse diary', body: '<p>Light.</p>' });
  await expect(b.getByText('Lighthouse diary', { exact: true })).toBeVisible();

  // Both on the item: Bea sees Ada's avatar, and the field Ada edits.
  await b.goto(itemUrl);
  await page.goto(itemUrl);
  const onItem = b.getByRole('group', { name: 'Also on this item' });
  await expect(onItem.getByRole('img')).toHaveCount(1);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await field(page, 'name').fill('Harbour notes, revised');
  await expect(b.getByTestId('being-edited')).toContainText('Being edited by Ada Tester');
  await expect(onItem.getByRole('img', { name: /Ada Tester, editing/ })).toBeVisible();
  await shot(b, 'live-01-being-edited-presence');

  // Ada saves: Bea's open item (view mode) shows the new version without a reload.
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 2');
  await expect(b.getByTestId('item-version')).toHaveText('Version 2');
  await expect(b.locator('[data-field="name"]')).toContainText('Harbour notes, revised');
  await expect(b.getByTestId('being-edited')).toBeHidden();

  // Ada edits again; Bea takes over: Ada is told and keeps her unsaved text.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await field(page, 'name').fill('Harbour notes, third try');
  await expect(b.getByTestId('being-edited')).toBeVisible();
  await b.getByRole('button', { name: 'Take over' }).click();
  await expect(b.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  await expect(page.getByTestId('taken-over')).toContainText('Bea Editor took over editing');
  await expect(field(page, 'name')).toHaveValue('Harbour notes, third try');
  await expect(page.getByTestId('being-edited')).toContainText('Being edited by Bea Editor');
  await shot(page, 'live-02-taken-over');

  // Bea saves while Ada still edits: Ada is told who changed it, and keeps her edits.
  await field(b, 'name').fill('Harbour notes by Bea');
  await b.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(b.getByTestId('item-version')).toHaveText('Version 3');
  await expect(page.getByTestId('changed-elsewhere')).toContainText('Changed by Bea Editor at');
  await expect(field(page, 'name')).toHaveValue('Harbour notes, third try');
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('dialog', { name: 'What Bea Editor changed' })).toBeVisible();
  await shot(page, 'live-03-changed-elsewhere-compare');
  await page.keyboard.press('Escape');
  await bea.context.close();
});
