import { sql } from 'drizzle-orm';
import { JOURNEY_MESSAGES, type JourneyResults } from '@shared/api/journeys';
import { rows } from '@server/db/migrate';
import { queueDueTasks } from '@server/journeys/engine';
import { createTestApp, sendingServer, type TestApp } from '../helpers/test-app';
import { startSmtpSink } from '../fixtures/smtp-sink';
import { startJobWorkers } from '../helpers/job-workers';
import { verifiedUser, type TestUser } from '../factories/users';
import { approve, call, createItem, role, saveItem, teamWorkspace, type Team } from '../factories/items';
import { defineCustomerData, importBody, wsUrl } from '../factories/customers';

let t: TestApp;
let plain: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let manager: TestUser;
let team: Team;
let other: Team;
let emailId: string;
let senderId: string;

const roles = {
  marketer: role('Marketer', { canEdit: ['journey'], customerData: ['read'] }),
  starter: role('Starter', { canEdit: ['journey'], canPublish: ['journey'], customerData: ['read'] }),
  legal: role('Legal', { canEdit: [], mustApprove: ['journey'], customerData: ['read'] }),
};

const PROFILES = [
  'id,email,first-name,tier',
  'j-1,ada@example.com,Ada,gold',
  'j-2,bob@example.com,Bob,silver',
  'j-3,cy@example.com,Cy,gold',
  'j-4,dee@example.com,Dee,gold',
  'j-5,eve@example.com,Eve,gold',
].join('\n');

const journeysUrl = (ws: string, id: string, rest: string) => wsUrl(ws, `journeys/${id}/${rest}`);

const email = (id: string, subject: string) => ({
  id,
  type: 'email',
  email: emailId,
  sender: senderId,
  subject,
});

/** Signs up, waits a day for a purchase: buyers who are gold get the VIP mail, the rest nothing; no purchase, a reminder. */
const welcomeJourney = () => ({
  entry: { kind: 'event', event: 'signup', conditions: [{ key: 'plan', op: '==', value: 'pro' }] },
  reentry: { mode: 'once' },
  start: 'welcome',
  steps: [
    { ...email('welcome', 'Welcome {{first-name|you}}'), name: 'Welcome' },
    { id: 'buy', type: 'wait-for-event', event: 'purchase', timeoutSeconds: 86_400 },
    { id: 'gold', type: 'branch', conditions: [{ key: 'tier', op: '==', value: 'gold' }] },
    email('vip', 'VIP {{first-name|you}}'),
    email('remind', 'Still thinking, {{first-name|you}}?'),
    { id: 'mark', type: 'update-attribute', attribute: 'city', value: 'Reminded' },
    { id: 'end', type: 'exit' },
  ],
  edges: [
    { from: 'welcome', to: 'buy' },
    { from: 'buy', exit: 'event', to: 'gold' },
    { from: 'buy', exit: 'timeout', to: 'remind' },
    { from: 'gold', exit: 'yes', to: 'vip' },
    { from: 'gold', exit: 'no', to: 'end' },
    { from: 'vip', to: 'end' },
    { from: 'remind', to: 'mark' },
    { from: 'mark', to: 'end' },
  ],
});

/** Entered through the API, waits 30 days, then mails; a purchase is its goal. */
const goalJourney = () => ({
  entry: { kind: 'api' },
  reentry: { mode: 'after-exit' },
  goal: { event: 'purchase' },
  start: 'month',
  steps: [
    { id: 'month', type: 'wait', seconds: 30 * 86_400 },
    email('late', 'A month on'),
    { id: 'end', type: 'exit' },
  ],
  edges: [
    { from: 'month', to: 'late' },
    { from: 'late', to: 'end' },
  ],
});

async function newJourney(definition: object, approved = true, ws = team.ws, user = manager) {
  const item = await createItem(t, user, ws, 'journey', {
    name: 'Welcome',
    definition: JSON.stringify(definition),
  });
  if (approved) {
    const res = await approve(t, team.members.legal, ws, 'journey', item.id, 'legal');
    expect(res.statusCode, res.body).toBe(200);
  }
  return item.id;
}

const track = async (events: { profileId: string; event: string; properties?: object }[]) => {
  const res = await call(t, 'POST', wsUrl(team.ws, 'customer-events'), manager, {
    events: events.map((e, i) => ({ ...e, at: new Date(Date.now() - 1000 + i).toISOString() })),
  });
  expect(res.statusCode, res.body).toBe(200);
};

