import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { attributeRuleOn, group } from '../tests/factories/customers';
import {
  acceptCookies,
  BASE_URL,
  patchBasics,
  SAME_ORIGIN,
  seedItem,
  seedVerifiedUser,
  seedWorkspace,
  shot,
  solidPng,
} from './fixtures';

/**
 * A marketing team's first day, as one journey on a new workspace: a CRM export imported through the
 * preview without typing a key (its Email, First Name and Email Consent columns recognised), a campaign
 * whose readiness counts only the subscribed members with an address, sent, then sent again to nobody
 * new unless asked, with the results of both sends; then the team's website on another origin tracks a
 * customer with the browser script (events and properties nobody declared are kept, listed in Settings
 * and shown on the profile) and shows a published post's cover at the widths of its srcset.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const suffix = Date.now().toString(36);
const address = (name: string) => `${name}-${suffix}@example.com`;
/** Four newsletter readers who subscribed (one without an address), one who opted out, one never asked. */
const CRM = [
  'Customer ID,Email,First Name,Email Consent,Plan',
  `c1,${address('ada')},Ada,Subscribed,news`,
  `c2,${address('bob')},Bob,yes,news`,
  `c3,${address('cy')},Cy,opted in,news`,
  `c4,,Dee,subscribed,news`,
  `c5,${address('eve')},Eve,unsubscribed,news`,
  `c6,${address('fay')},Fay,,news`,
  `c7,${address('gus')},Gus,subscribed,none`,
].join('\n');

