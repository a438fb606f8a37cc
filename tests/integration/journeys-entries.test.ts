import { sql } from 'drizzle-orm';
import { JOURNEY_MESSAGES } from '@shared/api/journeys';
import { rows } from '@server/db/migrate';
import { dayjs } from '@shared/time/dayjs';
import { enqueue } from '@server/queue/queue';
import { JOURNEY_AUDIENCE_QUEUE } from '@server/queue/queues';
import { enterDueDates, handleJourneyEvents } from '@server/journeys/engine';
import { createItem } from '../factories/items';
import { attributeRule, eventRule, group } from '../factories/customers';
import { journeyBed, type JourneyBed } from '../factories/journeys';

const PROFILES = [
  'id,email,first-name,age,timezone,birthday',
  'a-1,a1@example.com,A1,20,,',
  'a-2,a2@example.com,A2,40,,',
  'a-3,a3@example.com,A3,50,,',
  'young,young@example.com,Young,15,,',
  'd-tokyo,dt@example.com,Tokyo,30,Asia/Tokyo,',
  'd-utc,du@example.com,Utc,30,,',
  'd-none,dn@example.com,None,30,Asia/Tokyo,',
].join('\n');

let bed: JourneyBed;
let adults: string;

beforeAll(async () => {
  bed = await journeyBed(PROFILES);
  // Adults: 30 or over, or anyone who bought in the last 30 days.
  adults = (
    await createItem(bed.t, bed.manager, bed.team.ws, 'audience', {
      name: 'Adults',
      criteria: group('or', [attributeRule(bed.defs, 'age', '>=', 30), eventRule(bed.defs, 'purchase')]),
    })
  ).id;
});
afterAll(() => bed.close());

/** A journey that marks whoever enters it. */
const marking = (entry: object, extra: object = {}) => ({
  entry,
  reentry: { mode: 'after-exit' },
  start: 'mark',
  steps: [
    { id: 'mark', type: 'update-attribute', attribute: 'city', value: 'Entered' },
    { id: 'end', type: 'exit' },
  ],
  edges: [{ from: 'mark', to: 'end' }],
  ...extra,
});

/** The audience looks queued for the workspace by a write (the minute's look has no workspace). */
const workspaceLooks = async () =>
  rows<{ count: string | number }>(
    await bed.t.database.db.execute(
      sql`select count(*) as count from pgboss.job where name = ${JOURNEY_AUDIENCE_QUEUE.name} and singleton_key = ${bed.team.ws}`,
    ),
  ).map((row) => Number(row.count))[0];

describe('entering or leaving an audience', () => {
  let joining: string;
  let leaving: string;

  it('records who is in the audience at the start: they do not enter', async () => {
    joining = await bed.newJourney(marking({ kind: 'audience', audience: adults, on: 'enter' }));
    leaving = await bed.newJourney(marking({ kind: 'audience', audience: adults, on: 'leave' }));
    for (const id of [joining, leaving]) expect((await bed.start(id)).statusCode).toBe(200);
    await enqueue(bed.t.database.db, JOURNEY_AUDIENCE_QUEUE, {});
    // Nobody has joined or left yet; a-1's purchase makes it join, which an event's job notices.
    await bed.track([{ profileId: 'a-1', event: 'purchase', properties: { amount: 5 } }]);
    await expect.poll(() => bed.reached(joining, 'end'), { timeout: 30_000 }).toEqual(['a-1']);
    expect(await bed.reached(leaving, 'mark')).toEqual([]);
  });

  it('enters a profile that left and one that joined when an import changes their attributes', async () => {
    const looks = await workspaceLooks();
    await bed.updateProfiles('id,age\na-2,10\nyoung,31');
    // The import's own transaction queued the workspace's look: it does not wait for the minute's.
    expect(await workspaceLooks()).toBeGreaterThan(looks);
    await expect.poll(() => bed.reached(leaving, 'end'), { timeout: 30_000 }).toEqual(['a-2']);
    await expect.poll(() => bed.reached(joining, 'end'), { timeout: 30_000 }).toEqual(['a-1', 'young']);
    const entered = await bed.journeyEvents('a-2', leaving);
    expect(entered.map((e) => e.event)).toContain('journey-entered');
    // Another look with nothing changed enters nobody.
    await enqueue(bed.t.database.db, JOURNEY_AUDIENCE_QUEUE, {});
    await bed.updateProfiles('id,age\nyoung,15');
    await enqueue(bed.t.database.db, JOURNEY_AUDIENCE_QUEUE, { workspaceId: bed.team.ws });
    await expect.poll(() => bed.reached(leaving, 'end'), { timeout: 30_000 }).toEqual(['a-2', 'young']);
    expect((await bed.results(joining)).versions[0].entered).toBe(2);
  });

  it('refuses an audience entry without its audience, naming it', async () => {
    const id = await bed.newJourney(marking({ kind: 'audience', on: 'enter' }));
    const res = await bed.start(id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(JOURNEY_MESSAGES.badDefinition('Entry: choose the audience'));
    const gone = await bed.newJourney(marking({ kind: 'audience', audience: 'no-such-audience' }));
    expect((await bed.start(gone)).json().error.message).toBe(
      JOURNEY_MESSAGES.badDefinition('Entry: the audience no longer exists'),
    );
  });
});

describe('an entry audience', () => {
  it('lets in only the profiles in it at the moment they would enter', async () => {
    const id = await bed.newJourney(marking({ kind: 'api' }, { entryAudience: adults }));
    expect((await bed.start(id)).statusCode).toBe(200);
    expect(await bed.enter(id, ['a-3', 'young'])).toEqual({ entered: 1, refused: 1 });
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['a-3']);
  });

  it('holds for event entries too', async () => {
    const id = await bed.newJourney(
      marking({ kind: 'event', event: 'visit', conditions: [] }, { entryAudience: adults }),
    );
    expect((await bed.start(id)).statusCode).toBe(200);
    await bed.track([
      { profileId: 'a-3', event: 'visit', properties: { page: '/' } },
      { profileId: 'young', event: 'visit', properties: { page: '/' } },
    ]);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['a-3']);
    expect(await bed.reached(id, 'mark')).toEqual(['a-3']);
  });
});

