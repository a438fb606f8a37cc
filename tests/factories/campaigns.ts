import type { TestApp } from '../helpers/test-app';
import type { TestUser } from './users';
import { call, createItem } from './items';
import { attributeRuleOn, group, importBody, wsUrl } from './customers';

export interface SendableCampaign {
  campaignId: string;
  emailId: string;
  audienceId: string;
  senderId: string;
}

export interface CampaignProfile {
  id: string;
  email: string;
  firstName?: string;
}

/**
 * Everything a campaign needs to be sent, made through the API in a workspace with the marketing
 * domain: `email`, `first-name` and `list` attributes, `profiles` (all on the list), an audience of
 * the list, an email template, a sender, the footer's postal address, and the campaign itself, with
 * `campaign` over its data. Approved already when no role must approve campaigns.
 */
export async function sendableCampaign(
  t: TestApp,
  user: TestUser,
  ws: string,
  profiles: CampaignProfile[],
  campaign: Record<string, unknown> = {},
): Promise<SendableCampaign> {
  const expectOk = <R extends { statusCode: number; body: string }>(res: R, what: string) => {
    if (res.statusCode >= 300) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
    return res;
  };
  const attributes: Record<string, string> = {};
  for (const key of ['email', 'first-name', 'list']) {
    const item = await createItem(t, user, ws, 'customer-profile-attribute', {
      name: key,
      key,
      attributeType: 'string',
    });
    attributes[key] = item.id;
  }
  const csv = [
    'id,email,first-name,list',
    ...profiles.map((p) => `${p.id},${p.email},${p.firstName ?? ''},news`),
  ].join('\n');
  expectOk(await importBody(t, user, ws, 'profiles', 'text/csv', csv), 'import profiles');
  const audienceId = (
    await createItem(t, user, ws, 'audience', {
      name: 'News list',
      criteria: group('and', [attributeRuleOn(attributes.list, 'list', '==', 'news')]),
    })
  ).id;
  const emailId = (
    await createItem(t, user, ws, 'email', {
      name: 'Letter',
      subject: 'News for {{first-name|you}}',
      template: {
        'gjs-nl-html':
          '<p>Hello {{first-name|friend}}</p><p><a href="https://shop.example.com/">Shop</a></p>',
        'gjs-nl-css': '',
      },
      testAddresses: 'qa@example.com',
    })
  ).id;
  const sender = expectOk(
    await call(t, 'POST', wsUrl(ws, 'senders'), user, {
      fromName: 'Acme News',
      fromAddress: 'news@acme.example',
    }),
    'create sender',
  );
  expectOk(
    await call(t, 'PUT', wsUrl(ws, 'senders/postal-address'), user, { postalAddress: '1 Main St' }),
    'set postal address',
  );
  // The profiles these campaigns go to never set their consent: a new workspace would leave them out.
  expectOk(
    await call(t, 'PUT', wsUrl(ws, 'senders/recipients'), user, { mailUnknownConsent: true }),
    'mail unknown consent',
  );
  const senderId = (sender.json() as { id: string }).id;
  const campaignId = (
    await createItem(t, user, ws, 'campaign', {
      name: 'Launch',
      email: { schemaType: 'email', id: emailId, label: 'Letter' },
      audience: { schemaType: 'audience', id: audienceId, label: 'News list' },
      sender: senderId,
      ...campaign,
    })
  ).id;
  return { campaignId, emailId, audienceId, senderId };
}
