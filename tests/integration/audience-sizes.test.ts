import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { WorkspaceStats } from '@shared/api/stats';
import { buildApp } from '@server/app';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, teamWorkspace, type Team } from '../factories/items';
import {
  attributeRule,
  defineCustomerData,
  group,
  importBody,
  wsUrl,
  type MarketingDefinitions,
} from '../factories/customers';

/** The dashboard's audience sizes over time are stored points, recorded daily and on measuring. */
let t: TestApp;
let manager: TestUser;
let team: Team;
let worker: FastifyInstance | undefined;
let defs: MarketingDefinitions;

const today = () => new Date().toISOString().slice(0, 10);
const stats = async (user: TestUser): Promise<WorkspaceStats> =>
  (await call(t, 'GET', wsUrl(team.ws, 'stats'), user)).json();

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Sizes',
    domains: ['marketing', 'blogging'],
    roles: {},
    people: {},
  });
  defs = await defineCustomerData(t, manager, team.ws);
  const profiles = ['id,age', 'a,31', 'b,45', 'c,22'].join('\n');
  expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', profiles)).statusCode).toBe(201);
});
afterAll(async () => {
  await worker?.close();
  await t.close();
});

describe('audience sizes over time', () => {
  it('the job worker records each audience once a day; the dashboard reads the stored points', async () => {
    const adults = await createItem(t, manager, team.ws, 'audience', {
      name: 'Adults',
      criteria: group('and', [attributeRule(defs, 'age', '>=', 30)]),
    });
    expect((await stats(manager)).audienceSizes).toEqual([]);

    worker = await buildApp({
      config: { ...t.config, jobs: true, jobsPollMs: 50 },
      db: t.database.db,
      logger: false,
    });
    await vi.waitFor(async () => expect((await stats(manager)).audienceSizes).toHaveLength(1), {
      timeout: 10_000,
    });
    expect((await stats(manager)).audienceSizes).toEqual([
      { audienceId: adults.id, name: 'Adults', points: [{ day: today(), size: 2 }] },
    ]);

    // Earlier days are what was recorded then, not recomputed.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    await t.database.db.execute(sql`
      insert into audience_sizes (workspace_id, audience_id, day, size, profiles, recorded_at) values
        (${team.ws}, ${adults.id}, ${yesterday}::date, 7, 9, now()),
        (${team.ws}, ${adults.id}, ${longAgo}::date, 1, 1, now())`);
    expect((await stats(manager)).audienceSizes[0].points).toEqual([
      { day: yesterday, size: 7 },
      { day: today(), size: 2 },
    ]);
  });

  it("measuring every size (the audience list) records today's point again", async () => {
    const more = ['id,age', 'd,50', 'e,60'].join('\n');
    expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', more)).statusCode).toBe(201);
    const sizes = (await call(t, 'GET', wsUrl(team.ws, 'audiences/sizes'), manager)).json();
    const [adults] = (await stats(manager)).audienceSizes;
    expect(sizes.sizes[adults.audienceId]).toBe(4);
    expect(adults.points.at(-1)).toEqual({ day: today(), size: 4 });
  });
});
