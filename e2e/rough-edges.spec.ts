import http from 'node:http';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  BASE_URL,
  SAME_ORIGIN,
  acceptCookies,
  patchBasics,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  solidPng,
} from './fixtures';

// Rough edges a marketer met: one test per edge, each looked at in 1280 × 800 and 390 × 844.
test.beforeEach(async ({ context }) => acceptCookies(context));

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SIZES = [
  ['1280', DESKTOP],
  ['390', PHONE],
] as const;

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'element has a box').not.toBeNull();
  return box!;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Whether `inner` lies within `outer`'s left and right edges (a pixel of rounding allowed), once the
 * layout settles: at phone width the shell animates its main area wider as the navbar leaves.
 */
async function expectWithinWidth(inner: Locator, outer: Locator) {
  await expect(async () => {
    const [i, o] = [await boxOf(inner), await boxOf(outer)];
    expect(i.x).toBeGreaterThanOrEqual(o.x - 1);
    expect(i.x + i.width).toBeLessThanOrEqual(o.x + o.width + 1);
  }).toPass();
}

/**
 * Neither the table nor the page is wider than what shows it: nothing is clipped on the right.
 * Checked until the layout settles, as above.
 */
async function expectNoSidewaysScroll(table: Locator) {
  await expect(async () => {
    const fit = await table.evaluate((el) => ({
      table: el.scrollWidth,
      shown: el.parentElement!.clientWidth,
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(fit.table).toBeLessThanOrEqual(fit.shown);
    expect(fit.page).toBeLessThanOrEqual(fit.viewport);
  }).toPass();
}

/** A workspace of its own with the given domains, its creator (a manager holding admin) signed in. */
async function seedMarketer(page: Page, prefix: string, domains: string[], roles?: Record<string, unknown>) {
  const user = await seedVerifiedUser(page.request, prefix);
  const workspace = await seedWorkspace(page.request, `${prefix} ${Date.now().toString(36)}`, { roles });
  await patchBasics(page.request, workspace.id, { domains, stages: ['Live'] });
  return { user, ws: workspace.id };
}

/** A plain PNG of one colour. */
const png = (r: number, g: number, b: number) => solidPng(640, 480, { r, g, b });

async function uploadImages(page: Page, count: number) {
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByTestId('upload-images-option').click();
  const dialog = page.getByRole('dialog', { name: 'Upload images' });
  const files = await Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `a-rather-long-campaign-file-name-${i + 1}.png`,
      mimeType: 'image/png',
      buffer: await png(40 + i * 60, 120, 200 - i * 50),
    })),
  );
  await dialog.locator('input[type="file"]').setInputFiles(files);
  await expect(dialog.locator('[data-testid="picked-file"][data-status="uploaded"]')).toHaveCount(count, {
    timeout: 30_000,
  });
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(dialog.getByTestId('upload-row')).toHaveCount(count);
  await expect(dialog.getByRole('button', { name: 'Image check' })).toHaveCount(count, { timeout: 30_000 });
  return dialog;
}

test('publish: while approvals remain, Publish to Live is disabled with the reason beside it', async ({
  page,
}) => {
  const { ws } = await seedMarketer(page, 'publisher', ['marketing'], {
    legal: { name: 'Legal', canEdit: [], canPublish: [], mustApprove: ['copy'] },
  });
  const item = await seedItem(page.request, ws, 'copy', { name: 'Spring sale', text: 'Everything 20% off' });

  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto(`/${ws}/marketing/copy/${item.id}/publish`);
    await expect(page.getByTestId('approvals-remaining')).toContainText('Legal');
    const publish = page.getByRole('button', { name: 'Publish to Live' });
    await expect(publish).toBeDisabled();
    await expect(page.getByText('Publishing is refused until every approval is in.')).toBeVisible();
    await expect(publish).toHaveAccessibleDescription('Publishing is refused until every approval is in.');
    await shot(page, `rough-publish-${size}`);
  }
  // The server still refuses it for a caller who skips the screen.
  const res = await page.request.post(`/api/v1/workspaces/${ws}/items/copy/${item.id}/publish/live`, {
    headers: SAME_ORIGIN,
    data: { publishRefs: false },
  });
  expect(res.status()).toBe(409);
});

