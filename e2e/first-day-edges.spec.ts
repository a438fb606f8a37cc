import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  acceptCookies,
  BASE_URL,
  inviteMember,
  mailLink,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  solidPng,
  uploadImage,
} from './fixtures';
import { getSend, seedCampaign, seedCampaignBasics, startSend } from './campaign-seed';

// What a marketing team met on its first day: one test per screen, each looked at 1280 pixels wide.
test.beforeEach(async ({ context }) => acceptCookies(context));
test.use({ viewport: { width: 1280, height: 800 } });

const canvas = (page: Page) => page.frameLocator('.gjs-frame');

/** Nothing in the element is wider than the element, and the page does not scroll sideways. */
async function expectFits(element: Locator) {
  await expect(async () => {
    const fit = await element.evaluate((el) => ({
      inner: el.scrollWidth,
      shown: el.clientWidth,
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(fit.inner).toBeLessThanOrEqual(fit.shown);
    expect(fit.page).toBeLessThanOrEqual(fit.viewport);
  }).toPass();
}

test('an invitation to someone who has an account opens signing in with their address', async ({
  page,
  browser,
}) => {
  // The invited person lands on 'Welcome back / Sign in' whether or not they have an account; one
  // who has one signs in there, one who has none creates it (e2e/members.spec.ts).
  const invited = await seedVerifiedUser(page.request, 'invited');
  await page.request.post('/api/v1/auth/sign-out', { headers: SAME_ORIGIN });
  await seedVerifiedUser(page.request, 'inviter');
  const ws = (
    await seedWorkspace(page.request, `Invites ${Date.now().toString(36)}`, {
      roles: { writer: { name: 'Writer', canEdit: ['blog-post'], canPublish: [], mustApprove: [] } },
    })
  ).id;
  await inviteMember(page.request, ws, invited.email, ['writer']);
  const link = await mailLink(invited.email, '/auth/welcome');
  expect(new URL(link).searchParams.get('mode')).toBeNull();

  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 800 } });
  await acceptCookies(context);
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(other.getByTestId('invitation-notice')).toHaveText(
    `You have been invited to Marquee. Sign in with ${invited.email} to join.`,
  );
  await expect(other.getByLabel('Email')).toHaveValue(invited.email);
  await shot(other, 'first-day-edges-01-invited-with-account');
  await other.getByLabel('Password', { exact: true }).fill(invited.password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other).toHaveURL(`/${ws}/_items/all`);
  await context.close();
});

test('a campaign page loads no tracking pixel, and its sends and results fit at 1280 pixels', async ({
  page,
}) => {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  const basics = await seedCampaignBasics(page.request, {
    name: 'First day',
    readers: ['Ann', 'Ben'],
    link: `${BASE_URL}/healthz?from=first-day`,
  });
  const campaign = await seedCampaign(page.request, basics);
  const sendId = await startSend(page.request, basics.ws, campaign.id);
  await expect
    .poll(async () => (await getSend(page.request, basics.ws, campaign.id, sendId)).state, {
      timeout: 60_000,
    })
    .toBe('done');

  await page.goto(campaign.path);
  const frame = page.frameLocator('iframe[title="Campaign message preview"]');
  await expect(frame.getByText('Read the autumn news')).toBeVisible();
  // The preview carried the open pixel of a send that does not exist, which answered 404.
  const previewDocument = await page
    .locator('iframe[title="Campaign message preview"]')
    .getAttribute('srcdoc');
  expect(previewDocument).not.toContain('/t/o/');
  expect(previewDocument).not.toContain('/t/c/');

  // The sends table scrolled sideways and the results sat in a narrow column beside the activity panel.
  const results = page.getByTestId('campaign-results');
  await results.scrollIntoViewIfNeeded();
  const sends = results.getByRole('table', { name: 'Sends' });
  await expect(sends.getByRole('button', { name: /^Results of the send of/ })).toBeVisible();
  const [tableBox, sectionBox] = [await sends.boundingBox(), await results.boundingBox()];
  expect(tableBox!.x + tableBox!.width, 'the sends table ends inside its section').toBeLessThanOrEqual(
    sectionBox!.x + sectionBox!.width,
  );
  await expect(results.getByTestId('result-delivered')).toContainText('2');
  const tiles = await results
    .locator('[data-testid^="result-"]')
    .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  expect(new Set(tiles).size, 'the five result tiles sit in one row').toBe(1);
  await expectFits(results);
  await shot(page, 'first-day-edges-02-campaign-results');
  expect(failed).toEqual([]);
});

