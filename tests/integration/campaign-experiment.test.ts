import { sql } from 'drizzle-orm';
import {
  CAMPAIGN_MESSAGES,
  type CampaignResults,
  type CampaignSend,
  type CampaignStatuses,
} from '@shared/api/campaigns';
import { EXPERIMENT_MESSAGES, experimentShares } from '@shared/campaigns/experiment';
import { rows } from '@server/db/migrate';
import type { AppContext } from '@server/context';
import { decideExperiments } from '@server/campaigns/experiments';
import { queueDueExperiments } from '@server/campaigns/experiment-repository';
import { shareOf, splitDraw } from '@server/lib/split';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { verifiedUser, type TestUser } from '../factories/users';
import { approve, call, createItem, itemsUrl, role, teamWorkspace, type Team } from '../factories/items';
import { attributeRule, defineCustomerData, group, importBody, wsUrl } from '../factories/customers';

/**
 * A campaign's A/B test through the real stack and a real SMTP server: each variant to its share,
 * the winner picked by the rule when the wait is over (a due job), sent once to the rest; the holdout
 * mailed nothing, nobody mailed twice.
 */

let t: TestApp;
let plain: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let manager: TestUser;
let team: Team;
let audienceId: string;
let emailId: string;
let otherEmailId: string;
let senderId: string;

const roles = {
  marketer: role('Marketer', { canEdit: ['campaign'] }),
  legal: role('Legal', { canEdit: [], mustApprove: ['campaign'] }),
};
const IDS = Array.from({ length: 48 }, (_, i) => `p-${String(i + 1).padStart(2, '0')}`);
const addressOf = (id: string) => `${id}@example.com`;
const PROFILES = ['id,email,first-name,tier', ...IDS.map((id) => `${id},${addressOf(id)},${id},gold`)].join(
  '\n',
);
const TEMPLATE = {
  'gjs-nl-html': '<p>Hello {{first-name|friend}}</p><p><a href="https://shop.example.com/sale">Shop</a></p>',
  'gjs-nl-css': '',
};
const EXPERIMENT = {
  variants: [{ subject: 'Variant one' }, { subject: 'Variant two', fromName: 'Ada at Acme' }],
  testPercent: 50,
  holdoutPercent: 25,
  waitHours: 4,
  winnerBy: 'clicks',
  conversionEvent: 'purchase',
  windowHours: 48,
};

const campaignUrl = (id: string, rest = '') => wsUrl(team.ws, `campaigns/${id}${rest}`);
const sendsOf = async (campaignId: string) =>
  (await call(t, 'GET', campaignUrl(campaignId, '/sends'), manager)).json().sends as CampaignSend[];
const allDone = (campaignId: string, count: number) =>
  expect
    .poll(
      async () => {
        const sends = await sendsOf(campaignId);
        return sends.length === count && sends.every((send) => send.state === 'done');
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(true);
const resultsOf = async (campaignId: string, sendId: string) => {
  const res = await call(t, 'GET', campaignUrl(campaignId, `/sends/${sendId}/results`), manager);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CampaignResults;
};
const statusOf = async (campaignId: string) => {
  const res = await call(t, 'GET', wsUrl(team.ws, 'campaigns/statuses'), manager);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as CampaignStatuses).statuses.find((each) => each.campaignId === campaignId)!;
};
/** Each address and the subjects it got. */
const mailbox = () => {
  const got = new Map<string, string[]>();
  for (const { envelopeTo, mail } of sink.received)
    got.set(envelopeTo[0], [...(got.get(envelopeTo[0]) ?? []), mail.subject ?? '']);
  return got;
};

async function newCampaign(experiment: object | null) {
  const campaign = await createItem(t, manager, team.ws, 'campaign', {
    name: 'Spring test',
    email: { schemaType: 'email', id: emailId, label: 'Spring' },
    audience: { schemaType: 'audience', id: audienceId, label: 'Gold' },
    sender: senderId,
    subject: 'Spring for {{first-name|you}}',
    experiment,
  });
  const approved = await approve(t, team.members.legal, team.ws, 'campaign', campaign.id, 'legal');
  expect(approved.statusCode, approved.body).toBe(200);
  return campaign;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  plain = await createTestApp();
  t = await sendingServer(plain, sink.url, { campaigns: { connections: 3, chunkSize: 5 } });
  manager = await verifiedUser(plain, { name: 'Mia Manager' });
  team = await teamWorkspace(plain, manager, {
    name: 'Experiments',
    domains: ['marketing'],
    roles,
    people: { marketer: ['marketer'], legal: ['legal'] },
  });
  const defs = await defineCustomerData(t, manager, team.ws);
  for (const key of ['email', 'first-name']) {
    await createItem(t, manager, team.ws, 'customer-profile-attribute', {
      name: key,
      key,
      attributeType: 'string',
    });
  }
  await createItem(t, manager, team.ws, 'behavioral-event', {
    name: 'purchase',
    key: 'purchase',
    properties: [],
  });
  const imported = await importBody(t, manager, team.ws, 'profiles', 'text/csv', PROFILES);
  expect(imported.json().batch, imported.body).toMatchObject({ processed: IDS.length, failed: 0 });
  audienceId = (
    await createItem(t, manager, team.ws, 'audience', {
      name: 'Gold',
      criteria: group('and', [attributeRule(defs, 'tier', '==', 'gold')]),
    })
  ).id;
  emailId = (
    await createItem(t, manager, team.ws, 'email', { name: 'Spring', subject: 'Spring', template: TEMPLATE })
  ).id;
  otherEmailId = (
    await createItem(t, manager, team.ws, 'email', { name: 'Other', subject: 'Other', template: TEMPLATE })
  ).id;
  senderId = (
    await call(t, 'POST', wsUrl(team.ws, 'senders'), manager, {
      fromName: 'Acme News',
      fromAddress: 'news@acme.example',
    })
  ).json().id;
  await call(t, 'PUT', wsUrl(team.ws, 'senders/postal-address'), manager, { postalAddress: '1 Main St' });
  await call(t, 'PUT', wsUrl(team.ws, 'senders/recipients'), manager, { mailUnknownConsent: true });
});
afterAll(async () => {
  await t.close();
  await plain.close();
  await sink.close();
});

