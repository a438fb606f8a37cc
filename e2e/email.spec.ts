import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  acceptCookies,
  DATA_DIR,
  dragBlock,
  patchBasics,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  solidPng,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const fieldBox = (page: Page, key: string) => page.locator(`[data-field="${key}"]`);
const canvas = (page: Page) => page.frameLocator('.gjs-frame');

/** The outbox's .eml files whose To line names `to`, newest last. */
function mailsTo(to: string) {
  const dir = path.join(DATA_DIR, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((text) => (text.match(/^To:.*$/im)?.[0] ?? '').includes(to));
}

test('design an email with blocks, an image and a merge tag; save, reload, send a test; a reload mid-edit offers the draft back', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'emailer');
  const ws = (await seedWorkspace(page.request, `Email ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing', 'assets'] });
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'First name',
    key: 'first-name',
    attributeType: 'string',
  });
  const testAddress = `qa-${Date.now().toString(36)}@example.com`;

  await page.goto(`/${ws}/marketing/email/new`);
  await fieldBox(page, 'name').locator('input').fill('Spring newsletter');
  await fieldBox(page, 'subject').locator('input').fill('Spring news for {{first-name|you}}');
  await fieldBox(page, 'testAddresses').locator('input').fill(testAddress);
  await expect(page.locator('.gjs-frame')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.gjs-block:visible').first()).toBeVisible();
  await shot(page, 'email-01-editor-empty');

  // A text block and an image block, dragged in.
  await dragBlock(page, 'Text');
  await expect(canvas(page).locator('[data-gjs-type="text"]').first()).toBeVisible();
  await dragBlock(page, 'Image');
  // The image block asks for its image: the workspace's image sets, or an upload through the files API.
  const picker = page.getByRole('dialog', { name: 'Insert image' });
  await expect(picker).toBeVisible();
  await picker.getByRole('tab', { name: 'Upload new' }).click();
  const png = await solidPng(320, 160, { r: 40, g: 120, b: 200 });
  await picker
    .locator('input[type="file"]')
    .setInputFiles({ name: 'spring-hero.png', mimeType: 'image/png', buffer: png });
  await expect(picker).toBeHidden({ timeout: 20_000 });
  const image = canvas(page).locator('img[src*="/fun/imageResize/"]');
  await expect(image).toHaveCount(1);

  // A merge tag into the text block.
  await canvas(page).locator('[data-gjs-type="text"]').first().click();
  await page.getByRole('button', { name: 'Insert merge tag' }).click();
  await page.getByRole('menuitem', { name: /First name/ }).click();
  await expect(canvas(page).locator('[data-gjs-type="text"]').first()).toContainText('{{first-name}}');
  await shot(page, 'email-02-designed');

  // Phone view, then back.
  const editor = page.getByTestId('email-editor');
  await editor.getByText('Phone', { exact: true }).click();
  await expect
    .poll(async () => (await page.locator('.gjs-frame').boundingBox())?.width ?? 0)
    .toBeLessThan(400);
  await shot(page, 'email-03-phone');
  await editor.getByText('Desktop', { exact: true }).click();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Email Template created')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${ws}/marketing/email/[^/]+$`));
  const itemUrl = page.url();

  // Reload: the same design, rendered from what the server stored.
  await page.reload();
  const preview = page.frameLocator('iframe[title="Template preview"]');
  await expect(preview.locator('body')).toContainText('{{first-name}}');
  await expect(preview.locator('img')).toHaveCount(1);
  await expect
    .poll(() => preview.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  // Rendered for one profile: typed attribute values fill the merge tags.
  await page.getByRole('switch', { name: 'Preview for a profile' }).check();
  await page.getByLabel('first-name').fill('Ada');
  await expect(preview.locator('body')).toContainText('Insert your text hereAda');
  await shot(page, 'email-04-saved-view');
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(canvas(page).locator('[data-gjs-type="text"]').first()).toContainText('{{first-name}}');
  await expect(canvas(page).locator('img[src*="/fun/imageResize/"]')).toHaveCount(1);
  // Opening the editor is not a change.
  await expect(page.getByText('Unsaved changes')).toBeHidden();

  // Reload mid-edit: a new text block, kept as a draft in browser storage, offered back.
  await dragBlock(page, 'Text');
  await expect(canvas(page).locator('[data-gjs-type="text"]')).toHaveCount(2);
  // The Images button: the upload became an image set of the workspace, chosen from the library.
  await page.getByRole('button', { name: 'Images', exact: true }).click();
  await expect(picker).toBeVisible();
  await picker.getByRole('group', { name: 'Image sets' }).getByRole('button').first().click();
  await picker.getByRole('button', { name: 'Insert image', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(canvas(page).locator('img[src*="/fun/imageResize/"]')).toHaveCount(2);
  // The draft in browser storage has caught up with both images.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const key = Object.keys(localStorage).find((k) => k.startsWith('marquee:email-draft:'));
        const draft = JSON.parse((key && localStorage.getItem(key)) || 'null') as {
          template: { 'gjs-nl-html'?: string };
        } | null;
        return (draft?.template['gjs-nl-html'] ?? '').split('<img').length - 1;
      }),
    )
    .toBe(2);
  await page.reload();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const offer = page.getByTestId('email-draft-offer');
  await expect(offer).toBeVisible();
  await shot(page, 'email-05-draft-offer');
  await offer.getByRole('button', { name: 'Restore draft' }).click();
  await expect(canvas(page).locator('[data-gjs-type="text"]')).toHaveCount(2);
  await expect(canvas(page).locator('img[src*="/fun/imageResize/"]')).toHaveCount(2);
  // Cancel is the exit flag: the editor closes and the draft is gone.
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'You will lose the changes' });
  await expect(async () => {
    // The confirm dialog is still opening while the first click may land; click until it closes.
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'YES' }).click();
    await expect(confirm).toBeHidden({ timeout: 1_000 });
  }).toPass();
  await expect(page.locator('.gjs-frame')).toHaveCount(0);
  expect(
    await page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('marquee:email-draft:'))),
  ).toBe(false);

  // Send a test to the item's test address and find it in the outbox.
  expect(page.url()).toBe(itemUrl);
  const panel = page.getByTestId('email-test-send');
  await panel.getByRole('button', { name: 'Send test' }).click();
  await expect(panel.getByText(`Test sent to ${testAddress}`)).toBeVisible();
  await expect(panel.getByRole('table', { name: 'Recent test sends' })).toContainText(testAddress);
  await shot(page, 'email-06-test-sent');
  // A provider that is not configured answers with its error, and a manager sees the setting to set.
  await panel.getByRole('combobox', { name: 'Email delivery provider' }).click();
  await page.getByRole('option', { name: 'SendGrid' }).click();
  await panel.getByRole('button', { name: 'Send test' }).click();
  const refusal = panel.getByRole('alert');
  await expect(refusal).toContainText('Service not configured');
  await expect(refusal.getByText('SENDGRID_API_KEY')).toBeVisible();
  await shot(page, 'email-06b-provider-error');
  await expect.poll(() => mailsTo(testAddress).length).toBe(1);
  const mail = mailsTo(testAddress)[0];
  expect(mail).toMatch(/^Subject: Spring news for you$/m);
  expect(mail).toContain('<img');
  // The image is a signed link under PUBLIC_URL that a recipient (no session) can load.
  const decoded = mail.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const src = /src="(http:\/\/127\.0\.0\.1:\d+\/fun\/emailImage\/[^"]+)"/.exec(decoded)?.[1];
  expect(src, decoded).toBeTruthy();
  const sentImage = await fetch(src!.replace(/&amp;/g, '&'));
  expect(sentImage.status).toBe(200);
  expect(sentImage.headers.get('content-type')).toMatch(/^image\//);

  // Compare mode: two versions' rendered emails side by side.
  const apiUrl = `/api/v1/workspaces/${ws}/items/email/${itemUrl.split('/').pop()}`;
  const stored = (await (await page.request.get(apiUrl)).json()) as {
    version: number;
    data: Record<string, unknown> & { template: Record<string, unknown> };
  };
  const html = String(stored.data.template['gjs-nl-html']).replace('Insert your text here', 'Hello again ');
  const put = await page.request.put(apiUrl, {
    data: {
      baseVersion: stored.version,
      data: {
        ...stored.data,
        template: { 'gjs-nl-html': html, 'gjs-nl-css': stored.data.template['gjs-nl-css'] },
      },
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  await page.goto(`/${ws}/changelog/marketing/email/${itemUrl.split('/').pop()}?from=1&to=2`);
  const previews = page.locator('iframe[title="Template preview"]');
  await expect(previews).toHaveCount(2);
  await expect(page.frameLocator('iframe[title="Template preview"] >> nth=1').locator('body')).toContainText(
    'Hello again',
  );
  await page.locator('[data-field="template"]').scrollIntoViewIfNeeded();
  await shot(page, 'email-07-compare');
});
