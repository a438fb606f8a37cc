import { sql } from 'drizzle-orm';
import { JOURNEY_MESSAGES, type JourneyStartPlan } from '@shared/api/journeys';
import { rows } from '@server/db/migrate';
import { queueDueTasks } from '@server/journeys/engine';
import { call } from '../factories/items';
import { wsUrl } from '../factories/customers';
import { journeyBed, journeysUrl, type JourneyBed } from '../factories/journeys';

const PROFILES = [
  'id,email,first-name,tier',
  'v-1,v1@example.com,V1,gold',
  'v-2,v2@example.com,V2,gold',
  'v-3,v3@example.com,V3,gold',
  'v-4,v4@example.com,V4,gold',
  'v-5,v5@example.com,V5,silver',
  'v-6,v6@example.com,V6,silver',
].join('\n');
const EVERYONE = ['v-1', 'v-2', 'v-3', 'v-4', 'v-5', 'v-6'];
const DAY = 86_400;

let bed: JourneyBed;
beforeAll(async () => {
  bed = await journeyBed(PROFILES);
});
afterAll(() => bed.close());

const gold = { id: 'gold', type: 'branch', conditions: [{ key: 'tier', op: '==', value: 'gold' }] };
const end = { id: 'end', type: 'exit' };

/**
 * Version 1: hello, then gold profiles wait 30 days, are asked, and wait 10 days for a purchase before
 * a goodbye; the others wait 20 days (`slow`) for the goodbye.
 */
const versionOne = () => ({
  entry: { kind: 'api' },
  start: 'hello',
  steps: [
    bed.email('hello', 'Hello'),
    gold,
    { id: 'hold', type: 'wait', seconds: 30 * DAY },
    bed.email('ask', 'Ask'),
    { id: 'later', type: 'wait-for-event', event: 'purchase', timeoutSeconds: 10 * DAY },
    { id: 'slow', type: 'wait', seconds: 20 * DAY },
    bed.email('bye', 'Bye'),
    end,
  ],
  edges: [
    { from: 'hello', to: 'gold' },
    { from: 'gold', exit: 'yes', to: 'hold' },
    { from: 'gold', exit: 'no', to: 'slow' },
    { from: 'hold', to: 'ask' },
    { from: 'ask', to: 'later' },
    { from: 'later', exit: 'event', to: 'end' },
    { from: 'later', exit: 'timeout', to: 'bye' },
    { from: 'slow', to: 'bye' },
    { from: 'bye', to: 'end' },
  ],
});

/**
 * Version 2: the gold wait is 60 days and is followed by the ask and a thank-you; `later` is now a plain
 * wait on the other path; `slow` and `bye` are gone.
 */
const versionTwo = () => ({
  entry: { kind: 'api' },
  start: 'hello',
  steps: [
    bed.email('hello', 'Hello'),
    gold,
    { id: 'hold', type: 'wait', seconds: 60 * DAY },
    bed.email('ask', 'Ask'),
    bed.email('thanks', 'Thanks'),
    { id: 'later', type: 'wait', seconds: 60 },
    end,
  ],
  edges: [
    { from: 'hello', to: 'gold' },
    { from: 'gold', exit: 'yes', to: 'hold' },
    { from: 'gold', exit: 'no', to: 'later' },
    { from: 'hold', to: 'ask' },
    { from: 'ask', to: 'thanks' },
    { from: 'thanks', to: 'end' },
    { from: 'later', to: 'end' },
  ],
});

const plan = (id: string, user = bed.team.members.starter, ws = bed.team.ws) =>
  call(bed.t, 'GET', journeysUrl(ws, id, 'start-plan'), user);

/** Per step of version 1: the profiles whose run is active and whose latest visit is there. */
async function profilesWaitingAt(id: string) {
  const found = rows<{ step_id: string; profile_id: string }>(
    await bed.t.database.db.execute(sql`
      select distinct on (r.id) t.step_id, r.profile_id
      from journey_runs r join journey_tasks t on t.workspace_id = r.workspace_id and t.run_id = r.id
      where r.workspace_id = ${bed.team.ws} and r.journey_id = ${id} and r.state = 'active'
      order by r.id, t.seq desc`),
  );
  const byStep: Record<string, string[]> = {};
  for (const row of found) (byStep[row.step_id] ??= []).push(row.profile_id);
  for (const ids of Object.values(byStep)) ids.sort();
  return byStep;
}

