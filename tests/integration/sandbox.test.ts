import { SANDBOX_MEMORY_LIMIT_BYTES, SANDBOX_MESSAGES, SANDBOX_TIME_LIMIT_MS } from '@shared/api/sandbox';
import { runInSandbox } from '@server/sandbox/quickjs-runner';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { newUserInput, verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import { createWorkspace } from '../factories/workspaces';

let t: TestApp;
let manager: TestUser;
let outsider: TestUser;
let viewingManager: TestUser;
let team: Team;
let otherWs: string;

beforeAll(async () => {
  t = await createTestApp({ sandboxRateLimit: 1000 });
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  otherWs = (await createWorkspace(t.app, outsider, 'Other Tests')).id;
  team = await teamWorkspace(t, manager, {
    name: 'Tests',
    domains: ['blogging', 'admin'],
    roles: { viewer: role('Viewer', {}), writer: role('Writer', { canEdit: ['test-collection'] }) },
    people: { 'Val Viewer': ['viewer'], 'Wes Writer': ['writer'] },
  });
  // A workspace manager whose roles give no edit right on the test collection.
  const input = newUserInput({ name: 'Vic Viewing Manager' });
  const invited = await call(t, 'POST', `/api/v1/workspaces/${team.ws}/members/invitations`, manager, {
    email: input.email,
    roles: ['viewer'],
    isWorkspaceManager: true,
  });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.body}`);
  viewingManager = await verifiedUser(t, input);
});
afterAll(() => t.close());

const runUrl = (ws: string) => `/fun/testCollection/runTest?__marquee_workspace=${ws}`;
const run = (fun: string, user: TestUser = manager, ws = team.ws) =>
  call(t, 'POST', runUrl(ws), user, { fun });

describe('POST /fun/testCollection/runTest', () => {
  it('runs the body of an async function: return, await and console output', async () => {
    const res = await run(
      'console.log("start", 1, {a: [2]});\nconst v = await Promise.resolve(20);\nconsole.warn("half");\nreturn {sum: v + 22, ok: true};',
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, result: { sum: 42, ok: true }, error: null });
    expect(body.logs).toEqual(['start 1 {"a":[2]}', '[warn] half']);
    expect(body.ms).toBeGreaterThanOrEqual(0);
  });

  it('answers a thrown error and a rejection with the logs so far', async () => {
    const thrown = (await run('console.log("before");\nthrow new TypeError("bad thing");')).json();
    expect(thrown).toMatchObject({
      ok: false,
      result: null,
      error: 'TypeError: bad thing',
      logs: ['before'],
    });
    const rejected = (await run('await new Promise((_, reject) => reject(new Error("nope")));')).json();
    expect(rejected).toMatchObject({ ok: false, error: 'Error: nope' });
    const syntax = (await run('return (;')).json();
    expect(syntax.ok).toBe(false);
    expect(syntax.error).toMatch(/^SyntaxError/);
  });

  it('ends an infinite loop at the time limit, in a loop and after an await', async () => {
    for (const fun of ['while (true) {}', 'await null; for (;;) {}']) {
      const body = (await run(fun)).json();
      expect(body).toMatchObject({ ok: false, error: SANDBOX_MESSAGES.timeLimit });
    }
  });

  it('ends a memory bomb at the memory limit, and the next run is fine', async () => {
    const bomb = (await run('const b = new ArrayBuffer(64 * 1024 * 1024); return b.byteLength;')).json();
    expect(bomb).toMatchObject({ ok: false, error: SANDBOX_MESSAGES.memoryLimit });
    const arrays = (
      await run('const keep = []; let a = [1]; while (true) { a = a.concat(a); keep.push(a); }')
    ).json();
    expect(arrays).toMatchObject({ ok: false, error: SANDBOX_MESSAGES.memoryLimit });
    expect((await run('return 1 + 1;')).json()).toMatchObject({ ok: true, result: 2 });
  });

  it('has no require, process, fetch, XMLHttpRequest, import() or host globals', async () => {
    const body = (
      await run(
        'return [typeof require, typeof process, typeof fetch, typeof XMLHttpRequest, typeof module, typeof globalThis.std, typeof os, typeof WebAssembly];',
      )
    ).json();
    expect(body.result).toEqual(Array(8).fill('undefined'));
    expect((await run('return require("fs");')).json().error).toMatch(
      /^ReferenceError: '?require'? is not defined/,
    );
    expect((await run('return process.env;')).json().error).toMatch(
      /^ReferenceError: '?process'? is not defined/,
    );
    const imported = (await run('const fs = await import("fs"); return Object.keys(fs);')).json();
    expect(imported.ok).toBe(false);
  });

  it('reports a promise that never settles', async () => {
    expect((await run('await new Promise(() => {});')).json()).toMatchObject({
      ok: false,
      error: SANDBOX_MESSAGES.neverSettled,
    });
  });

  it('refuses a missing fun naming the field', async () => {
    const res = await call(t, 'POST', runUrl(team.ws), manager, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/fun/);
  });

  it('lets a member with the edit right on the test collection run; others are refused', async () => {
    expect((await run('return 1;', team.members['Wes Writer'])).statusCode).toBe(404); // admin domain: managers only
    expect((await run('return 1;', viewingManager)).statusCode).toBe(403);
    expect((await run('return 1;', team.members['Val Viewer'])).statusCode).toBe(404);
    expect((await run('return 1;', outsider)).statusCode).toBe(404);
    expect((await run('return 1;', manager, otherWs)).statusCode).toBe(404);
    expect((await call(t, 'POST', runUrl(team.ws), undefined, { fun: 'return 1;' })).statusCode).toBe(401);
  });
});

describe('runInSandbox', () => {
  const limits = { timeLimitMs: SANDBOX_TIME_LIMIT_MS, memoryLimitBytes: SANDBOX_MEMORY_LIMIT_BYTES };

  it('fails a run whose worker cannot load QuickJS in time with its own message, not the time limit', async () => {
    const answer = await runInSandbox('return 1;', { ...limits, startupMs: 1 });
    expect(answer).toMatchObject({ ok: false, error: SANDBOX_MESSAGES.startupTimeout });
    expect(await runInSandbox('return 1;', limits)).toMatchObject({ ok: true, result: 1 });
  });
});

describe('per-user limit', () => {
  it('answers 429 past SANDBOX_RATE_LIMIT runs a minute, for that user only', async () => {
    const limited = await createTestApp({ sandboxRateLimit: 2 });
    try {
      const boss = await verifiedUser(limited, { name: 'Bo Boss' });
      const other = await verifiedUser(limited, { name: 'Ola Other' });
      const ws = await teamWorkspace(limited, boss, {
        name: 'Limited',
        domains: ['admin'],
        roles: {},
        people: {},
      });
      const otherWs = await teamWorkspace(limited, other, {
        name: 'Other',
        domains: ['admin'],
        roles: {},
        people: {},
      });
      const go = (user: TestUser, w: string) => call(limited, 'POST', runUrl(w), user, { fun: 'return 1;' });
      expect((await go(boss, ws.ws)).statusCode).toBe(200);
      expect((await go(boss, ws.ws)).statusCode).toBe(200);
      const refused = await go(boss, ws.ws);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toBe(SANDBOX_MESSAGES.rateLimited);
      expect((await go(other, otherWs.ws)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
