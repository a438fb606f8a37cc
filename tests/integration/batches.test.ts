import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import { wsUrl } from '../factories/customers';

let t: TestApp;
let manager: TestUser;
let team: Team;
let uploader: TestUser;
let other: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Batches',
    domains: ['assets'],
    roles: {
      photo: role('Photo', { canEdit: ['marquee-assets-image-set'] }),
      reader: role('Reader', { canEdit: ['blog-post'] }),
    },
    people: { 'Una Uploader': ['photo'], 'Rey Reader': ['reader'] },
  });
  uploader = team.members['Una Uploader'];
  other = team.members['Rey Reader'];
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
});
afterAll(() => t.close());

describe('bulk image uploads record a batch', () => {
  it('starts with its total, counts saved and failed images, keeps row errors and finishes', async () => {
    const started = await call(t, 'POST', wsUrl(team.ws, 'batches'), uploader, {
      kind: 'image-upload',
      total: 3,
    });
    expect(started.statusCode).toBe(201);
    const batch = started.json();
    expect(batch).toMatchObject({
      kind: 'image-upload',
      status: 'running',
      total: 3,
      processed: 0,
      failed: 0,
    });
    const progress = `batches/${batch.id}/progress`;
    expect(
      (await call(t, 'POST', wsUrl(team.ws, progress), uploader, { processed: 1 })).json(),
    ).toMatchObject({
      processed: 1,
      total: 3,
    });
    const finished = await call(t, 'POST', wsUrl(team.ws, progress), uploader, {
      processed: 1,
      failed: 1,
      errors: [{ line: 3, message: 'beach.jpg: Name is required' }],
      finished: true,
    });
    expect(finished.json()).toMatchObject({
      status: 'done with errors',
      processed: 2,
      failed: 1,
      total: 3,
      errors: [{ line: 3, message: 'beach.jpg: Name is required' }],
    });
    expect(finished.json().finishedAt).not.toBeNull();
    const again = await call(t, 'POST', wsUrl(team.ws, progress), uploader, { processed: 1 });
    expect(again.statusCode).toBe(409);
  });

  it('keeps the first 100 row errors in line order when reports arrive out of order', async () => {
    const batch = (
      await call(t, 'POST', wsUrl(team.ws, 'batches'), uploader, { kind: 'image-upload', total: 300 })
    ).json();
    const progress = `batches/${batch.id}/progress`;
    const errors = (from: number) =>
      Array.from({ length: 80 }, (_, n) => ({ line: from + n, message: `image ${from + n} failed` }));
    // A later chunk's errors land first, as when two chunks are written side by side.
    await call(t, 'POST', wsUrl(team.ws, progress), uploader, { failed: 80, errors: errors(200) });
    const report = await call(t, 'POST', wsUrl(team.ws, progress), uploader, {
      failed: 80,
      errors: errors(100),
      finished: true,
    });
    const lines = report.json().errors.map((e: { line: number }) => e.line);
    expect(lines).toEqual([...errors(100), ...errors(200).slice(0, 20)].map((e) => e.line));
    expect(report.json().failed).toBe(160);
  });

  it('only image-set editors start one, only its creator reports, others get 401/404', async () => {
    const body = { kind: 'image-upload', total: 1 };
    expect((await call(t, 'POST', wsUrl(team.ws, 'batches'), undefined, body)).statusCode).toBe(401);
    expect((await call(t, 'POST', wsUrl(team.ws, 'batches'), outsider, body)).statusCode).toBe(404);
    expect((await call(t, 'POST', wsUrl(team.ws, 'batches'), other, body)).statusCode).toBe(403);
    const batch = (await call(t, 'POST', wsUrl(team.ws, 'batches'), uploader, body)).json();
    const report = await call(t, 'POST', wsUrl(team.ws, `batches/${batch.id}/progress`), manager, {
      processed: 1,
    });
    expect(report.statusCode).toBe(404);
    expect(
      (await call(t, 'POST', wsUrl(team.ws, 'batches'), uploader, { kind: 'image-upload', total: 0 }))
        .statusCode,
    ).toBe(400);
  });
});