async function ok<T>(response: Promise<import('@playwright/test').APIResponse>): Promise<T> {
  const res = await response;
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

async function importCrm(page: Page, ws: string) {
  await page.goto(`/${ws}/marketing/_customers`);
  await page.getByRole('button', { name: 'Import', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import customer data' });
  await dialog
    .locator('input[type="file"]')
    .setInputFiles({ name: 'crm.csv', mimeType: 'text/csv', buffer: Buffer.from(CRM) });
  await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(dialog.getByTestId('import-preview')).toContainText('7 rows read');
  // Nothing typed: the well-known columns go where campaigns read them.
  await expect(dialog.getByLabel('Key for Email')).toHaveValue('email');
  await expect(dialog.getByLabel('Key for First Name')).toHaveValue('first-name');
  const own = dialog.getByTestId('own-column');
  await expect(own.filter({ hasText: 'Customer ID' })).toContainText('Customer ID is read as the id');
  await expect(own.filter({ hasText: 'Email Consent' })).toHaveText(
    'Email Consent is read as the email consent of each row.',
  );
  await shot(page, 'first-day-01-import-preview');
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('batch-progress')).toHaveAttribute('data-status', 'done');
  await dialog.getByRole('button', { name: 'Done' }).click();
}

/** The audience of the news plan, a sender, the footer's address, an email and the campaign. */
async function seedCampaign(request: APIRequestContext, ws: string) {
  const attributes = await ok<{ items: { id: string; data: { key: string } }[] }>(
    request.get(`/api/v1/workspaces/${ws}/items/customer-profile-attribute?limit=100`),
  );
  const plan = attributes.items.find((item) => item.data.key === 'plan');
  expect(plan, 'the import made the plan attribute').toBeDefined();
  const audience = await seedItem(request, ws, 'audience', {
    name: 'Newsletter readers',
    criteria: group('and', [attributeRuleOn(plan!.id, 'Plan', '==', 'news')]),
  });
  const sender = await ok<{ id: string }>(
    request.post(`/api/v1/workspaces/${ws}/senders`, {
      headers: SAME_ORIGIN,
      data: { fromName: 'Acme News', fromAddress: `news@news-${suffix}.example.test` },
    }),
  );
  await ok(
    request.put(`/api/v1/workspaces/${ws}/senders/postal-address`, {
      headers: SAME_ORIGIN,
      data: { postalAddress: 'Acme Ltd\n1 Market Street\nLeeds' },
    }),
  );
  const email = await seedItem(request, ws, 'email', {
    name: 'Spring letter',
    subject: 'Spring news',
    template: {
      'gjs-nl-html':
        '<table><tr><td><h1>Hi {{first-name|there}}</h1><p>Spring is here.</p></td></tr></table>',
      'gjs-nl-css': 'h1{color:#223344}',
    },
  });
  const campaign = await seedItem(request, ws, 'campaign', {
    name: 'Spring campaign',
    email: { schemaType: 'email', id: email.id, label: 'Spring letter' },
    audience: { schemaType: 'audience', id: audience.id, label: 'Newsletter readers' },
    sender: sender.id,
  });
  return `/${ws}/marketing/campaign/${campaign.id}`;
}

/** A published blog post with a cover, an API key that reads live and a write key for `origin`. */
async function seedWebsite(request: APIRequestContext, ws: string, origin: string) {
  const upload = await request.post(`/api/v1/workspaces/${ws}/files`, {
    headers: SAME_ORIGIN,
    multipart: {
      file: {
        name: 'cover.png',
        mimeType: 'image/png',
        buffer: await solidPng(1200, 600, { r: 30, g: 90, b: 160 }),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const post = await seedItem(request, ws, 'blog-post', {
    name: 'Spring is here',
    slug: 'spring-is-here',
    body: '<p>New things for new days.</p>',
    coverImage: await upload.json(),
  });
  await ok(
    request.post(`/api/v1/workspaces/${ws}/items/blog-post/${post.id}/publish/live`, {
      headers: SAME_ORIGIN,
      data: { publishRefs: false },
    }),
  );
  const apiKey = await ok<{ key: string }>(
    request.post(`/api/v1/workspaces/${ws}/api-keys`, {
      headers: SAME_ORIGIN,
      data: { name: 'Website', stages: ['live'] },
    }),
  );
  const writeKey = await ok<{ key: string }>(
    request.post(`/api/v1/workspaces/${ws}/write-keys`, {
      headers: SAME_ORIGIN,
      data: { name: 'Website', origins: [origin] },
    }),
  );
  return { apiKey: apiKey.key, writeKey: writeKey.key };
}

const COVER_WIDTHS = [320, 640, 960];

/** The website's page: the browser script tracks its visitor, and the post's cover shows with a srcset. */
const sitePage = (config: { ws: string; apiKey: string; writeKey: string }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme</title><link rel="icon" href="data:,">
<script src="${BASE_URL}/sdk/marquee.js"></script></head>
<body><h1>Acme</h1><main id="post" data-state="loading"></main>
<script>
const config = ${JSON.stringify(config)};
marquee.init(config.writeKey);
marquee.identify('c1');
marquee.page();
marquee.track('add_to_cart', { sku: 'A1', colour: 'red' });
marquee.flush();
fetch('${BASE_URL}/delivery/v1/' + config.ws + '/live/items/blog-post/by-slug/spring-is-here', {
  headers: { authorization: 'Bearer ' + config.apiKey },
}).then((res) => res.json()).then((post) => {
  const img = document.createElement('img');
  img.alt = post.data.name;
  img.sizes = '320px';
  img.srcset = ${JSON.stringify(COVER_WIDTHS)}.map((w) => post.data.coverImage.publicUrl + '&w=' + w + ' ' + w + 'w').join(', ');
  img.src = post.data.coverImage.imageUrl;
  document.getElementById('post').append(img);
  document.getElementById('post').dataset.state = 'loaded';
});
</script></body></html>`;

/** Serves `page` at / on 127.0.0.1, a port of its own; cross-origin isolated, so images need CORP. */
async function startSite() {
  const site = { html: '' };
  const server = http.createServer((_req, res) => {
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cross-origin-embedder-policy': 'require-corp',
        'cross-origin-opener-policy': 'same-origin',
      })
      .end(site.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { site, origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A visitor opens the site; answers what the cover's srcset candidates loaded at, by fetch and as images. */
async function visitSite(browser: Browser, origin: string) {
  // A visitor's browser sends the site's own Origin, not the app's the other contexts set.
  const visitor = await browser.newContext({ extraHTTPHeaders: {} });
  try {
    const page = await visitor.newPage();
    const tracked = page.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/ingest/v1/batch`));
    await page.goto(origin);
    expect(await (await tracked).json()).toEqual({ accepted: 3, rejected: 0, errors: [] });
    await expect(page.locator('#post')).toHaveAttribute('data-state', 'loaded');
    const srcset = (await page.getByRole('img', { name: 'Spring is here' }).getAttribute('srcset')) ?? '';
    const urls = srcset.split(', ').map((candidate) => candidate.split(' ')[0]);
    return await page.evaluate(
      (list) =>
        Promise.all(
          list.map(async (url) => {
            const image = new Image();
            image.src = url;
            await image.decode();
            const bitmap = await createImageBitmap(await (await fetch(url)).blob());
            return [image.naturalWidth, bitmap.width];
          }),
        ),
      urls,
    );
  } finally {
    await visitor.close();
  }
}

test('a CRM export imported, a campaign sent to the subscribed and again only when asked, a website tracked and served', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await seedVerifiedUser(page.request, 'marketer');
  const ws = (await seedWorkspace(page.request, `First day ${suffix}`)).id;
  await patchBasics(page.request, ws, { domains: ['marketing', 'blogging'] });
  await importCrm(page, ws);

  const campaignUrl = await seedCampaign(page.request, ws);
  await page.goto(campaignUrl);
  const send = page.getByTestId('campaign-send');
  // Six readers: Ada, Bob and Cy subscribed with an address; Dee has none, Eve opted out, Fay never said.
  await expect(send.getByTestId('audience-size')).toHaveText('6');
  await expect(send.getByTestId('will-reach')).toHaveText('Will go to 3 recipients');
  await expect(send).toContainText(
    'Left out: 1 unsubscribed, 1 whose consent is unknown, 1 without an email address in “email”',
  );
  await shot(page, 'first-day-02-readiness');

  await send.getByRole('button', { name: 'Send to 3 recipients' }).click();
  await page
    .getByRole('dialog', { name: 'Send to 3 recipients?' })
    .getByRole('button', { name: 'Send', exact: true })
    .click();
  const results = page.getByTestId('send-results');
  await expect(results.getByTestId('result-delivered')).toContainText('3');

  // Pressing Send again reaches nobody new, unless the sender asks for everyone in the dialog.
  await expect(send.getByTestId('will-reach')).toHaveText('Will go to 0 new recipients');
  await send.getByRole('button', { name: 'Send to 0 new recipients' }).click();
  const again = page.getByRole('dialog', { name: 'Send to 0 new recipients?' });
  await expect(again).toContainText('3 people in the audience already got this campaign in an earlier send');
  await shot(page, 'first-day-03-send-again');
  await again.getByRole('button', { name: 'Send again to everyone' }).click();
  await expect(page.getByTestId('sends-total')).toHaveText('6 / 6');
  await shot(page, 'first-day-04-both-sends');

  // The website: what its visitor does shows on the profile the CRM made, and in Settings as undeclared.
  const website = await startSite();
  try {
    const keys = await seedWebsite(page.request, ws, website.origin);
    website.site.html = sitePage({ ws, ...keys });
    expect(await visitSite(browser, website.origin)).toEqual(COVER_WIDTHS.map((w) => [w, w]));
  } finally {
    await website.close();
  }
  await page.goto(`/${ws}/marketing/_customers/c1`);
  const timeline = page.getByTestId('profile-timeline');
  await expect(timeline).toContainText('page-view');
  await expect(timeline).toContainText('add-to-cart');
  await shot(page, 'first-day-05-profile');
  await page.goto(`/${ws}/_settings/undeclared`);
  const undeclared = page.getByRole('table', { name: 'Undeclared events' });
  await expect(undeclared.getByRole('row', { name: /add-to-cart/ })).toContainText('colour: string');
  await expect(undeclared.getByRole('row', { name: /page-view/ })).toBeVisible();
  await shot(page, 'first-day-06-undeclared');
});
