import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatInZone } from '@shared/time/format';
import { acceptCookies, BASE_URL, shot } from './fixtures';
import { getSend, seedCampaign, seedCampaignBasics, startSend } from './campaign-seed';

/**
 * The campaign panel's controls: used with the keyboard alone, a running send paused, resumed and
 * cancelled, and a send scheduled for the campaign's send time. The test server hands SMTP a message a
 * second (playwright.config.ts), so a send of sixty readers runs a minute: long enough to pause it.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const LINK = `${BASE_URL}/healthz?from=controls`;
const readers = (count: number) => Array.from({ length: count }, (_, i) => `Reader${i + 1}`);

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, { back = false } = {}) {
  for (let i = 0; i < 150; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** The element has the focus and shows it with a ring (a keyboard user can see where they are). */
async function expectFocusRing(target: Locator) {
  await expect(target).toBeFocused();
  const ring = await target.evaluate((el) => ({
    visible: el.matches(':focus-visible'),
    outline: getComputedStyle(el).outlineStyle,
  }));
  expect(ring).toEqual({ visible: true, outline: expect.not.stringMatching(/^none$/) });
}

const hasFocusInside = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));

test('keyboard only: preview as a profile, send a test, send behind its confirmation, cancel', async ({
  page,
}) => {
  const basics = await seedCampaignBasics(page.request, { name: 'Keys', readers: readers(60), link: LINK });
  const campaign = await seedCampaign(page.request, basics);
  await page.goto(campaign.path);
  const section = page.getByTestId('campaign-send');
  const send = section.getByRole('button', { name: 'Send to 60 recipients' });
  await expect(send).toBeEnabled();

  // Tab reaches Send; Enter opens its confirmation with the focus inside; Escape closes it and gives the
  // focus back to Send.
  await tabTo(page, send);
  await expectFocusRing(send);
  await shot(page, 'campaign-keys-1-send-focused');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Send to 60 recipients?' });
  await expect(confirm).toBeVisible();
  expect(await hasFocusInside(confirm)).toBe(true);
  await shot(page, 'campaign-keys-2-confirm');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expectFocusRing(send);

  // On to the preview: a profile picked with the arrow keys, then a test send.
  const previewAs = page.getByRole('combobox', { name: 'Preview as' });
  await tabTo(page, previewAs);
  await page.keyboard.type(basics.recipients[1]);
  // The search's answer, not the list shown before it: one profile.
  await expect(page.getByRole('option')).toHaveCount(1);
  await expect(page.getByRole('option')).toHaveText(new RegExp(`^Reader2 <${basics.recipients[1]}>`));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(previewAs).toHaveValue(new RegExp(`^Reader2 <${basics.recipients[1]}>`));
  await expect(
    page.frameLocator('iframe[title="Campaign message preview"]').getByText('Read the autumn news'),
  ).toBeVisible();
  await tabTo(page, page.getByRole('textbox', { name: 'Test addresses' }));
  await page.keyboard.type('keys-qa@example.com');
  const sendTest = page.getByRole('button', { name: 'Send test' });
  await tabTo(page, sendTest);
  await expectFocusRing(sendTest);
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Test sent to keys-qa@example.com' }),
  ).toBeVisible();
  await shot(page, 'campaign-keys-3-test-sent');

  // Back to Send, confirmed from the keyboard.
  await tabTo(page, send, { back: true });
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  const go = confirm.getByRole('button', { name: 'Send', exact: true });
  await tabTo(page, go);
  await expectFocusRing(go);
  await page.keyboard.press('Enter');
  const progress = section.getByTestId('send-progress');
  await expect(progress).toBeVisible();

  // Paused from the keyboard, then cancelled: Escape keeps the send and gives the focus back; Enter on
  // "Cancel send" stops it.
  const pause = progress.getByRole('button', { name: 'Pause' });
  await tabTo(page, pause);
  await expectFocusRing(pause);
  await page.keyboard.press('Enter');
  await expect(progress.locator('.mantine-Badge-root')).toHaveText('paused');
  const cancel = progress.getByRole('button', { name: 'Cancel' });
  await tabTo(page, cancel);
  await expectFocusRing(cancel);
  await page.keyboard.press('Enter');
  const stop = page.getByRole('dialog', { name: 'Cancel this send?' });
  await expect(stop).toBeVisible();
  expect(await hasFocusInside(stop)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(stop).toBeHidden();
  await expectFocusRing(cancel);
  await page.keyboard.press('Enter');
  const cancelSend = stop.getByRole('button', { name: 'Cancel send' });
  await tabTo(page, cancelSend);
  await page.keyboard.press('Enter');
  await expect(progress).toBeHidden();
  await expect(page.getByRole('table', { name: 'Sends' }).getByText('cancelled')).toBeVisible();
  await shot(page, 'campaign-keys-4-cancelled');
});

