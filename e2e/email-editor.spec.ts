import { expect, test, type Page } from '@playwright/test';
import {
  acceptCookies,
  BASE_URL,
  patchBasics,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  solidPng,
} from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const canvas = (page: Page) => page.frameLocator('.gjs-frame');

async function addBlock(page: Page, label: string) {
  await page.getByRole('button', { name: 'Add block' }).click();
  await page.getByRole('menuitem', { name: label, exact: true }).click();
}

test('blocks added from the menu behave as dropped ones; merge tags keep the caret; nothing loads from outside', async ({
  page,
}) => {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(BASE_URL) && !/^(data|blob|about):/.test(url)) outside.push(url);
  });
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await seedVerifiedUser(page.request, 'blocks');
  const ws = (await seedWorkspace(page.request, `Blocks ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing', 'assets'] });
  await seedItem(page.request, ws, 'customer-profile-attribute', {
    name: 'First name',
    key: 'first-name',
    attributeType: 'string',
  });
  await page.goto(`/${ws}/marketing/email/new`);
  await expect(page.locator('.gjs-frame')).toBeVisible({ timeout: 30_000 });
  const nativeModal = page.locator('.gjs-mdl-container');
  const picker = page.getByRole('dialog', { name: 'Insert image' });

  // A text block starts editing: no image window, and typing goes into it.
  await addBlock(page, 'Text');
  const text = canvas(page).locator('[data-gjs-type="text"]').first();
  await expect(text).toHaveAttribute('contenteditable', 'true');
  await expect(nativeModal).toBeHidden();
  await expect(picker).toBeHidden();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Hello');
  await expect(text).toHaveText('Hello');

  // A merge tag at the caret; the next keys follow it in the text, not in the menu.
  await page.getByRole('button', { name: 'Insert merge tag' }).click();
  await page.getByRole('menuitem', { name: /First name/ }).click();
  await page.keyboard.type(', welcome');
  await expect(text).toHaveText('Hello{{first-name}}, welcome');
  await shot(page, 'email-editor-01-text-and-tag');

  // An image block asks for its image in our picker, never in GrapesJS's empty window.
  await addBlock(page, 'Image');
  await expect(picker).toBeVisible();
  await expect(nativeModal).toBeHidden();
  await picker.getByRole('tab', { name: 'Upload new' }).click();
  const png = await solidPng(240, 120, { r: 200, g: 90, b: 40 });
  await picker
    .locator('input[type="file"]')
    .setInputFiles({ name: 'autumn.png', mimeType: 'image/png', buffer: png });
  await expect(picker).toBeHidden({ timeout: 20_000 });
  await expect(canvas(page).locator('img[src*="/fun/imageResize/"]')).toHaveCount(1);
  // The next image block lists the workspace's images: the upload is an image set now.
  await addBlock(page, 'Image');
  await expect(picker).toBeVisible();
  await picker.getByRole('tab', { name: 'Image sets' }).click();
  const library = picker.getByRole('group', { name: 'Image sets' });
  await expect(library.getByRole('button')).toHaveCount(1);
  await shot(page, 'email-editor-02-image-library');
  await library.getByRole('button').first().click();
  await picker.getByRole('button', { name: 'Insert image', exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(canvas(page).locator('img[src*="/fun/imageResize/"]')).toHaveCount(2);

  // A button looks like one: filled, not an underlined link.
  await addBlock(page, 'Button');
  const button = canvas(page).locator('a', { hasText: 'Button' });
  await expect(button).toBeVisible();
  const look = await button.evaluate((el) => {
    const style = getComputedStyle(el);
    return { background: style.backgroundColor, decoration: style.textDecorationLine };
  });
  expect(look.background).not.toBe('rgba(0, 0, 0, 0)');
  expect(look.decoration).toBe('none');
  await shot(page, 'email-editor-03-button');

  // The editor's icons are the app's own: the style manager's icons render from our font.
  await canvas(page).locator('[data-gjs-type="text"]').first().click();
  await page.locator('.gjs-sm-sector-title', { hasText: 'Typography' }).click();
  const icon = page.locator('.gjs-sm-sectors .fa').first();
  await expect(icon).toBeVisible();
  expect(await icon.evaluate((el) => getComputedStyle(el, '::before').fontFamily)).toContain('FontAwesome');
  await expect.poll(() => page.evaluate(() => document.fonts.check('14px FontAwesome'))).toBe(true);
  await shot(page, 'email-editor-04-style-icons');
  expect(outside).toEqual([]);
  expect(refused).toEqual([]);
});