const results = async (id: string) => {
  const res = await call(t, 'GET', journeysUrl(team.ws, id, 'results'), team.members.marketer);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as JourneyResults;
};
const stepOf = (answer: JourneyResults, stepId: string) =>
  answer.versions[0].steps.find((s) => s.stepId === stepId)!;

/** Subjects each address got, sorted (each step's messages go out on their own send, in any order). */
const mailbox = () => {
  const byAddress: Record<string, string[]> = {};
  for (const { envelopeTo, mail } of sink.received) {
    for (const to of envelopeTo) (byAddress[to] ??= []).push(mail.subject ?? '');
  }
  for (const subjects of Object.values(byAddress)) subjects.sort();
  return byAddress;
};

const journeyEvents = async (profileId: string) =>
  rows<{ event: string; properties: Record<string, unknown> }>(
    await t.database.db.execute(sql`
      select event, properties from customer_events
      where workspace_id = ${team.ws} and profile_id = ${profileId} and event like 'journey-%'
      order by at, event`),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  plain = await createTestApp();
  t = await sendingServer(plain, sink.url);
  manager = await verifiedUser(plain, { name: 'Mia Manager' });
  team = await teamWorkspace(plain, manager, {
    name: 'Journeys',
    domains: ['marketing'],
    roles,
    people: { marketer: ['marketer'], starter: ['starter'], legal: ['legal'] },
  });
  other = await teamWorkspace(plain, manager, {
    name: 'Elsewhere',
    domains: ['marketing'],
    roles: {},
    people: {},
  });
  await defineCustomerData(t, manager, team.ws);
  await createItem(t, manager, team.ws, 'behavioral-event', {
    name: 'signup',
    key: 'signup',
    properties: [{ name: 'plan', type: 'string' }],
  });
  for (const key of ['email', 'first-name']) {
    await createItem(t, manager, team.ws, 'customer-profile-attribute', {
      name: key,
      key,
      attributeType: 'string',
    });
  }
  const imported = await importBody(t, manager, team.ws, 'profiles', 'text/csv', PROFILES);
  expect(imported.json().batch, imported.body).toMatchObject({ processed: 5, failed: 0 });
  emailId = (
    await createItem(t, manager, team.ws, 'email', {
      name: 'Letter',
      subject: 'Letter',
      template: { 'gjs-nl-html': '<p>Hello {{first-name|friend}}</p>', 'gjs-nl-css': '' },
      testAddresses: 'qa@example.com',
    })
  ).id;
  senderId = (
    await call(t, 'POST', wsUrl(team.ws, 'senders'), manager, {
      fromName: 'Acme',
      fromAddress: 'hi@acme.example',
    })
  ).json().id;
  for (const [path, body] of [
    ['senders/postal-address', { postalAddress: '1 Main St' }],
    ['senders/recipients', { mailUnknownConsent: true }],
  ] as const) {
    expect((await call(t, 'PUT', wsUrl(team.ws, path), manager, body)).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
  await plain.close();
  await sink.close();
});

describe('starting a journey', () => {
  it('needs a member who may publish journeys, and every approval of the current version', async () => {
    const id = await newJourney(welcomeJourney(), false);
    expect((await call(t, 'POST', journeysUrl(team.ws, id, 'start'))).statusCode).toBe(401);
    const denied = await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.marketer);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(JOURNEY_MESSAGES.cannotStart);
    const unapproved = await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter);
    expect(unapproved.statusCode).toBe(409);
    expect(unapproved.json().error.message).toBe(JOURNEY_MESSAGES.needsApproval);
    // Another workspace's journey is not found there.
    expect((await call(t, 'POST', journeysUrl(other.ws, id, 'start'), manager)).statusCode).toBe(404);
  });

  it('refuses an incomplete journey with a message that names the step', async () => {
    const cases: [object, string][] = [
      [
        {
          ...welcomeJourney(),
          steps: welcomeJourney().steps.map((s) => (s.id === 'welcome' ? { ...s, email: '' } : s)),
        },
        'Step "Welcome": choose the email template to send',
      ],
      [
        {
          ...welcomeJourney(),
          edges: welcomeJourney().edges.filter((e) => e.from !== 'gold' || e.exit !== 'no'),
        },
        'Step "gold": the exit "no" is not connected',
      ],
      [
        {
          ...welcomeJourney(),
          edges: [...welcomeJourney().edges.filter((e) => e.from !== 'mark'), { from: 'mark', to: 'remind' }],
        },
        'Step "remind": it is on a loop without a wait',
      ],
      [
        {
          ...welcomeJourney(),
          steps: welcomeJourney().steps.map((s) => (s.id === 'vip' ? { ...s, email: 'gone' } : s)),
        },
        `Step "vip": The email template no longer exists`,
      ],
    ];
    for (const [definition, problem] of cases) {
      const id = await newJourney(definition);
      const res = await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toBe(JOURNEY_MESSAGES.badDefinition(problem));
    }
  });
});

