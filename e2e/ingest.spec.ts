import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import {
  BASE_URL,
  acceptCookies,
  patchBasics,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/**
 * A site on another origin, with a strict content security policy, that loads /sdk/marquee.js from the
 * app: its page serves the HTML and the site's own script, which is given the write key.
 */
async function startSite() {
  const site = { key: '' };
  const server = http.createServer((req, res) => {
    if (req.url === '/site.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`
        marquee.init(${JSON.stringify(site.key)});
        marquee.page({ title: document.title });
        marquee.track('signup', { plan: 'pro' });
        marquee.identify('site-customer-1', { plan: 'pro' });
        document.querySelector('button').addEventListener('click', function () {
          marquee.track('signup', { plan: 'team' });
          marquee.flush();
        });`);
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'self' ${BASE_URL}; connect-src ${BASE_URL}`,
    });
    res.end(`<!doctype html><html><head><title>Pricing</title>
      <script src="${BASE_URL}/sdk/marquee.js"></script></head>
      <body><h1>Pricing</h1><button>Upgrade</button><script src="/site.js"></script></body></html>`);
  });
  // The same site at a second port: another origin, which the write key does not allow.
  const mirror = http.createServer((req, res) => server.emit('request', req, res));
  const listen = (s: http.Server) =>
    new Promise<number>((resolve) =>
      s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)),
    );
  const [port, otherPort] = [await listen(server), await listen(mirror)];
  const close = (s: http.Server) => new Promise<void>((resolve) => s.close(() => resolve()));
  return {
    site,
    origin: `http://127.0.0.1:${port}`,
    otherOrigin: `http://127.0.0.1:${otherPort}`,
    close: () => Promise.all([close(server), close(mirror)]),
  };
}

test.beforeEach(async ({ context }) => acceptCookies(context));

test('a page on another origin sends events with the browser script and they show on the profile', async ({
  page,
  browser,
}) => {
  const site = await startSite();
  try {
    await seedVerifiedUser(page.request, 'ingest');
    const ws = (await seedWorkspace(page.request, `Site events ${Date.now().toString(36)}`)).id;
    await patchBasics(page.request, ws, { domains: ['blogging', 'marketing'], stages: ['Live'] });
    await seedItem(page.request, ws, 'behavioral-event', {
      name: 'Page view',
      key: 'page-view',
      properties: [
        { name: 'url', type: 'string' },
        { name: 'title', type: 'string' },
      ],
    });
    await seedItem(page.request, ws, 'behavioral-event', {
      name: 'Signup',
      key: 'signup',
      properties: [{ name: 'plan', type: 'string' }],
    });
    await seedItem(page.request, ws, 'customer-profile-attribute', {
      name: 'Plan',
      key: 'plan',
      attributeType: 'string',
    });

    // A manager creates a write key for the site's origin in settings.
    await page.goto(`/${ws}/_settings/write-keys`);
    await expect(page.getByText('No write keys yet')).toBeVisible();
    await page.getByLabel('Name').fill('Marketing site');
    const origins = page.getByRole('combobox', { name: 'Allowed origins' });
    await origins.fill(site.origin);
    await origins.press('Enter');
    await page.getByRole('button', { name: 'Create key' }).click();
    site.site.key = (await page.getByTestId('write-key-secret').textContent())!.trim();
    expect(site.site.key).toMatch(/^mqw_/);
    await expect(page.getByRole('table', { name: 'Write keys' }).getByText(site.origin)).toBeVisible();
    await shot(page, 'ingest-01-write-key-created');

    // The visitor's page: no inline script, a strict CSP, the script from the app's origin.
    // A browser of its own, without the Origin header the config adds to the app's requests.
    const visitor = await browser.newContext({ extraHTTPHeaders: {} });
    const sitePage = await visitor.newPage();
    const violations: string[] = [];
    sitePage.on('console', (message) => {
      if (/Content Security Policy|Refused/i.test(message.text())) violations.push(message.text());
    });
    const sent = sitePage.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/ingest/v1/batch`));
    await sitePage.goto(site.origin);
    const answer = await sent;
    expect(answer.status()).toBe(202);
    expect(await answer.json()).toEqual({ accepted: 3, rejected: 0, errors: [] });

    // Identified: the events sent before (as an anonymous visitor) moved to the profile.
    const profileUrl = `/api/v1/workspaces/${ws}/profiles/site-customer-1`;
    const detail = await (await page.request.get(profileUrl)).json();
    expect(detail.profile.attributes).toEqual({ plan: 'pro' });
    expect(detail.events.map((e: { event: string }) => e.event).sort()).toEqual(['page-view', 'signup']);
    expect(detail.events.find((e: { event: string }) => e.event === 'page-view').properties).toEqual({
      url: `${site.origin}/`,
      title: 'Pricing',
    });

    // Later events go straight to the profile.
    const clicked = sitePage.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/ingest/v1/batch`));
    await sitePage.getByRole('button', { name: 'Upgrade' }).click();
    expect((await clicked).status()).toBe(202);
    await expect.poll(async () => (await (await page.request.get(profileUrl)).json()).events.length).toBe(3);
    expect(violations).toEqual([]);
    await visitor.close();

    // The same page from an origin the key does not allow: the browser gets no CORS answer, nothing is stored.
    const stranger = await browser.newContext({ extraHTTPHeaders: {} });
    const strangerPage = await stranger.newPage();
    const refused = strangerPage.waitForEvent('requestfailed', (r) =>
      r.url().startsWith(`${BASE_URL}/ingest/v1/batch`),
    );
    await strangerPage.goto(site.otherOrigin);
    await refused;
    expect((await (await page.request.get(profileUrl)).json()).events).toHaveLength(3);
    await stranger.close();

    // The customers screen lists the profile, and its page shows what the site sent.
    await page.goto(`/${ws}/marketing/_customers`);
    await expect(page.getByTestId('profiles-table').getByText('site-customer-1')).toBeVisible();
    await shot(page, 'ingest-02-customers');
    await page.getByTestId('profiles-table').getByRole('link', { name: 'site-customer-1' }).click();
    const timeline = page.getByTestId('profile-timeline');
    await expect(timeline.getByRole('row')).toHaveCount(3);
    await expect(timeline).toContainText('Signup');
    await expect(timeline).toContainText('Page view');
    await expect(page.getByTestId('profile-attributes')).toContainText('pro');
    await shot(page, 'ingest-02b-profile');
    await page.goto(`/${ws}/_settings/write-keys`);
    await expect(page.getByRole('table', { name: 'Write keys' }).getByText('Never')).toBeHidden();
    await shot(page, 'ingest-03-write-key-used');
  } finally {
    await site.close();
  }
});
