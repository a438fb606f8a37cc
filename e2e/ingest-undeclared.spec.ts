import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import {
  acceptCookies,
  BASE_URL,
  patchBasics,
  SAME_ORIGIN,
  seedVerifiedUser,
  seedWorkspace,
  shot,
} from './fixtures';

/**
 * A marketing team's first day: a new workspace declares no events or attributes, and its website
 * (another origin) loads /sdk/marquee.js and calls page(), track() and identify(). What it sends is
 * kept and shows on the profile and in Settings → Undeclared data, where one click declares an event;
 * a strict key then refuses what is not declared, and the script says so in the browser's console.
 */
async function startSite() {
  const site = { key: '' };
  const server = http.createServer((req, res) => {
    if (req.url === '/site.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`
        marquee.init(${JSON.stringify(site.key)});
        marquee.page();
        marquee.track('add_to_cart', { sku: 'A1', price: 12, colour: 'red' });
        marquee.identify('first-day-1', { email: 'ada@example.com', plan: 'pro' });
        document.querySelector('button').addEventListener('click', function () {
          marquee.track('coupon_applied', { code: 'SPRING' });
          marquee.track('add_to_cart', { sku: 'B2', price: 5 });
          marquee.flush();
        });`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Shop</title>
      <script src="${BASE_URL}/sdk/marquee.js"></script></head>
      <body><h1>Shop</h1><button>Apply coupon</button><script src="/site.js"></script></body></html>`);
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    site,
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test.beforeEach(async ({ context }) => acceptCookies(context));

test("a new workspace keeps a website's undeclared events, lists them and declares one with a click", async ({
  page,
  browser,
}) => {
  const site = await startSite();
  try {
    await seedVerifiedUser(page.request, 'first-day');
    const ws = (await seedWorkspace(page.request, `First day ${Date.now().toString(36)}`)).id;
    await patchBasics(page.request, ws, { domains: ['marketing'], stages: ['Live'] });
    const created = await page.request.post(`/api/v1/workspaces/${ws}/write-keys`, {
      headers: SAME_ORIGIN,
      data: { name: 'Marketing site', origins: [site.origin] },
    });
    expect(created.status(), await created.text()).toBe(201);
    site.site.key = ((await created.json()) as { key: string }).key;

    // The visitor's browser: no Origin header of the app's, the site's own.
    const visitor = await browser.newContext({ extraHTTPHeaders: {} });
    const sitePage = await visitor.newPage();
    const warnings: string[] = [];
    sitePage.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    const sent = sitePage.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/ingest/v1/batch`));
    await sitePage.goto(site.origin);
    const answer = await sent;
    expect(answer.status()).toBe(202);
    expect(await answer.json()).toEqual({ accepted: 3, rejected: 0, errors: [] });

    // The profile shows what the site sent: its attributes and both events.
    await page.goto(`/${ws}/marketing/_customers/first-day-1`);
    await expect(page.getByTestId('profile-attributes')).toContainText('ada@example.com');
    const timeline = page.getByTestId('profile-timeline');
    await expect(timeline.getByRole('row')).toHaveCount(2);
    await expect(timeline).toContainText('page-view');
    await expect(timeline).toContainText('add-to-cart');
    await expect(timeline).toContainText(`url: ${site.origin}/`);
    await shot(page, 'undeclared-01-profile');

    // Settings lists what is undeclared, with counts and times.
    await page.goto(`/${ws}/_settings`);
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Undeclared data' })
      .click();
    const events = page.getByRole('table', { name: 'Undeclared events' });
    await expect(events.getByRole('row', { name: /page-view/ })).toContainText('url: string');
    const cart = events.getByRole('row', { name: /add-to-cart/ });
    await expect(cart).toContainText('price: number');
    await expect(cart).toContainText('sku: string');
    await expect(cart).toContainText('1');
    const attributes = page.getByRole('table', { name: 'Undeclared attributes' });
    await expect(attributes.getByRole('row', { name: /email/ })).toContainText('string');
    await expect(attributes.getByRole('row', { name: /plan/ })).toBeVisible();
    await shot(page, 'undeclared-02-list');

    // One click declares the event with its properties.
    await page.getByRole('button', { name: 'Declare event add-to-cart' }).click();
    await expect(page.getByText('Declared the event add-to-cart')).toBeVisible();
    await expect(cart).toBeHidden();
    const items = await (await page.request.get(`/api/v1/workspaces/${ws}/items/behavioral-event`)).json();
    expect(items.items.map((item: { data: { key: string } }) => item.data.key)).toEqual(['add-to-cart']);
    await shot(page, 'undeclared-03-declared');

    // The key made strict on the write-keys screen: the site's undeclared event is refused, in its console.
    await page.goto(`/${ws}/_settings/write-keys`);
    const strict = page.getByRole('switch', { name: 'Strict: Marketing site' });
    await expect(strict).not.toBeChecked();
    // The switch's track takes the click, as a person's pointer lands on it.
    await strict.click({ force: true });
    await expect(strict).toBeChecked();
    await shot(page, 'undeclared-04-strict-key');
    const clicked = sitePage.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/ingest/v1/batch`));
    await sitePage.getByRole('button', { name: 'Apply coupon' }).click();
    expect(await (await clicked).json()).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 0, message: 'unknown event "coupon_applied"' }],
    });
    await expect
      .poll(() => warnings)
      .toContain('marquee: track "coupon_applied" refused: unknown event "coupon_applied"');
    await visitor.close();

    await page.goto(`/${ws}/marketing/_customers/first-day-1`);
    await expect(page.getByTestId('profile-timeline').getByRole('row')).toHaveCount(3);
  } finally {
    await site.close();
  }
});