test('bulk upload step 2 fits the dialog at 1280 px, and is a card per image on a phone', async ({
  page,
}) => {
  // With a second domain, Add offers a choice of types and the bulk upload.
  const { ws } = await seedMarketer(page, 'uploader', ['assets', 'blogging']);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/${ws}/_items/all`);
  let dialog = await uploadImages(page, 2);

  const table = dialog.getByRole('table', { name: 'Images to save' });
  const widths = await table.evaluate((el) => {
    const content = el.closest('[role="dialog"]')!;
    return { table: el.scrollWidth, shown: el.clientWidth, dialog: content.clientWidth };
  });
  expect(widths.table).toBeLessThanOrEqual(widths.shown);
  expect(widths.table).toBeLessThanOrEqual(widths.dialog);
  await expectWithinWidth(dialog.getByRole('columnheader', { name: 'Tags' }), dialog);
  for (const n of [1, 2]) {
    await expect(dialog.getByLabel(`Tags of image ${n}`, { exact: true })).toBeVisible();
    await expectWithinWidth(dialog.getByLabel(`Tags of image ${n}`, { exact: true }), dialog);
    await expect(dialog.getByRole('button', { name: `Remove image ${n}` })).toBeVisible();
    await expectWithinWidth(dialog.getByRole('button', { name: `Remove image ${n}` }), dialog);
  }
  // Issue badges show their whole text: no label is cut with an ellipsis.
  const cut = await dialog
    .locator('.mantine-Badge-label')
    .evaluateAll((labels) =>
      labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent),
    );
  expect(cut).toEqual([]);
  await shot(page, 'rough-upload-step2-1280');

  await page.setViewportSize(PHONE);
  await page.goto(`/${ws}/_items/all`);
  dialog = await uploadImages(page, 2);
  const phoneWidths = await dialog.evaluate((el) => ({ scroll: el.scrollWidth, shown: el.clientWidth }));
  expect(phoneWidths.scroll).toBeLessThanOrEqual(phoneWidths.shown);
  for (const n of [1, 2]) {
    await expectWithinWidth(dialog.getByLabel(`Tags of image ${n}`, { exact: true }), dialog);
    await expectWithinWidth(dialog.getByRole('button', { name: `Remove image ${n}` }), dialog);
  }
  await shot(page, 'rough-upload-step2-390');
});

test('the sidebar at 1280 × 800 shows that it scrolls, down to the Admin domain', async ({ page }) => {
  const { ws } = await seedMarketer(page, 'navigator', ['marketing', 'assets', 'blogging', 'admin']);
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto(`/${ws}/_items/all`);
    if (viewport === PHONE) await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const nav = page.getByRole('navigation').first();
    const admin = nav.getByText('Admin', { exact: true });
    await expect(nav.getByText('Copies', { exact: true })).toBeVisible();
    await expect(admin).not.toBeInViewport();
    const hint = page.getByTestId('nav-more-below');
    await expect(hint).toBeVisible();
    await expect(hint).toBeInViewport();
    await shot(page, `rough-sidebar-${size}`);
    // Following the hint reaches Admin, and the hint goes once nothing more is below.
    await expect(async () => {
      if (await hint.isVisible()) await hint.click();
      await expect(admin).toBeInViewport({ timeout: 500 });
    }).toPass();
    await expect(async () => {
      if (await hint.isVisible()) await hint.click();
      await expect(hint).toBeHidden({ timeout: 500 });
    }).toPass();
    await expect(admin).toBeInViewport();
    await shot(page, `rough-sidebar-scrolled-${size}`);
  }
});

test('Settings › Users: the members table fits a phone; an invitation without roles says it will only see', async ({
  page,
}) => {
  const { ws, user } = await seedMarketer(page, 'manager', ['marketing']);

  // No role chosen: the form says plainly what that means; choosing one takes the notice away.
  await page.goto(`/${ws}/_settings/users`);
  const invite = page.getByRole('form', { name: 'Invite people' });
  const notice = invite.getByText(
    'With no role they will only see content, not edit, publish or approve it.',
  );
  await expect(notice).toBeVisible();
  await invite.getByLabel('Email').fill('viewer@example.com');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId('invitation-viewer@example.com')).toContainText(
    'No roles: will only see content',
  );
  await invite.getByRole('combobox', { name: 'Roles', exact: true }).click();
  await page.getByRole('option', { name: 'Admin' }).click();
  await expect(notice).toBeHidden();
  await shot(page, 'rough-users-invite-1280');

  for (const [size, viewport] of [...SIZES].reverse()) {
    await page.setViewportSize(viewport);
    await page.goto(`/${ws}/_settings/users`);
    const table = page.getByRole('table', { name: 'Members' });
    await expect(table).toContainText(user.email);
    await expect(page.getByTestId('invitation-viewer@example.com')).toBeVisible();
    await expectNoSidewaysScroll(table);
    await expectWithinWidth(page.getByRole('combobox', { name: `Roles of ${user.email}` }), table);
    await expectWithinWidth(page.getByText('Active', { exact: true }).first(), table);
    await expectWithinWidth(page.getByRole('button', { name: 'Revoke' }), page.locator('body'));
    await shot(page, `rough-users-${size}`);
    await table.scrollIntoViewIfNeeded();
    await shot(page, `rough-users-members-${size}`);
  }
});

test('toasts stay clear of the header and the stage chips, repeats show once, close has a name', async ({
  page,
}) => {
  const { ws, user } = await seedMarketer(page, 'toaster', ['marketing'], {
    writer: { name: 'Writer', canEdit: ['copy'], canPublish: [], mustApprove: [] },
  });
  const item = await seedItem(page.request, ws, 'copy', { name: 'Autumn sale', text: 'Coats 30% off' });
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto(`/${ws}/marketing/copy/${item.id}/publish`);
    await page.getByRole('button', { name: 'Publish to Live' }).click();
    const toast = page.locator('.mantine-Notification-root', { hasText: 'Published version 1 to Live' });
    await expect(toast).toBeVisible();
    await expect(page.getByTestId('item-header').getByText('Live: Current')).toBeVisible();
    // Where the toast comes to rest: it slides in.
    await expect(async () => {
      const toastBox = await boxOf(toast);
      expect(overlaps(toastBox, await boxOf(page.getByRole('banner')))).toBe(false);
      expect(overlaps(toastBox, await boxOf(page.getByTestId('item-header')))).toBe(false);
    }).toPass();
    await expect(toast.getByRole('button', { name: 'Close notification' })).toBeVisible();
    await shot(page, `rough-toast-${size}`);
    await toast.getByRole('button', { name: 'Close notification' }).click();
    await expect(toast).toBeHidden();
  }

  // The same toast twice while the first is still shown (held open under the pointer) is shown once.
  await page.setViewportSize(DESKTOP);
  await page.goto(`/${ws}/_settings/users`);
  const roles = page.getByRole('combobox', { name: `Roles of ${user.email}` });
  // With roles chosen and no placeholder, the search input shrinks away: open the field by its box.
  await page.getByTestId(`member-${user.email}`).locator('.mantine-MultiSelect-input').click();
  await page.getByRole('option', { name: 'Writer' }).click();
  const saved = page.locator('.mantine-Notification-root', { hasText: `Roles of ${user.email} saved` });
  await expect(saved).toHaveCount(1);
  await saved.hover();
  await roles.focus();
  await page.keyboard.press('Backspace');
  await expect
    .poll(async () => (await page.request.get(`/api/v1/workspaces/${ws}/members`)).json())
    .toMatchObject({ members: [expect.objectContaining({ roles: ['admin'] })] });
  await expect(saved).toHaveCount(1);
  await shot(page, 'rough-toast-repeat-1280');
});

test("an item saved without a name is '-- UNNAMED ITEM --' in the list and its header, not its description", async ({
  page,
}) => {
  const { ws } = await seedMarketer(page, 'namer', ['marketing']);
  const item = await seedItem(page.request, ws, 'audience', {
    description: 'Loyal buyers of the spring range',
  });
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto(`/${ws}/marketing/audience`);
    await expect(page.getByTestId('item-title')).toHaveText(['-- UNNAMED ITEM --']);
    await shot(page, `rough-unnamed-list-${size}`);
    await page.goto(`/${ws}/marketing/audience/${item.id}`);
    await expect(page.getByTestId('item-heading')).toHaveText('-- UNNAMED ITEM --');
    await shot(page, `rough-unnamed-item-${size}`);
  }
});

test('a new audience opens without the incomplete banner; it appears after a save with errors', async ({
  page,
}) => {
  const { ws } = await seedMarketer(page, 'drafter', ['marketing']);
  const banner = page.getByTestId('incomplete-banner');
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await page.goto(`/${ws}/marketing/audience/new`);
    await expect(page.getByLabel('Description', { exact: true })).toBeVisible();
    await expect(banner).toHaveCount(0);
    await shot(page, `rough-new-audience-${size}`);
    await page.getByLabel('Description', { exact: true }).fill(`Draft at ${size}`);
    await expect(banner).toHaveCount(0);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/audience/(?!new)[^/]+$`));
    await expect(banner).toHaveText(
      'This item is incomplete. You may save it as is. Finish editing before publishing.',
    );
    await shot(page, `rough-saved-audience-${size}`);
  }
});

