import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, teamWorkspace } from '../factories/items';
import { wsUrl } from '../factories/customers';
import { sendableCampaign } from '../factories/campaigns';

/**
 * A CRM export's columns for the customer fields every CRM has (email, first and last name, phone,
 * consent), whatever the export calls them, go to the workspace's own keys; new keys follow the
 * workspace's style.
 */
let t: TestApp;
let manager: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Fay First-Day' });
});
afterAll(() => t.close());

const newWorkspace = async (name: string, attributes: [key: string, label: string][] = []) => {
  const { ws } = await teamWorkspace(t, manager, { name, domains: ['marketing'], roles: {}, people: {} });
  for (const [key, label] of attributes) {
    await createItem(t, manager, ws, 'customer-profile-attribute', {
      name: label,
      key,
      attributeType: 'string',
    });
  }
  return ws;
};
const post = (ws: string, path: string, body: string) =>
  t.app.inject({
    method: 'POST',
    url: wsUrl(ws, path),
    headers: { ...manager.auth, 'content-type': 'text/csv' },
    payload: body,
  });
const preview = async (ws: string, csv: string) => {
  const res = await post(ws, 'profiles/import/preview', csv);
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json();
  const byColumn = Object.fromEntries(answer.columns.map((c: { column: string }) => [c.column, c])) as Record<
    string,
    { key: string; match: string; own: boolean; keyChange: string | null }
  >;
  return { answer, byColumn };
};
const importWith = (ws: string, mapping: unknown, csv: string) =>
  post(ws, `profiles/import?mapping=${encodeURIComponent(JSON.stringify(mapping))}`, csv);
const consentOf = async (ws: string, id: string) =>
  (await call(t, 'GET', wsUrl(ws, `profiles/${id}`), manager)).json().consent.email;
const profile = async (ws: string, id: string) =>
  (await call(t, 'GET', wsUrl(ws, `profiles/${id}`), manager)).json().profile;

describe('well-known customer fields in an import preview', () => {
  it("maps every usual spelling of email, names and phone to the workspace's own attribute keys", async () => {
    // A column `Email` became a new attribute `Email` that campaigns never read.
    const ws = await newWorkspace('Own keys', [
      ['email', 'Email'],
      ['first-name', 'First name'],
      ['last-name', 'Last name'],
      ['phone', 'Phone'],
    ]);
    for (const spelling of ['Email', 'E-mail', 'email_address', 'Email Address', 'EMAIL']) {
      const { byColumn } = await preview(ws, `id,${spelling}\nc1,ada@example.com\n`);
      expect(byColumn[spelling], spelling).toMatchObject({ match: 'key', key: 'email' });
    }
    const csv = 'Contact ID,Given Name,Surname,Mobile Phone,E-mail\nc1,Ada,Lovelace,+44 1,ada@example.com\n';
    const { answer, byColumn } = await preview(ws, csv);
    expect(byColumn['Given Name']).toMatchObject({ match: 'key', key: 'first-name' });
    expect(byColumn.Surname).toMatchObject({ match: 'key', key: 'last-name' });
    expect(byColumn['Mobile Phone']).toMatchObject({ match: 'key', key: 'phone' });
    const res = await importWith(ws, answer.mapping, csv);
    expect(res.json().batch).toMatchObject({ status: 'done', processed: 1 });
    expect((await profile(ws, 'c1')).attributes).toEqual({
      email: 'ada@example.com',
      'first-name': 'Ada',
      'last-name': 'Lovelace',
      phone: '+44 1',
    });
  });

  it('proposes the key campaigns read addresses from when the workspace has no email attribute yet', async () => {
    // With no attribute for it, `Email` was proposed as a new attribute `Email`.
    const ws = await newWorkspace('No attributes yet');
    const { answer, byColumn } = await preview(ws, 'id,Email,First Name\nc1,ada@example.com,Ada\n');
    expect(byColumn.Email).toMatchObject({ match: 'new', key: 'email' });
    expect(byColumn['First Name']).toMatchObject({ match: 'new', key: 'first-name' });
    expect(answer.mapping.columns.Email).toEqual({ key: 'email', type: 'string', label: 'Email' });
  });

  it('maps a consent column to email consent and reads its usual values, case aside', async () => {
    // An 'Email Consent' column became an ordinary attribute; every consent stayed unknown.
    const ws = await newWorkspace('Consent', [['email', 'Email']]);
    const values = [
      ['c1', 'subscribed', 'subscribed'],
      ['c2', 'Unsubscribed', 'unsubscribed'],
      ['c3', 'YES', 'subscribed'],
      ['c4', 'no', 'unsubscribed'],
      ['c5', 'True', 'subscribed'],
      ['c6', 'false', 'unsubscribed'],
      ['c7', 'Opted In', 'subscribed'],
      ['c8', 'opted out', 'unsubscribed'],
      ['c9', '1', 'subscribed'],
      ['c10', '0', 'unsubscribed'],
      ['c11', '', 'unknown'],
    ];
    const csv = [
      'id,Email,Email Consent',
      ...values.map(([id, consent]) => `${id},${id}@example.com,${consent}`),
    ].join('\n');
    const { answer, byColumn } = await preview(ws, csv);
    expect(byColumn['Email Consent']).toMatchObject({
      own: true,
      key: 'emailConsent',
      keyChange: 'Read as the email consent of each row',
    });
    expect(answer.mapping.columns['Email Consent']).toEqual({ key: 'emailConsent' });
    const res = await importWith(ws, answer.mapping, csv);
    expect(res.json().batch).toMatchObject({ status: 'done', processed: values.length, failed: 0 });
    for (const [id, , state] of values) {
      expect((await consentOf(ws, id)).state, id).toBe(state);
    }
    expect((await profile(ws, 'c1')).attributes).toEqual({ email: 'c1@example.com' });
    // A column named like consent whose values are something else stays an ordinary column.
    const plan = await preview(ws, 'id,Subscribed\nc1,pro plan\n');
    expect(plan.byColumn.Subscribed).toMatchObject({ own: false, match: 'new', key: 'subscribed' });
    const bad = await importWith(ws, answer.mapping, 'id,Email,Email Consent\nc1,a@example.com,maybe\n');
    expect(bad.json().batch.errorGroups[0].message).toBe(
      'emailConsent: "maybe" is not subscribed, unsubscribed or unknown',
    );
  });
});