describe('a running journey', () => {
  let id: string;

  it('starts the approved version, and keeps running it while a new draft is edited', async () => {
    id = await newJourney(welcomeJourney());
    const res = await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().journey).toMatchObject({ journeyId: id, version: 1, state: 'running' });
    const again = await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter);
    expect(again.statusCode).toBe(409);
    // The draft drops the VIP mail; the running version still sends it.
    const draft = welcomeJourney();
    await saveItem(t, manager, team.ws, 'journey', id, {
      name: 'Welcome',
      definition: JSON.stringify({
        ...draft,
        edges: draft.edges.map((e) => (e.from === 'gold' && e.exit === 'yes' ? { ...e, to: 'end' } : e)),
      }),
    });
    const audit = await call(t, 'GET', wsUrl(team.ws, 'audit?limit=5'), manager);
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toContain('journey.start');
    // Audiences can name the journey events: their behavioral-event items exist.
    const declared = rows<{ id: string }>(
      await t.database.db.execute(
        sql`select id from items where workspace_id = ${team.ws} and schema = 'behavioral-event' and id like 'journey-%' order by id`,
      ),
    );
    expect(declared.map((row) => row.id)).toEqual(['journey-entered', 'journey-exited', 'journey-step']);
  });

  it('sends each profile exactly the messages of its path, once', async () => {
    await track([
      { profileId: 'j-1', event: 'signup', properties: { plan: 'pro' } },
      { profileId: 'j-2', event: 'signup', properties: { plan: 'pro' } },
      { profileId: 'j-3', event: 'signup', properties: { plan: 'pro' } },
      { profileId: 'j-4', event: 'signup', properties: { plan: 'free' } },
    ]);
    await expect.poll(async () => stepOf(await results(id), 'buy').waiting, { timeout: 30_000 }).toBe(3);
    await track([
      { profileId: 'j-1', event: 'purchase', properties: { amount: 10 } },
      { profileId: 'j-2', event: 'purchase', properties: { amount: 10 } },
      // Signing up again does not enter a profile a second time (once ever).
      { profileId: 'j-1', event: 'signup', properties: { plan: 'pro' } },
    ]);
    await expect.poll(async () => stepOf(await results(id), 'end').completed, { timeout: 30_000 }).toBe(2);
    // j-3's day is over: the sweep wakes its wait, which times out.
    await t.database.db.execute(
      sql`update journey_tasks set due_at = now() where workspace_id = ${team.ws} and profile_id = 'j-3' and state = 'due'`,
    );
    await queueDueTasks(t.database.db);
    await expect.poll(async () => stepOf(await results(id), 'end').completed, { timeout: 30_000 }).toBe(3);
    await expect.poll(() => sink.received.length, { timeout: 30_000 }).toBe(5);
    expect(mailbox()).toEqual({
      'ada@example.com': ['VIP Ada', 'Welcome Ada'],
      'bob@example.com': ['Welcome Bob'],
      'cy@example.com': ['Still thinking, Cy?', 'Welcome Cy'],
    });
    // Through the campaigns pipeline: the unsubscribe headers and the open pixel come with each message.
    for (const { mail } of sink.received) {
      expect(mail.headerLines.find((line) => line.key === 'list-unsubscribe')?.line).toMatch(
        /marquee\.test\/u\//,
      );
      expect(mail.html).toMatch(/marquee\.test\/t\/o\//);
    }
    const answer = await results(id);
    expect(answer.versions[0]).toMatchObject({ version: 1, entered: 3, active: 0, converted: 0 });
    expect(stepOf(answer, 'buy')).toMatchObject({
      entered: 3,
      completed: 3,
      exits: { event: 2, timeout: 1 },
    });
    expect(stepOf(answer, 'gold').exits).toEqual({ yes: 1, no: 1 });
    expect(stepOf(answer, 'end')).toMatchObject({ entered: 3, exited: 3 });
    const [cy] = rows<{ city: string }>(
      await t.database.db.execute(
        sql`select attributes->>'city' as city from customer_profiles where workspace_id = ${team.ws} and id = 'j-3'`,
      ),
    );
    expect(cy.city).toBe('Reminded');
    // Events written in one transaction share their time: compared as a set.
    const timeline = (await journeyEvents('j-2')).map((e) => `${e.event} ${String(e.properties.step ?? '')}`);
    expect(timeline.sort()).toEqual([
      'journey-entered ',
      'journey-exited end',
      'journey-step buy',
      'journey-step end',
      'journey-step gold',
      'journey-step welcome',
    ]);
    expect(await journeyEvents('j-4')).toEqual([]);
  });
});

