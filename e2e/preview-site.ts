import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type APIRequestContext } from '@playwright/test';
import { seedLandingPages } from './landing-pages';
import { BASE_URL, SAME_ORIGIN, patchBasics, seedItem, seedVerifiedUser, seedWorkspace } from './fixtures';

/**
 * A website for the live preview specs: landing pages on their own origin on 127.0.0.1, under a strict
 * content security policy, rendered in the browser from the delivery API's drafts (with the preview
 * token the pane puts in the URL) and then from each item the editor sends through /sdk/preview.js.
 */

/** The page's own script: no inline code, as the CSP asks. */
const SITE_JS = `
const { api, workspace } = document.documentElement.dataset;
const main = document.getElementById('page');
// A number of this page load: a reload gives another, a re-render keeps it.
main.dataset.loadId = String(Math.random()).slice(2);
let renders = 0;

function el(tag, text, item, path) {
  const node = document.createElement(tag);
  node.textContent = text == null ? '' : String(text);
  if (path) {
    const attributes = marqueePreview.edit(item, path);
    for (const name in attributes) node.setAttribute(name, attributes[name]);
  }
  return node;
}

function render(item) {
  const data = item.data;
  const nodes = [el('h1', data.title, item, 'title')];
  (data.sections || []).forEach((block, i) => {
    const section = el('section', '', item, 'sections.' + i);
    section.className = 'block ' + block._type;
    if (block._type === 'hero')
      section.append(el('h2', block.title, item, 'sections.' + i + '.title'), el('p', block.tagline, item, 'sections.' + i + '.tagline'));
    else section.append(el('blockquote', block.text, item, 'sections.' + i + '.text'));
    nodes.push(section);
  });
  main.replaceChildren(...nodes);
  main.dataset.renders = String(++renders);
  main.dataset.locale = item.locale || '';
}

marqueePreview.subscribe(render);
const slug = decodeURIComponent(location.pathname.split('/').pop());
const locale = new URLSearchParams(location.search).get('locale');
const query = 'preview=draft&editInfo=true&include=refs' + (locale ? '&locale=' + encodeURIComponent(locale) : '');
fetch(api + '/delivery/v1/' + workspace + '/live/items/landing-page/by-slug/' + encodeURIComponent(slug) + '?' + query, {
  headers: { authorization: 'Bearer ' + marqueePreview.token() },
})
  .then((res) => (res.ok ? res.json() : Promise.reject(new Error('delivery answered ' + res.status))))
  .then((item) => {
    if (renders === 0) render(item);
  })
  .catch((err) => {
    main.dataset.error = String(err);
  });
`;

const SITE_CSS = `
body { margin: 0; font: 17px/1.5 Georgia, serif; color: #1f2933; background: #fdfaf5; }
header { font: 600 15px system-ui, sans-serif; padding: 12px 28px; background: #0b3954; color: #fff; }
main { max-width: 760px; margin: 28px auto; padding: 0 20px; }
h1 { font-size: 38px; margin: 0 0 18px; }
.block { margin: 0 0 18px; padding: 18px 20px; border-radius: 8px; background: #fff; border: 1px solid #e4dccf; }
.hero h2 { margin: 0 0 6px; font-size: 26px; color: #0b3954; }
.hero p { margin: 0; color: #52606d; }
blockquote { margin: 0; font-style: italic; font-size: 20px; }
`;

const sitePage = (workspace: string) => `<!doctype html>
<html lang="en" data-api="${BASE_URL}" data-workspace="${workspace}">
<head>
<meta charset="utf-8">
<title>Harbour Days</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/site.css">
<script src="${BASE_URL}/sdk/preview.js" defer></script>
<script src="/site.js" defer></script>
</head>
<body><header>Harbour Days</header><main id="page" aria-busy="true">Loading…</main></body>
</html>`;

export interface Site {
  origin: string;
  /** The paths asked for, in order. */
  requests: string[];
  close: () => Promise<unknown>;
}

/** Serves the website on a port of its own: `/landing/{slug}`, its script and its styles. */
export async function startSite(workspace: string): Promise<Site> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push(req.url ?? '/');
    if (path === '/site.js')
      return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(SITE_JS);
    if (path === '/site.css') return res.writeHead(200, { 'content-type': 'text/css' }).end(SITE_CSS);
    if (!path.startsWith('/landing/')) return res.writeHead(404).end();
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'self'; script-src 'self' ${BASE_URL}; connect-src ${BASE_URL}; style-src 'self'; img-src 'self' ${BASE_URL} data:`,
      })
      .end(sitePage(workspace));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function ok(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown) {
  const res = await request[method](url, { headers: SAME_ORIGIN, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

export const LANDING = {
  title: 'Summer at the harbour',
  slug: 'summer',
  sections: [
    { _type: 'hero', _key: 'h1', title: 'Boats and bunting', tagline: 'Every weekend in July' },
    { _type: 'quote', _key: 'q1', text: 'The best days of the year.' },
  ],
  _locales: { 'fr-FR': { title: 'L’été au port' } },
};

/**
 * A workspace with locales whose landing pages preview on `site` (listed in its preview origins) and on
 * `elsewhere` (not listed), and one landing page; the signed-in manager is `request`'s.
 */
export async function seedPreviewWorkspace(
  request: APIRequestContext,
  sites: (ws: string) => Promise<{ site: Site; elsewhere?: Site }>,
) {
  const user = await seedVerifiedUser(request, 'preview');
  const { id: ws } = await seedWorkspace(request, `Harbour Days ${Date.now().toString(36)}`);
  await patchBasics(request, ws, {
    domains: ['blogging'],
    stages: ['Staging', 'Live'],
    locales: { tags: ['en-US', 'fr-FR'], default: 'en-US', fallback: { 'fr-FR': 'en-US' } },
  });
  const { site, elsewhere } = await sites(ws);
  const template = (origin: string) => `${origin}/landing/{slug}?locale={locale}`;
  await seedLandingPages(request, ws, {
    previewUrls: [template(site.origin), ...(elsewhere ? [template(elsewhere.origin)] : [])],
    localizedTitle: true,
  });
  await ok(request, 'put', `/api/v1/workspaces/${ws}/preview-origins`, { origins: [site.origin] });
  const page = await seedItem(request, ws, 'landing-page', LANDING);
  return { ws, user, pageId: page.id };
}
