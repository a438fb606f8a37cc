import type { CampaignSend } from '@shared/api/campaigns';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, role, teamWorkspace, type Team } from '../factories/items';
import { importBody, wsUrl } from '../factories/customers';
import { sendableCampaign } from '../factories/campaigns';

/**
 * Who campaigns go to, a workspace's sending setting: the attribute addresses are read from, and
 * whether profiles whose consent is unknown are mailed (not by default); the readiness panel says
 * both, with how many each leaves out, and a send's snapshot keeps to them.
 */
let t: TestApp;
let manager: TestUser;
let team: Team;
let campaignId: string;

const PROFILES = [
  { id: 'p1', email: 'ann@example.com' },
  { id: 'p2', email: 'bob@example.com' },
  { id: 'p3', email: 'cy@example.com' },
  { id: 'p4', email: 'di@example.com' },
];

beforeAll(async () => {
  t = await createTestApp({ jobs: true, jobsPollMs: 50 });
  manager = await verifiedUser(t, { name: 'Rita Recipients' });
  team = await teamWorkspace(t, manager, {
    name: 'Recipients',
    domains: ['marketing'],
    roles: { marketer: role('Marketer', { canEdit: ['campaign'], canPublish: ['campaign'] }) },
    people: { 'Mo Marketer': ['marketer'] },
  });
  campaignId = (await sendableCampaign(t, manager, team.ws, PROFILES)).campaignId;
  // p1 subscribed, p2 unsubscribed, p3 and p4 never said.
  const consents = 'Customer ID,Opted In\np1,yes\np2,no\n';
  const preview = await t.app.inject({
    method: 'POST',
    url: wsUrl(team.ws, 'profiles/import/preview'),
    headers: { ...manager.auth, 'content-type': 'text/csv' },
    payload: consents,
  });
  const mapping = encodeURIComponent(JSON.stringify(preview.json().mapping));
  const res = await t.app.inject({
    method: 'POST',
    url: wsUrl(team.ws, `profiles/import?mapping=${mapping}`),
    headers: { ...manager.auth, 'content-type': 'text/csv' },
    payload: consents,
  });
  expect(res.json().batch).toMatchObject({ status: 'done', processed: 2 });
});
afterAll(() => t.close());

const readiness = async () =>
  (await call(t, 'GET', wsUrl(team.ws, `campaigns/${campaignId}/readiness`), manager)).json();
const setRecipients = (body: object, user = manager) =>
  call(t, 'PUT', wsUrl(team.ws, 'senders/recipients'), user, body);

describe('who campaigns go to', () => {
  it('does not mail unknown consent in a new workspace, and says how many that leaves out', async () => {
    // Unknown consent was mailed: profiles never asked were counted as recipients.
    const fresh = await teamWorkspace(t, manager, {
      name: 'Fresh',
      domains: ['marketing'],
      roles: {},
      people: {},
    });
    const sending = (await call(t, 'GET', wsUrl(fresh.ws, 'senders'), manager)).json();
    expect(sending.recipients).toEqual({ emailAttribute: 'email', mailUnknownConsent: false });

    expect((await setRecipients({ mailUnknownConsent: false })).statusCode).toBe(200);
    expect(await readiness()).toMatchObject({
      audienceSize: 4,
      recipients: 1,
      unsubscribed: 1,
      unknownConsent: 2,
      withoutEmail: 0,
      emailAttribute: 'email',
      mailUnknownConsent: false,
    });
    expect((await setRecipients({ mailUnknownConsent: true })).statusCode).toBe(200);
    expect(await readiness()).toMatchObject({ recipients: 3, unknownConsent: 0, mailUnknownConsent: true });
  });

  it('reads addresses from the attribute the setting names, and offers the text attributes', async () => {
    // Campaigns read only `email`: profiles whose address was imported as `Email` had none.
    await createItem(t, manager, team.ws, 'customer-profile-attribute', {
      name: 'Work email',
      key: 'work-email',
      attributeType: 'string',
    });
    const csv = 'id,work-email\np1,ann@work.example\n';
    expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv)).statusCode).toBe(201);
    const before = await readiness();
    expect(before.addressAttributes.map((a: { key: string }) => a.key)).toEqual([
      'email',
      'first-name',
      'list',
      'work-email',
    ]);
    expect(before.canChangeRecipients).toBe(true);
    const res = await setRecipients({ emailAttribute: 'work-email' });
    expect(res.json()).toEqual({ emailAttribute: 'work-email', mailUnknownConsent: true });
    expect(await readiness()).toMatchObject({ emailAttribute: 'work-email', recipients: 1, withoutEmail: 3 });
    const shown = await call(
      t,
      'GET',
      wsUrl(team.ws, `campaigns/${campaignId}/preview?profileId=p1`),
      manager,
    );
    expect(shown.statusCode).toBe(200);
    expect((await setRecipients({ emailAttribute: 'email' })).statusCode).toBe(200);
  });

  it('refuses an attribute the workspace does not have, and anyone but a manager', async () => {
    const bad = await setRecipients({ emailAttribute: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('emailAttribute: no customer profile attribute has the key "nope"');
    expect((await setRecipients({ mailUnknownConsent: 'yes' })).statusCode).toBe(400);
    const denied = await setRecipients({ mailUnknownConsent: false }, team.members['Mo Marketer']);
    expect(denied.statusCode).toBe(403);
    const marketerView = await call(
      t,
      'GET',
      wsUrl(team.ws, `campaigns/${campaignId}/readiness`),
      team.members['Mo Marketer'],
    );
    expect(marketerView.json()).toMatchObject({ canChangeRecipients: false, mailUnknownConsent: true });
    const outsider = await verifiedUser(t, { name: 'Otto Outsider' });
    expect((await setRecipients({ mailUnknownConsent: false }, outsider)).statusCode).toBe(404);
  });

  it("keeps to the workspace's rule when the send takes its audience", async () => {
    // A send went to every profile not unsubscribed, unknown consent included.
    expect((await setRecipients({ mailUnknownConsent: false })).statusCode).toBe(200);
    const res = await call(t, 'POST', wsUrl(team.ws, `campaigns/${campaignId}/send`), manager, {});
    expect(res.statusCode, res.body).toBe(202);
    const sendUrl = wsUrl(team.ws, `campaigns/${campaignId}/sends/${res.json().send.id}`);
    await expect
      .poll(async () => ((await call(t, 'GET', sendUrl, manager)).json() as CampaignSend).state, {
        timeout: 30_000,
        interval: 50,
      })
      .toBe('done');
    const send = (await call(t, 'GET', sendUrl, manager)).json() as CampaignSend;
    expect(send.counts).toMatchObject({ audience: 4, recipients: 1, sent: 1 });
  });
});
