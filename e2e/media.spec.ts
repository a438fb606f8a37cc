import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { SAME_ORIGIN, acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

test.beforeEach(async ({ context }) => acceptCookies(context));

const IMAGE_SET = 'marquee-assets-image-set';

/**
 * A distinct PNG: a coloured gradient with a few shapes placed by `seed`, so that no two images look
 * alike to the perceptual hash (the local analyser would report near-duplicates otherwise).
 */
async function generatePng(seed: number, label: string): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  const shapes = Array.from({ length: 5 }, (_, i) => {
    const x = ((seed * 97 + i * 131) % 700) + 20;
    const y = ((seed * 53 + i * 71) % 460) + 20;
    const r = 30 + ((seed * 13 + i * 29) % 90);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="hsl(${(hue + i * 60) % 360} 80% ${20 + ((i * 17) % 60)}%)"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="${seed % 2}" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 70% 85%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360} 60% 30%)"/>
    </linearGradient></defs>
    <rect width="800" height="600" fill="url(#g)"/>${shapes}
    <rect x="${(seed * 61) % 500}" y="${(seed * 37) % 400}" width="260" height="120" fill="hsl(${(hue + 200) % 360} 70% 45%)"/>
    <text x="40" y="560" font-family="sans-serif" font-size="56" font-weight="700" fill="white">${label}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The item form's field wrapper, by the field's key. */
const fieldBox = (page: Page, key: string) => page.locator(`[data-field="${key}"]`);

/** Waits until every image matched by `selector` has loaded real pixels. */
async function expectImagesLoaded(page: Page, selector: string, count: number) {
  await expect(page.locator(selector)).toHaveCount(count);
  await expect
    .poll(
      () =>
        page
          .locator(selector)
          .evaluateAll((imgs) => imgs.filter((img) => (img as HTMLImageElement).naturalWidth > 0).length),
      {
        message: `${count} loaded images for ${selector}`,
        timeout: 20_000,
      },
    )
    .toBe(count);
}

test('bulk upload of 10 images, thumbnails in the list, image check, focal point, and an inline image in a blog post', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await seedVerifiedUser(page.request, 'marketer');
  const workspace = await seedWorkspace(page.request, `Media ${Date.now().toString(36)}`);
  const ws = workspace.id;
  const current = (await (await page.request.get(`/api/v1/workspaces/${ws}`)).json()) as {
    version: number;
    basics: Record<string, unknown>;
  };
  const patched = await page.request.patch(`/api/v1/workspaces/${ws}`, {
    headers: SAME_ORIGIN,
    data: { basics: { ...current.basics, domains: ['blogging', 'assets'] }, baseVersion: current.version },
  });
  expect(patched.status(), await patched.text()).toBe(200);

  // Ten generated images; the tenth is the first one again, which the analysis reports as a duplicate.
  const files = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => ({
      name: `campaign-shot-${String(i + 1).padStart(2, '0')}.png`,
      mimeType: 'image/png',
      buffer: await generatePng(i === 9 ? 1 : i + 1, i === 9 ? 'Image 1' : `Image ${i + 1}`),
    })),
  );

  // Add → Upload images (the Add dialog offers it to those who may edit image sets).
  await page.goto(`/${ws}/_items/all`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByTestId('upload-images-option').click();
  const dialog = page.getByRole('dialog', { name: 'Upload images' });
  await expect(dialog.getByText('Drag images here or click to choose')).toBeVisible();
  await dialog.getByLabel('Start time', { exact: true }).fill('2025/07/01 09:00');
  await dialog.getByLabel('End time', { exact: true }).fill('2025/08/31 18:00');
  await shot(page, 'media-01-upload-step1-empty');

  // Step 1: pick the ten images; they upload a few at once, each with its progress.
  await dialog.locator('input[type="file"]').setInputFiles(files.slice(0, 9));
  await dialog.locator('input[type="file"]').setInputFiles(files.slice(9));
  await expect(dialog.getByTestId('picked-file')).toHaveCount(10);
  await expect(dialog.locator('[data-testid="picked-file"][data-status="uploaded"]')).toHaveCount(10, {
    timeout: 30_000,
  });
  await expect(dialog.getByText('10 uploaded')).toBeVisible();
  await shot(page, 'media-02-upload-step1-uploaded');

  // Step 2: the table with h=100 thumbnails, analysis issues, and the fields to edit.
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(dialog.getByTestId('upload-row')).toHaveCount(10);
  await expectImagesLoaded(page, '[data-testid="upload-thumb"]', 10);
  const thumbSrc = await dialog.getByTestId('upload-thumb').first().getAttribute('src');
  expect(thumbSrc).toMatch(/^\/fun\/imageResize\/\?id=[A-Za-z0-9]+\.png&h=100&__marquee_workspace=/);
  await expect(dialog.getByText('Safe search not analysed')).toHaveCount(10, { timeout: 30_000 });
  await dialog.getByLabel('Name of image 1', { exact: true }).fill('Hero banner');
  await dialog
    .getByLabel('Alt text of image 1', { exact: true })
    .fill('Surfers running into the waves at dawn');
  const tags = dialog.getByLabel('Tags of image 1', { exact: true });
  await tags.fill('summer');
  await tags.press('Enter');
  await tags.fill('beach');
  await tags.press('Enter');
  await expect(dialog.getByRole('textbox', { name: 'Start time of image 1', exact: true })).toHaveValue(
    '2025/07/01 09:00',
  );
  await shot(page, 'media-03-upload-step2-table');

  // The tenth image repeats the first: its image check finds the match in the workspace.
  const tenth = dialog.getByTestId('upload-row').nth(9);
  await expect(tenth.getByText('1 matching image in this workspace')).toBeVisible();
  await tenth.getByRole('button', { name: 'Image check' }).click();
  const check = page.getByRole('dialog', { name: /Image check/ });
  await expect(check.getByTestId('matching-images-verdict')).toHaveText(
    '1 matching image found in this workspace',
  );
  await expect(check.getByText('Public internet: not checked')).toBeVisible();
  for (const category of ['adult', 'spoof', 'medical', 'violence', 'racy']) {
    await expect(check.getByTestId(`rating-${category}`)).toHaveText('Not analysed');
  }
  await shot(page, 'media-04-image-check-duplicate');
  await check.getByRole('button', { name: 'Done' }).click();
  await expect(check).toBeHidden();

  // Save Images: one image set per image, then the list of image sets with their w=400 thumbnails.
  await dialog.getByRole('button', { name: 'Save Images' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText('10 image sets saved')).toBeVisible();
  await expect(page).toHaveURL(`/${ws}/assets/${IMAGE_SET}`);
  await expect(page.getByTestId('item-title')).toHaveCount(10);
  await expectImagesLoaded(page, 'img[src*="imageResize"][src*="w=400"]', 10);
  await shot(page, 'media-05-image-set-list');

  const list = (await (
    await page.request.get(`/api/v1/workspaces/${ws}/items/${IMAGE_SET}?limit=24`)
  ).json()) as {
    items: { id: string; data: Record<string, unknown> }[];
  };
  expect(list.items).toHaveLength(10);
  const hero = list.items.find((item) => item.data.name === 'Hero banner')!;
  expect(hero.data).toMatchObject({
    altText: 'Surfers running into the waves at dawn',
    labels: ['summer', 'beach'],
    startTime: '2025-07-01T16:00:00.000Z',
    startTime_tz: 'America/Los_Angeles',
    endTime: '2025-09-01T01:00:00.000Z',
    endTime_tz: 'America/Los_Angeles',
  });
  expect((hero.data.masterImage as { sanityResults: { analysedBy: string } }).sanityResults.analysedBy).toBe(
    'local',
  );

  // An image set: its master image at w=600, the image check, and a focal point set by a click.
  await page.getByTestId('item-title').filter({ hasText: 'Hero banner' }).click();
  await expect(page).toHaveURL(`/${ws}/assets/${IMAGE_SET}/${hero.id}`);
  const master = fieldBox(page, 'masterImage');
  await expectImagesLoaded(page, '[data-field="masterImage"] [data-testid="focal-point-image"] img', 1);
  expect(await master.locator('[data-testid="focal-point-image"] img').getAttribute('src')).toContain(
    'w=600',
  );
  await master.getByRole('button', { name: 'Image check' }).click();
  await expect(
    page.getByRole('dialog', { name: /Image check/ }).getByTestId('matching-images-verdict'),
  ).toBeVisible();
  await shot(page, 'media-06-image-set-image-check');
  await page
    .getByRole('dialog', { name: /Image check/ })
    .getByRole('button', { name: 'Done' })
    .click();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const frame = master.getByTestId('focal-point-image');
  const box = (await frame.locator('img').boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.75);
  await shot(page, 'media-07-focal-point');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('item-version')).toHaveText('Version 2');
  const saved = (await (
    await page.request.get(`/api/v1/workspaces/${ws}/items/${IMAGE_SET}/${hero.id}`)
  ).json()) as {
    data: { masterImage: { focusX: number; focusY: number } };
  };
  expect(saved.data.masterImage.focusX).toBeCloseTo(0.25, 1);
  expect(saved.data.masterImage.focusY).toBeCloseTo(0.75, 1);

  // A blog post: rich text with an inline image chosen from the image sets, and a cover image uploaded in place.
  await page.goto(`/${ws}/blogging/blog-post/new`);
  await fieldBox(page, 'name').locator('input').fill('Summer campaign launch');
  const body = page.getByRole('textbox', { name: 'Body' });
  await body.click();
  await page.keyboard.type('Our summer campaign starts today.');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Insert image', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Insert image' });
  await picker.getByLabel('Search image sets').fill('hero');
  await expect(picker.getByRole('button', { name: /Hero banner/ })).toBeVisible();
  await expectImagesLoaded(page, '[role="group"][aria-label="Image sets"] img', 1);
  await shot(page, 'media-08-image-picker');
  await picker.getByRole('button', { name: /Hero banner/ }).click();
  await picker.getByRole('button', { name: 'Insert image', exact: true }).click();
  await expect(picker).toBeHidden();
  await expectImagesLoaded(page, '.ProseMirror img', 1);
  await page.keyboard.type('See you on the beach.');
  await page.keyboard.press('Enter');
  // A heading, a quote and a table from the toolbar.
  await page.getByRole('button', { name: 'Heading 2', exact: true }).click();
  await page.keyboard.type('Where to find us');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Blockquote', exact: true }).click();
  await page.keyboard.type('The best summer yet.');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Insert table', exact: true }).click();
  await page.getByRole('button', { name: 'Insert 2 × 2 table' }).click();
  await page.keyboard.type('Beach');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Opening hours');
  await shot(page, 'media-09a-rich-text-toolbar');

  // The cover image: a file field with no file, then an upload in place with its progress bar.
  const cover = fieldBox(page, 'coverImage');
  await cover.scrollIntoViewIfNeeded();
  await expect(cover.getByText('File not selected')).toBeVisible();
  await shot(page, 'media-09b-file-field-empty');
  let releaseUpload!: () => void;
  const uploadHeld = new Promise<void>((resolve) => (releaseUpload = resolve));
  await page.route('**/api/v1/workspaces/*/files', async (route) => {
    await uploadHeld;
    await route.continue();
  });
  await cover.locator('input[type="file"]').setInputFiles(files[2]);
  await expect(cover.getByText('Uploading campaign-shot-03.png')).toBeVisible();
  await shot(page, 'media-09c-file-field-uploading');
  releaseUpload();
  await expect(page.getByText('Uploaded successfully').first()).toBeVisible();
  await page.unroute('**/api/v1/workspaces/*/files');
  await expect(page.getByText('Image analysis done').first()).toBeVisible();
  await shot(page, 'media-09-blog-post-editor');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${ws}/blogging/blog-post/(?!new)[A-Za-z0-9_-]+$`));
  const postId = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('item-version')).toHaveText('Version 1');
  await expectImagesLoaded(page, '[data-field="body"] img', 1);
  await shot(page, 'media-10-blog-post-saved');

  const post = (await (
    await page.request.get(`/api/v1/workspaces/${ws}/items/blog-post/${postId}`)
  ).json()) as {
    data: { body: string; coverImage: { storageName: string } };
    _references: Record<string, { schemaType: string; fieldKey: string }>;
  };
  expect(post.data.body).toContain(`data-ref-id="${hero.id}"`);
  expect(post.data.body).toContain('Our summer campaign starts today.');
  expect(post.data.body).toContain('<h2>Where to find us</h2>');
  expect(post.data.body).toMatch(/<blockquote>\s*<p>The best summer yet\.<\/p>\s*<\/blockquote>/);
  expect(post.data.body).toMatch(/<table>.*Beach.*Opening hours.*<\/table>/s);
  expect(post._references[hero.id]).toMatchObject({ schemaType: IMAGE_SET, fieldKey: 'body' });
  expect(post.data.coverImage.storageName).toMatch(/\.png$/);
});

test('a bulk upload goes on past a file the server refuses: its row shows why, the others are saved', async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'bulk');
  const workspace = await seedWorkspace(page.request, `Bulk ${Date.now().toString(36)}`);
  const ws = workspace.id;
  const current = (await (await page.request.get(`/api/v1/workspaces/${ws}`)).json()) as {
    version: number;
    basics: Record<string, unknown>;
  };
  await page.request.patch(`/api/v1/workspaces/${ws}`, {
    headers: SAME_ORIGIN,
    data: { basics: { ...current.basics, domains: ['blogging', 'assets'] }, baseVersion: current.version },
  });
  const logged: string[] = [];
  page.on('console', (message) => message.type() === 'error' && logged.push(message.text()));

  const images = await Promise.all(
    [11, 12, 13].map(async (seed) => ({
      name: `ok-${seed}.png`,
      mimeType: 'image/png',
      buffer: await generatePng(seed, `OK ${seed}`),
    })),
  );
  // Named and typed as a PNG, but not one: the server sniffs the bytes and refuses it.
  const fake = {
    name: 'not-really.png',
    mimeType: 'image/png',
    buffer: Buffer.from('This is a text file pretending to be a PNG.'),
  };

  await page.goto(`/${ws}/_items/all`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByTestId('upload-images-option').click();
  const dialog = page.getByRole('dialog', { name: 'Upload images' });
  await dialog.locator('input[type="file"]').setInputFiles([images[0], fake, images[1], images[2]]);
  await expect(dialog.locator('[data-testid="picked-file"][data-status="uploaded"]')).toHaveCount(3, {
    timeout: 30_000,
  });
  await expect(dialog.locator('[data-testid="picked-file"][data-status="failed"]')).toHaveCount(1);
  await expect(dialog.getByText('3 uploaded · 1 failed')).toBeVisible();
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
  const failedRow = dialog.locator('[data-testid="upload-row"][data-status="failed"]');
  await expect(failedRow.getByRole('alert')).toContainText('Upload failed: Only images can be uploaded');
  await shot(page, 'media-11-bulk-upload-failure');
  expect(logged.some((text) => text.includes('Bulk image upload: upload failed for "not-really.png"'))).toBe(
    true,
  );

  await dialog.getByRole('button', { name: 'Save Images' }).click();
  await expect(page.getByText('3 image sets saved')).toBeVisible();
  await expect(page).toHaveURL(`/${ws}/assets/${IMAGE_SET}`);
  await expect(page.getByTestId('item-title')).toHaveCount(3);
});
