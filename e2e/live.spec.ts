import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  acceptCookies,
  patchBasics,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  itemField,
  SAME_ORIGIN,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const roles = { editor: { name: 'Editor', canEdit: ['blog-post'], canPublish: [], mustApprove: [] } };

const field = itemField;

/** The serious or critical axe findings (WCAG A and AA) inside the notice with `testId`. */
async function axeFindings(page: Page, testId: string) {
  const { violations } = await new AxeBuilder({ page })
    .include(`[data-testid="${testId}"]`)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

test('two members: a save reaches the other tab’s list and item, presence shows, a lock is taken over', async ({
  page,
  browser,
}) => {
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
  // Version 2, where Ada's edits start, beside Bea's version 3: the saved names, not Ada's unsaved one.
  const compare = page.getByRole('dialog', { name: 'What Bea Editor changed' });
  await expect(compare).toContainText('2 fields changed');
  await expect(compare).toContainText('Version 2 (your edits start from it)');
  await expect(compare).toContainText('Version 3');
  await expect(compare).toContainText('Harbour notes, revised');
  await expect(compare).toContainText('Harbour notes by Bea');
  await expect(compare).not.toContainText('Harbour notes, third try');
  await shot(page, 'live-03-changed-elsewhere-compare');
  await page.keyboard.press('Escape');

  // Ada reloads: the edits she made without the lock are offered back, and restored they still meet
  // the save's version check (Bea saved since).
  await page.reload();
  const offer = page.getByTestId('draft-offer');
  await expect(offer).toContainText('Restore your unsaved changes from');
  await expect(offer).toContainText('made on version 2');
  await shot(page, 'live-04-draft-offer');
  expect(await axeFindings(page, 'draft-offer')).toEqual([]);
  await offer.getByRole('button', { name: 'Restore' }).click();
  await expect(field(page, 'name')).toHaveValue('Harbour notes, third try');
  await expect(offer).toBeHidden();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('conflict-alert')).toBeVisible();
  await page.getByRole('button', { name: 'Reload the latest version' }).click();
  await expect(page.locator('[data-field="name"]')).toContainText('Harbour notes by Bea');
  await offer.getByRole('button', { name: 'Discard' }).click();
  await expect(offer).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('item-version')).toHaveText('Version 3');
  await expect(offer).toBeHidden();
  await bea.context.close();
});

