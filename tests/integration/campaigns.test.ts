import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import {
  CAMPAIGN_MESSAGES,
  CampaignTestSendAnswer,
  PUBLIC_EMAIL_PATHS,
  type CampaignSend,
} from '@shared/api/campaigns';
import { rows } from '@server/db/migrate';
import { verifyToken } from '@server/campaigns/tokens';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { startJobWorkers } from '../helpers/job-workers';
import { verifiedUser, type TestUser } from '../factories/users';
import {
  approve,
  call,
  createItem,
  itemsUrl,
  role,
  saveItem,
  teamWorkspace,
  type Team,
} from '../factories/items';
import { attributeRule, defineCustomerData, group, importBody, wsUrl } from '../factories/customers';

let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let sendgrid: Awaited<ReturnType<typeof startFakeSendGrid>>;
const SENDGRID_KEY = 'SG.campaigns';

/**
 * A SendGrid-compatible v3 API on 127.0.0.1: 202 for each message, except a 429 the first time it
 * sees `busy@…` (with Retry-After: 0).
 */
interface SendGridBody {
  personalizations: { to: { email: string }[]; custom_args: Record<string, string> }[];
  from: object;
  reply_to?: object;
  subject: string;
  headers: Record<string, string>;
  content: { type: string }[];
  tracking_settings: object;
}

