import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { JOURNEY_MESSAGES } from '@shared/api/journeys';
import { nextTimeOfDay, dateMoment } from '@shared/journeys/time';
import { dayjs } from '@shared/time/dayjs';
import { rows } from '@server/db/migrate';
import { queueDueTasks } from '@server/journeys/engine';
import { call, createItem } from '../factories/items';
import { attributeRule, group, wsUrl } from '../factories/customers';
import { journeyBed, type JourneyBed } from '../factories/journeys';
import { Receiver } from '../fixtures/http-receiver';

const PROFILES = [
  'id,email,first-name,age,timezone,renews',
  's-1,s1@example.com,S1,40,Asia/Tokyo,',
  's-2,s2@example.com,S2,12,America/Phoenix,',
  's-3,s3@example.com,S3,33,,',
].join('\n');

let bed: JourneyBed;
const receiver = new Receiver();
let hookUrl: string;

beforeAll(async () => {
  bed = await journeyBed(PROFILES);
  hookUrl = await receiver.start();
});
afterAll(async () => {
  await bed.close();
  await receiver.stop();
});

const mark = (id: string, value: string) => ({ id, type: 'update-attribute', attribute: 'city', value });
const end = { id: 'end', type: 'exit' };

/** Makes the profile's waiting task of the journey due now, as if its time had come, and wakes it. */
async function timePasses(journeyId: string, days: number) {
  await bed.t.database.db.execute(sql`
    update journey_tasks set due_at = now(), entered_at = entered_at - make_interval(days => ${days}::int)
    where workspace_id = ${bed.team.ws} and journey_id = ${journeyId} and state = 'due'`);
  await queueDueTasks(bed.t.database.db);
}

describe('waits until a time', () => {
  it("waits for the next Monday at 09:00 in the profile's zone", async () => {
    const id = await bed.newJourney({
      entry: { kind: 'api' },
      start: 'monday',
      steps: [{ id: 'monday', type: 'wait-until', at: '09:00', weekdays: [1] }, mark('on', 'Monday'), end],
      edges: [
        { from: 'monday', to: 'on' },
        { from: 'on', to: 'end' },
      ],
    });
    expect((await bed.start(id)).statusCode).toBe(200);
    expect(await bed.enter(id, ['s-1', 's-2'])).toEqual({ entered: 2, refused: 0 });
    for (const [profile, zone] of [
      ['s-1', 'Asia/Tokyo'],
      ['s-2', 'America/Phoenix'],
    ]) {
      await expect
        .poll(async () => (await bed.taskAt(id, profile, 'monday'))?.due_at.getTime() ?? 0, {
          timeout: 30_000,
        })
        .toBeGreaterThan(Date.now());
      const task = (await bed.taskAt(id, profile, 'monday'))!;
      expect(task.due_at).toEqual(nextTimeOfDay(task.entered_at, zone, '09:00', [1]));
      const local = dayjs(task.due_at).tz(zone);
      expect([local.day(), local.format('HH:mm')]).toEqual([1, '09:00']);
    }
    expect(await bed.reached(id, 'on')).toEqual([]);
    await timePasses(id, 8);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['s-1', 's-2']);
  });

  it('waits until two days before a date attribute, and goes on at once without one', async () => {
    const renews = dayjs().add(10, 'day').format('YYYY-MM-DD');
    await bed.updateProfiles(`id,renews\ns-3,${renews}`);
    const id = await bed.newJourney({
      entry: { kind: 'api' },
      start: 'before',
      steps: [
        { id: 'before', type: 'wait-until-date', attribute: 'renews', offsetDays: -2, at: '10:00' },
        mark('remind', 'Renewal'),
        end,
      ],
      edges: [
        { from: 'before', to: 'remind' },
        { from: 'remind', to: 'end' },
      ],
    });
    expect((await bed.start(id)).statusCode).toBe(200);
    expect(await bed.enter(id, ['s-1', 's-3'])).toEqual({ entered: 2, refused: 0 });
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['s-1']);
    const task = (await bed.taskAt(id, 's-3', 'before'))!;
    expect(task.state).toBe('due');
    // s-3 has no zone of its own: the workspace's (UTC).
    const due = dateMoment(renews, { offsetDays: -2, at: '10:00', yearly: false }, 'UTC', task.entered_at);
    expect(task.due_at).toEqual(due);
    expect(dayjs.utc(task.due_at).format('YYYY-MM-DD HH:mm')).toBe(
      `${dayjs(renews).subtract(2, 'day').format('YYYY-MM-DD')} 10:00`,
    );
    expect(bed.stepOf(await bed.results(id), 'before').outcomes).toEqual({ 'no date': 1 });
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = now() where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'`);
    await queueDueTasks(bed.t.database.db);
    // Woken early (its date not come), it waits on.
    await expect
      .poll(async () => (await bed.taskAt(id, 's-3', 'before'))?.due_at.getTime(), { timeout: 30_000 })
      .toBe(due.getTime());
    await bed.updateProfiles(`id,renews\ns-3,${dayjs().subtract(1, 'day').format('YYYY-MM-DD')}`);
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = now() where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'`);
    await queueDueTasks(bed.t.database.db);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['s-1', 's-3']);
  });
});

