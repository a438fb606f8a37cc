import { expect, test } from '@playwright/test';
import { shot } from './fixtures';
import { startSeededSendServer } from './seeded-send-server';

// Past the other helpers' ports (E2E_PORT + 1000, + 1100, + 2000).
const PORT = Number(process.env.E2E_PORT ?? 8090) + 3000;
let server: Awaited<ReturnType<typeof startSeededSendServer>>;

test.beforeAll(async () => {
  server = await startSeededSendServer(PORT);
});
test.afterAll(() => server.close());

test("a recipient unsubscribes on the message's page and resubscribes", async ({ page }) => {
  const link = `${server.url}/u/${server.send.token('u', 1)}`;
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  await expect(page.getByText('r•••@example.test')).toBeVisible();
  await expect(page.getByText('Stop receiving campaign emails from Acme News?')).toBeVisible();
  // Opening the page changed nothing.
  expect(await server.consentOf()).toBe('unknown');
  await shot(page, 'unsubscribe-1-page');

  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  expect(await server.consentOf()).toBe('unsubscribed');
  await shot(page, 'unsubscribe-2-done');

  await page.getByRole('button', { name: 'Resubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed again' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  expect(await server.consentOf()).toBe('subscribed');
  await shot(page, 'unsubscribe-3-resubscribed');
});

test('the page reads on a phone, and a link that is not valid says so', async ({ browser }) => {
  const phone = await browser.newPage({ viewport: { width: 375, height: 667 } });
  await phone.goto(`${server.url}/u/${server.send.token('u', 1)}`);
  const button = phone.getByRole('button', { name: 'Unsubscribe' });
  await expect(button).toBeVisible();
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(phone, 'unsubscribe-4-phone');

  const bad = await phone.goto(`${server.url}/u/not-a-token`);
  expect(bad?.status()).toBe(404);
  await expect(phone.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await phone.close();
});