async function startFakeSendGrid() {
  const requests: { auth: string | undefined; body: SendGridBody }[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as SendGridBody;
      const to = body.personalizations[0].to[0].email;
      if (to.startsWith('busy@') && !seen.has(to)) {
        seen.add(to);
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        return res.end(JSON.stringify({ errors: [{ message: 'too many requests' }] }));
      }
      requests.push({ auth: req.headers.authorization, body });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
let manager: TestUser;
let team: Team;
let audienceId: string;
let emailId: string;
let senderId: string;

const roles = {
  marketer: role('Marketer', { canEdit: ['campaign', 'email', 'audience'], customerData: ['read'] }),
  sender: role('Sender', { canEdit: ['campaign'], canPublish: ['campaign'] }),
  legal: role('Legal', { canEdit: [], mustApprove: ['campaign'], customerData: ['read'] }),
};

const PROFILES = [
  'id,email,first-name,tier,emailConsent',
  'p-1,ada@example.com,Ada,gold,subscribed',
  'p-2,Bob@Example.com,Bob,gold,',
  'p-3,,Cy,gold,', // no address
  'p-4,dee@example.com,Dee,gold,unsubscribed',
  'p-5,eve@example.com,Eve,gold,', // suppressed below
  'p-6,ada@example.com,Ada again,gold,', // the same address as p-1
  'p-7,refused@example.com,Ref,gold,', // the server refuses it for good
  'p-8,busy@example.com,Busy,gold,', // the server defers it once
  'p-9,zed@example.com,Zed,silver,', // not in the audience
].join('\n');

const TEMPLATE = {
  'gjs-nl-html':
    '<p>Hello {{first-name|friend}}</p><p><a href="https://shop.example.com/autumn?x=1&amp;y=2">Shop</a> ' +
    '<a href="https://shop.example.com/about">About</a> <a href="mailto:help@example.com">Help</a></p>',
  'gjs-nl-css': '',
};

const sendUrl = (id: string, rest = '') => wsUrl(team.ws, `campaigns/${id}${rest}`);
const getSend = async (id: string, sendId: string) =>
  (await call(t, 'GET', sendUrl(id, `/sends/${sendId}`), manager)).json() as CampaignSend;
const until = async (id: string, sendId: string, states: string[]) =>
  expect
    .poll(async () => (await getSend(id, sendId)).state, { timeout: 30_000, interval: 50 })
    .toSatisfy((state: string) => states.includes(state));

/** A campaign, approved by legal unless `approved` is false. */
async function newCampaign(overrides: Record<string, unknown> = {}, approved = true) {
  const campaign = await createItem(t, manager, team.ws, 'campaign', {
    name: 'Autumn launch',
    email: { schemaType: 'email', id: emailId, label: 'Autumn' },
    audience: { schemaType: 'audience', id: audienceId, label: 'Gold' },
    sender: senderId,
    subject: 'Autumn for {{first-name|you}}',
    ...overrides,
  });
  if (approved) {
    const res = await approve(t, team.members.legal, team.ws, 'campaign', campaign.id, 'legal');
    expect(res.statusCode, res.body).toBe(200);
  }
  return campaign;
}

/** The first send, which the erasure at the end looks at, and its campaign. */
let firstSendId: string;
let firstCampaignId: string;
/** Accounts are made through `plain` (its mail goes to the outbox); everything else through `t`. */
let plain: TestApp;

beforeAll(async () => {
  sink = await startSmtpSink();
  sendgrid = await startFakeSendGrid();
  plain = await createTestApp();
  t = await sendingServer(plain, sink.url, {
    sendgridApiKey: SENDGRID_KEY,
    sendgridUrl: sendgrid.url,
    campaigns: { connections: 3, chunkSize: 2 },
  });
  manager = await verifiedUser(plain, { name: 'Mia Manager' });
  team = await teamWorkspace(plain, manager, {
    name: 'Campaigns',
    domains: ['marketing'],
    roles,
    people: { marketer: ['marketer'], sender: ['sender'], legal: ['legal'] },
  });
  const defs = await defineCustomerData(t, manager, team.ws);
  for (const key of ['email', 'first-name']) {
    await createItem(t, manager, team.ws, 'customer-profile-attribute', {
      name: key,
      key,
      attributeType: 'string',
    });
  }
  const imported = await importBody(t, manager, team.ws, 'profiles', 'text/csv', PROFILES);
  expect(imported.json().batch, imported.body).toMatchObject({ processed: 9, failed: 0 });
  expect(
    (await call(t, 'POST', wsUrl(team.ws, 'suppressions'), manager, { email: 'eve@example.com' })).statusCode,
  ).toBe(201);
  audienceId = (
    await createItem(t, manager, team.ws, 'audience', {
      name: 'Gold',
      criteria: group('and', [attributeRule(defs, 'tier', '==', 'gold')]),
    })
  ).id;
  emailId = (
    await createItem(t, manager, team.ws, 'email', {
      name: 'Autumn',
      subject: 'Autumn is here',
      preheader: 'New colours for {{first-name|you}}',
      template: TEMPLATE,
      testAddresses: 'qa@example.com',
    })
  ).id;
  const sender = await call(t, 'POST', wsUrl(team.ws, 'senders'), manager, {
    fromName: 'Acme News',
    fromAddress: 'news@acme.example',
    replyTo: 'hello@acme.example',
  });
  senderId = sender.json().id;
  expect(
    (
      await call(t, 'PUT', wsUrl(team.ws, 'senders/postal-address'), manager, {
        postalAddress: '1 Main St\nSpringfield',
      })
    ).statusCode,
  ).toBe(200); // These profiles never set their consent: a new workspace would leave them out.
  expect(
    (await call(t, 'PUT', wsUrl(team.ws, 'senders/recipients'), manager, { mailUnknownConsent: true }))
      .statusCode,
  ).toBe(200);
});
afterAll(async () => {
  await t.close();
  await plain.close();
  await sink.close();
  await sendgrid.close();
});

describe('a campaign send', () => {
  let campaignId: string;
  let sendId: string;

  it('tells who a send would reach now and what stands in its way', async () => {
    campaignId = (await newCampaign({}, false)).id;
    const res = await call(t, 'GET', sendUrl(campaignId, '/readiness'), team.members.marketer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      audienceSize: 8,
      // ada, bob, refused, busy: one without an address, one unsubscribed, one suppressed, one address twice.
      recipients: 4,
      withoutEmail: 1,
      unsubscribed: 1,
      approved: false,
      canSend: false,
      senderVerified: false,
      problems: [CAMPAIGN_MESSAGES.needsApproval],
      warnings: [CAMPAIGN_MESSAGES.likelySpam],
      current: null,
    });
  });

  it('refuses a send without publish rights, and before every approval', async () => {
    const denied = await call(t, 'POST', sendUrl(campaignId, '/send'), team.members.marketer, {});
    expect(denied.statusCode).toBe(403);
    const unapproved = await call(t, 'POST', sendUrl(campaignId, '/send'), team.members.sender, {});
    expect(unapproved.statusCode).toBe(409);
    expect(unapproved.json().error.message).toBe(CAMPAIGN_MESSAGES.needsApproval);
    expect(rows(await t.database.db.execute(sql`select 1 from campaign_sends`))).toHaveLength(0);
  });

  it('sends once to each reachable member, personalised, with one-click unsubscribe and tracked links', async () => {
    expect((await approve(t, team.members.legal, team.ws, 'campaign', campaignId, 'legal')).statusCode).toBe(
      200,
    );
    const res = await call(t, 'POST', sendUrl(campaignId, '/send'), team.members.sender, {});
    expect(res.statusCode, res.body).toBe(202);
    sendId = res.json().send.id;
    firstSendId = sendId;
    firstCampaignId = campaignId;
    expect(res.json().send).toMatchObject({ state: 'queued', campaignId });
    await until(campaignId, sendId, ['done']);
    const send = await getSend(campaignId, sendId);
    expect(send.counts).toEqual({
      audience: 8,
      recipients: 4,
      alreadyReceived: 0,
      sent: 3,
      failed: 1,
      unconfirmed: 0,
      pending: 0,
    });

    const mine = sink.received.filter((m) => m.mail.subject?.startsWith('Autumn for'));
    expect(mine.map((m) => m.envelopeTo[0]).sort()).toEqual([
      'ada@example.com',
      'bob@example.com',
      'busy@example.com',
    ]);
    const ada = mine.find((m) => m.envelopeTo[0] === 'ada@example.com')!.mail;
    expect(ada.subject).toBe('Autumn for Ada');
    expect(ada.from?.value).toEqual([{ name: 'Acme News', address: 'news@acme.example' }]);
    expect(ada.replyTo?.text).toBe('hello@acme.example');
    const html = String(ada.html);
    expect(html).toContain('Hello Ada');
    expect(html).toContain('1 Main St<br>Springfield');
    expect(html).toContain('New colours for Ada');
    expect(html).toContain('href="mailto:help@example.com"');
    expect(html).not.toContain('shop.example.com');
    const clickTokens = [...html.matchAll(/http:\/\/marquee\.test\/t\/c\/([\w.-]+)"/g)].map((m) => m[1]);
    expect(clickTokens).toHaveLength(2);
    expect(clickTokens.map((token) => verifyToken(token, 'c', t.config.secret)?.link)).toEqual([1, 2]);
    expect(html).toMatch(/<img src="http:\/\/marquee\.test\/t\/o\/[\w.-]+"/);
    // Nothing in a tracking or unsubscribe URL names the profile or the address.
    for (const [url] of html.matchAll(/http:\/\/marquee\.test\/(?:t|u)\/[^"]+/g)) {
      const decoded = Buffer.from(url.split('/').pop()!.split('.')[0], 'base64url').toString();
      expect(decoded).not.toMatch(/p-1|ada/);
    }
    expect(ada.text).toContain('Unsubscribe: http://marquee.test/u/');
    const header = (name: string) =>
      ada.headerLines
        .find((line) => line.key === name)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, ' ');
    const unsubscribe = header('list-unsubscribe');
    expect(unsubscribe).toMatch(
      /^<http:\/\/marquee\.test\/u\/[\w.-]+>, <mailto:hello@acme\.example\?subject=unsubscribe%20[\w.-]+>$/,
    );
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(ada.messageId).toBe(`<${sendId}.1.${team.ws}@acme.example>`);

    const failed = rows<{ email: string; error: string }>(
      await t.database.db.execute(
        sql`select email, error from campaign_recipients where send_id = ${sendId} and status = 'failed'`,
      ),
    );
    expect(failed).toEqual([{ email: 'refused@example.com', error: expect.stringContaining('550') }]);
    // Refused for good by the receiving server: a hard bounce, so the address is suppressed.
    const suppressions = await call(t, 'GET', wsUrl(team.ws, 'suppressions'), manager);
    expect(suppressions.json().suppressions).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: 'refused@example.com', reason: 'bounced' })]),
    );
  });

  it('records email-delivered on each profile it reached', async () => {
    const events = rows<{ profile_id: string; properties: Record<string, string> }>(
      await t.database.db.execute(
        sql`select profile_id, properties from customer_events where workspace_id = ${team.ws} and event = 'email-delivered' order by profile_id`,
      ),
    );
    expect(events.map((e) => e.profile_id)).toEqual(['p-1', 'p-2', 'p-8']);
    expect(events[0].properties).toEqual({ campaign: campaignId, send: sendId });
  });

  it('lists the sends and answers results', async () => {
    const list = await call(t, 'GET', sendUrl(campaignId, '/sends'), team.members.legal);
    expect(list.json().sends.map((s: CampaignSend) => s.id)).toEqual([sendId]);
    const results = await call(t, 'GET', sendUrl(campaignId, `/sends/${sendId}/results`), team.members.legal);
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json()).toMatchObject({
      counts: { recipients: 4, delivered: 3, failed: 1, opened: 0, clicked: 0, bounced: 1 },
      links: [
        { idx: 1, url: 'https://shop.example.com/autumn?x=1&y=2', people: 0, totalClicks: 0 },
        { idx: 2, url: 'https://shop.example.com/about', people: 0, totalClicks: 0 },
      ],
    });
  });

  it('answers 404 for a send of another campaign and for unknown ids', async () => {
    const other = (await newCampaign({ name: 'Other' })).id;
    expect((await call(t, 'GET', sendUrl(other, `/sends/${sendId}`), manager)).statusCode).toBe(404);
    expect((await call(t, 'GET', sendUrl('nope', '/readiness'), manager)).statusCode).toBe(404);
    expect((await call(t, 'POST', sendUrl(campaignId, `/sends/${sendId}/explode`), manager)).statusCode).toBe(
      404,
    );
  });
});

