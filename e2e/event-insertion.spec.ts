import { expect, test } from '@playwright/test';
import { insertionErrors } from '../src/shared/media/insertion-rules';
import { acceptCookies, patchBasics, seedItem, seedVerifiedUser, seedWorkspace, shot } from './fixtures';

/** Spec §5 image insertion rules: checked in the event form as copy is attached, and enforced on save. */
test.beforeEach(async ({ context }) => acceptCookies(context));

test("a copy starting before the event shows 'Start time must be after …' under Copy, and the save is refused", async ({
  page,
}) => {
  await seedVerifiedUser(page.request, 'insertion');
  const { id: ws } = await seedWorkspace(page.request, `Insertion ${Date.now().toString(36)}`);
  await patchBasics(page.request, ws, { domains: ['marketing'] });
  const window = {
    startTime: '2025-07-04T00:00:00.000Z',
    startTime_tz: 'America/New_York',
    endTime: '2025-07-04T04:00:00.000Z',
    endTime_tz: 'America/New_York',
  };
  const early = {
    name: 'Early bird teaser',
    text: 'Soon!',
    startTime: '2025-07-01T00:00:00.000Z',
    startTime_tz: 'UTC',
  };
  await seedItem(page.request, ws, 'copy', early);
  const event = await seedItem(page.request, ws, 'event', { name: 'Launch party', ...window });
  const [message] = insertionErrors(early, window);
  expect(message).toMatch(/^Start time must be after /);

  await page.goto(`/${ws}/marketing/event/${event.id}`);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const copyField = page.getByRole('combobox', { name: 'Copy', exact: true });
  await copyField.click();
  await copyField.fill('early');
  await page.getByRole('option', { name: 'Early bird teaser' }).click();
  await expect(page.locator('[data-reference-chip]')).toContainText('Early bird teaser');

  // The form checks the picked copy against the event before saving.
  const copyError = page
    .locator('.mantine-InputWrapper-root', { has: copyField })
    .locator('.mantine-InputWrapper-error');
  await expect(copyError).toHaveText(message);
  await shot(page, 'event-insertion-01-checked');

  // The server refuses the save; the form stays in edit mode with the message under Copy.
  const saved = page.waitForResponse(
    (res) => res.request().method() !== 'GET' && res.url().includes(`/items/event/${event.id}`),
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const answer = await saved;
  expect(answer.status()).toBe(400);
  expect((await answer.json()).error).toMatchObject({
    code: 'validation_failed',
    details: { errors: { 'copy.0': message } },
  });
  await expect(page.getByText(`Item update failed. Error: ${message}`)).toBeVisible();
  await expect(page.locator('[data-item-form="event"]')).toHaveAttribute('data-mode', 'edit');
  await expect(copyError).toHaveText(message);
  await shot(page, 'event-insertion-02-refused');

  const stored = await (await page.request.get(`/api/v1/workspaces/${ws}/items/event/${event.id}`)).json();
  expect(stored.data.copy ?? null).toBeNull();
});
