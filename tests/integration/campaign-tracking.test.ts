import { and, eq, sql } from 'drizzle-orm';
import { CAMPAIGN_MESSAGES, EMAIL_EVENTS } from '@shared/api/campaigns';
import { TRACKING_MESSAGES } from '@shared/api/campaign-tracking';
import { SUPPRESSION_NOTE_MAX } from '@shared/api/customers';
import { auditLog, campaignEngagement } from '@server/db/schema';
import { rows } from '@server/db/migrate';
import { signToken } from '@server/campaigns/tokens';
import { buildApp } from '@server/app';
import { createTestApp, startSecondServer, type TestApp } from '../helpers/test-app';
import { testDatabaseKind } from '../helpers/database';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { call, itemsUrl } from '../factories/items';
import { defineCustomerData, group, importBody, sizeOf, wsUrl } from '../factories/customers';
import { seedSend, type SeededSend } from '../factories/campaign-sends';
import { signedHeaders, webhookKeys } from '../fixtures/sendgrid-webhook';

/**
 * What a recipient's mail client and the email provider call: the unsubscribe page and one-click
 * unsubscribe, the open pixel, click redirects and the provider's bounce and complaint hooks; each
 * recorded on the send, on the profile (consent, suppression, email-* events) and journaled.
 */

let t: TestApp;
let manager: TestUser;
let ws: string;
let send: SeededSend;
const keys = webhookKeys();
const LINKS = ['https://shop.example.test/sale?utm=news', 'https://example.test/about'];
const PROFILES = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
const emailOf = (n: number) => `Reader${n}@Example.test`;

