import fs from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { acceptCookies, SAME_ORIGIN, seedMember, shot } from './fixtures';
import { getSend, seedCampaign, seedCampaignBasics, startSend } from './campaign-seed';

/**
 * A send's results and an audience's members downloaded as CSV from their screens, by a member who may
 * export customer data; a member who may not sees no such button. A copy of the campaign starts
 * without its sends.
 */
test.beforeEach(async ({ context }) => acceptCookies(context));

const textOf = async (download: Download) => fs.readFileSync(await download.path(), 'utf8');

/** Clicks a download link and answers the file's name and its text. */
async function download(page: Page, name: string) {
  const started = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const file = await started;
  return { fileName: file.suggestedFilename(), text: await textOf(file) };
}

test('export a send’s results and an audience’s members, and duplicate the campaign without its sends', async ({
  page,
  browser,
}) => {
  const basics = await seedCampaignBasics(page.request, {
    name: 'Exports',
    readers: ['Ada', 'Bob'],
    link: 'https://example.test/autumn',
  });
  const { ws, recipients } = basics;
  const campaign = await seedCampaign(page.request, basics);
  const sendId = await startSend(page.request, ws, campaign.id);
  await expect.poll(async () => (await getSend(page.request, ws, campaign.id, sendId)).state).toBe('done');

  // The campaign's results: the send's recipients, one row each, as a spreadsheet reads them.
  await page.goto(campaign.path);
  const results = page.getByTestId('send-results');
  await expect(results.getByTestId('result-delivered')).toContainText('2');
  await results.getByRole('link', { name: 'Export results (CSV)' }).scrollIntoViewIfNeeded();
  await shot(page, 'exports-01-send-results');
  const sent = await download(page, 'Export results (CSV)');
  expect(sent.fileName).toBe(`campaign-${campaign.id}-send-${sendId}.csv`);
  const lines = sent.text.trim().split('\r\n');
  expect(lines[0]).toBe(
    'email,profileId,status,sentAt,error,openedAt,clickedAt,clicks,bouncedAt,complainedAt,unsubscribedAt',
  );
  expect(lines.slice(1).map((line) => line.split(',').slice(0, 3))).toEqual([
    [recipients[0], 'p-1', 'sent'],
    [recipients[1], 'p-2', 'sent'],
  ]);

  // The audience's screen: everyone its criteria match, with their attributes.
  const audienceId = (
    (await (await page.request.get(`/api/v1/workspaces/${ws}/items/campaign/${campaign.id}`)).json()) as {
      data: { audience: { id: string } };
    }
  ).data.audience.id;
  await page.goto(`/${ws}/marketing/audience/${audienceId}`);
  const members = page.getByTestId('audience-members');
  await expect(members).toContainText('Everyone the saved criteria match now');
  await members.scrollIntoViewIfNeeded();
  await shot(page, 'exports-02-audience-members');
  const matched = await download(page, 'Export members (CSV)');
  expect(matched.fileName).toBe(`audience-${audienceId}.csv`);
  const rows = matched.text.trim().split('\r\n');
  expect(rows[0].split(',')[0]).toBe('id');
  expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual(['p-1', 'p-2']);

  // A member who may edit campaigns but not export customer data sees neither button.
  const workspace = (await (await page.request.get(`/api/v1/workspaces/${ws}`)).json()) as {
    version: number;
    roles: Record<string, unknown>;
  };
  const patched = await page.request.patch(`/api/v1/workspaces/${ws}`, {
    headers: SAME_ORIGIN,
    data: {
      roles: {
        ...workspace.roles,
        marketer: {
          name: 'Marketer',
          canEdit: ['campaign', 'audience'],
          canPublish: [],
          mustApprove: [],
          customerData: ['read'],
        },
      },
      baseVersion: workspace.version,
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  const marketer = await seedMember(browser, page.request, ws, 'Mo Marketer', ['marketer']);
  await marketer.page.goto(campaign.path);
  await expect(marketer.page.getByTestId('send-results').getByTestId('result-delivered')).toContainText('2');
  await expect(marketer.page.getByRole('link', { name: 'Export results (CSV)' })).toHaveCount(0);
  await marketer.page.goto(`/${ws}/marketing/audience/${audienceId}`);
  await expect(marketer.page.getByTestId('criteria-builder')).toBeVisible();
  await expect(marketer.page.getByTestId('audience-members')).toHaveCount(0);
  await marketer.context.close();

  // A copy of the campaign is a new draft: it keeps the email, audience and sender, not the send.
  await page.goto(campaign.path);
  // The panel's results move the page as they arrive: open the menu once the page has settled.
  await expect(page.getByTestId('send-results').getByTestId('result-delivered')).toContainText('2');
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(page.getByTestId('item-heading')).toHaveText('Autumn campaign (copy)');
  await expect(page.getByTestId('campaign-results')).toContainText('Not sent yet.');
  await expect(page.getByTestId('campaign-send').getByTestId('will-reach')).toHaveText(
    'Will go to 2 recipients',
  );
  await page.getByTestId('campaign-results').scrollIntoViewIfNeeded();
  await shot(page, 'exports-03-campaign-copy');
});