test('an item deleted elsewhere is marked, in view mode and in edit mode', async ({ page, browser }) => {
  await seedVerifiedUser(page.request, 'ada');
  const workspace = await seedWorkspace(page.request, `Gone ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, workspace.id, { domains: ['blogging'] });
  const ws = workspace.id;
  const viewed = await seedItem(page.request, ws, 'blog-post', { name: 'Old pier', body: '<p>Pier.</p>' });
  const edited = await seedItem(page.request, ws, 'blog-post', { name: 'Old mill', body: '<p>Mill.</p>' });
  const bea = await seedMember(browser, page.request, ws, 'Bea Editor', ['editor']);
  const b = bea.page;
  const itemUrl = (id: string) => `/${ws}/blogging/blog-post/${id}`;
  const deleteItem = async (id: string) => {
    const res = await page.request.delete(`/api/v1/workspaces/${ws}/items/blog-post/${id}`, {
      headers: SAME_ORIGIN,
    });
    expect(res.status(), await res.text()).toBe(200);
  };

  // Bea's stream is open once Ada's presence reaches her (tabs tell it at least every 10 s).
  const open = async (id: string, adaAt = itemUrl(id)) => {
    await b.goto(itemUrl(id));
    await page.goto(adaAt);
    await expect(b.getByRole('group', { name: 'Also on this item' }).getByRole('img')).toHaveCount(1);
  };

  // Viewed (Ada on its approvals screen): the last version stays, marked, with nothing offered that acts on it.
  await open(viewed.id, `/${ws}/approvals/blogging/blog-post/${viewed.id}`);
  await expect(b.getByRole('button', { name: 'Actions' })).toBeVisible();
  await deleteItem(viewed.id);
  const notice = b.getByTestId('item-deleted');
  await expect(notice).toContainText('Deleted by Ada Tester at');
  await expect(notice).toContainText('can no longer be edited');
  await expect(b.locator('[data-field="name"]')).toContainText('Old pier');
  await expect(b.getByRole('button', { name: 'Actions' })).toBeHidden();
  await expect(b.getByRole('button', { name: 'Edit', exact: true })).toBeHidden();
  await expect(b.getByText('Read-only: this item was deleted')).toBeVisible();
  await shot(b, 'live-05-deleted-view');
  expect(await axeFindings(b, 'item-deleted')).toEqual([]);

  // Edited: the edits stay in the form; the notice says a save cannot succeed.
  await open(edited.id);
  await b.getByRole('button', { name: 'Edit', exact: true }).click();
  await field(b, 'name').fill('Old mill, rebuilt');
  await deleteItem(edited.id);
  await expect(notice).toContainText('Deleted by Ada Tester at');
  await expect(notice).toContainText('saving them cannot succeed');
  await expect(field(b, 'name')).toHaveValue('Old mill, rebuilt');
  await shot(b, 'live-06-deleted-edit');
  await bea.context.close();
});

test('a member signed out or deactivated elsewhere leaves the workspace at once', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'ada');
  const workspace = await seedWorkspace(page.request, `Revoke ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, workspace.id, { domains: ['blogging'] });
  const ws = workspace.id;
  const listUrl = `/${ws}/blogging/blog-post`;
  const bea = await seedMember(browser, page.request, ws, 'Bea Editor', ['editor']);
  const cy = await seedMember(browser, page.request, ws, 'Cy Editor', ['editor']);
  // A member's stream is open once Ada's presence reaches them (tabs tell it at least every 10 s).
  const openList = async (member: typeof bea) => {
    await member.page.goto(listUrl);
    await page.goto(listUrl);
    const onList = member.page.getByRole('group', { name: 'Also on this list' });
    await expect(onList.getByRole('img', { name: /Ada Tester/ })).toBeVisible();
  };

  // Bea's session ends (signed out from another tab of hers): her open list goes to the sign-in screen.
  await openList(bea);
  const signOut = await bea.page.request.post('/api/v1/auth/sign-out', { headers: SAME_ORIGIN });
  expect(signOut.status(), await signOut.text()).toBe(200);
  await expect(bea.page).toHaveURL(/\/auth\/welcome/);

  // Ada deactivates Cy: Cy's open list leaves the workspace.
  await openList(cy);
  const patch = await page.request.patch(`/api/v1/workspaces/${ws}/members/${cy.id}`, {
    headers: SAME_ORIGIN,
    data: { active: false },
  });
  expect(patch.status(), await patch.text()).toBe(200);
  await expect(cy.page).toHaveURL(/\/workspaces\/$/);
  await shot(cy.page, 'live-07-deactivated');
  await bea.context.close();
  await cy.context.close();
});

test('a stream that drops or is refused is opened again, and what was missed meanwhile is shown', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'ada');
  const workspace = await seedWorkspace(page.request, `Drop ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, workspace.id, { domains: ['blogging'] });
  const ws = workspace.id;
  const listUrl = `/${ws}/blogging/blog-post`;
  await seedItem(page.request, ws, 'blog-post', { name: 'Harbour notes', body: '<p>Boats.</p>' });
  const bea = await seedMember(browser, page.request, ws, 'Bea Editor', ['editor']);
  const b = bea.page;

  // Bea's first stream opens and ends at once (the browser reconnects by itself); the next is refused
  // (the app reopens it after a wait), and an item is added meanwhile; the third is the server's own.
  let streams = 0;
  await b.route(`**/api/v1/workspaces/${ws}/live?*`, async (route) => {
    streams += 1;
    if (streams === 1)
      return route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        body: 'retry: 200\n\nevent: ready\ndata: {}\n\n',
      });
    if (streams === 2) {
      await expect(b.getByText('Harbour notes', { exact: true })).toBeVisible();
      await seedItem(page.request, ws, 'blog-post', { name: 'Lighthouse diary', body: '<p>Light.</p>' });
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
    }
    return route.continue();
  });
  await b.goto(listUrl);
  await expect(b.getByText('Lighthouse diary', { exact: true })).toBeVisible();
  expect(streams).toBe(3);

  // The stream opened again carries the next write.
  await seedItem(page.request, ws, 'blog-post', { name: 'Tide tables', body: '<p>Tides.</p>' });
  await expect(b.getByText('Tide tables', { exact: true })).toBeVisible();
  await bea.context.close();
});