/** The journey's first tasks with a job waiting for them, and how many jobs hold them. */
async function jobsOf(journeyId: string) {
  const [found] = rows<{ queued: number; jobs: number }>(
    await bed.t.database.db.execute(sql`
      select count(distinct (t.run_id, t.seq))::int as queued, count(distinct j.id)::int as jobs
      from journey_tasks t join pgboss.job j on j.name = 'journey-task' and (
        j.singleton_key = t.workspace_id || '/' || t.run_id || '/' || t.seq
        or (j.data ->> 'workspaceId' = t.workspace_id and j.data -> 'tasks' @> jsonb_build_array(jsonb_build_array(t.run_id, t.seq))))
      where t.workspace_id = ${bed.team.ws} and t.journey_id = ${journeyId} and t.seq = 1`),
  );
  return found;
}

/** A started journey entered through the API: a day's wait, a mark, the end. */
async function startedDayWait() {
  const id = await bed.newJourney({
    entry: { kind: 'api' },
    start: 'day',
    steps: [{ id: 'day', type: 'wait', seconds: 86_400 }, mark('woke', 'Woken'), end],
    edges: [
      { from: 'day', to: 'woke' },
      { from: 'woke', to: 'end' },
    ],
  });
  expect((await bed.start(id)).statusCode).toBe(200);
  return id;
}

describe('waits ending together', () => {
  it('are each woken by the sweep, however many more than its page come due at the same moment', async () => {
    const id = await startedDayWait();
    expect(await bed.enter(id, ['s-1', 's-2', 's-3'])).toEqual({ entered: 3, refused: 0 });
    // One statement: the three are due at the very same moment.
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = now() where workspace_id = ${bed.team.ws} and journey_id = ${id}`);
    await queueDueTasks(bed.t.database.db, 2);
    expect(await jobsOf(id)).toEqual({ queued: 3, jobs: 2 });
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['s-1', 's-2', 's-3']);
  });

  it('share their jobs: a job for the waits of a workspace ending in the same second', async () => {
    const id = await startedDayWait();
    const profiles = Array.from({ length: 12 }, (_, i) => `together-${i}`);
    await bed.updateProfiles(['id', ...profiles].join('\n'));
    expect(await bed.enter(id, profiles)).toEqual({ entered: 12, refused: 0 });
    // Due in the same second, a moment from now: the sweep queues them ahead of their time.
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = date_trunc('second', now()) + interval '2 seconds'
      where workspace_id = ${bed.team.ws} and journey_id = ${id}`);
    await queueDueTasks(bed.t.database.db);
    expect(await jobsOf(id)).toEqual({ queued: 12, jobs: 1 });
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual([...profiles].sort());
  });
});

