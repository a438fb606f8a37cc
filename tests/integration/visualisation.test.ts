import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VISUALISATION_MESSAGES } from '@shared/api/stats';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, role, teamWorkspace, type Team } from '../factories/items';
import { createWorkspace } from '../factories/workspaces';

/** A local visualisation service: answers the next queued body, records each request's headers. */
let server: http.Server;
let baseUrl: string;
const answers: { status: number; body: string }[] = [];
const seen: http.IncomingHttpHeaders[] = [];

let t: TestApp;
let manager: TestUser;
let outsider: TestUser;
let team: Team;
let otherWs: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers);
    const next = answers.shift() ?? { status: 200, body: '{}' };
    res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({
    visualisation: { url: `${baseUrl}/report`, header: 'Authorization: Bearer vis-token' },
  });
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  otherWs = (await createWorkspace(t.app, outsider, 'Other Vis')).id;
  team = await teamWorkspace(t, manager, {
    name: 'Vis',
    roles: { viewer: role('Viewer', {}) },
    people: { 'Val Viewer': ['viewer'] },
  });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});

const url = (ws = team.ws) => `/api/v1/workspaces/${ws}/visualisation`;

describe('the generic visualisation GET', () => {
  it('GETs the configured URL with its header and stores each result under a timestamp key', async () => {
    expect((await call(t, 'GET', url(), manager)).json()).toEqual({
      configured: true,
      latest: null,
      history: [],
    });
    answers.push({ status: 200, body: JSON.stringify({ series: [1, 2, 3] }) });
    const first = await call(t, 'POST', url(), manager);
    expect(first.statusCode).toBe(200);
    expect(seen.at(-1)?.authorization).toBe('Bearer vis-token');
    expect(first.json().latest.result).toEqual({ series: [1, 2, 3] });
    expect(Date.parse(first.json().latest.key)).not.toBeNaN();

    answers.push({ status: 200, body: JSON.stringify({ series: [4] }) });
    await call(t, 'POST', url(), manager);
    const read = (await call(t, 'GET', url(), team.members['Val Viewer'])).json();
    expect(read.latest.result).toEqual({ series: [4] });
    expect(read.history.map((h: { result: unknown }) => h.result)).toEqual([
      { series: [4] },
      { series: [1, 2, 3] },
    ]);
    expect(read.history[0].key > read.history[1].key).toBe(true);
  });

  it('answers 502 naming the failure and stores nothing', async () => {
    const before = (await call(t, 'GET', url(), manager)).json().history.length;
    answers.push({ status: 500, body: 'oops' });
    const failed = await call(t, 'POST', url(), manager);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.message).toBe('The visualisation service answered 500');
    answers.push({ status: 200, body: 'not json' });
    expect((await call(t, 'POST', url(), manager)).json().error.message).toBe(
      'The visualisation service did not answer JSON',
    );
    expect((await call(t, 'GET', url(), manager)).json().history).toHaveLength(before);
  });

  it('lets only managers fetch; 401 signed out, 404 outside the workspace', async () => {
    expect((await call(t, 'POST', url(), team.members['Val Viewer'])).statusCode).toBe(403);
    expect((await call(t, 'POST', url())).statusCode).toBe(401);
    expect((await call(t, 'GET', url())).statusCode).toBe(401);
    expect((await call(t, 'GET', url(), outsider)).statusCode).toBe(404);
    expect((await call(t, 'POST', url(otherWs), manager)).statusCode).toBe(404);
  });

  it("answers 503 'Visualisation not configured' naming VISUALISATION_URL without it", async () => {
    const bare = await createTestApp();
    try {
      const boss = await verifiedUser(bare, { name: 'Bo Boss' });
      const ws = (await createWorkspace(bare.app, boss, 'Bare')).id;
      const res = await call(bare, 'POST', `/api/v1/workspaces/${ws}/visualisation`, boss);
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toEqual({
        code: 'not_configured',
        message: VISUALISATION_MESSAGES.notConfigured,
        details: { setting: 'VISUALISATION_URL' },
      });
      expect(
        (await call(bare, 'GET', `/api/v1/workspaces/${ws}/visualisation`, boss)).json().configured,
      ).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
