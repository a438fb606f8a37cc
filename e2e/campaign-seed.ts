import { expect, type APIRequestContext } from '@playwright/test';
import { attributeRuleOn, group } from '../tests/factories/customers';
import { patchBasics, SAME_ORIGIN, seedItem, seedVerifiedUser, seedWorkspace } from './fixtures';

/** Answers the JSON of a request that must succeed (status below 300). */
async function ok<T>(response: Promise<import('@playwright/test').APIResponse>): Promise<T> {
  const res = await response;
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as T;
}

export interface CampaignBasics {
  ws: string;
  /** The readers' addresses, in the order of their profile ids `p-1`, `p-2`, … */
  recipients: string[];
  planAttributeId: string;
  senderId: string;
  senderAddress: string;
  emailId: string;
}

/**
 * A signed-in manager's marketing workspace with what a campaign needs, all through the API: the
 * email, firstName and plan attributes, `readers` profiles on the `news` plan and one other, a sender
 * (its domain not verified), the footer's postal address, and an email template whose link goes to
 * `link`.
 */
export async function seedCampaignBasics(
  request: APIRequestContext,
  { name, readers, link }: { name: string; readers: string[]; link: string },
): Promise<CampaignBasics> {
  await seedVerifiedUser(request, 'campaign');
  const suffix = Date.now().toString(36);
  const ws = (await seedWorkspace(request, `${name} ${suffix}`)).id;
  await patchBasics(request, ws, { domains: ['marketing'] });
  for (const [label, key] of [
    ['Email', 'email'],
    ['First name', 'firstName'],
  ])
    await seedItem(request, ws, 'customer-profile-attribute', { name: label, key, attributeType: 'string' });
  const plan = await seedItem(request, ws, 'customer-profile-attribute', {
    name: 'Plan',
    key: 'plan',
    attributeType: 'categorical',
    options: ['news', 'none'],
  });
  const recipients = readers.map((reader) => `${reader.toLowerCase()}-${suffix}@example.com`);
  const csv = [
    'id,email,firstName,plan',
    ...readers.map((reader, i) => `p-${i + 1},${recipients[i]},${reader},news`),
    `p-other,other-${suffix}@example.com,Other,none`,
  ].join('\n');
  const imported = await ok<{ batch: { status: string } }>(
    request.post(`/api/v1/workspaces/${ws}/profiles/import`, {
      headers: { ...SAME_ORIGIN, 'Content-Type': 'text/csv' },
      data: csv,
    }),
  );
  expect(imported.batch.status).toBe('done');
  const senderAddress = `news@news-${suffix}.example.test`;
  const sender = await ok<{ id: string }>(
    request.post(`/api/v1/workspaces/${ws}/senders`, {
      headers: SAME_ORIGIN,
      data: { fromName: 'Acme News', fromAddress: senderAddress },
    }),
  );
  await ok(
    request.put(`/api/v1/workspaces/${ws}/senders/postal-address`, {
      headers: SAME_ORIGIN,
      data: { postalAddress: 'Acme Ltd\n1 Market Street\nLeeds' },
    }),
  );
  // The imported profiles never set their consent: a new workspace would leave them out.
  await ok(
    request.put(`/api/v1/workspaces/${ws}/senders/recipients`, {
      headers: SAME_ORIGIN,
      data: { mailUnknownConsent: true },
    }),
  );
  const email = await seedItem(request, ws, 'email', {
    name: 'Autumn letter',
    subject: 'Autumn news',
    testAddresses: `qa-${suffix}@example.com`,
    template: {
      'gjs-nl-html': `<table><tr><td><h1>Autumn is here</h1><p><a href="${link}">Read the autumn news</a></p></td></tr></table>`,
      'gjs-nl-css': 'h1{color:#223344}',
    },
  });
  return {
    ws,
    recipients,
    planAttributeId: plan.id,
    senderId: sender.id,
    senderAddress,
    emailId: email.id,
  };
}

/** An audience of the `news` plan and a campaign of the email to it from the sender; answers its screen's path. */
export async function seedCampaign(
  request: APIRequestContext,
  basics: CampaignBasics,
  campaign: Record<string, unknown> = {},
) {
  const { ws } = basics;
  const audience = await seedItem(request, ws, 'audience', {
    name: 'Newsletter readers',
    criteria: group('and', [attributeRuleOn(basics.planAttributeId, 'Plan', '==', 'news')]),
  });
  const item = await seedItem(request, ws, 'campaign', {
    name: 'Autumn campaign',
    email: { schemaType: 'email', id: basics.emailId, label: 'Autumn letter' },
    audience: { schemaType: 'audience', id: audience.id, label: 'Newsletter readers' },
    sender: basics.senderId,
    ...campaign,
  });
  return { id: item.id, path: `/${ws}/marketing/campaign/${item.id}` };
}

/** Starts a send of the campaign through the API, as its Send button would; answers the send's id. */
export async function startSend(request: APIRequestContext, ws: string, campaignId: string) {
  const answer = await ok<{ send: { id: string } }>(
    request.post(`/api/v1/workspaces/${ws}/campaigns/${campaignId}/send`, { headers: SAME_ORIGIN, data: {} }),
  );
  return answer.send.id;
}

/** A send's state and counts, read through the API. */
export const getSend = (request: APIRequestContext, ws: string, campaignId: string, sendId: string) =>
  ok<{ state: string; counts: { sent: number; recipients: number } }>(
    request.get(`/api/v1/workspaces/${ws}/campaigns/${campaignId}/sends/${sendId}`),
  );
