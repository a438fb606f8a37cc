import { pipelinedOf, queryRows } from '@server/db/client';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/database';

// What a PostgreSQL client does when the server ends its connection (a restart, a fail-over, an
// administrator): the statements under way fail, and the next ones run on a new connection, each with
// its own answer. The connection of `pipelinedOf` is a single one, so a stuck one stops every read.
describe.runIf(testDatabaseKind() === 'postgres')('a lost PostgreSQL connection', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase({ migrate: false });
  });
  afterAll(() => database.close());

  const pipeline = () => pipelinedOf(database.db);
  const backendPid = async () =>
    (await queryRows<{ pid: number }>(pipeline(), 'select pg_backend_pid() as pid', []))[0].pid;
  const terminate = (pid: number) => queryRows(database.db, 'select pg_terminate_backend($1)', [pid]);
  const numbers = (from: number, count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, n) =>
        queryRows<{ n: number }>(pipeline(), 'select $1::int as n', [from + n]).then(([row]) => row.n),
      ),
    );

  it('settles the statements sent as it goes, then answers each later one on a new connection', async () => {
    const pid = await backendPid();
    await terminate(pid);
    // Sent before the client has read that the connection is gone, so the server resets it; the next
    // ones as soon as that fails, as a caller that tries again would. Each settles (none waits forever),
    // with its own answer or a lost connection, never with the error the server sent for the first.
    const number = (n: number) => queryRows<{ n: number }>(pipeline(), 'select $1::int as n', [n]);
    const outcomes = await number(0).then(
      () => [],
      () => Promise.allSettled([number(1), number(2)]),
    );
    outcomes.forEach((outcome, at) => {
      if (outcome.status === 'fulfilled') expect(outcome.value).toEqual([{ n: at + 1 }]);
      else expect((outcome.reason as { code?: string }).code).not.toBe('57P01');
    });

    await vi.waitFor(async () => expect(await numbers(10, 1)).toEqual([10]), { timeout: 15_000 });
    expect(await numbers(20, 30)).toEqual(Array.from({ length: 30 }, (_, n) => 20 + n));
    expect(await backendPid()).not.toBe(pid);
  });

  it('does not hand the error of a statement lost with its connection to the next one', async () => {
    const pid = await backendPid();
    const sleeping = queryRows(pipeline(), 'select pg_sleep(30)', []);
    await vi.waitFor(
      async () => {
        const [row] = await queryRows<{ state: string }>(
          database.db,
          'select state from pg_stat_activity where pid = $1',
          [pid],
        );
        expect(row?.state).toBe('active');
      },
      { timeout: 15_000 },
    );
    await terminate(pid);
    await expect(sleeping).rejects.toThrow();

    expect(await numbers(100, 3)).toEqual([100, 101, 102]);
  });
});
