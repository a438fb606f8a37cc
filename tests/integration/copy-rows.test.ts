import { sql } from 'drizzle-orm';
import { copyRows, copyText } from '@server/db/client';
import { rows } from '@server/db/migrate';
import { openTestDatabase, type TestDatabase } from '../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase({ migrate: false });
  await database.db.execute(sql`create table copied (n int primary key, t text, j jsonb)`);
});
afterAll(() => database.close());

const NASTY = [
  '',
  'tab\there',
  'line\nbreak\r\nand CR\r',
  'back\\slash \\N \\t \\\\ \\',
  '\\.',
  '"quoted" \'single\' ,comma;',
  'unicode é 漢字 🎉 \u2028 \u00a0',
];

describe('copyRows', () => {
  it('writes every value as it was, null as NULL', async () => {
    const input = [
      ...NASTY.map((text, n) => [String(n), text, JSON.stringify({ text, list: [text] })]),
      [String(NASTY.length), null, null],
    ];
    await database.db.transaction((tx) => copyRows(tx, 'copied', ['n', 't', 'j'], input));
    const stored = rows<{ n: number; t: string | null; j: unknown }>(
      await database.db.execute(sql`select n, t, j from copied order by n`),
    );
    expect(stored).toEqual([
      ...NASTY.map((text, n) => ({ n, t: text, j: { text, list: [text] } })),
      { n: NASTY.length, t: null, j: null },
    ]);
  });

  it('escapes only backslash, tab, newline and carriage return', () => {
    expect(copyText([['a\\b\tc\nd\re', null, '\\N']])).toBe('a\\\\b\\tc\\nd\\re\t\\N\t\\\\N\n');
  });

  // postgres.js reported an error raised once the data had ended (here the primary key) to nobody.
  it('rejects, and writes nothing, when the database refuses the rows', async () => {
    await expect(
      database.db.transaction((tx) =>
        copyRows(
          tx,
          'copied',
          ['n', 't', 'j'],
          [
            ['100', 'x', '{}'],
            ['100', 'y', '{}'],
          ],
        ),
      ),
    ).rejects.toThrow(/duplicate key/);
    const [{ count }] = rows<{ count: number }>(
      await database.db.execute(sql`select count(*)::int as count from copied where n = 100`),
    );
    expect(count).toBe(0);
  });
});
