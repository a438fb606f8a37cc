import { sql } from 'drizzle-orm';
import { migrateDatabase, rows } from '@server/db/migrate';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { migrateUpTo, openTestDatabase } from '../helpers/database';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import { importBody, wsUrl } from '../factories/customers';
import { sendableCampaign, type SendableCampaign } from '../factories/campaigns';

/**
 * Reading, exporting and erasing customer data are rights of a role (`customerData`), managers holding
 * all: every route that shows or erases a customer's personal data answers 403 without the right, and
 * reveals nothing, not even whether a profile exists.
 */
let t: TestApp;
let manager: TestUser;
let team: Team;
let campaign: SendableCampaign;

const CUSTOMER = { id: 'c-1', email: 'jane@example.com', firstName: 'Jane' };

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Rights',
    domains: ['marketing'],
    roles: {
      writer: role('Writer', { canEdit: ['copy', 'email', 'campaign', 'audience'] }),
      importer: role('Importer', { canEdit: ['customer-profile-attribute'] }),
      reader: role('Reader', { canEdit: ['email', 'campaign'], customerData: ['read'] }),
      exporter: role('Exporter', { customerData: ['export'] }),
      eraser: role('Eraser', { customerData: ['erase'] }),
    },
    people: {
      writer: ['writer'],
      importer: ['importer'],
      reader: ['reader'],
      exporter: ['exporter'],
      eraser: ['eraser'],
    },
  });
  campaign = await sendableCampaign(t, manager, team.ws, [
    CUSTOMER,
    { id: 'c-2', email: 'john@example.com', firstName: 'John' },
  ]);
  const suppressed = await call(t, 'POST', wsUrl(team.ws, 'suppressions'), manager, {
    email: 'gone@example.com',
  });
  expect(suppressed.statusCode).toBe(201);
});
afterAll(() => t.close());

const member = (label: string) => team.members[label];
const get = (user: TestUser, rest: string) => call(t, 'GET', wsUrl(team.ws, rest), user);
const post = (user: TestUser, rest: string, payload: object) =>
  call(t, 'POST', wsUrl(team.ws, rest), user, payload);

/** A refusal for want of a right, and nothing of the data in it. */
function expectRefused(res: { statusCode: number; body: string }, message: string) {
  expect(res.statusCode, res.body).toBe(403);
  expect(JSON.parse(res.body)).toEqual({ error: { code: 'forbidden', message } });
  expect(res.body).not.toContain('jane');
}
const READ = 'You do not have permission to read customer data';
const EXPORT = 'You do not have permission to export customer data';
const ERASE = 'You do not have permission to erase customer data';

