import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  acceptCookies,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  itemField,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const roles = {
  editor: { name: 'Editor', canEdit: ['copy'], canPublish: [], mustApprove: [] },
  approver: { name: 'Approver', canEdit: [], canPublish: [], mustApprove: ['copy'] },
  publisher: { name: 'Publisher', canEdit: ['copy'], canPublish: ['copy'], mustApprove: [] },
  viewer: { name: 'Viewer', canEdit: [], canPublish: [], mustApprove: [] },
};

const field = itemField;

test('an item from creation to deletion: edit twice, comment, approve, publish, change, compare, unpublish, delete', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await seedVerifiedUser(page.request, 'manager');
  const workspace = await seedWorkspace(page.request, `Items ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, workspace.id, { domains: ['marketing'] });
  const ws = workspace.id;

  const editor = await seedMember(browser, page.request, ws, 'Eve Editor', ['editor']);
  const approver = await seedMember(browser, page.request, ws, 'Abe Approver', ['approver']);
  const publisher = await seedMember(browser, page.request, ws, 'Pia Publisher', ['publisher']);
  const viewer = await seedMember(browser, page.request, ws, 'Val Viewer', ['viewer']);

  // The editor starts from an empty explore view; one editable type, so Add goes straight to the form.
  const e = editor.page;
  await e.goto(`/${ws}/_items/all`);
  await expect(e.getByText('None so far')).toBeVisible();
  await shot(e, 'items-01-explore-empty');
  await e.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(e).toHaveURL(`/${ws}/marketing/copy/new`);
  await expect(e.getByTestId('item-heading')).toHaveText('New Copy');
  await field(e, 'name').fill('Spring sale headline');
  await field(e, 'text').fill('Everything 20% off this weekend.');
  await shot(e, 'items-02-new-item');
  await e.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(e).toHaveURL(new RegExp(`/${ws}/marketing/copy/(?!new)[A-Za-z0-9_-]+$`));
  const itemUrl = new URL(e.url()).pathname;
  const id = itemUrl.split('/').pop()!;
  await expect(e.getByTestId('item-heading')).toHaveText('Spring sale headline');
  await expect(e.getByTestId('item-version')).toHaveText('Version 1');

  // Second save.
  await e.getByRole('button', { name: 'Edit', exact: true }).click();
  await field(e, 'text').fill('Everything 25% off this weekend.');
  await e.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(e.getByTestId('item-version')).toHaveText('Version 2');
  await expect(e.getByText('Everything 25% off this weekend.')).toBeVisible();

  // A comment.
  await e.getByRole('tab', { name: 'Comments' }).click();
  await e.getByLabel('New comment').fill('Legal, please check the percentage.');
  await e.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(e.getByTestId('comment')).toContainText('Legal, please check the percentage.');
  await expect(e.getByTestId('comment')).toContainText('Eve Editor');
  await shot(e, 'items-03-single-item-comments');

  // The list shows the entry with its approval chip; the cards toggle shows it as a card.
  await e.goto(`/${ws}/marketing/copy`);
  await expect(e.getByRole('heading', { name: 'All Copies' })).toBeVisible();
  const entry = e.getByTestId('item-entry').first();
  await expect(entry.getByTestId('item-title')).toHaveText('Spring sale headline');
  await expect(entry).toContainText(`ID ${id}`);
  await expect(entry).toContainText('by Eve Editor');
  await expect(entry.getByTestId('approval-chip-approver')).toHaveText('Awaiting Approver');
  await shot(e, 'items-04-list');
  await e.locator('label[for$="-cards"]').click();
  await expect(e.getByTestId('item-cards')).toBeVisible();
  await shot(e, 'items-05-cards');
  await e.locator('label[for$="-list"]').click();
  await expect(e.getByTestId('item-rows')).toBeVisible();

  // Quick view: refuses to close while editing.
  await entry.getByRole('button', { name: 'Quick view of Spring sale headline' }).click();
  const quick = e.getByTestId('quick-view-0');
  await expect(quick.getByTestId('quick-view-item')).toBeVisible();
  await quick.getByRole('button', { name: 'Edit', exact: true }).click();
  await quick.getByRole('button', { name: 'Done' }).click();
  await expect(quick.getByText('Save or cancel to be able to close.')).toBeVisible();
  await shot(e, 'items-06-quick-view-editing');
  await quick.getByRole('button', { name: 'Cancel', exact: true }).click();
  await quick.getByRole('button', { name: 'Done' }).click();
  await expect(quick).toBeHidden();
  await editor.context.close();

  // The approver approves version 2.
  const a = approver.page;
  await a.goto(`/${ws}/_items/need-my-approval`);
  await expect(a.getByTestId('item-entry')).toHaveCount(1);
  await a.getByTestId('item-title').click();
  await expect(a).toHaveURL(itemUrl);
  await a.getByRole('tab', { name: 'Approvals' }).click();
  await a.getByLabel('Approval comment').fill('Looks right.');
  await a.getByRole('button', { name: 'Approve as Approver' }).click();
  await expect(a.getByTestId('approval-chip-approver').first()).toHaveText('Approved by Approver');
  await shot(a, 'items-07-approved');
  await approver.context.close();

  // The publisher publishes to Live: chip CURRENT.
  const p = publisher.page;
  await p.goto(itemUrl);
  await p.getByRole('button', { name: 'Actions' }).click();
  await p.getByRole('menuitem', { name: 'Publish…', exact: true }).click();
  await expect(p).toHaveURL(`${itemUrl}/publish`);
  await shot(p, 'items-08-publish');
  await p.getByRole('button', { name: 'Publish to Live' }).click();
  await expect(p).toHaveURL(itemUrl);
  await expect(p.getByTestId('item-heading').locator('..').getByTestId('publish-chip-live')).toHaveAttribute(
    'data-status',
    'CURRENT',
  );

  // An edit makes the published copy MODIFIED.
  await p.getByRole('button', { name: 'Edit', exact: true }).click();
  await field(p, 'name').fill('Spring sale headline (final)');
  await p.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(p.getByTestId('item-version')).toHaveText('Version 3');
  const chip = p.getByTestId('item-heading').locator('..').getByTestId('publish-chip-live');
  await expect(chip).toHaveAttribute('data-status', 'MODIFIED');
  await expect(chip).toHaveText('Live: Modified');
  await shot(p, 'items-09-modified');

  // The change log compares any two versions.
  await p.getByRole('button', { name: 'Actions' }).click();
  await p.getByRole('menuitem', { name: 'Change log' }).click();
  await expect(p).toHaveURL(`/${ws}/changelog/marketing/copy/${id}`);
  await expect(p.getByTestId('changelog-table').locator('tbody tr')).toHaveCount(3);
  await expect(p.locator('[data-mode="compare"]')).toBeVisible();
  await p.getByRole('combobox', { name: 'Compare' }).click();
  await p.getByRole('option', { name: 'Version 1' }).click();
  await expect(p).toHaveURL(/from=1&to=3/);
  await expect(p.getByText('Spring sale headline (final)').first()).toBeVisible();
  await expect(p.getByText('Everything 20% off this weekend.').first()).toBeVisible();
  await shot(p, 'items-10-changelog-compare');

  // The viewer sees the item read-only.
  const v = viewer.page;
  await v.goto(itemUrl);
  await expect(v.getByTestId('item-heading')).toHaveText('Spring sale headline (final)');
  await expect(v.getByText('Read-only: you cannot edit copies')).toBeVisible();
  await expect(v.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(v.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
  await shot(v, 'items-11-viewer-read-only');
  await v.goto(`/${ws}/_items/all`);
  await expect(v.getByTestId('item-entry')).toHaveCount(1);
  await expect(v.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
  await viewer.context.close();

  // Unpublish, then delete.
  await p.goto(itemUrl);
  await p.getByRole('button', { name: 'Actions' }).click();
  await p.getByRole('menuitem', { name: 'Unpublish…' }).click();
  await expect(p).toHaveURL(`${itemUrl}/un-publish`);
  await shot(p, 'items-12-unpublish');
  await p.getByRole('button', { name: 'Unpublish from Live' }).click();
  await expect(p).toHaveURL(itemUrl);
  await expect(p.getByTestId('item-heading').locator('..').getByTestId('publish-chip-live')).toHaveAttribute(
    'data-status',
    'NOT_PUBLISHED',
  );

  await p.getByRole('button', { name: 'Actions' }).click();
  await p.getByRole('menuitem', { name: 'Delete…' }).click();
  await expect(p).toHaveURL(`${itemUrl}/delete`);
  await expect(p.getByText('Delete “Spring sale headline (final)”?')).toBeVisible();
  await shot(p, 'items-13-delete');
  await p.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(p).toHaveURL(`/${ws}/marketing/copy`);
  await expect(p.getByText('None so far')).toBeVisible();

  // The history is kept; the item itself is gone and its screen returns to the list.
  const history = await p.request.get(`/api/v1/workspaces/${ws}/items/copy/${id}/history`);
  expect(history.status()).toBe(200);
  expect((await history.json()).versions).toHaveLength(3);
  await p.goto(itemUrl);
  await expect(p).toHaveURL(`/${ws}/marketing/copy`);
  await expect(p.getByText('Item not found')).toBeVisible();
  await expect(p.getByText('Instance not found')).toBeVisible();
  await publisher.context.close();
});

test('a published post keeps its slug when renamed, and publishing a slug changed by hand warns of the new URL', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'manager');
  const workspace = await seedWorkspace(page.request, `Slugs ${Date.now().toString(36)}`);
  await patchBasics(page.request, workspace.id, { domains: ['blogging'] });
  const ws = workspace.id;
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'Autumn tea launch 2026',
    body: '<p>Four new teas.</p>',
  });
  const published = await page.request.post(
    `/api/v1/workspaces/${ws}/items/blog-post/${post.id}/publish/live`,
    {
      headers: SAME_ORIGIN,
      data: { publishRefs: false },
    },
  );
  expect(published.status(), await published.text()).toBe(200);

  const itemUrl = `/${ws}/blogging/blog-post/${post.id}`;
  await page.goto(itemUrl);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await field(page, 'name').fill('Autumn tea launch 2026: now shipping');
  await expect(field(page, 'slug')).toHaveValue('autumn-tea-launch-2026');
  await field(page, 'slug').fill('');
  await expect(page.locator('[data-field="slug"]')).toContainText(
    'Derived from the name: autumn-tea-launch-2026-now-shipping',
  );
  await shot(page, 'items-14-slug-derived-hint');
  await field(page, 'slug').fill('autumn tea now shipping');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 2');
  await expect(page.locator('[data-field="slug"]')).toContainText('autumn-tea-now-shipping');

  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Publish…', exact: true }).click();
  await expect(page).toHaveURL(`${itemUrl}/publish`);
  await expect(page.getByTestId('url-change')).toHaveText(
    'The URL changes from autumn-tea-launch-2026 to autumn-tea-now-shipping',
  );
  await shot(page, 'items-15-publish-url-change');
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  // Published from the keyboard: the warning does not stand in the way.
  await page.getByRole('button', { name: 'Publish to Live' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(itemUrl);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Publish…', exact: true }).click();
  await expect(page.getByText('is already published to Live')).toBeVisible();
  await expect(page.getByTestId('url-change')).toHaveCount(0);
});