/** POSTs a CSV import whose body stays open until `finish` is called; resolves with the answer's status. */
function openImport(ws: string, cookie: string, head: string, tail: string) {
  const url = new URL(`/api/v1/workspaces/${ws}/profiles/import`, BASE_URL);
  const length = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const request = http.request(url, {
    method: 'POST',
    headers: {
      cookie,
      origin: BASE_URL,
      'content-type': 'text/csv',
      'content-length': length,
      'x-file-name': 'spring-profiles.csv',
    },
  });
  const answer = new Promise<number>((resolve, reject) => {
    request.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  request.write(head);
  return {
    finish: () => {
      request.end(tail);
      return answer;
    },
  };
}

test('Settings › Batches shows a bulk upload just made and an import as it runs, with progress', async ({
  page,
  context,
}) => {
  const { ws } = await seedMarketer(page, 'batcher', ['marketing', 'assets']);
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'Age',
    key: 'age',
    attributeType: 'number',
  });
  await page.setViewportSize(DESKTOP);

  // The page was seen empty; a bulk upload follows in the same session, then the page again.
  await page.goto(`/${ws}/_settings/batches`);
  await expect(page.getByText('No bulk jobs yet')).toBeVisible();
  await page.getByRole('link', { name: 'Back to content' }).click();
  const dialog = await uploadImages(page, 2);
  await dialog.getByLabel('Alt text of image 1', { exact: true }).fill('A blue square');
  await dialog.getByLabel('Alt text of image 2', { exact: true }).fill('A green square');
  await dialog.getByRole('button', { name: 'Save Images' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('link', { name: 'Batches' }).click();
  const upload = page.getByRole('row', { name: /Bulk image upload/ });
  await expect(upload).toBeVisible();
  await expect(upload.getByTestId('batch-progress')).toHaveAttribute('data-status', 'done');
  await expect(upload).toContainText('2 processed');

  // An import whose file is still arriving is listed as running, with its progress bar.
  const cookies = await context.cookies(BASE_URL);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  // More rows than the import writes at once (50,000), so the first chunk lands while the rest is awaited.
  const rows = Array.from({ length: 52_000 }, (_, i) => `p${i},${20 + (i % 60)}`);
  const running = openImport(
    ws,
    cookie,
    `id,age\n${rows.slice(0, 51_000).join('\n')}\n`,
    `${rows.slice(51_000).join('\n')}\n`,
  );
  await page.reload();
  const importRow = page.getByRole('row', { name: /Customer profiles import/ });
  await expect(importRow.getByTestId('batch-progress')).toHaveAttribute('data-status', 'running');
  await expect(importRow).toContainText('50,000 processed');
  const bar = importRow.getByRole('progressbar', { name: 'Batch progress' });
  await expect(bar).toBeVisible();
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  await expect(importRow).toContainText('spring-profiles.csv');
  for (const [size, viewport] of SIZES) {
    await page.setViewportSize(viewport);
    await expect(importRow.getByRole('progressbar', { name: 'Batch progress' })).toBeInViewport();
    await expectNoSidewaysScroll(page.getByRole('table', { name: 'Bulk jobs' }));
    await shot(page, `rough-batches-running-${size}`);
  }
  expect(await running.finish()).toBe(201);
  // Polled while it runs: the page sees it finish without a reload.
  await expect(importRow.getByTestId('batch-progress')).toHaveAttribute('data-status', 'done');
  await expect(importRow).toContainText('52,000 processed');
  await shot(page, 'rough-batches-done-390');
});
