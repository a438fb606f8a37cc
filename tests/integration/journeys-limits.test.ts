import { sql } from 'drizzle-orm';
import { JOURNEY_MESSAGES, type JourneyLimits } from '@shared/api/journeys';
import { nextTimeOfDay } from '@shared/journeys/time';
import { dayjs } from '@shared/time/dayjs';
import { openDatabase } from '@server/db/client';
import { rows } from '@server/db/migrate';
import { queueDueTasks } from '@server/journeys/engine';
import { call } from '../factories/items';
import { wsUrl } from '../factories/customers';
import { lockWaiters, testDatabaseKind } from '../helpers/database';
import { journeyBed, journeysUrl, type JourneyBed } from '../factories/journeys';

const PROFILES = [
  'id,email,first-name,timezone',
  'c-1,c1@example.com,C1,',
  'c-2,c2@example.com,C2,',
  'c-3,c3@example.com,C3,',
  'q-tokyo,qt@example.com,QT,Asia/Tokyo',
  'q-phoenix,qp@example.com,QP,America/Phoenix',
  'q-none,qn@example.com,QN,',
  'p-1,p1@example.com,P1,',
  'p-2,p2@example.com,P2,',
  'p-3,p3@example.com,P3,',
  'd-1,d1@example.com,D1,',
  'd-2,d2@example.com,D2,',
  ...Array.from({ length: 12 }, (_, i) => `b-${i},b${i}@example.com,B${i},`),
].join('\n');

let bed: JourneyBed;
beforeAll(async () => {
  bed = await journeyBed(PROFILES);
});
afterAll(() => bed.close());