describe('a campaign A/B test', () => {
  it('refuses an experiment that is not valid, with a message that says why', async () => {
    const save = (experiment: object) =>
      call(t, 'POST', itemsUrl(team.ws, 'campaign'), manager, { data: { name: 'Bad', experiment } });
    const cases: [object, string][] = [
      [{ ...EXPERIMENT, variants: [{}] }, EXPERIMENT_MESSAGES.variants],
      [{ ...EXPERIMENT, variants: [{}, {}, {}, {}, {}] }, EXPERIMENT_MESSAGES.variants],
      [{ ...EXPERIMENT, testPercent: 0 }, EXPERIMENT_MESSAGES.testPercent],
      [{ ...EXPERIMENT, testPercent: 80 }, EXPERIMENT_MESSAGES.shares],
      [{ ...EXPERIMENT, waitHours: 10_000 }, EXPERIMENT_MESSAGES.waitHours],
      [{ ...EXPERIMENT, winnerBy: 'luck' }, EXPERIMENT_MESSAGES.winnerBy],
    ];
    for (const [experiment, message] of cases) {
      const res = await save(experiment);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(message);
    }
  });

  it('refuses to send an experiment whose variant names a template that is gone', async () => {
    const campaign = await newCampaign({
      ...EXPERIMENT,
      variants: [{}, { email: { schemaType: 'email', id: 'gone' } }],
    });
    const res = await call(t, 'POST', campaignUrl(campaign.id, '/send'), manager, {});
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toBe(CAMPAIGN_MESSAGES.variantProblem('B', CAMPAIGN_MESSAGES.emailGone));
    const unapproved = await createItem(t, manager, team.ws, 'campaign', {
      name: 'Unapproved',
      email: { schemaType: 'email', id: emailId },
      audience: { schemaType: 'audience', id: audienceId },
      sender: senderId,
      experiment: EXPERIMENT,
    });
    const refused = await call(t, 'POST', campaignUrl(unapproved.id, '/send'), manager, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(CAMPAIGN_MESSAGES.needsApproval);
    expect(
      (await call(t, 'POST', campaignUrl(unapproved.id, '/send'), team.members.marketer, {})).statusCode,
    ).toBe(403);
  });

  it('sends each variant to its share, the winner to the rest once, and the holdout nothing', async () => {
    const campaign = await newCampaign({
      ...EXPERIMENT,
      variants: [
        ...EXPERIMENT.variants,
        { email: { schemaType: 'email', id: otherEmailId }, subject: 'Variant three' },
      ],
      testPercent: 60,
    });
    const res = await call(t, 'POST', campaignUrl(campaign.id, '/send'), manager, {});
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().message).toBe(CAMPAIGN_MESSAGES.experimentQueued(3));
    const experimentId = (res.json().send as CampaignSend).experiment!.id;
    await allDone(campaign.id, 3);
    const again = await call(t, 'POST', campaignUrl(campaign.id, '/send'), manager, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(CAMPAIGN_MESSAGES.experimentTesting);

    // Each profile's share is its draw, as the journeys' split draws: the SQL split agrees with it.
    const shares = experimentShares({ variants: [{}, {}, {}], testPercent: 60, holdoutPercent: 25 });
    const expected = new Map(IDS.map((id) => [id, shareOf(shares, splitDraw(id, experimentId))]));
    const sends = await sendsOf(campaign.id);
    const byVariant = new Map(sends.map((send) => [send.experiment!.variant, send]));
    const subjects: Record<string, string> = { A: 'Variant one', B: 'Variant two', C: 'Variant three' };
    const got = mailbox();
    ['A', 'B', 'C'].forEach((variant, index) => {
      const members = IDS.filter((id) => expected.get(id) === index + 1)
        .map(addressOf)
        .sort();
      expect(members.length, `variant ${variant}`).toBeGreaterThan(0);
      expect(byVariant.get(variant)!.counts).toMatchObject({
        recipients: members.length,
        sent: members.length,
      });
      expect(
        [...got]
          .filter(([, mail]) => mail.includes(subjects[variant]))
          .map(([address]) => address)
          .sort(),
      ).toEqual(members);
    });
    const twoFrom = sink.received.find((m) => m.mail.subject === 'Variant two')!.mail.from?.value;
    expect(twoFrom).toEqual([{ name: 'Ada at Acme', address: 'news@acme.example' }]);

    // B's recipients click (through the tracking route); two of the holdout and one of B buy.
    for (const { mail } of sink.received.filter((m) => m.mail.subject === 'Variant two')) {
      const [, path] = String(mail.html).match(/http:\/\/marquee\.test(\/t\/c\/[\w.-]+)"/)!;
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(302);
    }
    const holdout = IDS.filter((id) => expected.get(id) === 0);
    const buyerInB = IDS.find((id) => expected.get(id) === 2)!;
    const bought = await call(t, 'POST', wsUrl(team.ws, 'customer-events'), manager, {
      events: [...holdout.slice(0, 2), buyerInB].map((profileId) => ({
        profileId,
        event: 'purchase',
        at: new Date().toISOString(),
      })),
    });
    expect(bought.statusCode, bought.body).toBe(200);

    // Before its time the pick does nothing; then its time comes (the wait is a row's due time).
    const ctx = { db: t.database.db, config: t.config, log: t.app.log } as unknown as AppContext;
    await decideExperiments(ctx, [{ workspaceId: team.ws, id: experimentId }]);
    expect((await resultsOf(campaign.id, byVariant.get('A')!.id)).experiment).toMatchObject({
      state: 'testing',
      winner: null,
    });
    // The campaign list says it is testing, and when it picks its winner (not sent: the rest wait).
    const testing = await statusOf(campaign.id);
    expect(testing).toMatchObject({ status: 'testing', sends: 3 });
    expect(Date.parse(testing.decideAt!)).toBeGreaterThan(Date.now());
    await t.database.db.execute(
      sql`update campaign_experiments set decide_at = now() where workspace_id = ${team.ws} and id = ${experimentId}`,
    );
    // The sweep finds it due (its own job waits for the original time: one job per experiment).
    await queueDueExperiments(t.database.db);
    await decideExperiments(ctx, [{ workspaceId: team.ws, id: experimentId }]);
    await allDone(campaign.id, 4);
    expect(await statusOf(campaign.id)).toMatchObject({ status: 'sent', decideAt: null, sends: 4 });
    // The job delivered twice: the experiment is decided, nothing more is sent.
    await decideExperiments(ctx, [{ workspaceId: team.ws, id: experimentId }]);
    expect(await sendsOf(campaign.id)).toHaveLength(4);

    const rest = IDS.filter((id) => expected.get(id) === -1)
      .map(addressOf)
      .sort();
    const final = mailbox();
    // Nobody got two messages; the rest got the winner, B's subject and sender name.
    for (const [address, mail] of final) expect(mail, address).toHaveLength(1);
    for (const address of rest) expect(final.get(address), address).toEqual(['Variant two']);
    for (const id of holdout) expect(final.has(addressOf(id)), id).toBe(false);
    expect(final.size).toBe(IDS.length - holdout.length);

    const answer = (await resultsOf(campaign.id, byVariant.get('B')!.id)).experiment!;
    const inB = IDS.filter((id) => expected.get(id) === 2).length;
    expect(answer).toMatchObject({ state: 'decided', winner: 'B', winnerBy: 'clicks' });
    expect(answer.reason).toMatch(
      /^Variant B had the highest click rate \(clicked of delivered\): B 100\.0% /,
    );
    const b = answer.variants.find((variant) => variant.key === 'B')!;
    expect(b).toMatchObject({
      recipients: inB,
      delivered: inB,
      clicked: inB,
      converted: 1,
      fromName: 'Ada at Acme',
    });
    expect(b.rates.clicked.rate).toBe(1);
    expect(b.rates.clicked.low).toBeGreaterThan(0);
    expect(b.rates.clicked.low).toBeLessThan(1);
    expect(answer.variants.find((variant) => variant.key === 'A')!.rates.clicked).toMatchObject({
      rate: 0,
      low: 0,
    });
    expect(answer.holdout).toMatchObject({ members: holdout.length, converted: 2 });
    expect(b.lift).toBeCloseTo(1 / inB - 2 / holdout.length, 10);
    expect(answer.winnerSend).toMatchObject({
      key: 'winner',
      recipients: rest.length,
      subject: 'Variant two',
    });
    const recorded = rows<{ n: string | number }>(
      await t.database.db.execute(
        sql`select count(*) as n from campaign_holdouts where workspace_id = ${team.ws} and experiment_id = ${experimentId}`,
      ),
    );
    expect(Number(recorded[0].n)).toBe(holdout.length);
  });
});