describe('the keys of new attributes', () => {
  it("are proposed in one style, the workspace's (kebab-case by default), and merge tags follow them", async () => {
    // `Plan` was proposed as `Plan` beside `first-name`.
    const ws = await newWorkspace('Kebab');
    const { answer, byColumn } = await preview(ws, 'id,Plan,Plan Tier,signupSource\nc1,pro,gold,ads\n');
    expect(byColumn.Plan).toMatchObject({ match: 'new', key: 'plan' });
    expect(byColumn['Plan Tier']).toMatchObject({ match: 'new', key: 'plan-tier' });
    expect(byColumn.signupSource).toMatchObject({
      key: 'signup-source',
      keyChange: 'Becomes "signup-source": new keys are kebab-case, like the workspace\'s',
    });
    const csv = 'id,Plan,Plan Tier,signupSource\nc1,pro,gold,ads\n';
    expect((await importWith(ws, answer.mapping, csv)).json().batch.status).toBe('done');
    expect((await profile(ws, 'c1')).attributes).toEqual({
      plan: 'pro',
      'plan-tier': 'gold',
      'signup-source': 'ads',
    });

    const snake = await newWorkspace('Snake', [
      ['first_name', 'First name'],
      ['signup_date', 'Signed up'],
    ]);
    const snaked = await preview(snake, 'id,Plan Tier,First Name,Last Name\nc1,gold,Ada,Lovelace\n');
    expect(snaked.byColumn['Plan Tier'].key).toBe('plan_tier');
    expect(snaked.byColumn['First Name']).toMatchObject({ match: 'key', key: 'first_name' });
    expect(snaked.byColumn['Last Name']).toMatchObject({ match: 'new', key: 'last_name' });
  });

  it('are the keys merge tags are written with, so a campaign fills them', async () => {
    // A campaign written with `{{plan-tier}}` stayed empty for profiles imported as `PlanTier`.
    const ws = await newWorkspace('Merge tags');
    const { campaignId } = await sendableCampaign(t, manager, ws, [{ id: 'c1', email: 'ada@example.com' }], {
      subject: 'Your plan: {{plan-tier|none}}',
    });
    const csv = 'id,PlanTier\nc1,gold\n';
    const { answer } = await preview(ws, csv);
    expect((await importWith(ws, answer.mapping, csv)).json().batch.status).toBe('done');
    const shown = await call(t, 'GET', wsUrl(ws, `campaigns/${campaignId}/preview?profileId=c1`), manager);
    expect(shown.json().subject).toBe('Your plan: gold');
  });
});
