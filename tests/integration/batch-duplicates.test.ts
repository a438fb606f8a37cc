import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call } from '../factories/items';
import { createWorkspace, patchWorkspace } from '../factories/workspaces';
import { defineCustomerData, importBody, wsUrl } from '../factories/customers';

/**
 * An import's batch counts the rows it skipped as duplicates beside those it stored and those it
 * refused: events stored already (live or in segments, or repeated in the file) and profile rows that
 * change nothing.
 */
let t: TestApp;
let manager: TestUser;
let ws: string;

beforeAll(async () => {
  // Small chunks and segments: an import of a few dozen events goes through every path.
  t = await createTestApp({
    importChunkRows: 3,
    eventSegments: { directRows: 4, segmentRows: 8, maxSegments: 2 },
  });
  manager = await verifiedUser(t, { name: 'Dee Duplicates' });
  ws = (await createWorkspace(t.app, manager, 'Duplicates')).id;
  await patchWorkspace(t.app, manager, ws, { basics: { domains: ['marketing'], stages: ['Live'] } });
  await defineCustomerData(t, manager, ws);
  const profiles = ['id', ...Array.from({ length: 5 }, (_, i) => `p${i}`)].join('\n');
  expect((await importBody(t, manager, ws, 'profiles', 'text/csv', profiles)).statusCode).toBe(201);
});
afterAll(() => t.close());

const visits = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => {
    const n = from + i;
    return `p${n % 5},visit,2026-01-01T00:${String(n % 60).padStart(2, '0')}:00Z,/page-${n}`;
  });
const importEvents = async (lines: string[]) => {
  const res = await importBody(
    t,
    manager,
    ws,
    'customer-events',
    'text/csv',
    ['profileId,event,at,page', ...lines].join('\n'),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().batch;
};

describe('duplicates in an import', () => {
  it('counts events stored already as duplicates skipped, not as stored', async () => {
    // 20,000 rows of which 17,410 were repeats said '20,000 processed, 0 failed'.
    const first = await importEvents(visits(0, 30));
    expect(first).toMatchObject({ status: 'done', processed: 30, stored: 30, duplicates: 0, failed: 0 });
    // The same 30 again (past the direct rows they go into segments) and 6 new ones.
    const again = await importEvents([...visits(0, 30), ...visits(30, 36)]);
    expect(again).toMatchObject({ status: 'done', processed: 36, stored: 6, duplicates: 30, failed: 0 });
    // Repeats within one file, and a row refused beside them.
    const repeated = await importEvents([
      ...visits(40, 42),
      ...visits(40, 42),
      'p0,nope,2026-01-01T00:00:00Z,',
    ]);
    expect(repeated).toMatchObject({ processed: 4, stored: 2, duplicates: 2, failed: 1 });
    const listed = (await call(t, 'GET', wsUrl(ws, 'batches'), manager)).json().batches;
    expect(listed.find((b: { id: string }) => b.id === again.id)).toMatchObject({
      stored: 6,
      duplicates: 30,
    });
  });

  it('counts profile rows that change nothing as duplicates skipped', async () => {
    const csv = 'id,city\np0,Paris\np1,Rome\np1,Rome\n';
    const first = (await importBody(t, manager, ws, 'profiles', 'text/csv', csv)).json().batch;
    expect(first).toMatchObject({ processed: 3, stored: 2, duplicates: 1 });
    const again = (await importBody(t, manager, ws, 'profiles', 'text/csv', `${csv}p2,Oslo\n`)).json().batch;
    expect(again).toMatchObject({ processed: 4, stored: 1, duplicates: 3 });
  });
});
