import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import {
  BASE_URL,
  SAME_ORIGIN,
  acceptCookies,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';
import { seedLandingPages } from './landing-pages';

async function post(request: APIRequestContext, url: string, data: unknown) {
  const res = await request.post(url, { headers: SAME_ORIGIN, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

async function published(
  request: APIRequestContext,
  ws: string,
  schema: string,
  data: Record<string, unknown>,
) {
  const { id } = await seedItem(request, ws, schema, data);
  await post(request, `/api/v1/workspaces/${ws}/items/${schema}/${id}/publish/live`, { publishRefs: false });
}

/**
 * A site's page as a static-site or server framework would render it in the browser: it asks the
 * GraphQL endpoint (from its own origin, with the delivery key) for a post and a landing page.
 */
const SITE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Site</title></head>
<body><main id="post"></main><main id="landing"></main>
<script type="module">
  const { endpoint, key } = Object.fromEntries(new URLSearchParams(location.search));
  const query = \`{
    blogPost(slug: "hello-graph") { name body }
    landingPage(slug: "spring") {
      title
      sections { __typename ... on HeroBlock { title tagline } ... on QuoteBlock { text } }
    }
  }\`;
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const { data } = await res.json();
  const el = (tag, text, attrs = {}) => Object.assign(document.createElement(tag), { textContent: text }, attrs);
  const post = document.getElementById('post');
  post.append(el('h1', data.blogPost.name));
  const body = el('div', '', { className: 'body' });
  body.innerHTML = data.blogPost.body;
  post.append(body);
  const landing = document.getElementById('landing');
  landing.append(el('h2', data.landingPage.title));
  for (const block of data.landingPage.sections) {
    const section = el('section', '', { className: block.__typename });
    if (block.__typename === 'HeroBlock') section.append(el('h3', block.title), el('p', block.tagline));
    else section.append(el('blockquote', block.text));
    landing.append(section);
  }
</script></body></html>`;

test.beforeEach(async ({ context }) => acceptCookies(context));

test('a site on another origin renders a post and a landing page from blocks through GraphQL', async ({
  page,
  browser,
}) => {
  await seedVerifiedUser(page.request, 'graphsite');
  const ws = (await seedWorkspace(page.request, 'Graph Site')).id;
  await seedLandingPages(page.request, ws);
  await published(page.request, ws, 'blog-post', {
    name: 'Hello, graph',
    slug: 'hello-graph',
    body: '<p>Rendered from the <strong>GraphQL</strong> API.</p>',
  });
  await published(page.request, ws, 'landing-page', {
    title: 'Spring',
    slug: 'spring',
    sections: [
      { _type: 'hero', _key: 'h1', title: 'Spring is here', tagline: 'Fresh things for fresh days' },
      { _type: 'quote', _key: 'q1', text: 'The best season yet.' },
    ],
  });
  const { key } = await post(page.request, `/api/v1/workspaces/${ws}/api-keys`, {
    name: 'Site',
    stages: ['live'],
  });

  const site = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SITE_PAGE),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  // Another port: another origin than the app's, as a site's own server would be.
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const visitor = await browser.newContext({ extraHTTPHeaders: {} });
  try {
    const sitePage = await visitor.newPage();
    const endpoint = `${BASE_URL}/delivery/v1/${ws}/live/graphql`;
    await sitePage.goto(`${origin}/?${new URLSearchParams({ endpoint, key })}`);
    await expect(sitePage.getByRole('heading', { level: 1 })).toHaveText('Hello, graph');
    await expect(sitePage.locator('#post .body strong')).toHaveText('GraphQL');
    await expect(sitePage.locator('#post .body')).toHaveText('Rendered from the GraphQL API.');
    await expect(sitePage.getByRole('heading', { level: 2 })).toHaveText('Spring');
    await expect(sitePage.locator('#landing section')).toHaveCount(2);
    await expect(sitePage.locator('section.HeroBlock h3')).toHaveText('Spring is here');
    await expect(sitePage.locator('section.HeroBlock p')).toHaveText('Fresh things for fresh days');
    await expect(sitePage.locator('section.QuoteBlock blockquote')).toHaveText('The best season yet.');
    await shot(sitePage, 'graphql-site-01-rendered');
  } finally {
    await visitor.close();
    site.close();
  }
});