/** The profiles' runs of the journey: the version each is on, its state and where it ended. */
async function runsOf(id: string) {
  return rows<{ profile_id: string; version: number; state: string; exit_step: string | null }>(
    await bed.t.database.db.execute(sql`
      select profile_id, version, state, exit_step from journey_runs
      where workspace_id = ${bed.team.ws} and journey_id = ${id} order by profile_id`),
  );
}

/** What a refused start might have written: the started versions and every task's state. */
async function written(id: string) {
  return rows(
    await bed.t.database.db.execute(sql`
      select 'start' as kind, version::text as a, state as b from journey_starts
        where workspace_id = ${bed.team.ws} and journey_id = ${id}
      union all
      select 'task', run_id || '/' || seq, state || '/' || version from journey_tasks
        where workspace_id = ${bed.team.ws} and journey_id = ${id}
      order by 1, 2`),
  );
}

/** Makes the due tasks of `profiles` (all by default) due now, as if their time had come, and wakes them. */
async function timePasses(id: string, profiles: string[] = EVERYONE) {
  await bed.t.database.db.execute(sql`
    update journey_tasks set due_at = now()
    where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'
      and profile_id in (${sql.join(
        profiles.map((profile) => sql`${profile}`),
        sql`, `,
      )})`);
  await queueDueTasks(bed.t.database.db);
}

const mailOf = (profile: string) => bed.mailbox()[`${profile.replace('-', '')}@example.com`] ?? [];
const mailCount = () => Object.values(bed.mailbox()).reduce((n, subjects) => n + subjects.length, 0);

