import { expect, test } from '@playwright/test';
import type { SinkMail } from '../tests/fixtures/smtp-sink';
import { shot } from './fixtures';
import { startSendServer } from './send-server';

/**
 * A recipient unsubscribes from a message of a real send: the campaign goes through SMTP to a sink, the
 * List-Unsubscribe link of the message received is opened in the browser, and the app shows the
 * profile unsubscribed and on the suppression list.
 */

// This server is another origin than the main one, whose Origin the config sends with every request
// (Chromium refuses the app's module scripts when a CORS request's Origin is overridden).
test.use({ extraHTTPHeaders: {} });

// Past the other helpers' ports (E2E_PORT + 1000, + 1100, + 2000).
const PORT = Number(process.env.E2E_PORT ?? 8090) + 3000;
const READERS = [
  { id: 'reader-1', email: 'reader@example.test', firstName: 'Rea' },
  { id: 'reader-2', email: 'second@example.test', firstName: 'Sec' },
];
let server: Awaited<ReturnType<typeof startSendServer>>;
let messages: SinkMail[];

test.beforeAll(async () => {
  server = await startSendServer(PORT, READERS);
  const sendId = await server.send();
  await expect.poll(() => server.received(sendId).length, { timeout: 30_000 }).toBe(READERS.length);
  messages = server.received(sendId);
});
test.afterAll(() => server.close());

/** The message a reader received, and its List-Unsubscribe URL (the https one, not the mailto). */
function messageTo(email: string) {
  const { mail } = messages.find((m) => m.envelopeTo[0] === email)!;
  const header = mail.headerLines.find((line) => line.key === 'list-unsubscribe')!.line;
  const url = header.match(/<(http[^>]+)>/)![1];
  return { mail, url };
}

test('a recipient unsubscribes by the link of the message they got, and the app shows it', async ({
  page,
  context,
}) => {
  const { mail, url } = messageTo(READERS[0].email);
  expect(url).toMatch(new RegExp(`^${server.url}/u/[\\w.-]+$`));
  // The footer's link is the same one.
  expect(String(mail.html)).toContain(`href="${url}"`);

  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  await expect(page.getByText('r•••@example.test')).toBeVisible();
  await expect(page.getByText('Stop receiving campaign emails from Acme News?')).toBeVisible();
  await shot(page, 'unsubscribe-1-page');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await shot(page, 'unsubscribe-2-done');

  // The workspace's manager sees it in the app: the profile's consent, and the suppression list.
  await context.addCookies([{ name: 'marquee_cookie_notification', value: '1', url: server.url }]);
  const signIn = await page.request.post(`${server.url}/api/v1/auth/sign-in`, {
    headers: { origin: server.url },
    data: server.manager,
  });
  expect(signIn.status(), await signIn.text()).toBe(200);
  await page.goto(`${server.url}/${server.ws}/marketing/_customers/${READERS[0].id}`);
  await expect(page.getByTestId('email-consent')).toHaveText('unsubscribed');
  await shot(page, 'unsubscribe-3-profile');
  await page.goto(`${server.url}/${server.ws}/_settings/suppressions`);
  const list = page.getByTestId('suppressions-table');
  await expect(list.getByRole('row', { name: new RegExp(READERS[0].email) })).toBeVisible();
  await expect(list).not.toContainText(READERS[1].email);
  await shot(page, 'unsubscribe-4-suppressions');

  // The same link later shows the state, and resubscribes.
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await page.getByRole('button', { name: 'Resubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed again' })).toBeVisible();
  await page.goto(`${server.url}/${server.ws}/marketing/_customers/${READERS[0].id}`);
  await expect(page.getByTestId('email-consent')).toHaveText('subscribed');
});

test('the page reads on a phone, and a link that is not valid says so', async ({ browser }) => {
  const { url } = messageTo(READERS[1].email);
  const phone = await browser.newPage({ viewport: { width: 375, height: 667 } });
  await phone.goto(url);
  const button = phone.getByRole('button', { name: 'Unsubscribe' });
  await expect(button).toBeVisible();
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(phone, 'unsubscribe-5-phone');

  const bad = await phone.goto(`${server.url}/u/not-a-token`);
  expect(bad?.status()).toBe(404);
  await expect(phone.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await phone.close();
});
