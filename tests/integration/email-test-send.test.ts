import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { buildApp } from '@server/app';
import { testSends } from '@server/db/schema';
import type { Config } from '@server/config';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { readOutbox } from '../helpers/outbox';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { makeImage } from '../fixtures/images';
import { removeFile, uploadImage } from '../fixtures/media';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, role, teamWorkspace, type Team } from '../factories/items';
import { importBody } from '../factories/customers';

/** A SendGrid-compatible v3 API on 127.0.0.1: 202 for a good key, SendGrid's error body otherwise. */
async function startFakeSendGrid(apiKey: string) {
  const requests: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      requests.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      if (req.method !== 'POST' || req.url !== '/v3/mail/send') {
        res.writeHead(404).end();
      } else if (req.headers.authorization !== `Bearer ${apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            errors: [{ message: 'The provided authorization grant is invalid', field: null }],
          }),
        );
      } else {
        res.writeHead(202).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const TEMPLATE = {
  'gjs-nl-html':
    '<table class="box"><tr><td><h1>Hello {{first-name|friend}}</h1><p>Your tier: {{tier|none}}</p>' +
    '<img src="/api/v1/workspaces/WS/files/AAAAAAAAAAAAAAAAAAAAAAAA.png" alt="logo"/></td></tr></table>',
  'gjs-nl-css': '.box{width:600px}h1{color:#112233}',
};

const emailItem = (ws: string, overrides: Record<string, unknown> = {}) => ({
  name: 'Welcome',
  subject: 'Welcome, {{first-name|friend}}!',
  template: { ...TEMPLATE, 'gjs-nl-html': TEMPLATE['gjs-nl-html'].replace('WS', ws) },
  textBody: 'Hi {{first-name|friend}}, welcome aboard.',
  testAddresses: 'qa@example.com, lead@example.com',
  ...overrides,
});

const SENDGRID_KEY = 'SG.test-key';
let t: TestApp;
/** A second server on the same database (users and workspaces shared) with other mail settings. */
let smtpApp: TestApp;
async function sameDatabaseApp(overrides: Partial<Config>): Promise<TestApp> {
  const config = { ...t.config, ...overrides };
  const app: FastifyInstance = await buildApp({ config, db: t.database.db, logger: false });
  await app.ready();
  return { ...t, app, config, close: () => app.close() };
}
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let sendgrid: Awaited<ReturnType<typeof startFakeSendGrid>>;
let owner: TestUser;
let outsider: TestUser;
let team: Team;
let itemId: string;

const roles = {
  emailer: role('Emailer', { canEdit: ['email'], customerData: ['read'] }),
  blogger: role('Blogger', { canEdit: ['blog-post'] }),
};

beforeAll(async () => {
  smtp = await startSmtpSink();
  sendgrid = await startFakeSendGrid(SENDGRID_KEY);
  t = await createTestApp({ sendgridApiKey: SENDGRID_KEY, sendgridUrl: sendgrid.url, testSendsPerHour: 8 });
  smtpApp = await sameDatabaseApp({ smtpUrl: smtp.url, sendgridApiKey: undefined });
  owner = await verifiedUser(t, { name: 'Owen Owner' });
  outsider = await verifiedUser(t, { name: 'Olga Outsider' });
  team = await teamWorkspace(t, owner, {
    name: 'Newsletters',
    domains: ['marketing'],
    roles,
    people: { emailer: ['emailer'], blogger: ['blogger'] },
  });
  itemId = (await createItem(t, owner, team.ws, 'email', emailItem(team.ws))).id;
});
afterAll(async () => {
  await t.close();
  await smtpApp.close();
  await smtp.close();
  await sendgrid.close();
});

const funSend = (app: TestApp, user: TestUser | undefined, ws: string, provider: string, payload: object) =>
  call(app, 'POST', `/fun/testSend/${provider}?__marquee_workspace=${ws}`, user, payload);
const itemSend = (user: TestUser | undefined, payload: object = {}, id = itemId, ws = team.ws) =>
  call(t, 'POST', `/api/v1/workspaces/${ws}/emails/${id}/test-send`, user, payload);

describe('test send through the outbox (no SMTP_URL)', () => {
  it("sends the item to its test addresses with merge tags filled from defaults, and answers 'Test sent to …'", async () => {
    const before = readOutbox(t.dataDir).length;
    const res = await itemSend(team.members.emailer);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Test sent to qa@example.com, lead@example.com');
    expect(res.json().testSend).toMatchObject({
      provider: 'smtp',
      status: 'sent',
      itemId,
      byName: 'emailer',
    });
    const mails = readOutbox(t.dataDir);
    expect(mails.length).toBe(before + 1);
    const mail = mails[mails.length - 1];
    expect(mail.to).toBe('qa@example.com, lead@example.com');
    expect(mail.subject).toBe('Welcome, friend!');
    expect(mail.text).toContain('Hi friend, welcome aboard.');
    expect(mail.text).toContain('<h1 style="color:#112233">Hello friend</h1>');
    // The workspace's own image as a signed link a recipient can load (checked below).
    expect(mail.text).toMatch(
      new RegExp(
        `src="http://marquee\\.test/fun/emailImage/\\?id=AAAAAAAAAAAAAAAAAAAAAAAA\\.png&amp;w=1200&amp;__marquee_workspace=${team.ws}&amp;sig=[\\w-]+"`,
      ),
    );
  });

  it('fills merge tags from a profile’s attributes, escaped in the HTML', async () => {
    const res = await itemSend(owner, {
      recipients: ['one@example.com'],
      attributes: { 'first-name': 'Ada <b>', tier: 'gold' },
    });
    expect(res.statusCode).toBe(200);
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.subject).toBe('Welcome, Ada <b>!');
    expect(mail.text).toContain('Hello Ada &lt;b&gt;</h1>');
    expect(mail.text).toContain('Your tier: gold');
  });

  it('lists the recent test sends of the item, newest first, to any member', async () => {
    const res = await call(
      t,
      'GET',
      `/api/v1/workspaces/${team.ws}/emails/${itemId}/test-sends`,
      team.members.blogger,
    );
    expect(res.statusCode).toBe(200);
    const sends = res.json().testSends as { recipients: string[]; byName: string; status: string }[];
    expect(sends[0]).toMatchObject({ recipients: ['one@example.com'], byName: 'Owen Owner', status: 'sent' });
    expect(sends[1]).toMatchObject({ recipients: ['qa@example.com', 'lead@example.com'], byName: 'emailer' });
  });

  it('sends given content through /fun/testSend/smtp, sanitised, with a text part derived from the HTML', async () => {
    const res = await funSend(t, owner, team.ws, 'smtp', {
      recipients: ['fun@example.com'],
      subject: 'Fun {{x|default}}',
      html: '<p onclick="steal()">Plain <b>words</b></p><script>alert(1)</script>',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Test sent to fun@example.com');
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.subject).toBe('Fun default');
    expect(mail.text).not.toMatch(/onclick|<script|alert/);
    expect(mail.text).toMatch(/Content-Type: text\/plain[\s\S]*Plain words/);
  });
});

describe('images of sent mail', () => {
  it('are signed links a recipient loads without signing in, for that image only (at any size)', async () => {
    const file = await uploadImage(t, owner, team.ws, await makeImage({ seed: 3 }), 'hero.png');
    const res = await funSend(t, owner, team.ws, 'smtp', {
      recipients: ['img@example.com'],
      subject: 'Images',
      html: `<p><img src="/fun/imageResize/?id=${file.storageName}&amp;w=600&amp;__marquee_workspace=${team.ws}" alt="hero"/></p>`,
    });
    expect(res.statusCode).toBe(200);
    const mail = readOutbox(t.dataDir).at(-1)!;
    const src = /src="(http:\/\/marquee\.test\/fun\/emailImage\/[^"]+)"/
      .exec(mail.text)![1]
      .replace(/&amp;/g, '&');
    const url = new URL(src);
    expect(url.searchParams.get('w')).toBe('600');
    const image = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toMatch(/^image\//);
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // The signature names the file, not its size: another width is that image at that width.
    const wider = new URL(src);
    wider.searchParams.set('w', '300');
    const resized = await t.app.inject({ method: 'GET', url: wider.pathname + wider.search });
    expect(resized.statusCode).toBe(200);
    expect((await sharp(resized.rawPayload).metadata()).width).toBe(300);
    // Another file, workspace or a forged signature is not found.
    for (const [key, value] of [
      ['id', 'BBBBBBBBBBBBBBBBBBBBBBBB.png'],
      ['__marquee_workspace', 'another-workspace'],
      ['sig', 'forged'],
    ]) {
      const changed = new URL(src);
      changed.searchParams.set(key, value);
      const refused = await t.app.inject({ method: 'GET', url: changed.pathname + changed.search });
      expect(refused.statusCode, key).toBe(404);
    }
  });
});

describe('images of sent mail, by their file', () => {
  // A workspace of its own, so these sends leave the hourly limit of the others alone.
  let gallery: Team;
  beforeAll(async () => {
    gallery = await teamWorkspace(t, owner, { name: 'Gallery', domains: ['marketing'], roles, people: {} });
  });

  const sentImages = async (html: string) => {
    const res = await funSend(t, owner, gallery.ws, 'smtp', {
      recipients: ['img@example.com'],
      subject: 'Images',
      html,
    });
    expect(res.statusCode).toBe(200);
    const mail = readOutbox(t.dataDir).at(-1)!;
    return [...mail.text.matchAll(/(http:\/\/marquee\.test\/fun\/emailImage\/\?[^"')\s]+)/g)].map((m) =>
      m[1].replace(/&amp;/g, '&').replace(/&quot;$/, ''),
    );
  };
  const load = (src: string, headers: Record<string, string> = {}) => {
    const url = new URL(src);
    return t.app.inject({ method: 'GET', url: url.pathname + url.search, headers });
  };

  it('signs CSS background images too, keeps them a year, encodes WebP on request and stops once the file is removed', async () => {
    const file = await uploadImage(t, owner, gallery.ws, await makeImage({ seed: 5 }), 'banner.png');
    const links = await sentImages(
      `<table><tr><td style="background-image:url('${file.publicUrl}')" background="${file.publicUrl}">` +
        `<img src="${file.publicUrl}" alt="banner"></td></tr></table>`,
    );
    expect(links).toHaveLength(3);
    for (const link of links) {
      expect(new URL(link).searchParams.get('id')).toBe(file.storageName);
      const image = await load(link);
      expect(image.statusCode, link).toBe(200);
      expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const webp = await load(`${links[0]}&format=webp`);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await load(`${links[0]}&format=bmp`)).statusCode).toBe(400);

    await removeFile(t, gallery.ws, file.storageName);
    for (const link of links) {
      expect((await load(link)).statusCode, link).toBe(404);
      expect((await load(link, { 'if-none-match': '*' })).statusCode, link).toBe(404);
    }
  });
});

describe('test send through a real SMTP server (SMTP_URL)', () => {
  const smtpOwner = () => owner;
  const ws = () => team.ws;

  it('hands recipients, subject, HTML and text parts to the server', async () => {
    const res = await funSend(smtpApp, smtpOwner(), ws(), 'smtp', {
      recipients: ['a@example.com', 'b@example.com'],
      subject: 'Hi {{first-name|there}}',
      text: 'Text part for {{first-name|there}}',
      html: '<style>@media (max-width: 480px){.c{width:100% !important}}</style><table class="c"><tr><td>HTML part {{first-name|there}}</td></tr></table>',
      attributes: { 'first-name': 'Zoe' },
    });
    expect(res.statusCode).toBe(200);
    const { envelopeTo, mail } = smtp.received.at(-1)!;
    expect(envelopeTo).toEqual(['a@example.com', 'b@example.com']);
    expect(mail.subject).toBe('Hi Zoe');
    expect(mail.text?.trim()).toBe('Text part for Zoe');
    expect(mail.html).toContain('<table class="c"><tr><td>HTML part Zoe</td></tr></table>');
    expect(mail.html).toContain('<style>@media (max-width: 480px){.c{width:100% !important}}</style>');
  });

  it("answers 502 with the server's error and records the failure", async () => {
    const res = await funSend(smtpApp, smtpOwner(), ws(), 'smtp', {
      recipients: ['refused@example.com'],
      subject: 'Nope',
      text: 'x',
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.message).toMatch(/^The mail server refused the message: .*550 No such user here/);
    const [record] = await t.database.db
      .select()
      .from(testSends)
      .where(eq(testSends.workspaceId, team.ws))
      .orderBy(desc(testSends.id))
      .limit(1);
    expect(record).toMatchObject({ recipients: ['refused@example.com'], status: 'failed', by: owner.id });
    expect(record.error).toMatch(/550 No such user here/);
  });
});

describe('test send through a SendGrid-compatible HTTP API', () => {
  it('posts the v3 mail send request with the API key', async () => {
    const res = await itemSend(owner, { provider: 'sendgrid', recipients: ['sg@example.com'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().testSend).toMatchObject({ provider: 'sendgrid', status: 'sent' });
    const request = sendgrid.requests.at(-1)!;
    expect(request.path).toBe('/v3/mail/send');
    expect(request.auth).toBe(`Bearer ${SENDGRID_KEY}`);
    expect(request.body).toMatchObject({
      personalizations: [{ to: [{ email: 'sg@example.com' }] }],
      from: { email: 'no-reply@marquee.local', name: 'Marquee' },
      subject: 'Welcome, friend!',
      content: [
        { type: 'text/plain', value: 'Hi friend, welcome aboard.' },
        { type: 'text/html', value: expect.stringContaining('Hello friend</h1>') },
      ],
    });
  });

  it("answers the provider's error when it refuses", async () => {
    const wrongKey = await sameDatabaseApp({ sendgridApiKey: 'SG.wrong' });
    try {
      const res = await funSend(wrongKey, owner, team.ws, 'sendgrid', {
        recipients: ['x@example.com'],
        subject: 's',
        text: 't',
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error.message).toBe(
        'The email provider refused the message: The provided authorization grant is invalid',
      );
    } finally {
      await wrongKey.close();
    }
  });

  it("answers 'Service not configured' without an API key", async () => {
    const res = await funSend(smtpApp, owner, team.ws, 'sendgrid', {
      recipients: ['x@example.com'],
      subject: 's',
      text: 't',
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: 'not_configured',
      message: 'Service not configured',
      details: { setting: 'SENDGRID_API_KEY' },
    });
  });
});

describe('test send refusals', () => {
  it.each([
    [{ recipients: [] }, 'recipients: Add at least one test address'],
    [{ recipients: ['ok@example.com', 'not-an-address'] }, 'recipients.1: Enter a valid email address'],
    [
      { recipients: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`) },
      'recipients: Send a test to at most 10 addresses',
    ],
    [{ recipients: ['ok@example.com'], subject: '' }, 'subject: Subject is required'],
  ])('refuses bad input %j with 400 naming the field', async (payload, message) => {
    const res = await funSend(t, owner, team.ws, 'smtp', { subject: 'S', text: 'T', ...payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
  });

  it('refuses an item whose test addresses are empty, naming the field', async () => {
    const id = (await createItem(t, owner, team.ws, 'email', emailItem(team.ws, { testAddresses: '' }))).id;
    const res = await itemSend(owner, {}, id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('testAddresses: Add at least one test address');
  });

  it('answers 404 for an unknown provider and an unknown item', async () => {
    expect(
      (await funSend(t, owner, team.ws, 'pigeon', { recipients: ['a@example.com'], subject: 's' }))
        .statusCode,
    ).toBe(404);
    const res = await itemSend(owner, {}, 'no-such-item');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Instance not found');
  });

  it('answers 401 unauthenticated, 404 outside the workspace, 403 without the right to edit emails', async () => {
    const body = { recipients: ['a@example.com'], subject: 's', text: 't' };
    expect((await funSend(t, undefined, team.ws, 'smtp', body)).statusCode).toBe(401);
    expect((await itemSend(undefined)).statusCode).toBe(401);
    expect((await funSend(t, outsider, team.ws, 'smtp', body)).statusCode).toBe(404);
    expect((await itemSend(outsider)).statusCode).toBe(404);
    const listAsOutsider = await call(
      t,
      'GET',
      `/api/v1/workspaces/${team.ws}/emails/${itemId}/test-sends`,
      outsider,
    );
    expect(listAsOutsider.statusCode).toBe(404);
    const denied = await funSend(t, team.members.blogger, team.ws, 'smtp', body);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to edit Email Templates');
    expect((await itemSend(team.members.blogger)).statusCode).toBe(403);
  });

  it('limits test sends per workspace per hour with a clear 429, counting every attempt', async () => {
    const { ws } = await teamWorkspace(t, owner, {
      name: 'Rate Limited',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    const body = { recipients: ['rl@example.com'], subject: 's', text: 't' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => funSend(t, owner, ws, 'smtp', body)));
    const codes = answers.map((res) => res.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(8);
    expect(codes.filter((c) => c === 429)).toHaveLength(2);
    const limited = answers.find((res) => res.statusCode === 429)!;
    expect(limited.json().error.message).toBe(
      'Too many test sends: this workspace may send 8 an hour. Try again later.',
    );
    // Another workspace has its own allowance.
    const other = await teamWorkspace(t, owner, {
      name: 'Other Allowance',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    expect((await funSend(t, owner, other.ws, 'smtp', body)).statusCode).toBe(200);
  });
});

describe('merge tags', () => {
  it("offers the keys of the workspace's customer profile attributes", async () => {
    await createItem(t, owner, team.ws, 'customer-profile-attribute', {
      name: 'First name',
      key: 'first-name',
      attributeType: 'string',
    });
    const res = await call(t, 'GET', `/api/v1/workspaces/${team.ws}/emails/merge-tags`, team.members.blogger);
    expect(res.statusCode).toBe(200);
    expect(res.json().mergeTags).toEqual([{ key: 'first-name', label: 'First name' }]);
    const anonymous = await call(t, 'GET', `/api/v1/workspaces/${team.ws}/emails/merge-tags`);
    expect(anonymous.statusCode).toBe(401);
    const elsewhere = await call(t, 'GET', `/api/v1/workspaces/${team.ws}/emails/merge-tags`, outsider);
    expect(elsewhere.statusCode).toBe(404);
  });

  it('fills the merge tags from a stored customer profile named by profileId, and 404 for an unknown one', async () => {
    const shop = await teamWorkspace(t, owner, {
      name: 'Profile sends',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    await createItem(t, owner, shop.ws, 'customer-profile-attribute', {
      name: 'First name',
      key: 'first-name',
      attributeType: 'string',
    });
    const imported = await importBody(
      t,
      owner,
      shop.ws,
      'profiles',
      'text/csv',
      'id,first-name\np-1,Grace\n',
    );
    expect(imported.statusCode).toBe(201);
    const email = await createItem(t, owner, shop.ws, 'email', emailItem(shop.ws));
    const res = await itemSend(owner, { profileId: 'p-1' }, email.id, shop.ws);
    expect(res.statusCode, res.body).toBe(200);
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.subject).toBe('Welcome, Grace!');
    expect(mail.text).toContain('Hi Grace, welcome aboard.');

    const unknown = await itemSend(owner, { profileId: 'nobody' }, email.id, shop.ws);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('profileId: Profile "nobody" not found');
  });
});