describe('branches on audiences and past events', () => {
  it('takes yes for members of the audience', async () => {
    const adults = (
      await createItem(bed.t, bed.manager, bed.team.ws, 'audience', {
        name: 'Grown-ups',
        criteria: group('and', [attributeRule(bed.defs, 'age', '>=', 18)]),
      })
    ).id;
    const id = await bed.newJourney({
      entry: { kind: 'api' },
      start: 'adult',
      steps: [
        { id: 'adult', type: 'audience-branch', audience: adults },
        mark('yes', 'A'),
        mark('no', 'M'),
        end,
      ],
      edges: [
        { from: 'adult', exit: 'yes', to: 'yes' },
        { from: 'adult', exit: 'no', to: 'no' },
        { from: 'yes', to: 'end' },
        { from: 'no', to: 'end' },
      ],
    });
    expect((await bed.start(id)).statusCode).toBe(200);
    await bed.enter(id, ['s-1', 's-2', 's-3']);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toHaveLength(3);
    expect(await bed.reached(id, 'yes')).toEqual(['s-1', 's-3']);
    expect(await bed.reached(id, 'no')).toEqual(['s-2']);
    expect(bed.stepOf(await bed.results(id), 'adult').exits).toEqual({ yes: 2, no: 1 });
  });

  it('takes yes when the event happened in the last N days with its conditions', async () => {
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const res = await call(bed.t, 'POST', wsUrl(bed.team.ws, 'customer-events'), bed.manager, {
      events: [
        { profileId: 's-1', event: 'purchase', at: at(1), properties: { amount: 200 } },
        { profileId: 's-2', event: 'purchase', at: at(1), properties: { amount: 50 } },
        { profileId: 's-3', event: 'purchase', at: at(8), properties: { amount: 500 } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = await bed.newJourney({
      entry: { kind: 'api' },
      start: 'big',
      steps: [
        {
          id: 'big',
          type: 'event-branch',
          event: 'purchase',
          conditions: [{ key: 'amount', op: '>', value: 100 }],
          withinDays: 7,
        },
        mark('yes', 'Big'),
        end,
      ],
      edges: [
        { from: 'big', exit: 'yes', to: 'yes' },
        { from: 'big', exit: 'no', to: 'end' },
        { from: 'yes', to: 'end' },
      ],
    });
    expect((await bed.start(id)).statusCode).toBe(200);
    await bed.enter(id, ['s-1', 's-2', 's-3']);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toHaveLength(3);
    expect(await bed.reached(id, 'yes')).toEqual(['s-1']);
  });
});

describe('a webhook step', () => {
  const hookJourney = () => ({
    entry: { kind: 'api' },
    reentry: { mode: 'after-exit' },
    start: 'hook',
    steps: [
      { id: 'hook', name: 'Tell the CRM', type: 'webhook', url: hookUrl },
      mark('ok', 'Hooked'),
      mark('ko', 'Not'),
      end,
    ],
    edges: [
      { from: 'hook', exit: 'next', to: 'ok' },
      { from: 'hook', exit: 'failed', to: 'ko' },
      { from: 'ok', to: 'end' },
      { from: 'ko', to: 'end' },
    ],
  });

  it('POSTs the profile and the journey, signed, tried again after a failure', async () => {
    const id = await bed.newJourney(hookJourney());
    expect((await bed.start(id)).statusCode).toBe(200);
    receiver.plan = [500];
    await bed.enter(id, ['s-1']);
    await expect.poll(() => bed.reached(id, 'ok'), { timeout: 30_000 }).toEqual(['s-1']);
    expect(receiver.requests).toHaveLength(2);
    const { headers, body } = receiver.requests[1];
    expect(JSON.parse(body)).toMatchObject({
      type: 'journey.webhook',
      journey: { id, version: 1, step: 'hook' },
      profile: { id: 's-1', attributes: { 'first-name': 'S1' } },
    });
    expect(receiver.requests[0].headers['x-marquee-delivery']).toBe(headers['x-marquee-delivery']);
    // The signature verifies with the workspace's journey webhook secret, which only managers read.
    const limits = await call(bed.t, 'GET', wsUrl(bed.team.ws, 'journey-limits'), bed.manager);
    const secret = limits.json().webhookSecret as string;
    expect(secret).toMatch(/^whsec_/);
    const member = await call(bed.t, 'GET', wsUrl(bed.team.ws, 'journey-limits'), bed.team.members.marketer);
    expect(member.json().webhookSecret).toBeUndefined();
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(headers['x-marquee-signature']))!;
    expect(crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')).toBe(v1);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['s-1']);
    expect(bed.stepOf(await bed.results(id), 'hook')).toMatchObject({
      completed: 1,
      exits: { next: 1, failed: 0 },
      outcomes: { 'webhook: delivered': 1 },
    });
    const step = (await bed.journeyEvents('s-1', id)).find((e) => e.properties.step === 'hook');
    expect(step?.properties).toMatchObject({ outcome: 'webhook: delivered', status: 200, tries: 2 });
  });

  it('takes the failed exit once its tries are spent', async () => {
    const id = await bed.newJourney(hookJourney());
    expect((await bed.start(id)).statusCode).toBe(200);
    receiver.requests = [];
    receiver.plan = [500, 500, 500, 500, 500];
    await bed.enter(id, ['s-2']);
    await expect.poll(() => bed.reached(id, 'ko'), { timeout: 30_000 }).toEqual(['s-2']);
    expect(receiver.requests).toHaveLength(5);
    const step = (await bed.journeyEvents('s-2', id)).find((e) => e.properties.step === 'hook');
    expect(step?.properties).toMatchObject({
      exit: 'failed',
      outcome: 'webhook: failed',
      status: 500,
      error: 'Answered HTTP 500',
    });
    expect(bed.stepOf(await bed.results(id), 'hook').outcomes).toEqual({ 'webhook: failed': 1 });
  });

  it('refuses a webhook without a URL and a branch without its audience, naming the step', async () => {
    const cases: [object, string][] = [
      [
        {
          ...hookJourney(),
          steps: hookJourney().steps.map((s) => (s.id === 'hook' ? { ...s, url: '' } : s)),
        },
        'Step "Tell the CRM": enter the URL to call',
      ],
      [
        {
          ...hookJourney(),
          steps: hookJourney().steps.map((s) => (s.id === 'hook' ? { ...s, url: 'ftp://example.com' } : s)),
        },
        'Step "Tell the CRM": the URL must start with http:// or https://',
      ],
      [
        {
          entry: { kind: 'api' },
          start: 'who',
          steps: [{ id: 'who', type: 'audience-branch' }, end],
          edges: [
            { from: 'who', exit: 'yes', to: 'end' },
            { from: 'who', exit: 'no', to: 'end' },
          ],
        },
        'Step "who": choose the audience',
      ],
      [
        {
          entry: { kind: 'api' },
          start: 'who',
          steps: [{ id: 'who', type: 'audience-branch', audience: 'gone' }, end],
          edges: [
            { from: 'who', exit: 'yes', to: 'end' },
            { from: 'who', exit: 'no', to: 'end' },
          ],
        },
        'Step "who": the audience no longer exists',
      ],
    ];
    for (const [definition, problem] of cases) {
      const res = await bed.start(await bed.newJourney(definition));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toBe(JOURNEY_MESSAGES.badDefinition(problem));
    }
  });
});