describe('starting a new version while an older one runs', () => {
  let id: string;
  let migrate: Record<string, Record<string, string | null>>;

  it('plans nothing to move for a first start', async () => {
    id = await bed.newJourney(versionOne());
    const first = await plan(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ journeyId: id, version: 1, versions: [] });
    expect((await bed.start(id)).statusCode).toBe(200);
    expect(await bed.enter(id, EVERYONE)).toEqual({ entered: 6, refused: 0 });
    await expect
      .poll(() => profilesWaitingAt(id), { timeout: 30_000 })
      .toEqual({ hold: ['v-1', 'v-2', 'v-3', 'v-4'], slow: ['v-5', 'v-6'] });
    await timePasses(id, ['v-3', 'v-4']);
    await expect
      .poll(() => profilesWaitingAt(id), { timeout: 30_000 })
      .toEqual({ hold: ['v-1', 'v-2'], later: ['v-3', 'v-4'], slow: ['v-5', 'v-6'] });
    await expect.poll(mailCount, { timeout: 30_000 }).toBe(8);
  });

  it('counts who waits at each step of the older version and maps steps of the same id and kind', async () => {
    const v2 = await bed.newVersion(id, versionTwo());
    expect(v2).toBe(2);
    const res = await plan(id);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as JourneyStartPlan;
    expect(answer.version).toBe(2);
    expect(answer.steps.map((step) => step.stepId)).toEqual(versionTwo().steps.map((step) => step.id));
    expect(answer.versions.map((each) => [each.version, each.state])).toEqual([[1, 'running']]);
    const waitingNow = await profilesWaitingAt(id);
    const steps = answer.versions[0].steps;
    for (const step of steps) expect(step.waiting, step.stepId).toBe(waitingNow[step.stepId]?.length ?? 0);
    expect(Object.fromEntries(steps.map((step) => [step.stepId, step.target]))).toEqual({
      hello: 'hello',
      gold: 'gold',
      hold: 'hold',
      ask: 'ask',
      // Version 2's `later` is a plain wait, not a wait for an event.
      later: null,
      slow: null,
      bye: null,
      end: 'end',
    });
    migrate = { 1: { ...Object.fromEntries(steps.map((step) => [step.stepId, step.target])), later: 'ask' } };
  });

  it('refuses a mapping that names what is not there with 400 naming it, writing nothing', async () => {
    const before = await written(id);
    const cases: [object, string][] = [
      [{ 1: { nope: 'hold' } }, JOURNEY_MESSAGES.migrateUnknownStep('1', 'nope')],
      [{ 1: { hold: 'slow' } }, JOURNEY_MESSAGES.migrateUnknownTarget(2, 'hold', 'slow')],
      [{ 7: { hold: 'hold' } }, JOURNEY_MESSAGES.migrateNotRunning('7')],
      [{ 2: { hold: 'hold' } }, JOURNEY_MESSAGES.migrateNotRunning('2')],
    ];
    for (const [body, message] of cases) {
      const res = await bed.start(id, { migrate: body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const malformed = await bed.start(id, { migrate: { one: { hold: 'hold' } } });
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(await written(id)).toEqual(before);
  });

  it('refuses the plan and the start to a member who may not publish journeys, writing nothing', async () => {
    const before = await written(id);
    const { marketer } = bed.team.members;
    expect((await plan(id, marketer)).statusCode).toBe(403);
    const denied = await call(bed.t, 'POST', journeysUrl(bed.team.ws, id, 'start'), marketer, { migrate });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(JOURNEY_MESSAGES.cannotStart);
    expect((await call(bed.t, 'GET', journeysUrl(bed.team.ws, id, 'start-plan'))).statusCode).toBe(401);
    // Another workspace's journey is not found there.
    expect((await plan(id, bed.manager, bed.other.ws)).statusCode).toBe(404);
    expect(await written(id)).toEqual(before);
  });

  it('moves the mapped runs to the new version in the start, and leaves the rest on the old one', async () => {
    const holdDue = await bed.taskAt(id, 'v-1', 'hold');
    const res = await bed.start(id, { migrate });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ journey: { version: 2, state: 'running' }, moved: 4 });
    // A wait moved to a wait keeps its time: 30 days from entry, not version 2's 60.
    const moved = await bed.taskAt(id, 'v-1', 'hold');
    expect(moved).toMatchObject({ state: 'due' });
    expect(moved.due_at).toEqual(holdDue.due_at);
    // Those at `later` go on at version 2's ask, which they were mailed on version 1: only the thanks comes.
    await expect
      .poll(async () => (await runsOf(id)).filter((run) => run.state === 'finished').length, {
        timeout: 30_000,
      })
      .toBe(2);
    await expect.poll(mailCount, { timeout: 30_000 }).toBe(10);
    expect(mailOf('v-3')).toEqual(['Ask', 'Hello', 'Thanks']);
    const answer = await bed.results(id);
    expect(answer.versions.map((each) => each.version)).toEqual([2, 1]);
    const [two, one] = answer.versions;
    const at = (version: typeof one, stepId: string) => version.steps.find((step) => step.stepId === stepId)!;
    expect(at(two, 'ask')).toMatchObject({ entered: 2, outcomes: { 'skipped: sent before': 2 } });
    expect(at(one, 'later')).toMatchObject({ waiting: 0, outcomes: { 'moved: version 2': 2 } });
    expect(at(one, 'hold')).toMatchObject({ waiting: 0, outcomes: { 'moved: version 2': 2 } });
    expect(at(one, 'slow')).toMatchObject({ waiting: 2 });
    expect(at(two, 'hold')).toMatchObject({ waiting: 2 });
    const audit = await call(bed.t, 'GET', wsUrl(bed.team.ws, 'audit?limit=5'), bed.manager);
    const start = audit.json().entries.find((entry: { action: string }) => entry.action === 'journey.start');
    expect(start.detail.moved).toEqual(
      expect.arrayContaining([
        { version: 1, step_id: 'hold', n: 2 },
        { version: 1, step_id: 'later', n: 2 },
      ]),
    );
    expect((await plan(id)).statusCode).toBe(409);
  });

  it("finishes the moved runs on the new version's path and the others on the old one's, none mailed twice", async () => {
    await timePasses(id);
    await expect
      .poll(async () => (await runsOf(id)).filter((run) => run.state === 'finished').length, {
        timeout: 30_000,
      })
      .toBe(6);
    expect((await runsOf(id)).map((run) => [run.profile_id, run.version, run.exit_step])).toEqual([
      ['v-1', 2, 'end'],
      ['v-2', 2, 'end'],
      ['v-3', 2, 'end'],
      ['v-4', 2, 'end'],
      ['v-5', 1, 'end'],
      ['v-6', 1, 'end'],
    ]);
    await expect.poll(mailCount, { timeout: 30_000 }).toBe(16);
    for (const profile of ['v-1', 'v-2', 'v-3', 'v-4'])
      expect(mailOf(profile)).toEqual(['Ask', 'Hello', 'Thanks']);
    for (const profile of ['v-5', 'v-6']) expect(mailOf(profile)).toEqual(['Bye', 'Hello']);
    expect(await bed.reached(id, 'bye')).toEqual(['v-5', 'v-6']);
  });
});