describe('a goal and the API entry', () => {
  let id: string;

  it('enters profiles through the API as the re-entry rule allows, refusing unknown ids', async () => {
    id = await newJourney(goalJourney());
    expect((await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter)).statusCode).toBe(
      200,
    );
    const url = journeysUrl(team.ws, id, 'enter');
    const denied = await call(t, 'POST', url, team.members.marketer, { profileIds: ['j-5'] });
    expect(denied.statusCode).toBe(403);
    const elsewhere = await call(t, 'POST', url, team.members.starter, { profileIds: ['j-5', 'nobody'] });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.message).toBe(JOURNEY_MESSAGES.unknownProfiles(['nobody']));
    const entered = await call(t, 'POST', url, team.members.starter, { profileIds: ['j-5', 'j-4'] });
    expect(entered.json()).toEqual({ entered: 2, refused: 0 });
    // Already in it: after-exit lets a profile in again only once its run has ended.
    expect((await call(t, 'POST', url, team.members.starter, { profileIds: ['j-5'] })).json()).toEqual({
      entered: 0,
      refused: 1,
    });
    await expect.poll(async () => stepOf(await results(id), 'month').waiting, { timeout: 30_000 }).toBe(2);
  });

  it('ends a run at its goal from inside a 30-day wait, counted as a conversion', async () => {
    await track([{ profileId: 'j-5', event: 'purchase', properties: { amount: 5 } }]);
    await expect.poll(async () => (await results(id)).versions[0].converted, { timeout: 30_000 }).toBe(1);
    expect(stepOf(await results(id), 'month')).toMatchObject({ entered: 2, waiting: 1, converted: 1 });
    expect((await journeyEvents('j-5')).at(-1)).toMatchObject({
      event: 'journey-exited',
      properties: { journey: id, step: 'month', reason: 'goal' },
    });
    const again = await call(t, 'POST', journeysUrl(team.ws, id, 'enter'), team.members.starter, {
      profileIds: ['j-5'],
    });
    expect(again.json()).toEqual({ entered: 1, refused: 0 });
  });

  it('pauses, resumes and stops for a member who may start it, with audit rows', async () => {
    expect((await call(t, 'POST', journeysUrl(team.ws, id, 'pause'), team.members.marketer)).statusCode).toBe(
      403,
    );
    const paused = await call(t, 'POST', journeysUrl(team.ws, id, 'pause'), team.members.starter);
    expect(paused.json().journey.state).toBe('paused');
    expect((await call(t, 'POST', journeysUrl(team.ws, id, 'pause'), team.members.starter)).statusCode).toBe(
      409,
    );
    const notRunning = await call(t, 'POST', journeysUrl(team.ws, id, 'enter'), team.members.starter, {
      profileIds: ['j-1'],
    });
    expect(notRunning.statusCode).toBe(409);
    expect(
      (await call(t, 'POST', journeysUrl(team.ws, id, 'resume'), team.members.starter)).json().journey.state,
    ).toBe('running');
    expect(
      (await call(t, 'POST', journeysUrl(team.ws, id, 'stop'), team.members.starter)).json().journey.state,
    ).toBe('stopped');
    const answer = await results(id);
    expect(answer).toMatchObject({ state: 'stopped' });
    expect(answer.versions[0]).toMatchObject({ active: 0 });
    expect(stepOf(answer, 'month')).toMatchObject({ waiting: 0, exited: 2 });
    const audit = await call(t, 'GET', wsUrl(team.ws, 'audit?limit=10'), manager);
    const actions = audit.json().entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['journey.pause', 'journey.resume', 'journey.stop', 'journey.enter']),
    );
    expect(mailbox()['eve@example.com']).toBeUndefined();
  });

  it("forgets an erased profile's runs", async () => {
    const count = async () =>
      rows<{ n: string | number }>(
        await t.database.db.execute(
          sql`select (select count(*) from journey_runs where workspace_id = ${team.ws} and profile_id = 'j-4')
            + (select count(*) from journey_tasks where workspace_id = ${team.ws} and profile_id = 'j-4') as n`,
        ),
      )[0].n;
    expect(Number(await count())).toBeGreaterThan(0);
    expect((await call(t, 'DELETE', wsUrl(team.ws, 'profiles/j-4'), manager)).statusCode).toBe(200);
    expect(Number(await count())).toBe(0);
  });
});