test('pause, resume and cancel a running send', async ({ page }) => {
  const basics = await seedCampaignBasics(page.request, {
    name: 'Controls',
    readers: readers(60),
    link: LINK,
  });
  const campaign = await seedCampaign(page.request, basics);
  const sendId = await startSend(page.request, basics.ws, campaign.id);
  await page.goto(campaign.path);
  const progress = page.getByTestId('campaign-send').getByTestId('send-progress');
  const state = progress.locator('.mantine-Badge-root');
  await expect(state).toHaveText('sending');
  await expect(progress.getByTestId('send-progress-text')).toContainText(/of 60 sent/);

  await progress.getByRole('button', { name: 'Pause' }).click();
  await expect(state).toHaveText('paused');
  await expect(progress.getByRole('button', { name: 'Resume' })).toBeVisible();
  expect((await getSend(page.request, basics.ws, campaign.id, sendId)).state).toBe('paused');
  await shot(page, 'campaign-controls-1-paused');

  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(state).toHaveText('sending');
  await expect(progress.getByRole('button', { name: 'Pause' })).toBeVisible();

  await progress.getByRole('button', { name: 'Cancel' }).click();
  const stop = page.getByRole('dialog', { name: 'Cancel this send?' });
  await shot(page, 'campaign-controls-2-cancel-confirm');
  await stop.getByRole('button', { name: 'Cancel send' }).click();
  await expect(progress).toBeHidden();
  const sends = page.getByRole('table', { name: 'Sends' });
  await expect(sends.getByText('cancelled')).toBeVisible();
  // A later send goes to those the cancelled one did not reach.
  await expect(page.getByRole('button', { name: /^Send to \d+ new recipients?$/ })).toBeVisible();
  const cancelled = await getSend(page.request, basics.ws, campaign.id, sendId);
  expect(cancelled.state).toBe('cancelled');
  expect(cancelled.counts.sent).toBeLessThan(60);
  await page.getByTestId('campaign-results').scrollIntoViewIfNeeded();
  await shot(page, 'campaign-controls-3-cancelled');
});

test('schedule a send for the campaign’s send time: queued until then, and cancelled', async ({ page }) => {
  const basics = await seedCampaignBasics(page.request, { name: 'Later', readers: readers(2), link: LINK });
  // Two days ahead, on the minute, in Paris.
  const sendAt = new Date(Math.ceil((Date.now() + 2 * 86_400_000) / 60_000) * 60_000).toISOString();
  const campaign = await seedCampaign(page.request, basics, { sendAt, sendAt_tz: 'Europe/Paris' });
  await page.goto(campaign.path);
  const section = page.getByTestId('campaign-send');
  const when = formatInZone(sendAt, 'Europe/Paris');
  const schedule = section.getByRole('button', { name: `Schedule for ${when}` });
  await expect(schedule).toBeEnabled();
  await expect(section.getByRole('button', { name: 'Send now' })).toBeEnabled();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'campaign-schedule-1-button');

  await schedule.click();
  const confirm = page.getByRole('dialog', { name: `Schedule for ${when}?` });
  await expect(confirm).toContainText('2 recipients as of now');
  await confirm.getByRole('button', { name: 'Schedule', exact: true }).click();
  const progress = section.getByTestId('send-progress');
  await expect(progress.locator('.mantine-Badge-root')).toHaveText('queued');
  await expect(progress.getByTestId('send-progress-text')).toHaveText(`Queued for ${when}`);
  await shot(page, 'campaign-schedule-2-queued');

  // Still queued on the next visit; cancelled, the Schedule button is back.
  await page.reload();
  await expect(progress.getByTestId('send-progress-text')).toHaveText(`Queued for ${when}`);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this send?' })
    .getByRole('button', { name: 'Cancel send' })
    .click();
  await expect(schedule).toBeVisible();
});
