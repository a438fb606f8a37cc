import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { BASE_URL, SAME_ORIGIN, seedVerifiedUser, seedWorkspace, shot, uploadImage } from './fixtures';

/**
 * A website on another origin shows a published post through the delivery API: no session, no cookies,
 * only an API key; the post's images load from their signed links until the post is unpublished, the
 * cover at the widths of the page's srcset.
 */

const SLUG = 'a-morning-at-the-harbour';

/** A small harbour scene as a PNG (sky, sun, sea, a boat at `boatX`), so the page looks like a blog's. */
function harbourPicture(width: number, height: number, hue: number, boatX: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1200 630" preserveAspectRatio="none">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 70% 72%)"/><stop offset="1" stop-color="hsl(${hue + 30} 80% 90%)"/>
    </linearGradient></defs>
    <rect width="1200" height="420" fill="url(#sky)"/>
    <circle cx="920" cy="190" r="70" fill="#ffd166"/>
    <rect y="400" width="1200" height="230" fill="hsl(205 55% 32%)"/>
    <path d="M0 470 Q150 450 300 470 T600 470 T900 470 T1200 470" stroke="#9cc3d5" stroke-width="6" fill="none"/>
    <path d="M0 550 Q150 530 300 550 T600 550 T900 550 T1200 550" stroke="#9cc3d5" stroke-width="6" fill="none"/>
    <polygon points="${boatX},410 ${boatX + 260},410 ${boatX + 220},470 ${boatX + 40},470" fill="#8d3b2f"/>
    <rect x="${boatX + 125}" y="200" width="10" height="210" fill="#4a3428"/>
    <polygon points="${boatX + 140},210 ${boatX + 140},395 ${boatX + 250},395" fill="#f7f1e3"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A published blog post with a cover and an inline image of the workspace, and a key that reads live. */
async function seedPublishedPost(request: APIRequestContext) {
  await seedVerifiedUser(request, 'website');
  const ws = (await seedWorkspace(request, 'Harbour Journal')).id;
  const cover = await uploadImage(request, ws, 'harbour.png', await harbourPicture(1200, 630, 200, 180));
  const inline = await uploadImage(request, ws, 'boats.png', await harbourPicture(800, 420, 20, 640));
  const created = await request.post(`/api/v1/workspaces/${ws}/items/blog-post`, {
    headers: SAME_ORIGIN,
    data: {
      data: {
        name: 'A morning at the harbour',
        slug: SLUG,
        author: 'Ada Lovelace',
        excerpt: 'Boats, gulls and the first light over the water.',
        coverImage: cover,
        // The inline image as the editor stores it: the workspace's own file URL, which needs a session.
        body:
          '<p>The tide was out when we arrived, and the boats leaned on their keels in the mud.</p>' +
          '<h2>The boats</h2>' +
          `<p><img src="${inline.publicUrl}" alt="Fishing boats at low tide"></p>` +
          '<p>By nine the water was back and the <strong>harbour</strong> came alive again.</p>',
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const post = (await created.json()) as { id: string };
  const published = await request.post(`/api/v1/workspaces/${ws}/items/blog-post/${post.id}/publish/live`, {
    headers: SAME_ORIGIN,
    data: { publishRefs: false },
  });
  expect(published.status(), await published.text()).toBe(200);
  const key = await request.post(`/api/v1/workspaces/${ws}/api-keys`, {
    headers: SAME_ORIGIN,
    data: { name: 'Website', stages: ['live'] },
  });
  expect(key.status(), await key.text()).toBe(201);
  return { ws, postId: post.id, key: ((await key.json()) as { key: string }).key };
}

/**
 * The website's one page: an inline script reads the post named by the path from the delivery API and
 * renders it. It revalidates (`cache: 'no-cache'`) so an unpublished post is gone on the next load
 * rather than a minute later.
 */
function sitePage(config: { api: string; workspace: string; key: string }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Harbour Journal</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 17px/1.6 Georgia, serif; color: #222; background: #faf8f4; }
  header, footer { font-family: system-ui, sans-serif; padding: 14px 32px; background: #1d3557; color: #fff; }
  header strong { font-size: 20px; letter-spacing: .5px; }
  footer { background: #eee; color: #666; font-size: 13px; }
  .layout { display: grid; grid-template-columns: minmax(0, 720px) 240px; gap: 40px; max-width: 1000px; margin: 32px auto; padding: 0 24px; }
  h1 { font-size: 40px; line-height: 1.15; margin: 0 0 8px; }
  .meta { font-family: system-ui, sans-serif; color: #777; font-size: 14px; margin-bottom: 20px; }
  .cover { width: 100%; height: auto; border-radius: 6px; display: block; }
  .lede { font-size: 20px; color: #555; }
  .body img { max-width: 100%; height: auto; border-radius: 4px; }
  aside { font-family: system-ui, sans-serif; font-size: 14px; }
  aside .card { background: #fff; border: 1px solid #ddd; border-radius: 6px; overflow: hidden; }
  aside .card img { width: 100%; height: auto; display: block; }
  aside .card p { margin: 8px 12px 12px; }
  @media (max-width: 760px) { .layout { grid-template-columns: minmax(0, 1fr); gap: 24px; } }
</style>
</head>
<body>
<header><strong>Harbour Journal</strong></header>
<div class="layout">
  <main id="post" aria-busy="true">Loading…</main>
  <aside id="share"></aside>
</div>
<footer>Content delivered by Marquee</footer>
<script>
const config = ${JSON.stringify(config).replace(/</g, '\\u003c')};
// The cover at the widths a phone, a tablet and a wide screen need: the signed link takes any of them.
const COVER_WIDTHS = [320, 640, 960, 1200];
const main = document.getElementById('post');
const aside = document.getElementById('share');
const el = (tag, props, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};

async function render() {
  const slug = decodeURIComponent(location.pathname.split('/').pop());
  const url = config.api + '/delivery/v1/' + config.workspace + '/live/items/blog-post/by-slug/' + encodeURIComponent(slug);
  const res = await fetch(url, { headers: { authorization: 'Bearer ' + config.key }, cache: 'no-cache' });
  main.removeAttribute('aria-busy');
  if (res.status === 404) {
    main.replaceChildren(el('h1', { textContent: 'Post not found' }), el('p', { textContent: 'This post is not published.' }));
    main.dataset.state = 'not-found';
    return;
  }
  if (!res.ok) throw new Error('The delivery API answered ' + res.status);
  const post = await res.json();
  const { name, author, excerpt, coverImage, body } = post.data;
  const date = new Date(post.publishedAt).toLocaleDateString('en-GB', { dateStyle: 'long' });
  const article = el('article', {},
    el('h1', { textContent: name }),
    el('div', { className: 'meta', textContent: 'By ' + author + ' · ' + date }),
    el('img', {
      className: 'cover',
      srcset: COVER_WIDTHS.map((w) => coverImage.publicUrl + '&w=' + w + ' ' + w + 'w').join(', '),
      sizes: '(max-width: 760px) calc(100vw - 48px), 720px',
      src: coverImage.imageUrl,
      alt: name,
    }),
    el('p', { className: 'lede', textContent: excerpt }),
  );
  const content = el('div', { className: 'body' });
  content.innerHTML = body; // sanitised by Marquee; its own images come as signed links
  article.append(content);
  main.replaceChildren(article);
  // A card for sharing, its thumbnail in WebP for browsers that take it.
  const picture = el('picture', {},
    el('source', { type: 'image/webp', srcset: coverImage.thumbnailUrl + '&format=webp' }),
    el('img', { src: coverImage.thumbnailUrl, alt: '' }),
  );
  aside.replaceChildren(el('h3', { textContent: 'Share this post' }), el('div', { className: 'card' }, picture, el('p', { textContent: name })));
  main.dataset.state = 'loaded';
}

render().catch((err) => {
  main.dataset.state = 'error';
  main.textContent = String(err);
  console.error(err);
});
</script>
</body>
</html>`;
}

/**
 * Serves the website on 127.0.0.1 at a port of its own: `/posts/{slug}`. The page is cross-origin
 * isolated (as sites using SharedArrayBuffer are), so an image without `Cross-Origin-Resource-Policy`
 * would not load on it.
 */
async function startSite(html: string) {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/posts/')) {
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cross-origin-embedder-policy': 'require-corp',
          'cross-origin-opener-policy': 'same-origin',
        })
        .end(html);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Every image on the page has loaded real pixels. */
async function expectImagesLoaded(page: Page, count: number) {
  await expect(page.locator('img')).toHaveCount(count);
  await expect
    .poll(
      () =>
        page
          .locator('img')
          .evaluateAll(
            (imgs) =>
              imgs.filter(
                (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
              ).length,
          ),
      { message: `${count} loaded images`, timeout: 20_000 },
    )
    .toBe(count);
}

test('a website on another origin shows a published post and its images with an API key alone', async ({
  browser,
  request,
  playwright,
}) => {
  const { ws, postId, key } = await seedPublishedPost(request);
  const site = await startSite(sitePage({ api: BASE_URL, workspace: ws, key }));
  // A visitor's browser: no Marquee session, no Origin header of the app's.
  const context = await browser.newContext({ extraHTTPHeaders: {}, viewport: { width: 1280, height: 1300 } });
  const anonymous = await playwright.request.newContext();
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    const imageTypes = new Map<string, string>();
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`failed: ${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()}: ${res.url()}`);
      if (res.request().resourceType() === 'image') imageTypes.set(res.url(), res.headers()['content-type']);
    });
    const deliveryRequest = page.waitForRequest(
      (req) => req.url().includes('/delivery/v1/') && req.method() === 'GET',
    );

    await page.goto(`${site.origin}/posts/${SLUG}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('A morning at the harbour');
    await expect(page.locator('#post')).toHaveAttribute('data-state', 'loaded');
    // Cross-origin, with the key and nothing of a session.
    const sent = await (await deliveryRequest).allHeaders();
    expect(sent.origin).toBe(site.origin);
    expect(sent.authorization).toBe(`Bearer ${key}`);
    expect(sent.cookie).toBeUndefined();

    // The cover, the inline image of the body and the share card's WebP thumbnail.
    await expectImagesLoaded(page, 3);
    const sources = await page
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).currentSrc));
    for (const src of sources) expect(src.startsWith(`${BASE_URL}/fun/emailImage/?`), src).toBe(true);
    const [coverUrl, inlineUrl, cardUrl] = sources;
    expect(new URL(coverUrl).searchParams.get('item')).toBe(postId);
    await expect(page.getByRole('img', { name: 'Fishing boats at low tide' })).toHaveJSProperty(
      'currentSrc',
      inlineUrl,
    );
    expect(cardUrl).toMatch(/&format=webp$/);
    expect(imageTypes.get(cardUrl)).toBe('image/webp');
    expect(problems).toEqual([]);
    await shot(page, 'website-01-published-post');

    // Unpublished, the post is gone from the site and its image links stop loading.
    const itemPath = `/api/v1/workspaces/${ws}/items/blog-post/${postId}`;
    const unpublished = await request.delete(`${itemPath}/publish/live`, { headers: SAME_ORIGIN });
    expect(unpublished.status(), await unpublished.text()).toBe(200);
    problems.length = 0;
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Post not found');
    await expect(page.locator('#post')).toHaveAttribute('data-state', 'not-found');
    await expect(page.locator('img')).toHaveCount(0);
    // The only failure is the delivery API's answer that the post is not published.
    await expect
      .poll(() => [...problems].sort())
      .toEqual([
        `404: ${BASE_URL}/delivery/v1/${ws}/live/items/blog-post/by-slug/${SLUG}`,
        'console: Failed to load resource: the server responded with a status of 404 (Not Found)',
      ]);
    await shot(page, 'website-02-post-not-found');
    for (const url of [coverUrl, inlineUrl, cardUrl])
      expect((await anonymous.get(url)).status(), url).toBe(404);
  } finally {
    await anonymous.dispose();
    await context.close();
    await site.close();
  }
});

test("a website's srcset asks for the widths it needs, and each loads at that width", async ({
  browser,
  request,
}) => {
  // Delivered links were signed with their width (any other answered 404), and publicUrl needed a session.
  const { ws, key } = await seedPublishedPost(request);
  const site = await startSite(sitePage({ api: BASE_URL, workspace: ws, key }));
  // A phone with a sharp screen: the browser picks a cover wider than the 352 px it shows.
  const context = await browser.newContext({
    extraHTTPHeaders: {},
    viewport: { width: 400, height: 900 },
    deviceScaleFactor: 2,
  });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
    page.on('requestfailed', (req) => problems.push(`failed: ${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => res.status() >= 400 && problems.push(`${res.status()}: ${res.url()}`));
    await page.goto(`${site.origin}/posts/${SLUG}`);
    await expect(page.locator('#post')).toHaveAttribute('data-state', 'loaded');
    await expectImagesLoaded(page, 3);

    const cover = page.getByRole('img', { name: 'A morning at the harbour' });
    const srcset = (await cover.getAttribute('srcset')) ?? '';
    const candidates = srcset.split(', ').map((candidate) => {
      const [url, descriptor] = candidate.split(' ');
      return { url, width: Number(descriptor.replace(/w$/, '')) };
    });
    expect(candidates.map((candidate) => candidate.width)).toEqual([320, 640, 960, 1200]);
    for (const { url, width } of candidates) {
      expect(url.startsWith(`${BASE_URL}/fun/emailImage/?`), url).toBe(true);
      expect(new URL(url).searchParams.get('w')).toBe(String(width));
    }
    // The browser's own pick shows the width it asked for.
    const shown = await cover.evaluate((img: HTMLImageElement) => ({
      src: img.currentSrc,
      naturalWidth: img.naturalWidth,
    }));
    const picked = candidates.find((candidate) => candidate.url === shown.src);
    expect(picked, shown.src).toBeDefined();
    expect(picked!.width).toBeGreaterThan(352);
    // A srcset image's naturalWidth is its pixels over its density (its descriptor over the 352 px of
    // `sizes`): 352 exactly when it has as many pixels as its descriptor says.
    expect(shown.naturalWidth).toBe(352);

    // Every candidate loads on this origin, as an image and by fetch, at its own width.
    const loaded = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.map(async (url) => {
            const image = new Image();
            image.src = url;
            await image.decode();
            const answer = await fetch(url);
            const bitmap = await createImageBitmap(await answer.blob());
            return { url, naturalWidth: image.naturalWidth, fetchedWidth: bitmap.width };
          }),
        ),
      candidates.map((candidate) => candidate.url),
    );
    expect(loaded).toEqual(
      candidates.map(({ url, width }) => ({ url, naturalWidth: width, fetchedWidth: width })),
    );
    expect(problems).toEqual([]);
    await shot(page, 'website-03-cover-srcset-on-a-phone');
  } finally {
    await context.close();
    await site.close();
  }
});
