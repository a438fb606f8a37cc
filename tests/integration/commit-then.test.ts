import { sql } from 'drizzle-orm';
import { commitThen } from '@server/db/client';
import { rows } from '@server/db/migrate';
import { openTestDatabase, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase({ migrate: false });
  await database.db.execute(sql`create table marks (n int primary key)`);
});
afterAll(() => database.close());

const marks = async () =>
  rows<{ n: number }>(await database.db.execute(sql`select n from marks order by n`)).map((r) => r.n);

describe('commitThen', () => {
  it('commits the work and calls back once, before its caller goes on', async () => {
    const calls: string[] = [];
    const done = await commitThen(
      database.db,
      async (tx) => {
        await tx.execute(sql`insert into marks values (1), (2)`);
        calls.push('work');
        return true;
      },
      () => calls.push('written'),
    );
    calls.push('after');
    expect(done).toBe(true);
    expect(calls).toEqual(['work', 'written', 'after']);
    expect(await marks()).toEqual([1, 2]);
  });

  it('keeps nothing and never calls back when the work answers false', async () => {
    const written = vi.fn();
    const done = await commitThen(
      database.db,
      async (tx) => {
        await tx.execute(sql`insert into marks values (3)`);
        return false;
      },
      written,
    );
    expect(done).toBe(false);
    expect(written).not.toHaveBeenCalled();
    expect(await marks()).toEqual([1, 2]);
  });

  it('keeps nothing and never calls back when the work fails', async () => {
    const written = vi.fn();
    await expect(
      commitThen(
        database.db,
        async (tx) => {
          await tx.execute(sql`insert into marks values (4)`);
          await tx.execute(sql`insert into marks values (1)`);
          return true;
        },
        written,
      ),
    ).rejects.toThrow();
    expect(written).not.toHaveBeenCalled();
    expect(await marks()).toEqual([1, 2]);
  });

  it('leaves the connection usable for the next commit', async () => {
    for (const n of [5, 6, 7, 8, 9]) {
      const written = vi.fn();
      expect(
        await commitThen(
          database.db,
          (tx) => tx.execute(sql`insert into marks values (${n})`).then(() => true),
          written,
        ),
      ).toBe(true);
      expect(written).toHaveBeenCalledTimes(1);
    }
    expect(await marks()).toEqual([1, 2, 5, 6, 7, 8, 9]);
  });
});
