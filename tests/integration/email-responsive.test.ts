import { createTestApp, type TestApp } from '../helpers/test-app';
import { readOutbox } from '../helpers/outbox';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, itemsUrl, role, teamWorkspace, type Team } from '../factories/items';

/** The newsletter preset's two-column section and an image, as the editor exports them. */
const NEWSLETTER = {
  'gjs-nl-html':
    '<table class="row"><tr>' +
    '<td class="cell"><img src="https://cdn.example.com/hero.png" alt="hero" width="560"/></td>' +
    '<td class="cell"><h1>Hello {{first-name|friend}}</h1><p>Spring is here.</p></td>' +
    '</tr></table>',
  'gjs-nl-css': '.row{width:100%}.cell{width:50%;vertical-align:top}h1{color:#112233}',
};

const emailData = (overrides: Record<string, unknown> = {}) => ({
  name: 'Spring',
  subject: 'Spring, {{first-name|friend}}',
  preheader: 'Twenty percent off for {{first-name|friend}} & co',
  template: NEWSLETTER,
  testAddresses: 'qa@example.com',
  ...overrides,
});

/** Over Gmail's 102 KB once built: about 110 KB of paragraphs. */
const OVERSIZE = {
  'gjs-nl-html': Array.from({ length: 1100 }, (_, i) => `<p>Paragraph ${i} ${'words '.repeat(15)}</p>`).join(
    '',
  ),
  'gjs-nl-css': '',
};

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let team: Team;
let itemId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await verifiedUser(t, { name: 'Rita Responsive' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  team = await teamWorkspace(t, owner, {
    name: 'Responsive mail',
    domains: ['marketing'],
    roles: { reader: role('Reader', { canEdit: ['blog-post'] }) },
    people: { reader: ['reader'] },
  });
  itemId = (await createItem(t, owner, team.ws, 'email', emailData())).id;
});
afterAll(() => t.close());

const testSend = (id: string, user: TestUser = owner) =>
  call(t, 'POST', `/api/v1/workspaces/${team.ws}/emails/${id}/test-send`, user, {});
const preview = (id: string, user: TestUser | undefined, query = '') =>
  call(t, 'GET', `/api/v1/workspaces/${team.ws}/emails/${id}/preview${query}`, user);

describe('a test send’s message', () => {
  it('carries the preheader as hidden preview text first in the body, and responsive markup', async () => {
    const res = await testSend(itemId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Test sent to qa@example.com', clipped: false });
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.subject).toBe('Spring, friend');
    const html = mail.text.slice(mail.text.indexOf('<!DOCTYPE html>'));
    expect(res.json().htmlBytes).toBeGreaterThan(1000);
    expect(res.json().htmlBytes).toBeLessThan(20_000);
    // The preview text: merge tags filled, escaped, hidden, padded, before any content.
    const body = html.slice(html.indexOf('<body'));
    expect(body).toMatch(
      /^<body[^>]*><span style="display:none;[^"]*">Twenty percent off for friend &amp; co(&zwnj;&nbsp;)+<\/span>/,
    );
    // Phones: the viewport, fluid images, the two columns stacking under 480px, a 600px container.
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('@media only screen and (max-width:480px){.marquee-stack{display:block!important');
    expect(html).toMatch(
      /<img src="https:\/\/cdn\.example\.com\/hero\.png" alt="hero" width="560" style="[^"]*max-width:100%;height:auto"/,
    );
    expect(html.match(/<td [^>]*class="cell marquee-stack"/g)).toHaveLength(2);
    // The inlined styles stay for clients that drop <style>.
    expect(html).toContain('style="width:50%;vertical-align:top"');
    expect(html).toContain('<div style="max-width:600px;margin:0 auto;text-align:left">');
    // The text part has neither the preview padding nor markup.
    const textPart = /Content-Type: text\/plain[\s\S]*?\r?\n\r?\n([\s\S]*?)\r?\n--/.exec(mail.text)![1];
    expect(textPart).toContain('Spring is here.');
    expect(textPart).not.toMatch(/zwnj|Twenty percent/);
  });

  it('has no preview text when the email has no preheader', async () => {
    const plain = await createItem(t, owner, team.ws, 'email', emailData({ preheader: undefined }));
    expect((await testSend(plain.id)).statusCode).toBe(200);
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.text).not.toContain('display:none');
    expect(mail.text).toContain('class="cell marquee-stack"');
  });
});

describe('/fun/testSend/smtp', () => {
  it('sends given content as the same responsive document, with a given preheader', async () => {
    const res = await call(t, 'POST', `/fun/testSend/smtp?__marquee_workspace=${team.ws}`, owner, {
      recipients: ['fun@example.com'],
      subject: 'Fun',
      preheader: 'Read me <first>',
      html: '<table><tr><td>a</td><td>b</td></tr></table>',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().clipped).toBe(false);
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.text).toMatch(/<span style="display:none;[^"]*">Read me &lt;first&gt;&zwnj;&nbsp;/);
    expect(mail.text).toContain('<td class="marquee-stack">a</td><td class="marquee-stack">b</td>');
  });
});

describe('the preview of an email item', () => {
  it('answers the message as a test send builds it, with its size, to any member', async () => {
    const res = await preview(itemId, team.members.reader);
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({
      subject: 'Spring, friend',
      preheader: 'Twenty percent off for friend & co',
      clipped: false,
    });
    expect(answer.html).toMatch(/^<!DOCTYPE html>/);
    expect(answer.htmlBytes).toBe(Buffer.byteLength(answer.html, 'utf8'));
    expect(answer.text).toContain('Spring is here.');
  });

  it('is not found outside the workspace, for an unknown item, and refuses a bad profile id', async () => {
    expect((await preview(itemId, outsider)).statusCode).toBe(404);
    expect((await preview('no-such-item', owner)).statusCode).toBe(404);
    expect((await preview(itemId, undefined)).statusCode).toBe(401);
    const unknownProfile = await preview(itemId, owner, '?profileId=nobody');
    expect(unknownProfile.statusCode).toBe(404);
    expect(unknownProfile.json().error.message).toBe('profileId: Profile "nobody" not found');
  });

  it('warns before sending that Gmail clips an email over 102 KB, and the send answers it too', async () => {
    const big = await createItem(t, owner, team.ws, 'email', emailData({ template: OVERSIZE }));
    const res = await preview(big.id, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json().clipped).toBe(true);
    expect(res.json().htmlBytes).toBeGreaterThan(102 * 1024);
    const sent = await testSend(big.id);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ clipped: true, htmlBytes: res.json().htmlBytes });
  });
});

describe('the preheader field', () => {
  it('is stored with the email and refused over 250 characters', async () => {
    const res = await call(t, 'POST', itemsUrl(team.ws, 'email'), owner, {
      data: emailData({ preheader: 'x'.repeat(251) }),
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Preheader must be at most 250 characters');
  });
});