const limitsUrl = () => wsUrl(bed.team.ws, 'journey-limits');
const setLimits = async (limits: JourneyLimits) => {
  const res = await call(bed.t, 'PUT', limitsUrl(), bed.manager, limits);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const end = { id: 'end', type: 'exit' };
const twoMails = (first: string, second: string, deferLimitSeconds: number) => ({
  entry: { kind: 'api' },
  start: 'one',
  steps: [bed.email('one', first), bed.email('two', second, { deferLimitSeconds }), end],
  edges: [
    { from: 'one', to: 'two' },
    { from: 'two', to: 'end' },
  ],
});
const started = async (definition: object) => {
  const id = await bed.newJourney(definition);
  expect((await bed.start(id)).statusCode).toBe(200);
  return id;
};
const mailOf = (address: string) => bed.mailbox()[address] ?? [];
const exitedReason = async (profileId: string, journeyId: string) =>
  (await bed.journeyEvents(profileId, journeyId)).find((e) => e.event === 'journey-exited')?.properties
    .reason;

describe('the journey limits route', () => {
  it('answers any member, lets only managers change it, and refuses an unknown time zone', async () => {
    expect((await call(bed.t, 'GET', limitsUrl())).statusCode).toBe(401);
    const read = await call(bed.t, 'GET', limitsUrl(), bed.team.members.marketer);
    expect(read.json()).toEqual({
      limits: { perDay: null, perWeek: null, quietHours: null, timeZone: 'UTC' },
    });
    const limits = { perDay: 1, perWeek: 5, quietHours: null, timeZone: 'UTC' };
    const denied = await call(bed.t, 'PUT', limitsUrl(), bed.team.members.marketer, limits);
    expect(denied.statusCode).toBe(403);
    const elsewhere = await call(
      bed.t,
      'GET',
      wsUrl(bed.other.ws, 'journey-limits'),
      bed.team.members.marketer,
    );
    expect(elsewhere.statusCode).toBe(404);
    const unknown = await call(bed.t, 'PUT', limitsUrl(), bed.manager, { ...limits, timeZone: 'Mars/Base' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(JOURNEY_MESSAGES.unknownTimeZone('Mars/Base'));
    const bad = await call(bed.t, 'PUT', limitsUrl(), bed.manager, { ...limits, perDay: 0 });
    expect(bad.statusCode).toBe(400);
    expect((await setLimits(limits)).limits).toEqual(limits);
    const audit = await call(bed.t, 'GET', wsUrl(bed.team.ws, 'audit?limit=5'), bed.manager);
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toContain('journey.limits');
  });
});

describe('caps', () => {
  it('defers a capped email to when the profile may be mailed again, then sends it', async () => {
    await setLimits({ perDay: 1, perWeek: null, quietHours: null, timeZone: 'UTC' });
    const id = await started(twoMails('First', 'Second', 2 * 86_400));
    await bed.enter(id, ['c-1']);
    await expect
      .poll(async () => (await bed.taskAt(id, 'c-1', 'two'))?.outcome, { timeout: 30_000 })
      .toBe('deferred: cap');
    const [{ emailed_at }] = rows<{ emailed_at: string | Date }>(
      await bed.t.database.db.execute(sql`
        select emailed_at from journey_tasks
        where workspace_id = ${bed.team.ws} and journey_id = ${id} and step_id = 'one'`),
    );
    const deferred = (await bed.taskAt(id, 'c-1', 'two'))!;
    expect(deferred).toMatchObject({ state: 'due' });
    expect(deferred.due_at.getTime()).toBe(new Date(emailed_at).getTime() + 86_400_000);
    expect(bed.stepOf(await bed.results(id), 'two')).toMatchObject({
      waiting: 1,
      outcomes: { 'deferred: cap': 1 },
    });
    await expect.poll(() => mailOf('c1@example.com'), { timeout: 30_000 }).toEqual(['First']);
    // A day on: the first email has left the window.
    await bed.t.database.db.execute(sql`
      update journey_tasks set emailed_at = emailed_at - interval '25 hours'
      where workspace_id = ${bed.team.ws} and profile_id = 'c-1' and emailed_at is not null`);
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = now() where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'`);
    await queueDueTasks(bed.t.database.db);
    await expect.poll(() => mailOf('c1@example.com'), { timeout: 30_000 }).toEqual(['First', 'Second']);
  });

  it('expires a capped email at once when the next chance is past its limit, saying why', async () => {
    const id = await started(twoMails('One', 'Two', 3600));
    await bed.enter(id, ['c-2']);
    await expect.poll(() => exitedReason('c-2', id), { timeout: 30_000 }).toBe('expired: cap');
    expect(bed.stepOf(await bed.results(id), 'two')).toMatchObject({
      exited: 1,
      outcomes: { 'expired: cap': 1 },
    });
    const step = (await bed.journeyEvents('c-2', id)).find(
      (e) => e.event === 'journey-step' && e.properties.step === 'two',
    );
    expect(step?.properties.outcome).toBe('expired: cap');
    await expect.poll(() => mailOf('c2@example.com'), { timeout: 30_000 }).toEqual(['One']);
  });

  it('expires a deferred email once it has waited its limit and is still capped', async () => {
    const id = await started(twoMails('Uno', 'Dos', 2 * 86_400));
    await bed.enter(id, ['c-3']);
    await expect
      .poll(async () => (await bed.taskAt(id, 'c-3', 'two'))?.outcome, { timeout: 30_000 })
      .toBe('deferred: cap');
    // Three days at the step (past its two-day limit), the cap still holding it.
    await bed.t.database.db.execute(sql`
      update journey_tasks set entered_at = entered_at - interval '3 days', due_at = now()
      where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'`);
    await queueDueTasks(bed.t.database.db);
    await expect.poll(() => exitedReason('c-3', id), { timeout: 30_000 }).toBe('expired: cap');
    await expect.poll(() => mailOf('c3@example.com'), { timeout: 30_000 }).toEqual(['Uno']);
  });
});

describe('quiet hours', () => {
  it("hold email in the profile's time zone, else the workspace's, and expire it past the limit", async () => {
    // Quiet from an hour ago to three hours on, in Tokyo; in Phoenix (16 hours behind) it is day.
    const hour = dayjs().tz('Asia/Tokyo').hour();
    const quietHours = { start: (hour + 23) % 24, end: (hour + 3) % 24 };
    await setLimits({ perDay: null, perWeek: null, quietHours, timeZone: 'Asia/Tokyo' });
    const quiet = {
      entry: { kind: 'api' },
      start: 'mail',
      steps: [bed.email('mail', 'Quiet please', { deferLimitSeconds: 86_400 }), end],
      edges: [{ from: 'mail', to: 'end' }],
    };
    const id = await started(quiet);
    await bed.enter(id, ['q-tokyo', 'q-phoenix', 'q-none']);
    await expect.poll(() => mailOf('qp@example.com'), { timeout: 30_000 }).toEqual(['Quiet please']);
    const ends = nextTimeOfDay(new Date(), 'Asia/Tokyo', `${String(quietHours.end).padStart(2, '0')}:00`);
    for (const profile of ['q-tokyo', 'q-none']) {
      await expect
        .poll(async () => (await bed.taskAt(id, profile, 'mail'))?.outcome, { timeout: 30_000 })
        .toBe('deferred: quiet-hours');
      expect((await bed.taskAt(id, profile, 'mail'))!.due_at).toEqual(ends);
    }
    expect(mailOf('qt@example.com')).toEqual([]);
    // A short limit: the quiet hours end after it, so the email expires.
    const short = await started({
      ...quiet,
      steps: [bed.email('mail', 'Never', { deferLimitSeconds: 60 }), end],
    });
    await bed.enter(short, ['q-tokyo']);
    await expect.poll(() => exitedReason('q-tokyo', short), { timeout: 30_000 }).toBe('expired: quiet-hours');
    // The quiet hours are over (moved away): the held email goes out.
    await setLimits({
      perDay: null,
      perWeek: null,
      quietHours: { start: (hour + 12) % 24, end: (hour + 13) % 24 },
      timeZone: 'Asia/Tokyo',
    });
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = now() where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'`);
    await queueDueTasks(bed.t.database.db);
    await expect.poll(() => mailOf('qt@example.com'), { timeout: 30_000 }).toEqual(['Quiet please']);
    await expect.poll(() => mailOf('qn@example.com'), { timeout: 30_000 }).toEqual(['Quiet please']);
    await setLimits({ perDay: null, perWeek: null, quietHours: null, timeZone: 'UTC' });
  });
});

describe('a pause limit', () => {
  const waitThenMail = (subject: string) => ({
    entry: { kind: 'api' },
    start: 'hour',
    steps: [{ id: 'hour', type: 'wait', seconds: 3600 }, bed.email('mail', subject), end],
    edges: [
      { from: 'hour', to: 'mail' },
      { from: 'mail', to: 'end' },
    ],
  });
  const act = (id: string, action: string) =>
    call(bed.t, 'POST', journeysUrl(bed.team.ws, id, action), bed.team.members.starter);
  /** The profile's wait came due `minutes` ago, while the journey was paused. */
  const dueAgo = (id: string, profileId: string, minutes: number) =>
    bed.t.database.db.execute(sql`
      update journey_tasks set due_at = now() - make_interval(mins => ${minutes}::int)
      where workspace_id = ${bed.team.ws} and journey_id = ${id} and profile_id = ${profileId} and state = 'due'`);

  it('runs the waits within the limit on resume and ends the runs further past it', async () => {
    const id = await bed.newJourney(waitThenMail('After the pause'));
    const res = await bed.start(id, { pauseLimit: { seconds: 3600, then: 'exit' } });
    expect(res.json().journey.pauseLimit).toEqual({ seconds: 3600, then: 'exit' });
    await bed.enter(id, ['p-1', 'p-2']);
    await expect
      .poll(async () => bed.stepOf(await bed.results(id), 'hour').waiting, { timeout: 30_000 })
      .toBe(2);
    expect((await act(id, 'pause')).statusCode).toBe(200);
    await dueAgo(id, 'p-1', 120);
    await dueAgo(id, 'p-2', 10);
    expect((await act(id, 'resume')).statusCode).toBe(200);
    await expect.poll(() => exitedReason('p-1', id), { timeout: 30_000 }).toBe('expired: paused');
    await expect.poll(() => mailOf('p2@example.com'), { timeout: 30_000 }).toEqual(['After the pause']);
    expect(mailOf('p1@example.com')).toEqual([]);
    expect(bed.stepOf(await bed.results(id), 'hour').outcomes).toEqual({ 'expired: paused': 1 });
  });

  it('skips a wait further past its time to the next step', async () => {
    const id = await bed.newJourney(waitThenMail('Skipped ahead'));
    expect((await bed.start(id, { pauseLimit: { seconds: 60, then: 'skip' } })).statusCode).toBe(200);
    await bed.enter(id, ['p-3']);
    await expect
      .poll(async () => bed.stepOf(await bed.results(id), 'hour').waiting, { timeout: 30_000 })
      .toBe(1);
    expect((await act(id, 'pause')).statusCode).toBe(200);
    await dueAgo(id, 'p-3', 30);
    expect((await act(id, 'resume')).statusCode).toBe(200);
    await expect.poll(() => mailOf('p3@example.com'), { timeout: 30_000 }).toEqual(['Skipped ahead']);
    expect(bed.stepOf(await bed.results(id), 'hour')).toMatchObject({
      completed: 1,
      exits: { next: 1 },
      outcomes: { 'skipped: paused': 1 },
    });
  });
});

describe('email steps in sets', () => {
  const waitThenMail = (subject: string) => ({
    entry: { kind: 'api' },
    start: 'hour',
    steps: [
      { id: 'hour', type: 'wait', seconds: 3600 },
      bed.email('mail', subject, { deferLimitSeconds: 2 * 86_400 }),
      end,
    ],
    edges: [
      { from: 'hour', to: 'mail' },
      { from: 'mail', to: 'end' },
    ],
  });
  /** The journeys' waits end in the same second, a moment from now: one job wakes them together. */
  const dueTogether = async (journeyIds: string[]) => {
    await bed.t.database.db.execute(sql`
      update journey_tasks set due_at = date_trunc('second', now()) + interval '2 seconds'
      where workspace_id = ${bed.team.ws} and state = 'due'
        and journey_id in (${sql.join(
          journeyIds.map((id) => sql`${id}`),
          sql`, `,
        )})`);
    await queueDueTasks(bed.t.database.db);
  };

  it('add the profiles mailed together to the send together, each mailed once', async () => {
    await setLimits({ perDay: null, perWeek: null, quietHours: null, timeZone: 'UTC' });
    const id = await started(waitThenMail('Together'));
    const profiles = Array.from({ length: 12 }, (_, i) => `b-${i}`);
    expect(await bed.enter(id, profiles)).toEqual({ entered: 12, refused: 0 });
    await dueTogether([id]);
    for (let i = 0; i < 12; i++)
      await expect.poll(() => mailOf(`b${i}@example.com`), { timeout: 30_000 }).toEqual(['Together']);
    const chunks = rows<{ first_n: number; last_n: number }>(
      await bed.t.database.db.execute(sql`
        select c.first_n, c.last_n from campaign_chunks c
        join journey_starts s on s.workspace_id = c.workspace_id and c.send_id = s.sends ->> 'mail'
        where s.workspace_id = ${bed.team.ws} and s.journey_id = ${id}`),
    );
    expect(chunks).toEqual([{ first_n: 1, last_n: 12 }]);
    expect(bed.stepOf(await bed.results(id), 'mail')).toMatchObject({ completed: 12 });
  });

  it("let a profile's second email of the same set pass the daily cap only after its first", async () => {
    await setLimits({ perDay: 1, perWeek: null, quietHours: null, timeZone: 'UTC' });
    const first = await started(waitThenMail('From one'));
    const second = await started(waitThenMail('From two'));
    await bed.enter(first, ['d-1']);
    await bed.enter(second, ['d-1']);
    await dueTogether([first, second]);
    const outcomes = async () =>
      (await Promise.all([first, second].map((id) => bed.taskAt(id, 'd-1', 'mail'))))
        .map((task) => task?.outcome ?? null)
        .sort();
    await expect.poll(outcomes, { timeout: 30_000 }).toEqual(['deferred: cap', null]);
    await expect.poll(() => mailOf('d1@example.com').length, { timeout: 30_000 }).toBe(1);
    await setLimits({ perDay: null, perWeek: null, quietHours: null, timeZone: 'UTC' });
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'stop a journey while a step holds a run and then mails through its send',
    async () => {
      const id = await started(waitThenMail('Stopped'));
      await bed.enter(id, ['d-2']);
      const [{ send }] = rows<{ send: string }>(
        await bed.t.database.db.execute(sql`
          select sends ->> 'mail' as send from journey_starts
          where workspace_id = ${bed.team.ws} and journey_id = ${id}`),
      );
      const other = await openDatabase({ databaseUrl: bed.t.database.url!, maxConnections: 2 });
      try {
        let locked!: () => void;
        const runLocked = new Promise<void>((resolve) => (locked = resolve));
        let release!: () => void;
        const stopWaits = new Promise<void>((resolve) => (release = resolve));
        // An email step's transaction: the run locked first, then the send's row as it adds recipients.
        const step = other.db.transaction(async (tx) => {
          await tx.execute(sql`
            select id from journey_runs where workspace_id = ${bed.team.ws} and journey_id = ${id}
            for update`);
          locked();
          await stopWaits;
          await tx.execute(sql`
            select recipients from campaign_sends where workspace_id = ${bed.team.ws} and id = ${send}
            for update`);
        });
        await runLocked;
        const stop = call(bed.t, 'POST', journeysUrl(bed.team.ws, id, 'stop'), bed.team.members.starter);
        await expect.poll(() => lockWaiters(bed.t.database.db), { timeout: 30_000 }).toBeGreaterThan(0);
        release();
        await step;
        const res = await stop;
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().journey.state).toBe('stopped');
      } finally {
        await other.close();
      }
    },
  );
});
