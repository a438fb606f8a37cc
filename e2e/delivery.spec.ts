import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { acceptCookies, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** A published blog post, created and published through the API. */
async function seedPublishedPost(request: APIRequestContext, ws: string, name: string, publish = true) {
  const created = await request.post(`/api/v1/workspaces/${ws}/items/blog-post`, {
    data: {
      data: { name, slug: name.toLowerCase().replace(/\W+/g, '-'), body: '<p>Hello from Marquee</p>' },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const item = (await created.json()) as { id: string };
  if (publish) {
    const res = await request.post(`/api/v1/workspaces/${ws}/items/blog-post/${item.id}/publish/live`, {
      data: { publishRefs: false },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  return item;
}

/** The wall-clock time in a zone as a datetime-local value (seconds included). */
function localInZone(date: Date, zone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

test.beforeEach(async ({ context }) => acceptCookies(context));

test('a manager creates an API key and reads a published item with it', async ({ page, playwright }) => {
  await seedVerifiedUser(page.request, 'keys');
  const ws = (await seedWorkspace(page.request, 'Delivery Keys')).id;
  const item = await seedPublishedPost(page.request, ws, 'Read me from afar');
  const draft = await seedPublishedPost(page.request, ws, 'Not yet', false);

  await page.goto(`/${ws}/_settings/api-keys`);
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await page.getByLabel('Name').fill('Website');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^mq_/);
  await expect(page.getByRole('table', { name: 'API keys' }).getByText('Website')).toBeVisible();
  await expect(page.getByRole('table', { name: 'API keys' }).getByText('Previews releases')).toBeHidden();
  await shot(page, 'delivery-01-api-key-created');

  // A website reads with the key alone: no session cookie.
  const site = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const auth = { authorization: `Bearer ${secret}` };
  const res = await site.get(`/delivery/v1/${ws}/live/items/blog-post/${item.id}`, { headers: auth });
  expect(res.status()).toBe(200);
  expect(res.headers()['etag']).toBeTruthy();
  expect((await res.json()).data.name).toBe('Read me from afar');
  expect(
    (await site.get(`/delivery/v1/${ws}/live/items/blog-post/${draft.id}`, { headers: auth })).status(),
  ).toBe(404);
  expect((await site.get(`/delivery/v1/${ws}/live/items/blog-post`)).status()).toBe(401);
  await site.dispose();

  await page.reload();
  await expect(page.getByRole('table', { name: 'API keys' }).getByText('Never')).toBeHidden();
  await shot(page, 'delivery-02-api-key-used');

  // The audit log names who created the key, and the publish.
  await page.getByRole('link', { name: 'Audit log' }).click();
  const audit = page.getByRole('table', { name: 'Audit log' });
  // Each row names what it touched beside the id: the key's label, the item's title.
  const row = (action: string) => audit.getByRole('row').filter({ hasText: action }).first();
  await expect(row('api-key.created').locator('strong')).toHaveText('Website');
  await expect(row('item.published').locator('strong')).toHaveText('Read me from afar');
  await shot(page, 'delivery-03-audit-log');

  // A key that may preview releases: ticked at creation, shown in the list, honoured by the API.
  await page.goto(`/${ws}/_settings/api-keys`);
  await page.getByLabel('Name').fill('Preview site');
  await page.getByRole('checkbox', { name: 'May preview releases' }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const previewSecret = (await page.getByTestId('api-key-secret').textContent())!.trim();
  const previewRow = page
    .getByRole('table', { name: 'API keys' })
    .getByRole('row')
    .filter({ hasText: 'Preview site' });
  await expect(previewRow.getByText('Previews releases')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'May preview releases' })).not.toBeChecked();
  await shot(page, 'delivery-04-preview-key');
  const release = await page.request.post(`/api/v1/workspaces/${ws}/releases`, {
    data: { name: 'Launch', stage: 'live' },
  });
  expect(release.status(), await release.text()).toBe(201);
  const releaseId = (await release.json()).id as string;
  const entries = await page.request.post(`/api/v1/workspaces/${ws}/releases/${releaseId}/entries`, {
    data: { entries: [{ schema: 'blog-post', itemId: draft.id }] },
  });
  expect(entries.status(), await entries.text()).toBe(200);
  const previewer = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  const previewed = await previewer.get(
    `/delivery/v1/${ws}/live/items/blog-post/${draft.id}?release=${releaseId}`,
    { headers: { authorization: `Bearer ${previewSecret}` } },
  );
  expect(previewed.status(), await previewed.text()).toBe(200);
  expect((await previewed.json()).data.name).toBe('Not yet');
  expect(
    (
      await previewer.get(`/delivery/v1/${ws}/live/items/blog-post/${draft.id}?release=${releaseId}`, {
        headers: auth,
      })
    ).status(),
  ).toBe(403);
  await previewer.dispose();
});

test('a manager registers a webhook and sees a delivery in its log after publishing', async ({ page }) => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/marquee`;
  try {
    await seedVerifiedUser(page.request, 'hooks');
    const ws = (await seedWorkspace(page.request, 'Delivery Hooks')).id;

    await page.goto(`/${ws}/_settings/webhooks`);
    await page.getByLabel('URL').fill(url);
    await expect(page.getByRole('checkbox', { name: 'Item published' })).toBeChecked();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page.getByTestId('webhook-secret')).toContainText('whsec_');
    await expect(page.getByRole('table', { name: 'Webhooks' }).getByText(url)).toBeVisible();
    await shot(page, 'delivery-04-webhook-added');

    const item = await seedPublishedPost(page.request, ws, 'Hooked post');
    await page.getByRole('button', { name: 'Deliveries' }).click();
    const delivery = page.getByTestId('webhook-delivery').first();
    await expect(delivery).toContainText('delivered', { timeout: 20_000 });
    await expect(delivery).toContainText('Item published');
    await expect(delivery).toContainText('response 200');
    await expect(delivery).toContainText(item.id);
    expect(received.some((body) => body.includes(item.id))).toBe(true);
    await shot(page, 'delivery-05-webhook-log');
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('an editor schedules a publish moments ahead and sees the chip turn CURRENT', async ({ page }) => {
  test.setTimeout(180_000);
  await seedVerifiedUser(page.request, 'sched');
  const ws = (await seedWorkspace(page.request, 'Delivery Schedules')).id;
  const item = await seedPublishedPost(page.request, ws, 'Timed post', false);
  const itemUrl = `/${ws}/blogging/blog-post/${item.id}`;

  await page.goto(`${itemUrl}/publish?stage=live`);
  await page.getByText('Schedule for …').click();
  const zone = await page.getByRole('combobox', { name: 'Time zone' }).inputValue();
  // The picker takes seconds: 20 s ahead leaves time to submit without waiting a whole minute.
  await page.getByLabel('Date and time').fill(localInZone(new Date(Date.now() + 20_000), zone));
  await shot(page, 'delivery-06-schedule-form');
  await page.getByRole('button', { name: /^Schedule for / }).click();

  await expect(page).toHaveURL(itemUrl);
  const header = page.getByTestId('item-heading').locator('..');
  await expect(header.getByTestId('schedule-chip')).toContainText('Publish to Live');
  await expect(header.getByTestId('publish-chip-live')).toHaveAttribute('data-status', 'NOT_PUBLISHED');
  await shot(page, 'delivery-07-scheduled');

  await expect(header.getByTestId('publish-chip-live')).toHaveAttribute('data-status', 'CURRENT', {
    timeout: 120_000,
  });
  await expect(header.getByTestId('schedule-chip')).toBeHidden();
  await shot(page, 'delivery-08-published-on-time');
});