test("a customer profile shows a date attribute as a date of the reader's locale", async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    locale: 'en-GB',
    viewport: { width: 1280, height: 800 },
  });
  await acceptCookies(context);
  const page = await context.newPage();
  await seedVerifiedUser(page.request, 'profiles');
  const ws = (await seedWorkspace(page.request, `Profiles ${Date.now().toString(36)}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  for (const [name, key] of [
    ['Birthday', 'birthday'],
    ['Signed up', 'signedUpAt'],
  ])
    await seedItem(page.request, ws, 'customer-profile-attribute', { name, key, attributeType: 'date' });
  const imported = await page.request.post(`/api/v1/workspaces/${ws}/profiles/import`, {
    headers: { ...SAME_ORIGIN, 'Content-Type': 'text/csv' },
    data: 'id,birthday,signedUpAt\nc-1,2024-08-30,2024-08-30T15:45:00Z\n',
  });
  expect(imported.status(), await imported.text()).toBe(201);
  expect(((await imported.json()) as { batch: { status: string } }).batch.status).toBe('done');

  await page.goto(`/${ws}/marketing/_customers/c-1`);
  const attributes = page.getByTestId('profile-attributes');
  // Dates showed as '2024-08-30T00:00:00.000Z'.
  await expect(attributes.getByRole('row', { name: /Birthday/ })).toContainText('30 Aug 2024');
  await expect(attributes).not.toContainText('T00:00:00');
  await expect(attributes.getByRole('row', { name: /Signed up/ })).toContainText(/30 Aug 2024, \d\d:45/);
  await shot(page, 'first-day-edges-03-profile-dates');
  await context.close();
});

test('an inline image wider than the post fits the post view', async ({ page }) => {
  await seedVerifiedUser(page.request, 'posts');
  const ws = (await seedWorkspace(page.request, `Posts ${Date.now().toString(36)}`)).id;
  const wide = await uploadImage(
    page.request,
    ws,
    'panorama.png',
    await solidPng(2400, 600, { r: 30, g: 120, b: 200 }),
  );
  const post = await seedItem(page.request, ws, 'blog-post', {
    name: 'A wide view',
    slug: 'a-wide-view',
    body: `<p>Before the picture.</p><p><img src="${wide.publicUrl}" alt="The bay" width="2400" height="600"></p><p>After.</p>`,
  });
  await page.goto(`/${ws}/blogging/blog-post/${post.id}`);
  const body = page.locator('[data-field="body"]');
  const image = body.getByRole('img', { name: 'The bay' });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
    .toBe(2400);
  // The image ran past the post's frame and was cut off.
  const [imageBox, frameBox] = [await image.boundingBox(), await body.getByLabel('Body').boundingBox()];
  expect(imageBox!.x + imageBox!.width).toBeLessThanOrEqual(frameBox!.x + frameBox!.width);
  expect(imageBox!.width / imageBox!.height).toBeCloseTo(4, 1);
  await expectFits(body.getByLabel('Body'));
  await shot(page, 'first-day-edges-04-post-inline-image');
});

test('a merge tag with a default from the menu fills the preview of nobody in particular', async ({
  page,
}) => {
  const basics = await seedCampaignBasics(page.request, {
    name: 'Defaults',
    readers: ['Ann'],
    link: `${BASE_URL}/healthz?from=defaults`,
  });
  await page.goto(`/${basics.ws}/marketing/email/new`);
  await expect(page.locator('.gjs-frame')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('textbox', { name: 'Name' }).fill('Greeting');
  await page.getByRole('textbox', { name: 'Subject' }).fill('Hello');
  await page.getByRole('button', { name: 'Add block' }).click();
  await page.getByRole('menuitem', { name: 'Text', exact: true }).click();
  const text = canvas(page).locator('[data-gjs-type="text"]').first();
  await expect(text).toHaveAttribute('contenteditable', 'true');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Hi ');

  // The menu offered only {{first-name}}: a preview for no profile read 'Hi , …'.
  await page.getByRole('button', { name: 'Insert merge tag' }).click();
  await page.getByLabel('When a profile has no value, write').fill('there');
  const item = page.getByRole('menuitem', { name: /First name/ });
  await expect(item).toContainText('{{firstName|there}}');
  await shot(page, 'first-day-edges-05-merge-tag-menu');
  await item.click();
  await expect(text).toHaveText('Hi {{firstName|there}}');
  // Leaving the text ends its editing; the draft in browser storage then holds the tag.
  await page.getByRole('textbox', { name: 'Name' }).click();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const key = Object.keys(localStorage).find((k) => k.startsWith('marquee:email-draft:'));
        return (key && localStorage.getItem(key)) || '';
      }),
    )
    .toContain('{{firstName|there}}');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page).not.toHaveURL(/\/email\/new$/);
  const emailId = page.url().split('/').pop()!;

  const campaign = await seedCampaign(page.request, { ...basics, emailId });
  await page.goto(campaign.path);
  const preview = page.frameLocator('iframe[title="Campaign message preview"]');
  await expect(preview.getByText('Hi there')).toBeVisible();
  await page.getByTestId('campaign-preview').scrollIntoViewIfNeeded();
  await shot(page, 'first-day-edges-06-preview-with-default');
});