describe('a send at a time, paused, resumed and cancelled', () => {
  it('waits for its send time, refuses a second send meanwhile, and can be cancelled', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const campaign = await newCampaign({ name: 'Later', sendAt: inAnHour, sendAt_tz: 'Europe/Paris' });
    const res = await call(t, 'POST', sendUrl(campaign.id, '/send'), manager, {});
    expect(res.statusCode, res.body).toBe(202);
    const send = res.json().send as CampaignSend;
    expect(send).toMatchObject({ state: 'queued', sendAt: inAnHour });
    const again = await call(t, 'POST', sendUrl(campaign.id, '/send'), manager, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CAMPAIGN_MESSAGES.alreadySending);
    expect(
      (await call(t, 'POST', sendUrl(campaign.id, `/sends/${send.id}/resume`), manager)).statusCode,
    ).toBe(409);
    const cancelled = await call(t, 'POST', sendUrl(campaign.id, `/sends/${send.id}/cancel`), manager);
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', counts: { sent: 0 } });
    expect(
      (await call(t, 'POST', sendUrl(campaign.id, `/sends/${send.id}/cancel`), manager)).statusCode,
    ).toBe(409);
  });

  it("lists a queued send in the 'Scheduled' view, and each campaign's status with its counts", async () => {
    // Broke: 'Scheduled' listed no queued campaign send, and nothing said where a campaign stood.
    const scheduledIds = async (schema?: string) => {
      const res = await call(t, 'GET', `${itemsUrl(team.ws, schema)}?view=scheduled`, team.members.legal);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items.map((item: { id: string }) => item.id) as string[];
    };
    const statusOf = async (campaignId: string) => {
      const res = await call(t, 'GET', wsUrl(team.ws, 'campaigns/statuses'), team.members.legal);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().statuses as { campaignId: string }[]).find((each) => each.campaignId === campaignId);
    };
    const inADay = new Date(Date.now() + 86_400_000).toISOString();
    const later = await newCampaign({ name: 'Tomorrow', sendAt: inADay });
    const draft = await newCampaign({ name: 'Draft' });
    const res = await call(t, 'POST', sendUrl(later.id, '/send'), manager, {});
    expect(res.statusCode, res.body).toBe(202);
    expect(await scheduledIds('campaign')).toEqual([later.id]);
    expect(await scheduledIds()).toContain(later.id);
    expect(await statusOf(later.id)).toMatchObject({ status: 'scheduled', sendAt: inADay, sent: 0 });
    expect(await statusOf(draft.id)).toBeUndefined();
    expect(await statusOf(firstCampaignId)).toMatchObject({
      status: 'sent',
      recipients: 4,
      sent: 3,
      sends: 1,
    });

    const sendId = res.json().send.id as string;
    expect((await call(t, 'POST', sendUrl(later.id, `/sends/${sendId}/cancel`), manager)).statusCode).toBe(
      200,
    );
    expect(await scheduledIds('campaign')).toEqual([]);
    expect(await statusOf(later.id)).toMatchObject({ status: 'draft', recipients: 0 });
    const outsider = await verifiedUser(plain, { name: 'Sid Outsider' });
    expect((await call(t, 'GET', wsUrl(team.ws, 'campaigns/statuses'), outsider)).statusCode).toBe(404);
  });

  it('pauses mid-send without sending anyone twice, and resumes to the end', async () => {
    const campaign = await newCampaign({ name: 'Paused' });
    const before = sink.received.length;
    const release = sink.hold();
    const res = await call(t, 'POST', sendUrl(campaign.id, '/send'), manager, {});
    const sendId = res.json().send.id as string;
    await until(campaign.id, sendId, ['sending']);
    const paused = await call(t, 'POST', sendUrl(campaign.id, `/sends/${sendId}/pause`), manager);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().state).toBe('paused');
    release();
    const resumed = await call(t, 'POST', sendUrl(campaign.id, `/sends/${sendId}/resume`), manager);
    expect(resumed.json().state).toMatch(/sending|done/);
    await until(campaign.id, sendId, ['done']);
    const mine = sink.received.slice(before).filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`));
    const addresses = mine.map((m) => m.envelopeTo[0]).sort();
    expect(addresses).toEqual(['ada@example.com', 'bob@example.com', 'busy@example.com']);
  });
});

describe('a send through SendGrid', () => {
  it('hands each message over once, with its token, its headers and our own tracking', async () => {
    const campaign = await newCampaign({ name: 'Through SendGrid', provider: 'sendgrid' });
    const res = await call(t, 'POST', sendUrl(campaign.id, '/send'), manager, {});
    expect(res.statusCode, res.body).toBe(202);
    const sendId = res.json().send.id as string;
    await until(campaign.id, sendId, ['done']);
    // refused@ bounced in the first send and is suppressed since: three recipients.
    expect((await getSend(campaign.id, sendId)).counts).toMatchObject({
      recipients: 3,
      sent: 3,
      failed: 0,
      pending: 0,
    });
    const mine = sendgrid.requests.filter((r) =>
      String(r.body.headers['Message-ID']).startsWith(`<${sendId}.`),
    );
    const to = mine.map((r) => r.body.personalizations[0].to[0].email as string).sort();
    // busy@ was refused with a 429 once, and sent when the chunk was tried again.
    expect(to).toEqual(['ada@example.com', 'bob@example.com', 'busy@example.com']);
    const ada = mine.find((r) => r.body.personalizations[0].to[0].email === 'ada@example.com')!;
    expect(ada.auth).toBe(`Bearer ${SENDGRID_KEY}`);
    expect(ada.body.subject).toBe('Autumn for Ada');
    expect(ada.body.from).toEqual({ email: 'news@acme.example', name: 'Acme News' });
    expect(ada.body.reply_to).toEqual({ email: 'hello@acme.example' });
    expect(ada.body.tracking_settings).toEqual({
      click_tracking: { enable: false },
      open_tracking: { enable: false },
    });
    expect(ada.body.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const token = ada.body.personalizations[0].custom_args.marquee_token as string;
    expect(verifyToken(token, 'u', t.config.secret)).toMatchObject({ sendId, n: 1 });
    expect(ada.body.content.map((c: { type: string }) => c.type)).toEqual(['text/plain', 'text/html']);
  });
});

describe('bad input and rights', () => {
  it('says what is missing before a send', async () => {
    const campaign = await newCampaign({ name: 'No sender', sender: 'gone1' });
    const res = await call(t, 'POST', sendUrl(campaign.id, '/send'), manager, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(CAMPAIGN_MESSAGES.senderGone);
    await saveItem(t, manager, team.ws, 'campaign', campaign.id, {
      name: 'No sender',
      email: { schemaType: 'email', id: emailId, label: 'Autumn' },
      audience: { schemaType: 'audience', id: audienceId, label: 'Gold' },
      sender: senderId,
      provider: 'sendgrid',
    });
    await approve(t, team.members.legal, team.ws, 'campaign', campaign.id, 'legal');
    // A server without SENDGRID_API_KEY.
    const unconfigured = await call(plain, 'POST', sendUrl(campaign.id, '/send'), manager, {});
    expect(unconfigured.statusCode).toBe(503);
  });

  it('refuses outsiders and anonymous callers', async () => {
    const outsider = await verifiedUser(plain, { name: 'Oz Outsider' });
    const campaign = await newCampaign({ name: 'Private' });
    expect((await call(t, 'GET', sendUrl(campaign.id, '/readiness'))).statusCode).toBe(401);
    expect((await call(t, 'GET', sendUrl(campaign.id, '/readiness'), outsider)).statusCode).toBe(404);
    expect((await call(t, 'POST', sendUrl(campaign.id, '/send'), outsider, {})).statusCode).toBe(404);
  });

  it('previews as a profile and test-sends the campaign message', async () => {
    const campaign = await newCampaign({ name: 'Preview' });
    const shown = await call(t, 'GET', sendUrl(campaign.id, '/preview?profileId=p-2'), team.members.legal);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ profileId: 'p-2', subject: 'Autumn for Bob', clipped: false });
    expect(shown.json().html).toContain('Hello Bob');
    // The preview carried the open pixel (and tracked links) of a send that does not exist: they answered 404.
    expect(shown.json().html).not.toContain(PUBLIC_EMAIL_PATHS.open(''));
    expect(shown.json().html).not.toContain(PUBLIC_EMAIL_PATHS.click(''));
    expect(shown.json().html).toContain('href="https://shop.example.com/about"');
    expect(
      (await call(t, 'GET', sendUrl(campaign.id, '/preview?profileId=nobody'), manager)).statusCode,
    ).toBe(404);
    const before = sink.received.length;
    const sent = await call(t, 'POST', sendUrl(campaign.id, '/test-send'), team.members.marketer, {
      profileId: 'p-1',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(CampaignTestSendAnswer.strict().parse(sent.json())).toMatchObject({
      message: 'Test sent to qa@example.com',
      testSend: {
        itemId: campaign.id,
        recipients: ['qa@example.com'],
        subject: 'Autumn for Ada',
        status: 'sent',
      },
      clipped: false,
    });
    // Broke: the audit row of a campaign's test send named the email schema for the campaign's id.
    // Broke: it was labelled with the subject, not the email template sent.
    const audit = rows<{ schema: string; label: string; detail: Record<string, unknown> }>(
      await t.database.db.execute(
        sql`select schema, label, detail from audit_log where action = 'test-send.sent' and target_id = ${String(sent.json().testSend.id)}`,
      ),
    );
    expect(audit).toMatchObject([
      {
        schema: 'campaign',
        label: 'Autumn',
        detail: { emailTemplate: { id: emailId, title: 'Autumn' }, subject: 'Autumn for Ada' },
      },
    ]);
    await expect.poll(() => sink.received.length).toBe(before + 1);
    const test = sink.received.at(-1)!;
    expect(test.mail.subject).toBe('Autumn for Ada');
    expect(String(test.mail.html)).not.toContain(PUBLIC_EMAIL_PATHS.open(''));
    expect(test.envelopeTo).toEqual(['qa@example.com']);
    // Broke: the test came from MAIL_FROM (Marquee <no-reply@…>), not the campaign's sender.
    expect(test.mail.from?.value).toEqual([{ name: 'Acme News', address: 'news@acme.example' }]);
    expect(test.mail.replyTo?.text).toBe('hello@acme.example');
    const denied = await call(t, 'POST', sendUrl(campaign.id, '/test-send'), team.members.legal, {});
    expect(denied.statusCode).toBe(403);
  });
});

describe('erasure', () => {
  it('forgets an erased profile in every send, keeping what was done by recipient number only', async () => {
    const profileIds = async () =>
      rows<{ profile_id: string }>(
        await t.database.db.execute(
          sql`select profile_id from campaign_recipients where send_id = ${firstSendId} order by profile_id`,
        ),
      ).map((r) => r.profile_id);
    expect(await profileIds()).toContain('p-2');
    expect((await call(t, 'DELETE', wsUrl(team.ws, 'profiles/p-2'), manager)).statusCode).toBe(200);
    expect(await profileIds()).toEqual(['p-1', 'p-7', 'p-8']);
  });
});

describe('a later send of a campaign', () => {
  it('goes only to members no earlier send reached, unless it is sent again to everyone', async () => {
    // Broke: pressing Send after a send finished sent every recipient a second copy.
    const campaign = await newCampaign({ name: 'Again' });
    const addressesOf = (sendId: string) =>
      sink.received
        .filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`))
        .map((m) => m.envelopeTo[0])
        .sort();
    const send = async (body: object) => {
      const res = await call(t, 'POST', sendUrl(campaign.id, '/send'), team.members.sender, body);
      expect(res.statusCode, res.body).toBe(202);
      const sendId = res.json().send.id as string;
      await until(campaign.id, sendId, ['done']);
      return getSend(campaign.id, sendId);
    };
    const first = await send({});
    expect(first).toMatchObject({ everyone: false, counts: { recipients: 2, alreadyReceived: 0, sent: 2 } });
    expect(addressesOf(first.id)).toEqual(['ada@example.com', 'busy@example.com']);

    // A member joins the audience after the first send.
    const joined = await importBody(
      t,
      manager,
      team.ws,
      'profiles',
      'text/csv',
      'id,email,tier\np-10,new@example.com,gold',
    );
    expect(joined.statusCode, joined.body).toBe(201);
    const ready = await call(t, 'GET', sendUrl(campaign.id, '/readiness'), manager);
    expect(ready.json()).toMatchObject({ recipients: 1, alreadyReceived: 2 });

    const second = await send({});
    expect(second).toMatchObject({ everyone: false, counts: { recipients: 1, alreadyReceived: 2, sent: 1 } });
    expect(addressesOf(second.id)).toEqual(['new@example.com']);
    expect((await call(t, 'GET', sendUrl(campaign.id, '/readiness'), manager)).json()).toMatchObject({
      recipients: 0,
      alreadyReceived: 3,
    });

    const denied = await call(t, 'POST', sendUrl(campaign.id, '/send'), team.members.marketer, {
      everyone: true,
    });
    expect(denied.statusCode).toBe(403);
    const bad = await call(t, 'POST', sendUrl(campaign.id, '/send'), team.members.sender, {
      everyone: 'yes',
    });
    expect(bad.statusCode).toBe(400);

    const again = await send({ everyone: true });
    expect(again).toMatchObject({ everyone: true, counts: { recipients: 3, alreadyReceived: 0, sent: 3 } });
    expect(addressesOf(again.id)).toEqual(['ada@example.com', 'busy@example.com', 'new@example.com']);
    const list = await call(t, 'GET', sendUrl(campaign.id, '/sends'), manager);
    expect(list.json().sends.map((s: CampaignSend) => s.id)).toEqual([again.id, second.id, first.id]);
  });
});