describe('a batch of events', () => {
  it('enters each profile its events trigger once, and none whose event misses the conditions', async () => {
    const id = await bed.newJourney(
      marking(
        { kind: 'event', event: 'visit', conditions: [{ key: 'page', op: '==', value: '/pricing' }] },
        { reentry: { mode: 'once' } },
      ),
    );
    expect((await bed.start(id)).statusCode).toBe(200);
    await bed.track([
      { profileId: 'a-1', event: 'visit', properties: { page: '/pricing' } },
      { profileId: 'a-2', event: 'visit', properties: { page: '/pricing' } },
      { profileId: 'a-1', event: 'visit', properties: { page: '/pricing' } },
      { profileId: 'young', event: 'visit', properties: { page: '/' } },
      { profileId: 'a-3', event: 'visit', properties: { page: '/pricing' } },
    ]);
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['a-1', 'a-2', 'a-3']);
    expect((await bed.results(id)).versions[0].entered).toBe(3);
    const entered = (await bed.journeyEvents('a-1', id)).filter((e) => e.event === 'journey-entered');
    expect(entered).toHaveLength(1);
  });

  it("enters the events of a batch's jobs together: one transaction, their first tasks sharing a job", async () => {
    const id = await bed.newJourney({
      entry: { kind: 'event', event: 'joined' },
      start: 'pause',
      steps: [
        { id: 'pause', type: 'wait', seconds: 30 },
        { id: 'end', type: 'exit' },
      ],
      edges: [{ from: 'pause', to: 'end' }],
    });
    expect((await bed.start(id)).statusCode).toBe(200);
    const at = new Date().toISOString();
    const job = (profiles: string[]) => ({
      workspaceId: bed.team.ws,
      events: profiles.map((profileId): [string, string, string, Record<string, unknown>] => [
        profileId,
        'joined',
        at,
        {},
      ]),
    });
    await handleJourneyEvents(bed.ctx, [job(['a-1', 'a-2']), job(['a-3', 'young'])]);
    const [found] = rows<{ runs: number; entered: number; jobs: number }>(
      await bed.t.database.db.execute(sql`
        select count(distinct t.run_id)::int as runs, count(distinct t.entered_at)::int as entered,
          count(distinct j.id)::int as jobs
        from journey_tasks t join pgboss.job j on j.name = 'journey-task'
          and j.data -> 'tasks' @> jsonb_build_array(jsonb_build_array(t.run_id, t.seq))
        where t.workspace_id = ${bed.team.ws} and t.journey_id = ${id}`),
    );
    expect(found).toEqual({ runs: 4, entered: 1, jobs: 1 });
  });
});

describe('a date attribute', () => {
  it("enters each profile once per occurrence, at the time of day in the profile's zone or the workspace's", async () => {
    // The day before the birthday at 09:00. Birthdays three days from now (whatever year).
    const day = dayjs().tz('Asia/Tokyo').add(3, 'day');
    const birthday = day.add(1, 'day').format('1990-MM-DD');
    await bed.updateProfiles(
      `id,birthday\nd-tokyo,${birthday}\nd-utc,${birthday}\nd-none,${dayjs(birthday).add(5, 'day').format('YYYY-MM-DD')}`,
    );
    const id = await bed.newJourney(
      marking({ kind: 'date', attribute: 'birthday', offsetDays: -1, at: '09:00', timeZone: 'profile' }),
    );
    expect((await bed.start(id)).statusCode).toBe(200);
    const tokyoNine = dayjs
      .tz(`${day.format('YYYY-MM-DD')} 09:00`, 'YYYY-MM-DD HH:mm', 'Asia/Tokyo')
      .toDate();
    const utcNine = dayjs.utc(`${day.format('YYYY-MM-DD')}T09:00:00Z`).toDate();
    const at = (moment: Date, minutes: number) => new Date(moment.getTime() + minutes * 60_000);
    await enterDueDates(bed.ctx, at(tokyoNine, -1));
    expect(await bed.reached(id, 'mark')).toEqual([]);
    await enterDueDates(bed.ctx, at(tokyoNine, 1));
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['d-tokyo']);
    // The workspace's zone (UTC here) for the profile without one, nine hours later.
    await enterDueDates(bed.ctx, at(utcNine, 1));
    await expect.poll(() => bed.reached(id, 'end'), { timeout: 30_000 }).toEqual(['d-tokyo', 'd-utc']);
    // A second look at the same occurrence (another process, the next minute) enters nobody again,
    // though the re-entry rule would let them in.
    await enterDueDates(bed.ctx, at(utcNine, 2));
    expect((await bed.results(id)).versions[0].entered).toBe(2);
  });

  it('refuses a date entry without its attribute', async () => {
    const id = await bed.newJourney(marking({ kind: 'date' }));
    expect((await bed.start(id)).json().error.message).toBe(
      JOURNEY_MESSAGES.badDefinition('Entry: choose the date attribute'),
    );
  });
});