describe('re-entry every N days and a split with a holdout', () => {
  it('lets a profile in again only once the days have passed, and holds out the holdout', async () => {
    const id = await newJourney({
      entry: { kind: 'api' },
      reentry: { mode: 'every', days: 7 },
      start: 'ab',
      steps: [
        { id: 'ab', type: 'split', paths: [{ key: 'a', percent: 0 }], holdoutPercent: 100 },
        { id: 'end', type: 'exit' },
      ],
      edges: [{ from: 'ab', exit: 'a', to: 'end' }],
    });
    expect((await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter)).statusCode).toBe(
      200,
    );
    const enter = async () =>
      (
        await call(t, 'POST', journeysUrl(team.ws, id, 'enter'), team.members.starter, {
          profileIds: ['j-2'],
        })
      ).json();
    expect(await enter()).toEqual({ entered: 1, refused: 0 });
    await expect.poll(async () => stepOf(await results(id), 'ab').exited, { timeout: 30_000 }).toBe(1);
    expect(stepOf(await results(id), 'end').entered).toBe(0);
    const exited = (await journeyEvents('j-2')).filter(
      (e) => e.event === 'journey-exited' && e.properties.journey === id,
    );
    expect(exited.map((e) => e.properties)).toEqual([
      { journey: id, version: 1, step: 'ab', reason: 'holdout' },
    ]);
    // Finished, but within the 7 days.
    expect(await enter()).toEqual({ entered: 0, refused: 1 });
    await t.database.db.execute(
      sql`update journey_runs set entered_at = now() - interval '8 days' where workspace_id = ${team.ws} and journey_id = ${id}`,
    );
    expect(await enter()).toEqual({ entered: 1, refused: 0 });
  });
});

describe('several processes', () => {
  it('run each step once per profile, sending each its path once', async () => {
    const workers = await startJobWorkers(t);
    try {
      const ids = Array.from({ length: 20 }, (_, i) => `k-${i + 1}`);
      const csv = ['id,email,first-name', ...ids.map((id) => `${id},${id}@example.org,${id}`)].join('\n');
      expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', csv)).statusCode).toBeLessThan(
        300,
      );
      const id = await newJourney({
        entry: { kind: 'api' },
        start: 'hi',
        steps: [
          email('hi', 'Hi'),
          {
            id: 'ab',
            type: 'split',
            paths: [
              { key: 'a', percent: 50 },
              { key: 'b', percent: 50 },
            ],
          },
          email('a', 'A'),
          email('b', 'B'),
          { id: 'end', type: 'exit' },
        ],
        edges: [
          { from: 'hi', to: 'ab' },
          { from: 'ab', exit: 'a', to: 'a' },
          { from: 'ab', exit: 'b', to: 'b' },
          { from: 'a', to: 'end' },
          { from: 'b', to: 'end' },
        ],
      });
      expect(
        (await call(t, 'POST', journeysUrl(team.ws, id, 'start'), team.members.starter)).statusCode,
      ).toBe(200);
      const entered = await call(t, 'POST', journeysUrl(team.ws, id, 'enter'), team.members.starter, {
        profileIds: ids,
      });
      expect(entered.json()).toEqual({ entered: 20, refused: 0 });
      await expect.poll(async () => stepOf(await results(id), 'end').completed, { timeout: 30_000 }).toBe(20);
      const ours = () => Object.entries(mailbox()).filter(([address]) => address.endsWith('@example.org'));
      await expect
        .poll(() => ours().reduce((n, [, subjects]) => n + subjects.length, 0), { timeout: 30_000 })
        .toBe(40);
      const split = stepOf(await results(id), 'ab').exits;
      expect(split.a + split.b).toBe(20);
      for (const [, subjects] of ours())
        expect([
          ['A', 'Hi'],
          ['B', 'Hi'],
        ]).toContainEqual(subjects);
      expect(ours().filter(([, subjects]) => subjects[0] === 'A')).toHaveLength(split.a);
    } finally {
      await workers.close();
    }
  });
});
