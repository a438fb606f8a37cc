import { parse } from 'csv-parse/sync';
import { CUSTOMER_DATA_MESSAGES } from '@shared/api/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import { defineCustomerData, importBody, wsUrl } from '../factories/customers';
import { seedSend, type SeededSend } from '../factories/campaign-sends';

/** A team's first day: a send's results per recipient, downloaded as CSV by whoever may export customer data. */
let t: TestApp;
let manager: TestUser;
let team: Team;
let campaignId: string;
let send: SeededSend;
const LINKS = ['https://shop.example.test/sale', 'https://example.test/about'];
const RECIPIENTS = [
  { profileId: 'p1', email: 'ann@example.test' },
  { profileId: 'p2', email: 'bob@example.test' },
  { profileId: '=HYPERLINK("https://evil.test")', email: 'eve@example.test' },
  { profileId: 'p4', email: 'dan@example.test' },
];

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Max Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Results CSV',
    domains: ['marketing'],
    roles: {
      writer: role('Writer', { canEdit: ['campaign'], canPublish: ['campaign'] }),
      reader: role('Reader', { canEdit: ['campaign'], customerData: ['read'] }),
      exporter: role('Exporter', { customerData: ['export'] }),
    },
    people: { writer: ['writer'], reader: ['reader'], exporter: ['exporter'] },
  });
  await defineCustomerData(t, manager, team.ws);
  const csv = ['id,city', ...RECIPIENTS.map((r) => `"${r.profileId.replaceAll('"', '""')}",Paris`)].join(
    '\n',
  );
  expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv)).statusCode).toBe(201);
  // The last recipient's message was never confirmed by the mail server.
  send = await seedSend(t, team.ws, { recipients: RECIPIENTS, links: LINKS, unconfirmed: 1 });
  campaignId = send.campaignId;
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  // Ann opens and clicks the first link twice; Bob only opens; Eve clicks the second link and unsubscribes.
  expect((await get(`/t/o/${send.token('o', 1)}`)).statusCode).toBe(200);
  for (let i = 0; i < 2; i++) expect((await get(`/t/c/${send.token('c', 1, 1)}`)).statusCode).toBe(302);
  expect((await get(`/t/o/${send.token('o', 2)}`)).statusCode).toBe(200);
  expect((await get(`/t/c/${send.token('c', 3, 2)}`)).statusCode).toBe(302);
  const unsubscribed = await t.app.inject({
    method: 'POST',
    url: `/u/${send.token('u', 3)}`,
    payload: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(unsubscribed.statusCode).toBe(200);
});
afterAll(() => t.close());

const csvUrl = (sendId = send.id, id = campaignId) =>
  wsUrl(team.ws, `campaigns/${id}/sends/${sendId}/results.csv`);

describe("a send's results as CSV", () => {
  it('lists every recipient in send order with what became of the message and what they did', async () => {
    const res = await call(t, 'GET', csvUrl(), manager);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="campaign-${campaignId}-send-${send.id}.csv"`,
    );
    const [header, ...rows] = parse(res.body) as string[][];
    expect(header).toEqual([
      'email',
      'profileId',
      'status',
      'sentAt',
      'error',
      'openedAt',
      'clickedAt',
      'clicks',
      'bouncedAt',
      'complainedAt',
      'unsubscribedAt',
    ]);
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    expect(rows.map((row) => cell(row, 'email'))).toEqual(RECIPIENTS.map((r) => r.email));
    expect(rows.map((row) => cell(row, 'status'))).toEqual(['sent', 'sent', 'sent', 'unconfirmed']);
    expect(rows.map((row) => cell(row, 'clicks'))).toEqual(['2', '0', '1', '0']);
    // A click is an open too: the message was read, whether its images loaded or not.
    expect(rows.map((row) => Boolean(cell(row, 'openedAt')))).toEqual([true, true, true, false]);
    expect(rows.map((row) => Boolean(cell(row, 'clickedAt')))).toEqual([true, false, true, false]);
    expect(rows.map((row) => Boolean(cell(row, 'unsubscribedAt')))).toEqual([false, false, true, false]);
    expect(Number.isNaN(Date.parse(cell(rows[0], 'openedAt')))).toBe(false);
    expect(cell(rows[3], 'sentAt')).toBe('');
    // Through the one CSV writer: a cell a spreadsheet would run as a formula opens as text.
    expect(cell(rows[2], 'profileId')).toBe(`'${RECIPIENTS[2].profileId}`);
  });

  it('pages through a large send without losing or repeating anyone', async () => {
    const many = Array.from({ length: 5003 }, (_, i) => ({
      profileId: `m${i}`,
      email: `m${i}@example.test`,
    }));
    const big = await seedSend(t, team.ws, { campaignId, recipients: many });
    const res = await call(t, 'GET', csvUrl(big.id), manager);
    const emails = (parse(res.body) as string[][]).slice(1).map((row) => row[0]);
    expect(emails).toEqual(many.map((m) => m.email));
  });

  it('needs the export right over customer data: 403 without it, to readers too', async () => {
    for (const label of ['writer', 'reader']) {
      const res = await call(t, 'GET', csvUrl(), team.members[label]);
      expect(res.statusCode, label).toBe(403);
      expect(res.json().error.message).toBe(CUSTOMER_DATA_MESSAGES.export);
      expect(res.body).not.toContain('ann@example.test');
    }
    // Refused before anything is looked up: a send that does not exist is refused the same way.
    expect((await call(t, 'GET', csvUrl('no-such-send'), team.members.writer)).statusCode).toBe(403);
    const exported = await call(t, 'GET', csvUrl(), team.members.exporter);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('ann@example.test');
  });

  it('answers 404 for a send of another campaign or none, 401 without a session, 404 to a non-member', async () => {
    expect((await call(t, 'GET', csvUrl('no-such-send'), manager)).statusCode).toBe(404);
    expect((await call(t, 'GET', csvUrl(send.id, 'other-campaign'), manager)).statusCode).toBe(404);
    expect((await call(t, 'GET', csvUrl())).statusCode).toBe(401);
    expect((await call(t, 'GET', csvUrl(), await verifiedUser(t))).statusCode).toBe(404);
  });
});
