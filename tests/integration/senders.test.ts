import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@shared/api/errors';
import { SENDER_MESSAGES, type SendingDomain, type SendingSettings } from '@shared/api/senders';
import { auditLog, sendingDomains } from '@server/db/schema';
import { dkimOptionsFor } from '@server/senders/service';
import { unseal } from '@server/lib/sealing';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { FakeDns } from '../fixtures/dns-server';
import { readOutbox } from '../helpers/outbox';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import { createWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let member: TestUser;
let outsider: TestUser;
let team: Team;
const dns = new FakeDns();

beforeAll(async () => {
  const server = await dns.start();
  t = await createTestApp({ dnsServers: [server] });
  manager = await verifiedUser(t, { name: 'Sam Sender' });
  team = await teamWorkspace(t, manager, {
    name: 'Sending',
    domains: ['blogging', 'marketing'],
    roles: { writer: role('Writer', { canEdit: ['blog-post'] }) },
    people: { 'Wes Writer': ['writer'] },
  });
  member = team.members['Wes Writer'];
  outsider = await verifiedUser(t, { name: 'Olga Outsider' });
  await createWorkspace(t.app, outsider, 'Elsewhere');
}, 60_000);
afterAll(async () => {
  await t.close();
  await dns.stop();
});

const url = (rest = '') => `/api/v1/workspaces/${team.ws}/senders${rest}`;
const listing = async (user = manager): Promise<SendingSettings> => {
  const res = await call(t, 'GET', url(), user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
async function addSender(body: object) {
  const res = await call(t, 'POST', url(), manager, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; domain: string };
}
/** What dkimOptionsFor needs of the server: its database and configuration. */
const server = () => ({ db: t.database.db, config: t.config });
const domainIn = (settings: SendingSettings, domain: string) =>
  settings.domains.find((d) => d.domain === domain)!;
/** Publishes the domain's records in the fake DNS as the page shows them. */
function publish(domain: SendingDomain) {
  for (const record of domain.records) dns.txt.set(record.name, [record.value]);
}

describe('senders', () => {
  it('adds a sender, and its domain gets a DKIM key and the records to publish', async () => {
    const sender = await addSender({
      fromName: 'Acme News',
      fromAddress: 'news@Mail.Acme.test',
      replyTo: 'team@acme.test',
    });
    expect(sender).toMatchObject({
      fromName: 'Acme News',
      domain: 'mail.acme.test',
      replyTo: 'team@acme.test',
    });
    const settings = await listing();
    expect(settings.senders.map((s) => s.id)).toEqual([sender.id]);
    const domain = domainIn(settings, 'mail.acme.test');
    expect(domain).toMatchObject({ verified: false, checkedAt: null, problems: [] });
    expect(domain.selector).toMatch(/^marquee-[a-z0-9]{10}$/);
    const [spf, dkim] = domain.records;
    expect(spf).toEqual({ kind: 'spf', type: 'TXT', name: 'mail.acme.test', value: 'v=spf1 a mx ~all' });
    expect(dkim.name).toBe(`${domain.selector}._domainkey.mail.acme.test`);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    const key = crypto.createPublicKey({
      key: Buffer.from(dkim.value.split('p=')[1], 'base64'),
      format: 'der',
      type: 'spki',
    });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('keeps the private key sealed at rest, for that workspace and domain only', async () => {
    const [row] = await t.database.db
      .select()
      .from(sendingDomains)
      .where(and(eq(sendingDomains.workspaceId, team.ws), eq(sendingDomains.domain, 'mail.acme.test')));
    expect(row.privateKey).not.toContain('PRIVATE KEY');
    const purpose = `dkim-key:${team.ws}:mail.acme.test`;
    expect(unseal<string>(t.config.secret, purpose, row.privateKey)).toContain('BEGIN PRIVATE KEY');
    expect(unseal(t.config.secret, `dkim-key:other:mail.acme.test`, row.privateKey)).toBeUndefined();
  });

  it('edits and deletes senders; a second sender of a domain shares its key', async () => {
    const before = domainIn(await listing(), 'mail.acme.test');
    const second = await addSender({ fromName: 'Acme Offers', fromAddress: 'offers@mail.acme.test' });
    const after = await listing();
    expect(after.domains).toHaveLength(1);
    expect(domainIn(after, 'mail.acme.test').records).toEqual(before.records);

    const renamed = await call(t, 'PATCH', url(`/${second.id}`), manager, {
      fromName: 'Acme Deals',
      replyTo: '',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ fromName: 'Acme Deals', replyTo: null });

    // A patch changes only what it names: the first sender keeps its reply-to.
    const first = after.senders[0];
    const named = await call(t, 'PATCH', url(`/${first.id}`), manager, { fromName: 'Acme News' });
    expect(named.json()).toMatchObject({ fromName: 'Acme News', replyTo: 'team@acme.test' });

    const moved = await call(t, 'PATCH', url(`/${second.id}`), manager, { fromAddress: 'deals@shop.test' });
    expect(moved.json()).toMatchObject({ domain: 'shop.test' });
    expect((await listing()).domains.map((d) => d.domain)).toEqual(['mail.acme.test', 'shop.test']);

    const deleted = await call(t, 'DELETE', url(`/${second.id}`), manager);
    expect(deleted.json()).toEqual({ id: second.id, deleted: true });
    expect((await listing()).domains.map((d) => d.domain)).toEqual(['mail.acme.test']);
    const again = await call(t, 'DELETE', url(`/${second.id}`), manager);
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(SENDER_MESSAGES.notFound);

    const audit = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, team.ws), eq(auditLog.targetId, second.id)));
    expect(audit.map((a) => a.action)).toEqual([
      'sender.created',
      'sender.updated',
      'sender.updated',
      'sender.deleted',
    ]);
  });

  it('refuses bad input with a clear message', async () => {
    const bad = await call(t, 'POST', url(), manager, { fromName: 'X', fromAddress: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('Enter a valid email address');
    const empty = await call(t, 'POST', url(), manager, { fromName: ' ', fromAddress: 'a@b.test' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('From name is required');
    const nothing = await call(t, 'PATCH', url('/nosuchsender'), manager, {});
    expect(nothing.statusCode).toBe(400);
  });

  it('saves the postal address for the footer', async () => {
    const res = await call(t, 'PUT', url('/postal-address'), manager, {
      postalAddress: ' Acme Ltd\n1 Market Street\nLeeds LS1 1AA ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await listing()).postalAddress).toBe('Acme Ltd\n1 Market Street\nLeeds LS1 1AA');
  });

  it('lets members read and only managers write', async () => {
    const settings = await listing(member);
    expect(settings.canManage).toBe(false);
    expect((await listing()).canManage).toBe(true);
    const id = settings.senders[0].id;
    const writes = [
      await call(t, 'POST', url(), member, { fromName: 'Me', fromAddress: 'me@acme.test' }),
      await call(t, 'PATCH', url(`/${id}`), member, { fromName: 'Mine' }),
      await call(t, 'DELETE', url(`/${id}`), member),
      await call(t, 'POST', url(`/${id}/verify`), member),
      await call(t, 'PUT', url('/postal-address'), member, { postalAddress: 'Elsewhere' }),
    ];
    for (const res of writes) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.message).toBe(MESSAGES.managerRequired);
    }
    expect(await listing()).toMatchObject({
      senders: settings.senders,
      postalAddress: settings.postalAddress,
    });
  });

  it('answers 401 without a session and 404 to another workspace', async () => {
    expect((await call(t, 'GET', url())).statusCode).toBe(401);
    const res = await call(t, 'GET', url(), outsider);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(MESSAGES.workspaceNotFound);
  });
});

describe('domain verification', () => {
  let senderId: string;
  let domain: SendingDomain;
  const verify = async () => {
    const res = await call(t, 'POST', url(`/${senderId}/verify`), manager);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SendingDomain;
  };

  const dkimName = () => `${domain.selector}._domainkey.mail.acme.test`;

  beforeAll(async () => {
    const settings = await listing();
    senderId = settings.senders[0].id;
    domain = domainIn(settings, 'mail.acme.test');
  });

  it('says which records are missing while none is published', async () => {
    dns.txt.clear();
    const result = await verify();
    expect(result.verified).toBe(false);
    expect(result.checkedAt).not.toBeNull();
    expect(result.problems).toEqual([
      SENDER_MESSAGES.spfMissing('mail.acme.test'),
      SENDER_MESSAGES.dkimMissing(dkimName()),
    ]);
    expect(await dkimOptionsFor(server(), team.ws, 'news@mail.acme.test')).toBeUndefined();
  });

  it('says when the DKIM record carries another key, or SPF is published twice', async () => {
    const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
    const otherP = otherKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    dns.txt.set('mail.acme.test', ['v=spf1 a mx ~all', 'v=spf1 include:other.test ~all']);
    dns.txt.set(dkimName(), [`v=DKIM1; k=rsa; p=${otherP}`]);
    expect((await verify()).problems).toEqual([
      SENDER_MESSAGES.spfSeveral('mail.acme.test', 2),
      SENDER_MESSAGES.dkimWrongKey(dkimName()),
    ]);
  });

  it('marks the domain verified once its records are published as shown', async () => {
    dns.txt.clear();
    publish(domain);
    // Another TXT record at the domain (a site verification) is no SPF record and does no harm.
    dns.txt.set('mail.acme.test', ['google-site-verification=abc', domain.records[0].value]);
    const result = await verify();
    expect(result).toMatchObject({ verified: true, problems: [] });
    expect(result.verifiedAt).not.toBeNull();
    expect(domainIn(await listing(), 'mail.acme.test').verified).toBe(true);
    const audit = await t.database.db
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.workspaceId, team.ws), eq(auditLog.action, 'sending-domain.checked')));
    expect(audit.map((a) => a.detail?.verified)).toEqual([false, false, true]);
  });

  it('requires the provider’s SPF include when MAIL_SPF_INCLUDE names one', async () => {
    t.config.spfInclude = 'mailer.example';
    try {
      expect((await verify()).problems).toEqual([
        SENDER_MESSAGES.spfInclude('mail.acme.test', 'mailer.example'),
      ]);
      const shown = domainIn(await listing(), 'mail.acme.test');
      expect(shown.records[0].value).toBe('v=spf1 include:mailer.example ~all');
      publish(shown);
      expect(await verify()).toMatchObject({ verified: true, problems: [] });
    } finally {
      t.config.spfInclude = undefined;
    }
  });

  it('signs mail from the verified domain with its key, which the published record verifies', async () => {
    const dkim = await dkimOptionsFor(server(), team.ws, 'Acme News <news@MAIL.acme.test>');
    expect(dkim).toMatchObject({ domainName: 'mail.acme.test', keySelector: domain.selector });
    expect(await dkimOptionsFor(server(), team.ws, 'someone@unknown.test')).toBeUndefined();
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    const info = await transport.sendMail({
      from: 'Acme News <news@mail.acme.test>',
      to: 'reader@example.test',
      subject: 'Spring   offers',
      text: 'Hello  there \r\n\r\nSee you\r\n\r\n',
      dkim,
    });
    const message = (info.message as Buffer).toString('latin1');
    const p = dns.txt.get(dkimName())![0].split('p=')[1];
    expect(verifyDkim(message, p)).toBe(true);
    // The same message with its body changed no longer verifies: the check can fail.
    expect(verifyDkim(message.replace('See you', 'See  me'), p)).toBe(false);
  });

  it('signs a test send when MAIL_FROM is on a domain the workspace verified', async () => {
    const testSend = async (mailFrom: string, subject: string) => {
      t.config.mailFrom = mailFrom;
      const res = await call(t, 'POST', `/fun/testSend/smtp?__marquee_workspace=${team.ws}`, manager, {
        recipients: ['reader@example.test'],
        subject,
        html: '<p>Hello</p>',
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const mail = readOutbox(t.dataDir).find((m) => m.subject === subject)!;
      // The outbox writes Unix line ends; DKIM is computed over the CRLF form that goes on the wire.
      return fs.readFileSync(path.join(t.dataDir, 'outbox', mail.file), 'latin1').replace(/\r?\n/g, '\r\n');
    };
    const mailFrom = t.config.mailFrom;
    try {
      const signed = await testSend('Acme News <news@mail.acme.test>', 'Signed test');
      expect(signed).toMatch(/^DKIM-Signature: .*d=mail\.acme\.test;/m);
      const p = dns.txt.get(dkimName())![0].split('p=')[1];
      expect(verifyDkim(signed, p)).toBe(true);
      const unsigned = await testSend('Marquee <no-reply@marquee.local>', 'Unsigned test');
      expect(unsigned).not.toContain('DKIM-Signature');
    } finally {
      t.config.mailFrom = mailFrom;
    }
  });

  it('gives another workspace sending from the same domain a key and record of its own', async () => {
    const other = (await createWorkspace(t.app, manager, 'Sister brand')).id;
    const res = await call(t, 'POST', `/api/v1/workspaces/${other}/senders`, manager, {
      fromName: 'Sister',
      fromAddress: 'hello@mail.acme.test',
    });
    expect(res.statusCode, res.body).toBe(201);
    const theirs = (await call(t, 'GET', `/api/v1/workspaces/${other}/senders`, manager)).json().domains[0];
    expect(theirs.selector).not.toBe(domain.selector);
    expect(theirs.records[1].value).not.toBe(domain.records[1].value);
    // Both records published side by side: both workspaces verify.
    dns.txt.set(theirs.records[1].name, [theirs.records[1].value]);
    const verified = await call(
      t,
      'POST',
      `/api/v1/workspaces/${other}/senders/${res.json().id}/verify`,
      manager,
    );
    expect(verified.json()).toMatchObject({ verified: true, problems: [] });
    expect(await verify()).toMatchObject({ verified: true, problems: [] });
  });

  it('stops signing when a later check finds the records gone', async () => {
    dns.txt.clear();
    expect((await verify()).verified).toBe(false);
    expect(await dkimOptionsFor(server(), team.ws, 'news@mail.acme.test')).toBeUndefined();
  });
});

/** RFC 6376 verification of a relaxed/relaxed rsa-sha256 signature against a DKIM record's p= value. */
function verifyDkim(message: string, publicKey: string): boolean {
  const split = message.indexOf('\r\n\r\n');
  const fields = message
    .slice(0, split)
    .split(/\r\n(?![ \t])/)
    .map((field) => ({ name: field.slice(0, field.indexOf(':')).trim().toLowerCase(), raw: field }));
  const relaxed = (raw: string) => {
    const at = raw.indexOf(':');
    const value = raw
      .slice(at + 1)
      .replace(/\r\n/g, '')
      .replace(/[ \t]+/g, ' ')
      .trim();
    return `${raw.slice(0, at).trim().toLowerCase()}:${value}`;
  };
  const signature = fields.find((field) => field.name === 'dkim-signature')!;
  const tags = new Map(
    signature.raw
      .slice(signature.raw.indexOf(':') + 1)
      .split(';')
      .map((tag) => {
        const at = tag.indexOf('=');
        return [tag.slice(0, at).trim(), tag.slice(at + 1).replace(/\s+/g, '')] as const;
      }),
  );
  const body = message
    .slice(split + 4)
    .split('\r\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (body.length && body[body.length - 1] === '') body.pop();
  const bodyHash = crypto
    .createHash('sha256')
    .update(body.length ? `${body.join('\r\n')}\r\n` : '', 'latin1')
    .digest('base64');
  if (bodyHash !== tags.get('bh')) return false;
  const signed = tags
    .get('h')!
    .split(':')
    .map((name) => fields.findLast((field) => field.name === name.toLowerCase()))
    .filter((field) => field !== undefined)
    .map((field) => `${relaxed(field.raw)}\r\n`)
    .join('');
  const unsigned = relaxed(signature.raw.replace(/(;\s*b=)[^;]*$/, '$1'));
  return crypto.verify(
    'sha256',
    Buffer.from(signed + unsigned, 'latin1'),
    { key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' },
    Buffer.from(tags.get('b')!, 'base64'),
  );
}
