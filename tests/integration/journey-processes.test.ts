// A journey survives kill -9: two real server processes on one PostgreSQL database run 2,000 profiles
// through event → email → wait for an event → branch → email, sending to a real SMTP server, while one
// of them is killed with SIGKILL several times (and started again each time). Every profile gets
// exactly the messages of its path, none twice and none missing, and every step is done once.
import postgres from 'postgres';
import { testDatabaseKind } from '../helpers/database';
import {
  callProcess,
  createProcessDatabase,
  eventually,
  killServerProcess,
  processUser,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../helpers/server-process';
import { startSmtpSink } from '../fixtures/smtp-sink';

const PROFILES = 2000;
const DOMAIN = 'kill.test';
/** The wait for `x` times out this long after the first email: short, yet longer than a POST takes. */
const WAIT_SECONDS = 8;
/** How long the whole run may take at most, kills and restarts included. */
const LIMIT_MS = 480_000;

const ids = Array.from({ length: PROFILES }, (_, i) => `p-${i + 1}`);
/** Their `x` comes with their signup, before their wait or during it (as the jobs happen to run). */
const early = new Set(ids.filter((_, i) => i % 4 === 1));
/** Their `x` comes once they wait for it: the wait goes on through its `event` exit. */
const waiting = new Set(ids.filter((_, i) => i % 4 === 2));
const withX = new Set([...early, ...waiting]);
const addressOf = (id: string) => `${id}@${DOMAIN}`;

/** The steps each profile's run goes through, in order. */
const pathsOf = (id: string) =>
  withX.has(id)
    ? [
        ['a', 'wait-x', 'b', 'end'],
        // Its `x` came before the wait, or was looked at only once the wait had timed out: the branch
        // finds it.
        ['a', 'wait-x', 'came', 'b', 'end'],
      ]
    : [['a', 'wait-x', 'came', 'c', 'end']];

const ENV = {
  JOBS_POLL_MS: '500',
  // A dead process's jobs are tried again after 15 s (not sooner: a busy machine's batches take a
  // while, and one tried again while it runs is work done twice), its chunks taken over after 1.5 s.
  JOBS_EXPIRE_SECONDS: '15',
  JOBS_CHECK_SECONDS: '1',
  JOBS_RETRY_SECONDS: '1',
  CAMPAIGN_LEASE_MS: '1500',
  CAMPAIGN_RETRY_BASE_MS: '50',
  CAMPAIGN_SMTP_CONNECTIONS: '4',
};

describe('a journey across server processes killed with SIGKILL', () => {
  const onPostgres = testDatabaseKind() === 'postgres';
  let database: Awaited<ReturnType<typeof createProcessDatabase>>;
  let sql: postgres.Sql;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    if (!onPostgres) return;
    sink = await startSmtpSink();
    database = await createProcessDatabase();
    sql = postgres(database.url, { max: 2, onnotice: () => {} });
    const env = { ...ENV, SMTP_URL: sink.url };
    // One after the other: the first migrates the new database.
    a = await startServerProcess(database.url, env);
    b = await startServerProcess(database.url, env);
  }, 120_000);

  afterAll(async () => {
    if (!onPostgres) return;
    await Promise.all([a && stopServerProcess(a), b && stopServerProcess(b)]);
    await sql?.end();
    await database?.drop();
    await sink?.close();
  }, 60_000);

  it('sends every profile exactly the messages of its path while a process is killed again and again', async ({
    skip,
  }) => {
    skip(!onPostgres, 'PostgreSQL only (two server processes share its database): set TEST_DATABASE_URL');
    const env = { ...ENV, SMTP_URL: sink.url };
    const journeyMail = () => sink.received.filter((m) => m.envelopeTo[0]?.endsWith(`@${DOMAIN}`));
    const manager = await processUser(a, 'Mia', () =>
      sink.received.map((m) => ({ to: m.envelopeTo.join(', '), text: `${m.mail.text ?? ''}` })),
    );
    const ws = (await callProcess(a, 'POST', '/workspaces', manager.token, { name: 'Kill' })).body
      .id as string;
    const api = async (server: ServerProcess, method: string, rest: string, body?: object | string) => {
      const type = typeof body === 'string' ? 'text/csv' : undefined;
      const res = await callProcess(server, method, `/workspaces/${ws}/${rest}`, manager.token, body, type);
      if (res.status >= 300) throw new Error(`${method} ${rest}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as Record<string, unknown>;
    };
    const domains = { basics: { domains: ['marketing'] } };
    expect((await callProcess(a, 'PATCH', `/workspaces/${ws}`, manager.token, domains)).status).toBe(200);
    await api(a, 'POST', 'items/customer-profile-attribute', {
      data: { name: 'email', key: 'email', attributeType: 'string' },
    });
    for (const key of ['signup', 'x'])
      await api(a, 'POST', 'items/behavioral-event', { data: { name: key, key, properties: [] } });
    const csv = ['id,email', ...ids.map((id) => `${id},${addressOf(id)}`)].join('\n');
    expect((await api(a, 'POST', 'profiles/import', csv)).batch).toMatchObject({
      processed: PROFILES,
      failed: 0,
    });
    const email = await api(a, 'POST', 'items/email', {
      data: { name: 'Note', subject: 'Note', template: { combinedMarkup: '<p>Hello</p>' } },
    });
    const sender = await api(a, 'POST', 'senders', { fromName: 'Kill', fromAddress: 'news@kill.example' });
    await api(a, 'PUT', 'senders/postal-address', { postalAddress: '1 Main St' });
    await api(a, 'PUT', 'senders/recipients', { mailUnknownConsent: true });
    const step = (id: string) => ({ id, type: 'email', email: email.id, sender: sender.id, subject: id });
    const definition = {
      entry: { kind: 'event', event: 'signup' },
      reentry: { mode: 'once' },
      start: 'a',
      steps: [
        step('a'),
        { id: 'wait-x', type: 'wait-for-event', event: 'x', timeoutSeconds: WAIT_SECONDS },
        { id: 'came', type: 'event-branch', event: 'x', withinDays: 1 },
        step('b'),
        step('c'),
        { id: 'end', type: 'exit' },
      ],
      edges: [
        { from: 'a', to: 'wait-x' },
        { from: 'wait-x', exit: 'event', to: 'b' },
        { from: 'wait-x', exit: 'timeout', to: 'came' },
        { from: 'came', exit: 'yes', to: 'b' },
        { from: 'came', exit: 'no', to: 'c' },
        { from: 'b', to: 'end' },
        { from: 'c', to: 'end' },
      ],
    };
    const journey = await api(a, 'POST', 'items/journey', {
      data: { name: 'Survivor', definition: JSON.stringify(definition) },
    });
    const journeyId = journey.id as string;
    await api(a, 'POST', `journeys/${journeyId}/start`, {});

    /** Events through `server`, or through `a` when `server` is down or dies meanwhile (stored once). */
    const track = async (server: ServerProcess, events: object[]) => {
      try {
        await api(server, 'POST', 'customer-events', { events });
      } catch {
        await api(a, 'POST', 'customer-events', { events });
      }
    };
    const event = (profileId: string, key: string) => ({
      id: `${key}-${profileId}`,
      profileId,
      event: key,
      at: new Date().toISOString(),
    });
    const count = async (query: postgres.PendingQuery<{ n: string }[]>) => Number((await query)[0].n);
    const entered = () =>
      count(
        sql`select count(*) as n from journey_runs where workspace_id = ${ws} and journey_id = ${journeyId}`,
      );

    // b is killed at moments spread over the run: as profiles enter, while the first email goes out,
    // while profiles wait, and while the second goes out. Each time it is started again at once.
    const killAt: [string, () => Promise<boolean>][] = [
      ['400 runs entered', async () => (await entered()) >= 400],
      ['300 messages', async () => journeyMail().length >= 300],
      ['1,500 messages', async () => journeyMail().length >= 1500],
      ['2,300 messages', async () => journeyMail().length >= 2300],
      ['3,000 messages', async () => journeyMail().length >= 3000],
    ];
    let kills = 0;
    const killer = async () => {
      for (const [what, reached] of killAt) {
        await eventually(what, async () => ((await reached()) ? true : undefined), LIMIT_MS);
        await killServerProcess(b);
        await stopServerProcess(b);
        kills += 1;
        b = await startServerProcess(database.url, env);
      }
    };

    const feeder = async () => {
      // The signups through both processes in turn, the early profiles' `x` with theirs.
      const BATCH = 100;
      for (let i = 0; i < PROFILES; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        const events = batch.flatMap((id) =>
          early.has(id) ? [event(id, 'signup'), event(id, 'x')] : [event(id, 'signup')],
        );
        await track((i / BATCH) % 2 ? b : a, events);
      }
      // The waiting profiles' `x` as soon as each waits for it.
      const unsent = new Set(waiting);
      await eventually(
        'every waiting profile to be sent its x',
        async () => {
          const now = (
            await sql<{ profile_id: string }[]>`
              select profile_id from journey_tasks
              where workspace_id = ${ws} and journey_id = ${journeyId} and step_id = 'wait-x' and state = 'due'`
          )
            .map((row) => row.profile_id)
            .filter((id) => unsent.has(id));
          for (let i = 0; i < now.length; i += 500) {
            await track(
              b,
              now.slice(i, i + 500).map((id) => event(id, 'x')),
            );
          }
          for (const id of now) unsent.delete(id);
          return unsent.size === 0 ? true : undefined;
        },
        LIMIT_MS,
      );
    };

    await Promise.all([killer(), feeder()]);
    // Every run ended, and every recipient of the journey's sends sent or in flight when its sender
    // died (its message at the server, its answer lost): nothing is left to send.
    await eventually(
      'every run to finish and every message to go out',
      async () => {
        const active = await count(
          sql`select count(*) as n from journey_runs where workspace_id = ${ws} and state = 'active'`,
        );
        const open = await count(
          sql`select count(*) as n from campaign_recipients r join campaign_sends s
                on s.workspace_id = r.workspace_id and s.id = r.send_id
              where r.workspace_id = ${ws} and s.journey_id = ${journeyId}
                and r.status not in ('sent', 'unconfirmed')`,
        );
        return (await entered()) === PROFILES && active === 0 && open === 0 ? true : undefined;
      },
      LIMIT_MS,
    );
    // Both processes stop: whatever they still had under way has reached the server.
    await Promise.all([stopServerProcess(a), stopServerProcess(b)]);
    expect(kills).toBe(killAt.length);

    const mailbox = new Map<string, string[]>();
    for (const message of journeyMail()) {
      const to = message.envelopeTo[0];
      mailbox.set(to, [...(mailbox.get(to) ?? []), message.mail.subject ?? '']);
    }
    const steps = new Map(
      (
        await sql<{ profile_id: string; steps: string[]; states: string[] }[]>`
          select profile_id, array_agg(step_id order by seq) as steps, array_agg(state order by seq) as states
          from journey_tasks where workspace_id = ${ws} and journey_id = ${journeyId}
          group by profile_id`
      ).map((row) => [row.profile_id, row]),
    );
    const wrong: string[] = [];
    for (const id of ids) {
      const expected = withX.has(id) ? ['a', 'b'] : ['a', 'c'];
      const got = (mailbox.get(addressOf(id)) ?? []).sort();
      if (got.join() !== expected.join()) wrong.push(`${id} got ${got.join() || 'nothing'}`);
      const run = steps.get(id);
      const taken = run?.steps.join() ?? '';
      if (!pathsOf(id).some((path) => path.join() === taken)) wrong.push(`${id} went ${taken}`);
      if (run?.states.some((state) => state !== 'done')) wrong.push(`${id} left ${run.states.join()}`);
    }
    expect(wrong).toEqual([]);
  }, 600_000);
});