beforeAll(async () => {
  t = await createTestApp({ sendgridWebhookPublicKey: keys.publicKey });
  manager = await verifiedUser(t, { name: 'Tracking Manager' });
  ws = (await createWorkspace(t.app, manager, 'Tracking')).id;
  await patchWorkspace(t.app, manager, ws, { basics: { domains: ['marketing'], stages: ['Live'] } });
  await defineCustomerData(t, manager, ws);
  const csv = ['id,city', ...PROFILES.map((id) => `${id},Paris`)].join('\n');
  expect((await importBody(t, manager, ws, 'profiles', 'text/csv', csv)).statusCode).toBe(201);
  send = await seedSend(t, ws, {
    recipients: PROFILES.map((profileId, index) => ({ profileId, email: emailOf(index + 1) })),
    links: LINKS,
  });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const oneClick = (token: string) =>
  post(`/u/${token}`, 'List-Unsubscribe=One-Click', {
    'content-type': 'application/x-www-form-urlencoded',
  });
const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const asBrowser = (url: string) =>
  post(url, '', { ...html, 'content-type': 'application/x-www-form-urlencoded' });

async function engagement(sendId: string, n: number) {
  return t.database.db
    .select({ kind: campaignEngagement.kind, link: campaignEngagement.link, count: campaignEngagement.count })
    .from(campaignEngagement)
    .where(
      and(
        eq(campaignEngagement.workspaceId, ws),
        eq(campaignEngagement.sendId, sendId),
        eq(campaignEngagement.n, n),
      ),
    )
    .orderBy(campaignEngagement.kind, campaignEngagement.link);
}

async function eventsOf(profileId: string) {
  return rows<{ event: string; properties: Record<string, unknown> }>(
    await t.database.db.execute(sql`
      select event, properties from customer_events
      where workspace_id = ${ws} and profile_id = ${profileId} order by event`),
  );
}

const consentOf = async (profileId: string) =>
  (await call(t, 'GET', wsUrl(ws, `profiles/${profileId}`), manager)).json().consent.email;

const suppressions = async () =>
  (await call(t, 'GET', wsUrl(ws, 'suppressions?limit=100'), manager)).json().suppressions as {
    email: string | null;
    profileId: string | null;
    reason: string;
  }[];

describe('tokens', () => {
  it('refuses forged, altered and other-kind tokens, as JSON and as a page', async () => {
    const forged = signToken(
      { kind: 'o', workspaceId: ws, sendId: send.id, n: 1, link: 0 },
      'not-the-secret',
    );
    const [payload, signature] = send.token('c', 1, 1).split('.');
    const altered = `${Buffer.from(`c:${ws}:${send.id}:2:1`).toString('base64url')}.${signature}`;
    const unknownSend = signToken(
      { kind: 'u', workspaceId: ws, sendId: 'no-such-send', n: 1, link: 0 },
      t.config.secret,
    );
    for (const url of [
      `/t/o/${forged}`,
      `/t/o/garbage`,
      `/t/c/${altered}`,
      `/t/c/${payload}`,
      `/t/o/${send.token('c', 1, 1)}`,
      `/u/${send.token('o', 1)}`,
      `/u/${unknownSend}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.message, url).toBe(CAMPAIGN_MESSAGES.badToken);
    }
    const page = await get(`/u/${forged}`, html);
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(CAMPAIGN_MESSAGES.badToken);
    const refused = await oneClick(forged);
    expect(refused.statusCode).toBe(404);
    expect(await engagement(send.id, 1)).toEqual([]);
  });

  it('takes a token only as it was written, not in other base64 spellings of the same bytes', async () => {
    // Broke: a changed final character, `==` padding or the `+/` alphabet made more valid tokens.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    /** The same bytes with a changed unused trailing bit (22 characters of 16 bytes leave four). */
    const lastBitFlipped = (part: string) => part.slice(0, -1) + alphabet[alphabet.indexOf(part.at(-1)!) ^ 1];
    const tokens = PROFILES.map((_, i) => send.token('u', i + 1));
    // A token whose parts spell a character that the `+/` alphabet writes differently.
    const mixed = tokens.find((token) => /[-_]/.test(token))!;
    expect(mixed).toBeDefined();
    for (const token of tokens) expect((await get(`/u/${token}`)).statusCode, token).toBe(200);
    const [payload, signature] = tokens[0].split('.');
    const spellings = [
      `${payload}.${lastBitFlipped(signature)}`,
      `${payload}.${signature}==`,
      `${payload}=.${signature}`,
      mixed.replace(/-/g, '+').replace(/_/g, '/'),
    ];
    for (const spelling of spellings) {
      const res = await get(`/u/${encodeURIComponent(spelling)}`);
      expect(res.statusCode, spelling).toBe(404);
      expect(res.json().error.message, spelling).toBe(CAMPAIGN_MESSAGES.badToken);
    }
  });
});

describe('opens and clicks', () => {
  it('answers the pixel and records an open once, counting repeats', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await get(`/t/o/${send.token('o', 1)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/gif');
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    }
    expect(await engagement(send.id, 1)).toEqual([{ kind: 'open', link: 0, count: 2 }]);
    expect(await eventsOf('p1')).toEqual([
      { event: EMAIL_EVENTS.opened, properties: { campaign: send.campaignId, send: send.id } },
    ]);
  });

  it('lets the pixel load in webmail that shows images from its own origin', async () => {
    // The pixel answered Cross-Origin-Resource-Policy: same-origin, so such webmail never loaded it.
    const res = await t.app.inject({ method: 'HEAD', url: `/t/o/${send.token('o', 1)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('redirects a click to its link, records it per link, and counts it as an open when none was', async () => {
    const res = await get(`/t/c/${send.token('c', 2, 1)}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(LINKS[0]);
    expect((await get(`/t/c/${send.token('c', 2, 1)}`)).headers.location).toBe(LINKS[0]);
    expect((await get(`/t/c/${send.token('c', 2, 2)}`)).headers.location).toBe(LINKS[1]);
    expect(await engagement(send.id, 2)).toEqual([
      { kind: 'click', link: 1, count: 2 },
      { kind: 'click', link: 2, count: 1 },
      { kind: 'open', link: 0, count: 1 },
    ]);
    const events = await eventsOf('p2');
    expect(events).toEqual([
      {
        event: EMAIL_EVENTS.clicked,
        properties: { campaign: send.campaignId, send: send.id, url: LINKS[0] },
      },
      {
        event: EMAIL_EVENTS.clicked,
        properties: { campaign: send.campaignId, send: send.id, url: LINKS[1] },
      },
      { event: EMAIL_EVENTS.opened, properties: { campaign: send.campaignId, send: send.id } },
    ]);
  });

  it('counts the people who clicked a link once each, and its clicks apart', async () => {
    // Broke: a link's `clicks` counted every hit beside `recipients`, so 3 clicks of one person read as 3.
    const clicked = await seedSend(t, ws, {
      recipients: [
        { profileId: 'p1', email: emailOf(1) },
        { profileId: 'p2', email: emailOf(2) },
      ],
      links: LINKS,
    });
    for (let i = 0; i < 3; i++) expect((await get(`/t/c/${clicked.token('c', 1, 1)}`)).statusCode).toBe(302);
    expect((await get(`/t/c/${clicked.token('c', 1, 2)}`)).statusCode).toBe(302);
    expect((await get(`/t/c/${clicked.token('c', 2, 1)}`)).statusCode).toBe(302);
    const res = await call(
      t,
      'GET',
      wsUrl(ws, `campaigns/${clicked.campaignId}/sends/${clicked.id}/results`),
      manager,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().counts).toMatchObject({ clicked: 2, opened: 2 });
    expect(res.json().links).toEqual([
      { idx: 1, url: LINKS[0], people: 2, totalClicks: 4 },
      { idx: 2, url: LINKS[1], people: 1, totalClicks: 1 },
    ]);
    // Two people clicked in this hour, one of them on two links.
    expect(res.json().timeline).toEqual([expect.objectContaining({ opens: 2, clicks: 2 })]);
  });

  it('records nothing for a HEAD request (a link checker)', async () => {
    const head = (url: string) => t.app.inject({ method: 'HEAD', url });
    expect((await head(`/t/o/${send.token('o', 6)}`)).statusCode).toBe(200);
    const click = await head(`/t/c/${send.token('c', 6, 1)}`);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(LINKS[0]);
    expect(await engagement(send.id, 6)).toEqual([]);
  });

  it('redirects only to links the message has', async () => {
    for (const link of [0, 3, 99]) {
      const res = await get(`/t/c/${send.token('c', 2, link)}`);
      expect(res.statusCode, `link ${link}`).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('records nothing when the send has tracking off, but still answers', async () => {
    const quiet = await seedSend(t, ws, {
      recipients: [{ profileId: 'p1', email: emailOf(1) }],
      links: LINKS,
      tracking: false,
    });
    expect((await get(`/t/o/${quiet.token('o', 1)}`)).statusCode).toBe(200);
    const click = await get(`/t/c/${quiet.token('c', 1, 2)}`);
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(LINKS[1]);
    expect(await engagement(quiet.id, 1)).toEqual([]);
    expect((await eventsOf('p1')).filter((e) => e.properties.send === quiet.id)).toEqual([]);
  });

  it('creates the email-* behavioral events, and audiences can use them', async () => {
    const list = await call(t, 'GET', `${itemsUrl(ws, 'behavioral-event')}?limit=100`, manager);
    const events = list.json().items as { id: string; data: { key: string; properties: unknown[] } }[];
    const byKey = new Map(events.map((item) => [item.data.key, item]));
    for (const key of Object.values(EMAIL_EVENTS)) expect(byKey.has(key), key).toBe(true);
    expect(byKey.get(EMAIL_EVENTS.clicked)!.data.properties).toEqual([
      { name: 'campaign', type: 'string' },
      { name: 'send', type: 'string' },
      { name: 'url', type: 'string' },
    ]);
    const opened = byKey.get(EMAIL_EVENTS.opened)!;
    const rule = (over: Record<string, unknown> = {}) =>
      group('and', [
        {
          type: 'event',
          event: { schemaType: 'behavioral-event', id: opened.id, label: 'Email opened' },
          lookBackUnit: 'days',
          lookBackValue: 7,
          aggregator: 'COUNT',
          aggregatorCondition: '>=',
          aggregatorValue: 1,
          ...over,
        },
      ]);
    const res = await sizeOf(t, manager, ws, rule());
    expect(res.statusCode, res.body).toBe(200);
    // p1 opened; p2 clicked, which counts as an open.
    expect(res.json().size).toBe(2);
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('on PostgreSQL', () => {
  it('creates each email-* behavioral event once when two processes record at once', async () => {
    const other = await startSecondServer(t);
    try {
      const fresh = (await createWorkspace(t.app, manager, 'Tracking Two')).id;
      await patchWorkspace(t.app, manager, fresh, { basics: { domains: ['marketing'], stages: ['Live'] } });
      const csv = 'id,city\nq1,Oslo\nq2,Oslo\n';
      expect((await importBody(t, manager, fresh, 'profiles', 'text/csv', csv)).statusCode).toBe(201);
      const two = await seedSend(t, fresh, {
        recipients: [
          { profileId: 'q1', email: 'q1@example.test' },
          { profileId: 'q2', email: 'q2@example.test' },
        ],
      });
      const answers = await Promise.all([
        t.app.inject({ method: 'GET', url: `/t/o/${two.token('o', 1)}` }),
        other.app.inject({ method: 'GET', url: `/t/o/${two.token('o', 2)}` }),
      ]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
      const items = rows<{ key: string; n: number }>(
        await t.database.db.execute(sql`
          select data->>'key' as key, count(*)::int as n from items
          where workspace_id = ${fresh} and schema = 'behavioral-event' group by 1 order by 1`),
      );
      expect(items).toEqual(
        Object.values(EMAIL_EVENTS)
          .sort()
          .map((key) => ({ key, n: 1 })),
      );
    } finally {
      await other.close();
    }
  });
});

describe('unsubscribe', () => {
  it('unsubscribes in one POST of the RFC 8058 form: consent, suppression, engagement, event, audit', async () => {
    const res = await oneClick(send.token('u', 3));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: CAMPAIGN_MESSAGES.unsubscribed, unsubscribed: true });
    expect(await consentOf('p3')).toMatchObject({ state: 'unsubscribed', source: 'unsubscribe link' });
    expect(await suppressions()).toContainEqual(
      expect.objectContaining({ email: emailOf(3).toLowerCase(), profileId: null, reason: 'unsubscribed' }),
    );
    expect(await engagement(send.id, 3)).toEqual([{ kind: 'unsubscribe', link: 0, count: 1 }]);
    expect(await eventsOf('p3')).toEqual([
      { event: EMAIL_EVENTS.unsubscribed, properties: { campaign: send.campaignId, send: send.id } },
    ]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, ws), eq(auditLog.action, 'profile.unsubscribed')));
    expect(audit).toEqual([
      expect.objectContaining({
        userId: 'email-recipient',
        userName: 'Email recipient',
        targetType: 'profile',
        targetId: 'p3',
      }),
    ]);
    // Again (and as multipart/form-data, which RFC 8058 prefers): nothing changes but the count.
    const again = await post(
      `/u/${send.token('u', 3)}`,
      '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n',
      { 'content-type': 'multipart/form-data; boundary=b' },
    );
    expect(again.statusCode).toBe(200);
    expect(await engagement(send.id, 3)).toEqual([{ kind: 'unsubscribe', link: 0, count: 2 }]);
    expect(await eventsOf('p3')).toHaveLength(1);
  });

  it('shows a page that changes nothing, then confirms and offers to resubscribe', async () => {
    const token = send.token('u', 4);
    const page = await get(`/u/${token}`, html);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toContain('no-store');
    expect(page.body).toContain(`<form method="post" action="/u/${token}">`);
    expect(page.body).toContain(TRACKING_MESSAGES.unsubscribeQuestion('Tracking'));
    expect(page.body).toContain('r•••@example.test');
    expect(page.body).not.toContain('reader4');
    expect(page.body).not.toMatch(/<script|<link|https?:\/\//);
    expect(await consentOf('p4')).toMatchObject({ state: 'unknown' });

    const done = await asBrowser(`/u/${token}`);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(`<h1>${CAMPAIGN_MESSAGES.unsubscribed}</h1>`);
    expect(done.body).toContain(`action="/u/${token}/resubscribe"`);
    expect(await consentOf('p4')).toMatchObject({ state: 'unsubscribed' });
    expect((await get(`/u/${token}`, html)).body).toContain(`<h1>${CAMPAIGN_MESSAGES.unsubscribed}</h1>`);

    const back = await asBrowser(`/u/${token}/resubscribe`);
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain(`<h1>${CAMPAIGN_MESSAGES.resubscribed}</h1>`);
    expect(await consentOf('p4')).toMatchObject({ state: 'subscribed', source: 'unsubscribe link' });
    expect((await suppressions()).some((s) => s.email === emailOf(4).toLowerCase())).toBe(false);
    const audit = await t.database.db
      .select({ action: auditLog.action, userId: auditLog.userId })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, ws), eq(auditLog.targetId, 'p4')));
    expect(audit).toEqual([
      { action: 'profile.unsubscribed', userId: 'email-recipient' },
      { action: 'profile.resubscribed', userId: 'email-recipient' },
    ]);
  });

  it("takes the page's button from a browser signed in to the app, whose form posts with Origin: null", async () => {
    // Broke: a member who opened their own campaign's unsubscribe link got "Cross-origin request refused".
    const signedIn = {
      ...html,
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'null',
      cookie: `marquee_session=${manager.token}`,
    };
    const res = await post(`/u/${send.token('u', 4)}`, '', signedIn);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(CAMPAIGN_MESSAGES.unsubscribed);
    expect(await consentOf('p4')).toMatchObject({ state: 'unsubscribed' });
    expect((await post(`/u/${send.token('u', 4)}/resubscribe`, '', signedIn)).statusCode).toBe(200);
    // The app's own routes still refuse such a post.
    const app = await post(wsUrl(ws, 'suppressions'), '{}', {
      ...signedIn,
      'content-type': 'application/json',
    });
    expect(app.statusCode).toBe(403);
  });

  it('answers JSON to a resubscribe that does not ask for a page', async () => {
    const res = await post(`/u/${send.token('u', 3)}/resubscribe`, '', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: CAMPAIGN_MESSAGES.resubscribed, unsubscribed: false });
    expect(await consentOf('p3')).toMatchObject({ state: 'subscribed' });
  });
});

/** A SendGrid Event Webhook post, signed with the test's key unless told otherwise. */
function sendgridPost(events: unknown, sign: 'valid' | 'bad' | 'none' = 'valid') {
  const body = typeof events === 'string' ? events : JSON.stringify(events);
  const signer = sign === 'bad' ? webhookKeys() : keys;
  return t.app.inject({
    method: 'POST',
    url: '/hooks/email/sendgrid',
    payload: body,
    headers: {
      'content-type': 'application/json',
      ...(sign === 'none' ? {} : signedHeaders(signer.privateKey, body)),
    },
  });
}

describe('provider hooks', () => {
  const at = Math.floor(Date.now() / 1000) - 60;
  const events = () => [
    {
      event: 'bounce',
      type: 'bounce',
      email: emailOf(5),
      timestamp: at,
      sg_event_id: 'e1',
      marquee_token: send.token('u', 5),
      reason: '550 5.1.1 unknown user',
    },
    {
      event: 'spamreport',
      email: emailOf(6),
      timestamp: at,
      sg_event_id: 'e2',
      custom_args: { marquee_token: send.token('u', 6) },
    },
    {
      event: 'bounce',
      type: 'blocked',
      email: emailOf(7),
      timestamp: at,
      sg_event_id: 'e3',
      marquee_token: send.token('u', 7),
    },
    {
      event: 'delivered',
      email: emailOf(7),
      timestamp: at,
      sg_event_id: 'e4',
      marquee_token: send.token('u', 7),
    },
    { event: 'bounce', type: 'bounce', email: emailOf(7), timestamp: at, sg_event_id: 'e5' },
    {
      event: 'bounce',
      type: 'bounce',
      email: emailOf(7),
      timestamp: at,
      sg_event_id: 'e6',
      marquee_token: send.token('o', 7),
    },
  ];

  it('refuses every event with 503 when no key is configured, recording nothing', async () => {
    // Broke: without SENDGRID_WEBHOOK_PUBLIC_KEY unsigned events were taken, so anyone holding a
    // recipient's unsubscribe token could list them as a complainer.
    const unkeyed = await buildApp({
      config: { ...t.config, sendgridWebhookPublicKey: undefined },
      db: t.database.db,
      logger: false,
    });
    try {
      const res = await unkeyed.inject({
        method: 'POST',
        url: '/hooks/email/sendgrid',
        payload: JSON.stringify(events()),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatchObject({
        code: 'not_configured',
        details: { setting: 'SENDGRID_WEBHOOK_PUBLIC_KEY' },
      });
    } finally {
      await unkeyed.close();
    }
    expect(await engagement(send.id, 5)).toEqual([]);
    expect(await engagement(send.id, 6)).toEqual([]);
    expect((await suppressions()).filter((s) => s.reason !== 'unsubscribed')).toEqual([]);
  });

  it('refuses a bad or missing signature when a key is configured', async () => {
    for (const sign of ['bad', 'none'] as const) {
      const res = await sendgridPost(events(), sign);
      expect(res.statusCode, sign).toBe(403);
      expect(res.json().error.message).toBe(TRACKING_MESSAGES.badSignature);
    }
    expect(await engagement(send.id, 5)).toEqual([]);
  });

  it('suppresses on a hard bounce and a complaint, and ignores soft bounces and events without a token', async () => {
    const res = await sendgridPost(events());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: 6, recorded: 2, ignored: 4 });
    const listed = await suppressions();
    expect(listed).toContainEqual(
      expect.objectContaining({ email: emailOf(5).toLowerCase(), reason: 'bounced' }),
    );
    expect(listed).toContainEqual(
      expect.objectContaining({ email: emailOf(6).toLowerCase(), reason: 'complained' }),
    );
    expect(listed.some((s) => s.email === emailOf(7).toLowerCase())).toBe(false);
    expect(await engagement(send.id, 5)).toEqual([{ kind: 'bounce', link: 0, count: 1 }]);
    expect(await engagement(send.id, 6)).toEqual([{ kind: 'complaint', link: 0, count: 1 }]);
    expect(await engagement(send.id, 7)).toEqual([]);
    expect(await eventsOf('p5')).toEqual([
      { event: EMAIL_EVENTS.bounced, properties: { campaign: send.campaignId, send: send.id } },
    ]);

    // SendGrid posts a batch again when it missed the answer: the events stay stored once.
    expect((await sendgridPost(events())).statusCode).toBe(200);
    expect(await eventsOf('p5')).toHaveLength(1);
    expect(await engagement(send.id, 5)).toEqual([{ kind: 'bounce', link: 0, count: 2 }]);
  });

  it('keeps what the provider said as a note of plain text, at most 500 characters', async () => {
    // Broke: an event's reason was stored as it came, markup and all.
    const noted = await seedSend(t, ws, {
      recipients: [{ profileId: 'p1', email: 'Noted@Example.test' }],
      links: LINKS,
    });
    const reason =
      '<script>alert(1)</script><b onclick="x()">550</b>\u0007 <user@example.test>\n\n<img src=x onerror=alert(1)>' +
      ' rejected'.repeat(100);
    const res = await sendgridPost([
      { event: 'spamreport', email: 'Noted@Example.test', marquee_token: noted.token('u', 1), reason },
    ]);
    expect(res.json()).toMatchObject({ recorded: 1 });
    const entry = (await suppressions()).find((s) => s.email === 'noted@example.test') as unknown as {
      note: string;
    };
    expect(entry.note).toHaveLength(SUPPRESSION_NOTE_MAX);
    expect(entry.note.startsWith('alert(1) 550 <user@example.test> rejected rejected')).toBe(true);
    expect(entry.note).not.toMatch(/<(?!user@)|\p{Cc}/u);
  });

  it('never lets a resubscribe lift a bounce', async () => {
    const res = await post(`/u/${send.token('u', 5)}/resubscribe`, '', {});
    expect(res.statusCode).toBe(200);
    expect(await suppressions()).toContainEqual(
      expect.objectContaining({ email: emailOf(5).toLowerCase(), reason: 'bounced' }),
    );
  });

  it('refuses a body that is not an array of events', async () => {
    expect((await sendgridPost({ event: 'bounce' })).statusCode).toBe(400);
    const notJson = await sendgridPost('{');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.message).toBe(TRACKING_MESSAGES.notJson);
  });

  it('takes an SMTP bounce by token or List-Unsubscribe URL; a 4.x.x or another address is ignored', async () => {
    const smtp = (payload: object) => t.app.inject({ method: 'POST', url: '/hooks/email/smtp', payload });
    const url = `http://marquee.test/u/${send.token('u', 7)}`;
    expect((await smtp({ token: url, recipient: emailOf(7), status: '4.2.2' })).json()).toEqual({
      received: 1,
      recorded: 0,
      ignored: 1,
    });
    expect(
      (await smtp({ token: url, recipient: 'other@example.test', status: '5.1.1' })).json(),
    ).toMatchObject({
      recorded: 0,
    });
    const hard = await smtp({
      token: url,
      recipient: emailOf(7),
      status: '5.1.1',
      diagnostic: '550 no such user',
    });
    expect(hard.json()).toEqual({ received: 1, recorded: 1, ignored: 0 });
    expect(await suppressions()).toContainEqual(
      expect.objectContaining({ email: emailOf(7).toLowerCase(), reason: 'bounced' }),
    );
    const bad = await smtp({ token: url, recipient: emailOf(7), status: 'bounced' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('status: an enhanced status code such as 5.1.1');
  });

  it('answers 404 for an unknown provider', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/hooks/email/mailgun', payload: [] });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(TRACKING_MESSAGES.unknownProvider('mailgun'));
  });
});
