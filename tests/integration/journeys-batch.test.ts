import { sql } from 'drizzle-orm';
import { openDatabase } from '@server/db/client';
import { rows } from '@server/db/migrate';
import { runJourneyTasks } from '@server/journeys/engine';
import { journeyWebhookSender } from '@server/jobs/journey-webhooks';
import type { JourneyTaskKey } from '@server/queue/queues';
import { lockWaiters, testDatabaseKind } from '../helpers/database';
import { journeyBed, type JourneyBed } from '../factories/journeys';

const COUNT = 300;
const ids = Array.from({ length: COUNT }, (_, i) => `w-${String(i + 1).padStart(3, '0')}`);
const PROFILES = ['id,email', ...ids.map((id) => `${id},${id}@example.net`)].join('\n');
/** The first 50 profiles: a goal ends their runs while the batch is due. */
const converting = ids.slice(0, 50);

let bed: JourneyBed;

beforeAll(async () => {
  bed = await journeyBed(PROFILES);
}, 120_000);
afterAll(async () => {
  await bed.close();
});

const db = () => bed.t.database.db;

/** A journey of a day's wait, then the end, every profile waiting in it; its waits due now, with no job. */
async function dueWaits() {
  const id = await bed.newJourney({
    entry: { kind: 'api' },
    goal: { event: 'purchase' },
    start: 'day',
    steps: [
      { id: 'day', type: 'wait', seconds: 86_400 },
      { id: 'end', type: 'exit' },
    ],
    edges: [{ from: 'day', to: 'end' }],
  });
  expect((await bed.start(id)).statusCode).toBe(200);
  expect(await bed.enter(id, ids)).toEqual({ entered: COUNT, refused: 0 });
  const keys = rows<{ run_id: string; seq: number }>(
    await db().execute(sql`
      update journey_tasks set due_at = now()
      where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'
      returning run_id, seq`),
  ).map((row): JourneyTaskKey => ({ workspaceId: bed.team.ws, runId: row.run_id, seq: row.seq }));
  expect(keys).toHaveLength(COUNT);
  return { id, keys };
}

/** One job batch of every key, twice at once (two job tries of the same tasks). */
async function wakeTwice(keys: JourneyTaskKey[]) {
  const webhooks = journeyWebhookSender(bed.ctx, new AbortController().signal);
  await Promise.all([runJourneyTasks(bed.ctx, keys, webhooks), runJourneyTasks(bed.ctx, keys, webhooks)]);
}

/** Per profile: its run's state, its tasks at each step (state and exit) and its journey events. */
async function outcomes(journeyId: string) {
  const runs = rows<{ profile_id: string; state: string; tasks: string[]; events: string[] }>(
    await db().execute(sql`
      select r.profile_id, r.state,
        (select array_agg(t.step_id || ':' || t.state || ':' || coalesce(t.exit, t.ended, '-') order by t.seq)
          from journey_tasks t where t.workspace_id = r.workspace_id and t.run_id = r.id) as tasks,
        (select coalesce(array_agg(e.event || ':' || coalesce(e.properties->>'step', '-') order by e.event,
            e.properties->>'step'), '{}')
          from customer_events e
          where e.workspace_id = r.workspace_id and e.profile_id = r.profile_id
            and e.event in ('journey-step', 'journey-exited') and e.properties->>'journey' = ${journeyId}) as events
      from journey_runs r
      where r.workspace_id = ${bed.team.ws} and r.journey_id = ${journeyId}
      order by r.profile_id`),
  );
  return new Map(runs.map((run) => [run.profile_id, run]));
}

/** The journey's runs once none is active any more (the end's tasks have their jobs, which the worker runs). */
async function settled(journeyId: string) {
  await expect
    .poll(
      async () => [...(await outcomes(journeyId)).values()].filter((run) => run.state === 'active').length,
      { timeout: 60_000 },
    )
    .toBe(0);
  return outcomes(journeyId);
}