describe('a message the mail server never confirmed', () => {
  const addressesOf = (sendId: string) =>
    sink.received
      .filter((m) => m.mail.messageId?.startsWith(`<${sendId}.`))
      .map((m) => m.envelopeTo[0])
      .sort();
  const startSend = async (campaignId: string) => {
    const res = await call(t, 'POST', sendUrl(campaignId, '/send'), team.members.sender, {});
    expect(res.statusCode, res.body).toBe(202);
    return res.json().send.id as string;
  };

  it('counts nobody sent before the 250, and a takeover marks those in flight unconfirmed, never sending them again', async () => {
    // Broke: a recipient counted as sent once the final `.` was written, before the server's 250, and
    // a takeover after the holder died took those for sent.
    const campaign = await newCampaign({ name: 'In flight' });
    const release = sink.hold();
    const sendId = await startSend(campaign.id);
    // The first chunk (ada and busy): each message whole at the server, its answer held back.
    await expect.poll(() => sink.waiting, { timeout: 20_000, interval: 50 }).toBe(2);
    expect((await getSend(campaign.id, sendId)).counts).toMatchObject({
      sent: 0,
      unconfirmed: 0,
      pending: 3,
    });

    // Its holder's lease lapses, as a dead process's would, and other processes take the send over.
    await t.database.db.execute(
      sql`update campaign_chunks set lease_until = now() - interval '1 second' where send_id = ${sendId} and first_n = 1`,
    );
    const workers = await startJobWorkers(t);
    try {
      await expect
        .poll(async () => (await getSend(campaign.id, sendId)).counts, { timeout: 20_000, interval: 50 })
        .toMatchObject({ sent: 0, unconfirmed: 2 });
      // new@ went out from the takeover; ada and busy did not go again.
      await expect.poll(() => sink.waiting, { timeout: 20_000, interval: 50 }).toBe(3);

      // The server's late answers still count: it did take the messages, once each.
      release();
      await until(campaign.id, sendId, ['done']);
      await expect
        .poll(async () => (await getSend(campaign.id, sendId)).counts, { timeout: 20_000, interval: 50 })
        .toMatchObject({ recipients: 3, sent: 3, unconfirmed: 0, failed: 0, pending: 0 });
      expect(addressesOf(sendId)).toEqual(['ada@example.com', 'busy@example.com', 'new@example.com']);
    } finally {
      release();
      await workers.close();
    }
  }, 60_000);

  it('records a message whose final `.` got no answer as unconfirmed, not sent, and does not send it again', async () => {
    // Broke: a connection lost after the final `.` put the recipient back to pending, and it went again.
    const joined = await importBody(
      t,
      manager,
      team.ws,
      'profiles',
      'text/csv',
      'id,email,tier\np-11,vanish@example.com,gold',
    );
    expect(joined.statusCode, joined.body).toBe(201);
    const campaign = await newCampaign({ name: 'Unconfirmed' });
    const sendId = await startSend(campaign.id);
    await until(campaign.id, sendId, ['done']);
    expect((await getSend(campaign.id, sendId)).counts).toMatchObject({
      recipients: 4,
      sent: 3,
      unconfirmed: 1,
      failed: 0,
      pending: 0,
    });
    expect(addressesOf(sendId)).toEqual([
      'ada@example.com',
      'busy@example.com',
      'new@example.com',
      'vanish@example.com',
    ]);
    const statuses = rows<{ email: string; status: string }>(
      await t.database.db.execute(
        sql`select email, status from campaign_recipients where send_id = ${sendId} and status <> 'sent'`,
      ),
    );
    expect(statuses).toEqual([{ email: 'vanish@example.com', status: 'unconfirmed' }]);
    const results = await call(t, 'GET', sendUrl(campaign.id, `/sends/${sendId}/results`), manager);
    expect(results.json().counts).toMatchObject({ recipients: 4, delivered: 3 });

    // Resending them is the sender's choice, with its risk; nobody else's.
    const resend = sendUrl(campaign.id, `/sends/${sendId}/resend-unconfirmed`);
    expect((await call(t, 'POST', resend, team.members.marketer)).statusCode).toBe(403);
    const outsider = await verifiedUser(plain, { name: 'Ola Outsider' });
    expect((await call(t, 'POST', resend, outsider)).statusCode).toBe(404);
    const resent = await call(t, 'POST', resend, team.members.sender);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({
      message: CAMPAIGN_MESSAGES.resending(1),
      send: { state: 'sending', counts: { unconfirmed: 0, pending: 1 } },
    });
    await until(campaign.id, sendId, ['done']);
    expect((await getSend(campaign.id, sendId)).counts).toMatchObject({
      sent: 4,
      unconfirmed: 0,
      pending: 0,
    });
    expect(addressesOf(sendId).filter((to) => to === 'vanish@example.com')).toHaveLength(2);
    const again = await call(t, 'POST', resend, team.members.sender);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CAMPAIGN_MESSAGES.nothingUnconfirmed);
  });
});
