import { expect, test, type Page } from '@playwright/test';
import {
  acceptCookies,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedMember,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  solidPng,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const roles = {
  legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['copy'] },
  writer: { name: 'Writer', canEdit: ['copy'], canPublish: [], mustApprove: [] },
};
const IMAGE_SET = 'marquee-assets-image-set';
const DESKTOP = { width: 1360, height: 860 };
const PHONE = { width: 390, height: 844 };

const entry = (page: Page, id: string) => page.locator(`[data-testid="release-entry"][data-item-id="${id}"]`);

/** Legal approves the item's current version on its approvals screen. */
async function approveAsLegal(page: Page, ws: string, id: string) {
  await page.goto(`/${ws}/approvals/marketing/copy/${id}`);
  await page.getByRole('button', { name: 'Approve as Legal' }).click();
  await expect(page.getByRole('button', { name: 'Approve as Legal' })).toHaveCount(0);
}

test('a release from a list selection: blocked until approved, a newer version pinned, published, reverted', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize(DESKTOP);
  await seedVerifiedUser(page.request, 'releaser');
  const { id: ws } = await seedWorkspace(page.request, `Releases ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  const spring = await seedItem(page.request, ws, 'copy', { name: 'Spring sale', text: '20% off' });
  const summer = await seedItem(page.request, ws, 'copy', { name: 'Summer sale', text: '30% off' });
  await seedItem(page.request, ws, 'copy', { name: 'Winter sale', text: 'Not this time' });
  const legal = await seedMember(browser, page.request, ws, 'Lee Legal', ['legal']);
  const writer = await seedMember(browser, page.request, ws, 'Wyn Writer', ['writer']);

  // Select two items in the list and add them to a new release.
  await page.goto(`/${ws}/marketing/copy`);
  await page.getByRole('checkbox', { name: 'Select Spring sale' }).check();
  await page.getByRole('checkbox', { name: 'Select Summer sale' }).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await expect(bar).toContainText('2 selected');
  await shot(page, 'releases-01-list-selection');
  await bar.getByRole('button', { name: 'Add to release' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add 2 items to a release' });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Spring launch');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Sales going out together');
  await shot(page, 'releases-02-add-dialog');
  await dialog.getByRole('button', { name: 'Create and add 2 items' }).click();
  await expect(dialog.getByTestId('added-to-release')).toContainText('2 items added to “Spring launch”');
  await dialog.getByRole('link', { name: 'Open release' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Spring launch' })).toBeVisible();
  await expect(bar).toHaveCount(0);

  // Both entries wait for Legal: the release lists what blocks it, entry by entry.
  const blockers = page.getByTestId('release-blockers');
  await expect(blockers).toContainText('2 of 2 entries are blocked');
  await expect(blockers).toContainText(
    'Spring sale: This item needs approval before publishing. Waiting for: Legal',
  );
  await expect(entry(page, spring.id).getByTestId('entry-approval-chip')).toHaveText('Awaiting approval');
  await expect(entry(page, spring.id)).toContainText('Version 1');
  const publish = page.getByRole('button', { name: 'Publish release' });
  await expect(publish).toBeDisabled();
  await expect(publish).toHaveAccessibleDescription(/Waiting for: Legal/);
  await shot(page, 'releases-03-blocked');

  // Spring is edited after it was pinned: the release offers its newer version.
  const saved = await page.request.put(`/api/v1/workspaces/${ws}/items/copy/${spring.id}`, {
    headers: SAME_ORIGIN,
    data: { data: { name: 'Spring sale', text: '25% off' }, baseVersion: 1 },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.reload();
  await expect(entry(page, spring.id).getByTestId('entry-newer')).toHaveText('Newer version exists');
  await shot(page, 'releases-04-newer-version');
  await entry(page, spring.id).getByRole('button', { name: 'Pin version 2' }).click();
  await expect(entry(page, spring.id)).toContainText('Version 2');
  await expect(entry(page, spring.id).getByTestId('entry-newer')).toHaveCount(0);

  // Legal approves both; the release can go out.
  await approveAsLegal(legal.page, ws, spring.id);
  await approveAsLegal(legal.page, ws, summer.id);
  await page.reload();
  await expect(page.getByTestId('release-blockers')).toHaveCount(0);
  await expect(entry(page, spring.id).getByTestId('entry-approval-chip')).toHaveText('Approved');
  await expect(entry(page, summer.id).getByTestId('entry-publish-chip')).toHaveText('Live: Not published');

  // The member without publish rights sees why they cannot publish, and the server refuses them too.
  const w = writer.page;
  await w.setViewportSize(DESKTOP);
  await w.goto(page.url());
  const refused = w.getByRole('button', { name: 'Publish release' });
  await expect(refused).toBeDisabled();
  await expect(w.getByTestId('release-blockers')).toContainText(
    'You do not have permission to publish any item type',
  );
  await expect(refused).toHaveAccessibleDescription(/You do not have permission to publish any item type/);
  const releaseId = page.url().split('/').pop()!;
  const denied = await w.request.post(`/api/v1/workspaces/${ws}/releases/${releaseId}/publish`, {
    headers: SAME_ORIGIN,
    data: {},
  });
  expect(denied.status()).toBe(403);
  await shot(w, 'releases-05-no-rights');

  // Publish, confirmed.
  await expect(publish).toBeEnabled();
  await publish.click();
  const confirm = page.getByRole('dialog', { name: 'Publish “Spring launch” to Live?' });
  await confirm.getByRole('button', { name: 'Publish release' }).click();
  await expect(page.getByTestId('release-state')).toHaveText('Published');
  await expect(entry(page, spring.id).getByTestId('entry-publish-chip')).toHaveText('Live: Current');
  await expect(entry(page, summer.id).getByTestId('entry-publish-chip')).toHaveText('Live: Current');
  await shot(page, 'releases-06-published');
  // The item list's chips agree.
  await page.goto(`/${ws}/marketing/copy`);
  const springRow = page.locator(`[data-testid="item-entry"][data-item-id="${spring.id}"]`);
  await expect(springRow.getByTestId('publish-chip-live')).toHaveText('Live: Current');
  await page.goBack();

  // Revert, confirmed: both were new in Live, so both are unpublished again.
  await page.getByRole('button', { name: 'Revert release' }).click();
  await page
    .getByRole('dialog', { name: 'Revert “Spring launch”?' })
    .getByRole('button', { name: 'Revert release' })
    .click();
  await expect(page.getByTestId('release-state')).toHaveText('Reverted');
  await expect(entry(page, spring.id).getByTestId('entry-publish-chip')).toHaveText('Live: Not published');
  await expect(entry(page, summer.id).getByTestId('entry-publish-chip')).toHaveText('Live: Not published');

  // The releases list shows it, with its stage, entry count and state.
  await page.getByRole('link', { name: 'Releases' }).first().click();
  const row = page.getByTestId('release-row').filter({ hasText: 'Spring launch' });
  await expect(row).toContainText('Live');
  await expect(row).toContainText('Reverted');
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
  await shot(page, 'releases-07-list');
  await page.setViewportSize(PHONE);
  await shot(page, 'releases-08-list-phone');
  await page.goto(`/${ws}/_releases/${releaseId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Spring launch' })).toBeVisible();
  await shot(page, 'releases-09-release-phone');
  await legal.context.close();
  await writer.context.close();
});

test('a release from the item screen, by keyboard: New release, Add to release, then its details saved', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await seedVerifiedUser(page.request, 'keyboard');
  const { id: ws } = await seedWorkspace(page.request, `Rel keys ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'], timezones: ['Europe/Paris'] });
  const item = await seedItem(page.request, ws, 'copy', { name: 'Autumn sale', text: 'Coats' });

  // New release from the releases screen, with a publish time in the workspace's zone.
  await page.goto(`/${ws}/_releases`);
  await expect(page.getByText('No releases yet')).toBeVisible();
  await shot(page, 'releases-10-empty');
  await page.getByRole('button', { name: 'New release' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New release' });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('Autumn');
  await dialog.getByRole('checkbox', { name: 'Set a publish time' }).check();
  await dialog.getByLabel('Publish at').fill('2027-09-01T09:00');
  await shot(page, 'releases-11-new-release');
  await dialog.getByRole('button', { name: 'Create release' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Autumn' })).toBeVisible();
  await expect(page.getByTestId('release-schedule')).toContainText(
    /^Scheduled for Wed Sep 1st, 2027 9:00 AM \(Europe\/Paris\) by .+\. It publishes with their rights/,
  );
  await expect(page.getByRole('button', { name: 'Publish release' })).toHaveAccessibleDescription(
    /This release has no entries/,
  );

  // Add to release from the item screen's actions, by keyboard.
  await page.goto(`/${ws}/marketing/copy/${item.id}`);
  await page.getByRole('button', { name: 'Actions' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Add to release…' }).focus();
  await page.keyboard.press('Enter');
  const add = page.getByRole('dialog', { name: 'Add 1 item to a release' });
  await add.getByRole('combobox', { name: 'Release' }).click();
  await page.getByRole('option', { name: /Autumn \(Live, 0 entries\)/ }).click();
  await add.getByRole('button', { name: 'Add 1 item' }).click();
  await add.getByRole('link', { name: 'Open release' }).click();
  await expect(entry(page, item.id)).toContainText('Autumn sale');

  // A stale save of the details is refused and offers to reload.
  const details = page.getByRole('form', { name: 'Release details' });
  await details.getByRole('textbox', { name: 'Description' }).fill('Coats and scarves');
  const current = await (
    await page.request.get(`/api/v1/workspaces/${ws}/releases/${page.url().split('/').pop()}`)
  ).json();
  const other = await page.request.patch(`/api/v1/workspaces/${ws}/releases/${current.id}`, {
    headers: SAME_ORIGIN,
    data: { name: 'Autumn drop', updatedAt: current.updatedAt },
  });
  expect(other.status(), await other.text()).toBe(200);
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(page.getByTestId('release-conflict')).toContainText(
    'This release was changed by someone else',
  );
  await shot(page, 'releases-12-conflict');
  await page.getByRole('button', { name: 'Reload the release' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Autumn drop' })).toBeVisible();
  await expect(details.getByRole('textbox', { name: 'Name' })).toHaveValue('Autumn drop');

  // Delete it, confirmed.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Delete “Autumn drop”?' })
    .getByRole('button', { name: 'Delete release' })
    .click();
  await expect(page).toHaveURL(`/${ws}/_releases`);
  await expect(page.getByText('No releases yet')).toBeVisible();
});

test('the release page adds, in one click, the items its entries reference that are not current in its stage', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await seedVerifiedUser(page.request, 'refs');
  const { id: ws } = await seedWorkspace(page.request, `Rel refs ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing', 'assets'] });
  const upload = await page.request.post(`/api/v1/workspaces/${ws}/files`, {
    headers: SAME_ORIGIN,
    multipart: {
      file: {
        name: 'cat.png',
        mimeType: 'image/png',
        buffer: await solidPng(64, 64, { r: 200, g: 90, b: 40 }),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const cat = await seedItem(page.request, ws, IMAGE_SET, {
    name: 'Cat',
    altText: 'A cat',
    masterImage: await upload.json(),
  });
  const email = await seedItem(page.request, ws, 'email', {
    name: 'Pets',
    subject: 'Pets',
    images: [{ id: cat.id, schemaType: IMAGE_SET, label: 'Cat' }],
  });
  const created = await page.request.post(`/api/v1/workspaces/${ws}/releases`, {
    headers: SAME_ORIGIN,
    data: { name: 'Pets', stage: 'live' },
  });
  const release = (await created.json()) as { id: string };
  const added = await page.request.post(`/api/v1/workspaces/${ws}/releases/${release.id}/entries`, {
    headers: SAME_ORIGIN,
    data: { entries: [{ schema: 'email', itemId: email.id, version: 1 }] },
  });
  expect(added.status(), await added.text()).toBe(200);

  await page.goto(`/${ws}/_releases/${release.id}`);
  const addRefs = page.getByRole('button', {
    name: 'Add the item it references that is not current in Live',
  });
  await expect(addRefs).toBeVisible();
  await shot(page, 'releases-13-references');
  // Publishing offers to take the references along, naming them.
  await page.getByRole('button', { name: 'Publish release' }).click();
  const confirm = page.getByRole('dialog', { name: 'Publish “Pets” to Live?' });
  await confirm.getByRole('checkbox', { name: 'Also publish the items it references' }).check();
  await expect(confirm.getByTestId('publish-refs')).toContainText('Cat');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await addRefs.click();
  await expect(entry(page, cat.id)).toContainText('Cat');
  await expect(entry(page, cat.id)).toContainText('Latest (version 1)');
  await expect(addRefs).toHaveCount(0);
});

test('a release’s publish time: a past one refused under its field, a schedule shown, a refused schedule explained', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  const me = await seedVerifiedUser(page.request, 'scheduler');
  const { id: ws } = await seedWorkspace(page.request, `Rel sched ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  const item = await seedItem(page.request, ws, 'copy', { name: 'Autumn sale', text: '10% off' });
  const newRelease = async (name: string) => {
    const created = await page.request.post(`/api/v1/workspaces/${ws}/releases`, {
      headers: SAME_ORIGIN,
      data: { name, stage: 'live' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const release = (await created.json()) as { id: string; updatedAt: string };
    const added = await page.request.post(`/api/v1/workspaces/${ws}/releases/${release.id}/entries`, {
      headers: SAME_ORIGIN,
      data: { entries: [{ schema: 'copy', itemId: item.id, version: 1 }] },
    });
    expect(added.status(), await added.text()).toBe(200);
    return (await added.json()) as { id: string; updatedAt: string };
  };

  // Set on the page: a time in the past is refused under the field; one to come is scheduled.
  const autumn = await newRelease('Autumn');
  await page.goto(`/${ws}/_releases/${autumn.id}`);
  const details = page.getByRole('form', { name: 'Release details' });
  await details.getByRole('checkbox', { name: 'Set a publish time' }).check();
  const publishAt = details.getByLabel('Publish at');
  await publishAt.fill('2021-03-01T09:00');
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(details.getByText('Choose a time in the future')).toBeVisible();
  await expect(publishAt).toHaveAttribute('aria-invalid', 'true');
  await publishAt.fill('2031-03-01T09:00');
  await details.getByRole('button', { name: 'Save details' }).click();
  const schedule = page.getByTestId('release-schedule');
  await expect(schedule).toContainText(
    new RegExp(`Scheduled for Sat Mar 1st, 2031 9:00 AM \\(.+\\) by ${me.name}`),
  );
  await expect(page.getByTestId('release-preview')).toContainText(
    `/delivery/v1/${ws}/live/items/copy?release=${autumn.id}`,
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'releases-14-scheduled');

  // Scheduled through the API a moment ahead: the item waits for Legal, so the job refuses and publishes nothing.
  const soon = await newRelease('Soon');
  const scheduled = await page.request.patch(`/api/v1/workspaces/${ws}/releases/${soon.id}`, {
    headers: SAME_ORIGIN,
    data: {
      publishAt: new Date(Date.now() + 2000).toISOString(),
      publishAtTz: 'UTC',
      updatedAt: soon.updatedAt,
    },
  });
  expect(scheduled.status(), await scheduled.text()).toBe(200);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v1/workspaces/${ws}/releases/${soon.id}`);
        return ((await res.json()) as { scheduleStatus: string }).scheduleStatus;
      },
      { timeout: 60_000 },
    )
    .toBe('refused');
  await page.goto(`/${ws}/_releases/${soon.id}`);
  const refused = page.getByRole('alert').filter({ hasText: 'The scheduled publish was refused' });
  await expect(refused).toContainText('Nothing was published.');
  await expect(refused).toContainText('This release cannot be published yet');
  await expect(refused.getByRole('button', { name: 'Reschedule' })).toBeVisible();
  // Publishing now waits for Legal too: the blockers below say so, and no 'Publish now' is offered yet.
  await expect(refused.getByRole('button', { name: 'Publish now' })).toHaveCount(0);
  await expect(page.getByTestId('release-blockers')).toContainText('Waiting for: Legal');
  await expect(page.getByTestId('release-state')).toHaveText('Draft');
  await shot(page, 'releases-15-refused');
  await refused.getByRole('button', { name: 'Reschedule' }).click();
  await expect(page.getByLabel('Publish at')).toBeFocused();

  // The list says where each schedule stands.
  await page.goto(`/${ws}/_releases`);
  await expect(
    page.getByTestId('release-schedule').filter({ hasText: 'Scheduled publish refused' }),
  ).toBeVisible();
  await expect(page.getByTestId('release-schedule').filter({ hasText: 'Scheduled for' })).toBeVisible();
  await shot(page, 'releases-16-list-schedules');
  await page.setViewportSize(PHONE);
  await shot(page, 'releases-17-list-schedules-phone');
  await page.goto(`/${ws}/_releases/${soon.id}`);
  await expect(
    page.getByRole('alert').filter({ hasText: 'The scheduled publish was refused' }),
  ).toBeVisible();
  await shot(page, 'releases-18-refused-phone');
});
