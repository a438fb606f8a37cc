import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { call, createItem } from '../factories/items';
import { defineCustomerData, group, importBody, wsUrl } from '../factories/customers';

/**
 * What the app writes out of values its customers' customers control: every CSV it answers (an
 * audience's profiles, an import's errors) holds no cell a spreadsheet would run as a formula.
 */

let t: TestApp;
let manager: TestUser;
let ws: string;
let audienceId: string;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Output Manager' });
  ws = (await createWorkspace(t.app, manager, 'Output')).id;
  await patchWorkspace(t.app, manager, ws, { basics: { domains: ['marketing'], stages: ['Live'] } });
  await defineCustomerData(t, manager, ws);
  audienceId = (
    await createItem(t, manager, ws, 'audience', { name: 'Everyone', criteria: group('and', []) })
  ).id;
});
afterAll(() => t.close());

/** The characters a spreadsheet starts a formula with (or that it drops before one). */
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];
/** A cell a spreadsheet would run: a formula start that is not simply a number. */
const isFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^[+-]?\d+(?:\.\d+)?$/.test(cell);

/** Imports profiles as NDJSON and expects every row to be taken. */
async function importProfiles(profiles: { id: string; attributes: Record<string, unknown> }[]) {
  const body = profiles.map((profile) => JSON.stringify(profile)).join('\n');
  const res = await importBody(t, manager, ws, 'profiles', 'application/x-ndjson', body);
  expect(res.json().batch, res.body).toMatchObject({ failed: 0 });
  return res.json().batch as { id: string };
}

/** Every CSV the app writes, as the cells a spreadsheet reads. */
async function everyCsv(batchIds: string[]) {
  const urls = [`audiences/${audienceId}/profiles.csv`, ...batchIds.map((id) => `batches/${id}/errors.csv`)];
  const files: { url: string; rows: string[][] }[] = [];
  for (const url of urls) {
    const res = await call(t, 'GET', wsUrl(ws, url), manager);
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    files.push({ url, rows: parse(res.body, { relaxQuotes: false }) as string[][] });
  }
  return files;
}

describe('CSV answers', () => {
  it('escapes cells that a spreadsheet would run as formulas, in profile ids and attributes', async () => {
    // Broke: ids and attributes such as =1+2 and =HYPERLINK(…) came out of profiles.csv as formulas.
    const values = ['=1+2', '+1+1', '-2+3', '@SUM(A1:A2)', '=HYPERLINK("https://evil.test","x")', '\t=1'];
    await importProfiles(
      values.map((value, i) => ({ id: value, attributes: { city: value, tags: [], age: -i - 1 } })),
    );
    const res = await call(t, 'GET', wsUrl(ws, `audiences/${audienceId}/profiles.csv`), manager);
    const rows = parse(res.body) as string[][];
    const [header, ...body] = rows;
    const column = (name: string) => header.indexOf(name);
    for (const value of values) {
      const row = body.find((cells) => cells[column('city')] === `'${value}`);
      expect(row, value).toBeDefined();
      // Ids are trimmed on import.
      expect(row![0]).toBe(`'${value.trim()}`);
    }
    // A negative number is a number, not a formula: it stays as it is.
    expect(body.map((cells) => cells[column('age')]).sort()).toEqual(['-1', '-2', '-3', '-4', '-5', '-6']);
    for (const cells of rows) for (const cell of cells) expect(isFormula(cell), cell).toBe(false);
  });
});

/** Text a customer's customer may send: the formula starts and what quoting and line breaks trip on. */
const tail = fc.string({
  unit: fc.oneof(
    fc.constantFrom('=', '+', '-', '@', '"', "'", ',', ';', '\t', '\r', '\n', '|', '(', ')', ' '),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const dangerous = fc.tuple(fc.constantFrom(...FORMULA_STARTS), tail).map(([start, rest]) => start + rest);

describe('property sweep', () => {
  let n = 0;
  const batches: string[] = [];

  it('no CSV the app writes holds a formula, whatever profile values start with', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(dangerous, dangerous), { minLength: 1, maxLength: 4 }),
        async (values) => {
          // Ids are made unique per run; the value still starts with the formula start.
          const profiles = values.map(([id, city]) => ({ id: `${id}#${++n}`, attributes: { city } }));
          batches.push((await importProfiles(profiles)).id);
          // Values that an import refuses end up in its errors.csv.
          const refused = values.map(([id, city]) =>
            JSON.stringify({ id: `${id}#${++n}`, attributes: { age: city } }),
          );
          const res = await importBody(
            t,
            manager,
            ws,
            'profiles',
            'application/x-ndjson',
            refused.join('\n'),
          );
          batches.push(res.json().batch.id);
          for (const file of await everyCsv(batches.slice(-2))) {
            for (const cells of file.rows) {
              for (const cell of cells)
                expect(isFormula(cell), `${file.url}: ${JSON.stringify(cell)}`).toBe(false);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
