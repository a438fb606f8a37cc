import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { expect, test } from '@playwright/test';
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

/** The newest outbox message to `to`, parsed. */
async function lastMailTo(to: string) {
  const dir = path.join(DATA_DIR, 'outbox');
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .sort()
    : [];
  for (const file of files.reverse()) {
    const raw = fs.readFileSync(path.join(dir, file));
    if (!(raw.toString('utf8').match(/^To:.*$/im)?.[0] ?? '').includes(to)) continue;
    return simpleParser(raw);
  }
  return undefined;
}

test('a test email reads on a phone: preheader, fluid image, stacked columns; an oversize one is flagged before sending', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'responsive');
  const ws = (await seedWorkspace(page.request, `Responsive ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  const testAddress = `phone-${Date.now().toString(36)}@example.com`;
  const hero = (await solidPng(800, 300, { r: 40, g: 120, b: 200 })).toString('base64');
  const email = await seedItem(page.request, ws, 'email', {
    name: 'Spring on a phone',
    subject: 'Spring is here',
    preheader: 'Twenty percent off everything this week',
    testAddresses: testAddress,
    template: {
      'gjs-nl-html':
        `<table class="row"><tr><td class="cell"><img src="data:image/png;base64,${hero}" alt="hero" width="800"/></td></tr></table>` +
        '<table class="row"><tr>' +
        '<td class="cell" id="left"><h1>Left column</h1><p>New arrivals for the season, picked by our team.</p></td>' +
        '<td class="cell" id="right"><h1>Right column</h1><p>Free delivery on every order over 30 euros.</p></td>' +
        '</tr></table>',
      'gjs-nl-css':
        '.row{width:100%}.cell{width:50%;vertical-align:top;padding:10px;font-family:Arial,sans-serif}h1{color:#112233;font-size:22px}',
    },
  });

  // The form shows the preheader; the email is small, so no warning.
  await page.goto(`/${ws}/marketing/email/${email.id}`);
  await expect(page.locator('[data-field="preheader"]')).toContainText(
    'Twenty percent off everything this week',
  );
  // The preview at phone width is the document a phone gets.
  await page.getByLabel('Template preview size').getByText('Phone', { exact: true }).click();
  const previewFrame = page.frameLocator('iframe[title="Template preview"]');
  await expect
    .poll(async () => (await previewFrame.locator('#right').boundingBox())?.x ?? 0)
    .toBeLessThan((await previewFrame.locator('#left').boundingBox())!.x + 10);
  await page.locator('iframe[title="Template preview"]').scrollIntoViewIfNeeded();
  await shot(page, 'email-responsive-00-preview-phone');

  const panel = page.getByTestId('email-test-send');
  await panel.getByRole('button', { name: 'Send test' }).click();
  await expect(panel.getByText(`Test sent to ${testAddress}`)).toBeVisible();
  await expect(page.getByTestId('email-size-warning')).toHaveCount(0);

  await expect.poll(async () => !!(await lastMailTo(testAddress))).toBe(true);
  const mail = (await lastMailTo(testAddress))!;
  expect(typeof mail.html).toBe('string');

  // The message as a phone shows it: 390 px wide, no horizontal scrolling.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.setContent(mail.html as string);
  const preheader = phone.getByText('Twenty percent off everything this week');
  await expect(preheader).toBeHidden();
  const image = (await phone.locator('img[alt="hero"]').boundingBox())!;
  expect(image.width).toBeLessThanOrEqual(390);
  expect(image.height / image.width).toBeCloseTo(300 / 800, 1);
  const left = (await phone.locator('#left').boundingBox())!;
  const right = (await phone.locator('#right').boundingBox())!;
  // Stacked: the right column under the left one, each the whole width.
  expect(right.y).toBeGreaterThanOrEqual(left.y + left.height - 1);
  expect(left.width).toBeGreaterThan(350);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(phone, 'email-responsive-01-phone');
  // At desktop width the columns sit side by side, the content 600 px at most.
  await phone.setViewportSize({ width: 1000, height: 700 });
  const leftWide = (await phone.locator('#left').boundingBox())!;
  const rightWide = (await phone.locator('#right').boundingBox())!;
  expect(rightWide.y).toBeCloseTo(leftWide.y, 0);
  expect(rightWide.x + rightWide.width - leftWide.x).toBeLessThanOrEqual(600);
  await shot(phone, 'email-responsive-02-desktop');
  await phone.close();

  // An email over Gmail's 102 KB: the panel says so before any send.
  const paragraphs = Array.from(
    { length: 1100 },
    (_, i) => `<p>Paragraph ${i}: ${'words '.repeat(15)}</p>`,
  ).join('');
  const big = await seedItem(page.request, ws, 'email', {
    name: 'Too long',
    subject: 'Everything at once',
    testAddresses: testAddress,
    template: { 'gjs-nl-html': paragraphs, 'gjs-nl-css': '' },
  });
  await page.goto(`/${ws}/marketing/email/${big.id}`);
  await expect(page.getByTestId('email-size-warning')).toHaveText(
    /^Gmail clips messages over 102 KB: this one is 1\d\d KB\.$/,
  );
  await page.getByTestId('email-test-send').scrollIntoViewIfNeeded();
  await shot(page, 'email-responsive-03-size-warning');
});

test('a 1/2 Section built in the editor stacks on a phone in the sent test, under the preheader typed in the form', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'sections');
  const ws = (await seedWorkspace(page.request, `Sections ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  const testAddress = `sections-${Date.now().toString(36)}@example.com`;

  await page.goto(`/${ws}/marketing/email/new`);
  await page.locator('[data-field="name"] input').fill('Two columns');
  await page.locator('[data-field="subject"] input').fill('Two columns');
  const preheaderField = page.locator('[data-field="preheader"]');
  await expect(preheaderField).toContainText('The preview text inboxes show after the subject');
  await preheaderField.locator('input').fill('Both halves, one under the other');
  await page.locator('[data-field="testAddresses"] input').fill(testAddress);
  await preheaderField.scrollIntoViewIfNeeded();
  await shot(page, 'email-responsive-04-preheader-field');
  await expect(page.locator('.gjs-frame')).toBeVisible({ timeout: 30_000 });
  await dragBlock(page, '1/2 Section');
  await expect(page.frameLocator('.gjs-frame').locator('td')).toHaveCount(2);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Email Template created')).toBeVisible();

  // The saved email's preview at phone width shows the document a phone gets: the halves stacked.
  const previewCells = page.frameLocator('iframe[title="Template preview"]').locator('td.marquee-stack');
  await expect(previewCells).toHaveCount(2);
  await page.getByLabel('Template preview size').getByText('Phone', { exact: true }).click();
  await expect
    .poll(async () => {
      const [a, b] = [await previewCells.nth(0).boundingBox(), await previewCells.nth(1).boundingBox()];
      return !!a && !!b && b.y >= a.y + a.height - 1;
    })
    .toBe(true);
  await page.locator('iframe[title="Template preview"]').scrollIntoViewIfNeeded();
  await shot(page, 'email-responsive-05-preview-phone');

  const panel = page.getByTestId('email-test-send');
  await panel.getByRole('button', { name: 'Send test' }).click();
  await expect(panel.getByText(`Test sent to ${testAddress}`)).toBeVisible();
  await expect.poll(async () => !!(await lastMailTo(testAddress))).toBe(true);
  const html = (await lastMailTo(testAddress))!.html as string;
  expect(html).toMatch(/<span style="display:none;[^"]*">Both halves, one under the other&zwnj;&nbsp;/);

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.setContent(html);
  const cells = phone.locator('td.marquee-stack');
  await expect(cells).toHaveCount(2);
  const [first, second] = [(await cells.nth(0).boundingBox())!, (await cells.nth(1).boundingBox())!];
  expect(second.y).toBeGreaterThanOrEqual(first.y + first.height - 1);
  expect(first.width).toBeGreaterThan(300);
  await phone.setViewportSize({ width: 1000, height: 700 });
  const [wideFirst, wideSecond] = [(await cells.nth(0).boundingBox())!, (await cells.nth(1).boundingBox())!];
  expect(wideSecond.y).toBeCloseTo(wideFirst.y, 0);
  expect(wideSecond.x).toBeGreaterThan(wideFirst.x);
  await phone.close();
});