describe('a batch of waits due at once', () => {
  it('moves each run on exactly once, one journey-step event each, however often its jobs run', async () => {
    const { id, keys } = await dueWaits();
    await wakeTwice(keys);
    const woken = await outcomes(id);
    for (const profile of ids) {
      const run = woken.get(profile)!;
      expect(run.tasks[0]).toBe('day:done:next');
      expect(run.tasks.slice(1).map((task) => task.split(':')[0])).toEqual(['end']);
      expect(run.events.filter((event) => event === 'journey-step:day')).toHaveLength(1);
    }
    // The worker ends every run, once.
    const runs = await settled(id);
    for (const profile of ids) {
      const run = runs.get(profile)!;
      expect({ state: run.state, tasks: run.tasks, events: run.events }).toEqual({
        state: 'finished',
        tasks: ['day:done:next', 'end:done:finished'],
        events: ['journey-exited:end', 'journey-step:day', 'journey-step:end'],
      });
    }
  });

  it('leaves the runs a goal ended after their jobs were fetched', async () => {
    const { id, keys } = await dueWaits();
    await bed.track(converting.map((profileId) => ({ profileId, event: 'purchase' })));
    await expect
      .poll(
        async () => [...(await outcomes(id)).values()].filter((run) => run.state === 'converted').length,
        { timeout: 60_000 },
      )
      .toBe(converting.length);
    await wakeTwice(keys);
    expectConvertedOrMovedOnce(await settled(id));
  });

  it.runIf(testDatabaseKind() === 'postgres')(
    'waits for a goal under way on some of its runs, then leaves those the goal ended',
    async () => {
      const { id, keys } = await dueWaits();
      const other = await openDatabase({ databaseUrl: bed.t.database.url!, maxConnections: 2 });
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const goalLocked = new Promise<void>((resolve) => (locked = resolve));
        // A goal's transaction, as the events job writes it: the runs locked first, their waits
        // cancelled, the runs converted; it commits once the batch waits for its runs.
        const goal = other.db.transaction(async (tx) => {
          await tx.execute(sql`
            select id from journey_runs
            where workspace_id = ${bed.team.ws} and journey_id = ${id}
              and profile_id in (select value from jsonb_array_elements_text(${JSON.stringify(converting)}::jsonb))
            order by id for update`);
          await tx.execute(sql`
            update journey_tasks set state = 'cancelled', ended = 'converted', done_at = now()
            where workspace_id = ${bed.team.ws} and journey_id = ${id} and state = 'due'
              and profile_id in (select value from jsonb_array_elements_text(${JSON.stringify(converting)}::jsonb))`);
          await tx.execute(sql`
            update journey_runs set state = 'converted', exit_step = 'day', finished_at = now()
            where workspace_id = ${bed.team.ws} and journey_id = ${id}
              and profile_id in (select value from jsonb_array_elements_text(${JSON.stringify(converting)}::jsonb))`);
          locked();
          await held;
        });
        await goalLocked;
        const batch = wakeTwice(keys);
        await expect.poll(() => lockWaiters(db()), { timeout: 30_000 }).toBeGreaterThan(0);
        release();
        await goal;
        await batch;
        expectConvertedOrMovedOnce(await settled(id));
      } finally {
        await other.close();
      }
    },
  );
});

/** The goal's runs converted, their wait cancelled and no step of theirs done; every other run moved once. */
function expectConvertedOrMovedOnce(runs: Awaited<ReturnType<typeof outcomes>>) {
  for (const profile of ids) {
    const run = runs.get(profile)!;
    const seen = {
      state: run.state,
      tasks: run.tasks,
      steps: run.events.filter((event) => event.startsWith('journey-step')),
    };
    expect(seen).toEqual(
      converting.includes(profile)
        ? { state: 'converted', tasks: ['day:cancelled:converted'], steps: [] }
        : {
            state: 'finished',
            tasks: ['day:done:next', 'end:done:finished'],
            steps: ['journey-step:day', 'journey-step:end'],
          },
    );
  }
}
