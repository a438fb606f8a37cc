import { queryRows, readPipelined } from '@server/db/client';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../helpers/database';

// What a PostgreSQL client does when the server ends its connection (a restart, a fail-over, an
// administrator): the reads under way are sent again, and the next ones run on a new connection, each
// with its own answer. The connection of `readPipelined` is a single one, so a stuck one stops every read.
describe.runIf(testDatabaseKind() === 'postgres')('a lost PostgreSQL connection', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase({ migrate: false });
  });
  afterAll(() => database.close());

  const read = <T>(text: string, params: unknown[] = []) => readPipelined<T>(database.db, text, params);
  const backendPid = async () => (await read<{ pid: number }>('select pg_backend_pid() as pid'))[0].pid;
  const terminate = (pid: number) => queryRows(database.db, 'select pg_terminate_backend($1)', [pid]);
  const number = async (n: number) => (await read<{ n: number }>('select $1::int as n', [n]))[0].n;
  const numbers = (from: number, count: number) =>
    Promise.all(Array.from({ length: count }, (_, n) => number(from + n)));

  it('answers the reads sent as it goes, and each later one, on a new connection', async () => {
    const pid = await backendPid();
    await terminate(pid);
    // Sent before the client has read that the connection is gone, so the server resets it.
    expect(await numbers(0, 3)).toEqual([0, 1, 2]);
    expect(await numbers(20, 30)).toEqual(Array.from({ length: 30 }, (_, n) => 20 + n));
    expect(await backendPid()).not.toBe(pid);
  });

  it('answers the reads sent on the turns of the event loop after each of many losses', async () => {
    // Whichever turn the client hears of a loss in, a read may just have been handed to the
    // connection, waiting to be written on the next turn; the new connection must still write.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    for (let round = 0; round < 100; round++) {
      const pid = await backendPid();
      await terminate(pid);
      const sent = [];
      for (let n = 0; n < 4; n++) {
        await turn();
        sent.push(number(round * 4 + n));
      }
      expect(await Promise.all(sent)).toEqual([0, 1, 2, 3].map((n) => round * 4 + n));
    }
  });

  it('does not hand the error of a read lost with its connection to the next one', async () => {
    const sleeping = read('select pg_sleep(30)');
    const outcome = sleeping.then(
      () => 'answered',
      () => 'failed',
    );
    // Each time it is sent again it sleeps on a new connection: ended there as many times, it fails.
    await vi.waitFor(
      async () => {
        const [sleeper] = await queryRows<{ pid: number }>(
          database.db,
          `select pid from pg_stat_activity where query = 'select pg_sleep(30)' and state = 'active'`,
          [],
        );
        if (sleeper) await terminate(sleeper.pid);
        expect(await Promise.race([outcome, 'pending'])).toBe('failed');
      },
      { timeout: 15_000 },
    );

    expect(await numbers(100, 3)).toEqual([100, 101, 102]);
  });
});