describe('the workspace payload', () => {
  it("carries each caller's customer data rights in __permissions: managers all, roles what they grant", async () => {
    const rights = async (user: TestUser) =>
      (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, user)).json().__permissions.customerData;
    expect(await rights(manager)).toEqual(['read', 'export', 'erase']);
    expect(await rights(member('writer'))).toEqual([]);
    expect(await rights(member('reader'))).toEqual(['read']);
    expect(await rights(member('exporter'))).toEqual(['read', 'export']);
    expect(await rights(member('eraser'))).toEqual(['read', 'erase']);
  });

  it('stores a role’s rights trimmed on save, and refuses a right that does not exist', async () => {
    const ws = (await call(t, 'GET', `/api/v1/workspaces/${team.ws}`, manager)).json();
    const saved = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, {
      roles: { ...ws.roles, eraser: { ...ws.roles.eraser, customerData: ['erase', 'erase'] } },
      baseVersion: ws.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().roles.eraser.customerData).toEqual(['read', 'erase']);
    const bad = await call(t, 'PATCH', `/api/v1/workspaces/${team.ws}`, manager, {
      roles: { ...ws.roles, eraser: { ...ws.roles.eraser, customerData: ['everything'] } },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('profiles', () => {
  it('refuses the list and the search to a member without the read right', async () => {
    expectRefused(await get(member('writer'), 'profiles'), READ);
    expectRefused(await get(member('writer'), 'profiles?search=jane'), READ);
    expect((await get(member('reader'), 'profiles?search=jane')).json().profiles).toMatchObject([
      { id: 'c-1', attributes: { email: CUSTOMER.email } },
    ]);
  });

  it("refuses a profile, its timeline and its audiences, a missing profile's too (existence does not leak)", async () => {
    for (const id of ['c-1', 'nobody']) {
      expectRefused(await get(member('writer'), `profiles/${id}`), READ);
      expectRefused(await get(member('writer'), `profiles/${id}/events`), READ);
      expectRefused(await get(member('writer'), `profiles/${id}/audiences`), READ);
    }
    expect((await get(member('reader'), 'profiles/c-1')).statusCode).toBe(200);
    expect((await get(member('reader'), 'profiles/c-1/events')).statusCode).toBe(200);
    expect((await get(member('reader'), 'profiles/c-1/audiences')).statusCode).toBe(200);
    expect((await get(member('reader'), 'profiles/nobody')).statusCode).toBe(404);
  });

  it('refuses an edit to an importer who may not read customer data; imports stay theirs', async () => {
    const profile = (await get(manager, 'profiles/c-1')).json().profile;
    const edit = await call(t, 'PATCH', wsUrl(team.ws, 'profiles/c-1'), member('importer'), {
      attributes: { 'first-name': 'Eve' },
      updatedAt: profile.updatedAt,
    });
    expectRefused(edit, READ);
    const imported = await importBody(t, member('importer'), team.ws, 'profiles', 'text/csv', 'id\nc-9\n');
    expect(imported.statusCode, imported.body).toBe(201);
  });

  it('refuses an erasure without the erase right, to readers and importers too; an eraser erases', async () => {
    for (const label of ['writer', 'reader', 'importer', 'exporter']) {
      expectRefused(await call(t, 'DELETE', wsUrl(team.ws, 'profiles/c-9'), member(label)), ERASE);
    }
    expect((await get(manager, 'profiles/c-9')).statusCode).toBe(200);
    const erased = await call(t, 'DELETE', wsUrl(team.ws, 'profiles/c-9'), member('eraser'));
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await get(manager, 'profiles/c-9')).statusCode).toBe(404);
  });
});

describe('the suppression list', () => {
  it('is refused to a member without the read right', async () => {
    expectRefused(await get(member('writer'), 'suppressions'), READ);
    const listed = (await get(member('reader'), 'suppressions')).json();
    expect(listed.suppressions.map((s: { email: string }) => s.email)).toEqual(['gone@example.com']);
  });
});

describe('audiences', () => {
  const criteria = { label: '1', predicate: 'and', children: [] };

  it('refuses the members of a criteria tree (the sample) without the read right; sizes stay open', async () => {
    expectRefused(await post(member('writer'), 'audiences/sample', { criteria }), READ);
    expect((await post(member('writer'), 'audiences/size', { criteria })).statusCode).toBe(200);
    expect((await post(member('reader'), 'audiences/sample', { criteria })).json().profiles).toHaveLength(2);
  });

  it('refuses the CSV export without the export right, to readers too', async () => {
    const path = `audiences/${campaign.audienceId}/profiles.csv`;
    expectRefused(await get(member('writer'), path), EXPORT);
    expectRefused(await get(member('reader'), path), EXPORT);
    expectRefused(await get(member('writer'), 'audiences/no-such-audience/profiles.csv'), EXPORT);
    const csv = await get(member('exporter'), path);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(CUSTOMER.email);
  });
});

describe('messages filled as a profile', () => {
  it('refuses a campaign preview as a profile without the read right; without a profile it stays open', async () => {
    const path = `campaigns/${campaign.campaignId}/preview`;
    expectRefused(await get(member('writer'), `${path}?profileId=c-1`), READ);
    expectRefused(await get(member('writer'), `${path}?profileId=nobody`), READ);
    expect((await get(member('writer'), path)).json().subject).toBe('News for you');
    expect((await get(member('reader'), `${path}?profileId=c-1`)).json().subject).toBe('News for Jane');
  });

  it('refuses a campaign test send as a profile without the read right', async () => {
    const path = `campaigns/${campaign.campaignId}/test-send`;
    expectRefused(await post(member('writer'), path, { profileId: 'c-1' }), READ);
    expect((await post(member('reader'), path, { profileId: 'c-1' })).statusCode).toBe(200);
  });

  it("refuses an email's preview and test sends as a profile without the read right", async () => {
    expectRefused(await get(member('writer'), `emails/${campaign.emailId}/preview?profileId=c-1`), READ);
    expectRefused(
      await post(member('writer'), `emails/${campaign.emailId}/test-send`, { profileId: 'c-1' }),
      READ,
    );
    const fun = await call(t, 'POST', `/fun/testSend/smtp?__marquee_workspace=${team.ws}`, member('writer'), {
      recipients: ['qa@example.com'],
      subject: 'Hi {{first-name}}',
      text: 'Hi',
      html: '<p>Hi {{first-name}}</p>',
      profileId: 'c-1',
    });
    expectRefused(fun, READ);
    const shown = await get(member('reader'), `emails/${campaign.emailId}/preview?profileId=c-1`);
    expect(shown.json().subject).toBe('News for Jane');
  });
});

describe('import batches', () => {
  it("hide a customer import's row errors (they quote its values) from a member without the read right", async () => {
    const csv = 'id,first-name,emailConsent\nc-5,Bob,\nc-6,Zed,zed-secret\n';
    const { batch } = (await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv)).json();
    expect(batch.failed).toBe(1);
    const seen = (await get(member('writer'), `batches/${batch.id}`)).json();
    expect(seen).toMatchObject({ failed: 1, errors: [], errorGroups: [] });
    const listed = (await get(member('writer'), 'batches')).json().batches;
    expect(JSON.stringify(listed)).not.toContain('zed-secret');
    expectRefused(await get(member('writer'), `batches/${batch.id}/errors.csv`), READ);
    expect((await get(member('reader'), `batches/${batch.id}`)).json().errors).toHaveLength(1);
    expect((await get(member('reader'), `batches/${batch.id}/errors.csv`)).statusCode).toBe(200);
  });
});

describe('roles stored before customer data rights', () => {
  it('keep reading and erasing where they could edit profiles, and get nothing else', async () => {
    const database = await openTestDatabase({ migrate: false });
    try {
      await migrateUpTo(database, 30);
      const roles = {
        admin: {
          name: 'Admin',
          canEdit: ['customer-profile-attribute', 'copy'],
          canPublish: [],
          mustApprove: [],
        },
        writer: { name: 'Writer', canEdit: ['copy'], canPublish: [], mustApprove: [] },
      };
      await database.db.execute(sql`
        insert into workspaces (id, name, basics, roles, subscription, created_by)
        values ('w1', 'w1', '{}', ${JSON.stringify(roles)}::jsonb, '{"plan": "free"}', 'someone'),
               ('w2', 'w2', '{}', '{}', '{"plan": "free"}', 'someone')`);
      await migrateDatabase(database);
      const stored = rows<{ id: string; roles: Record<string, { customerData: string[] }> }>(
        await database.db.execute(sql`select id, roles from workspaces order by id`),
      );
      expect(stored.map((row) => [row.id, row.roles])).toEqual([
        [
          'w1',
          {
            admin: { ...roles.admin, customerData: ['read', 'erase'] },
            writer: { ...roles.writer, customerData: [] },
          },
        ],
        ['w2', {}],
      ]);
    } finally {
      await database.close();
    }
  });
});
