import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { call, createItem, itemUrl, role, saveItem, teamWorkspace, type Team } from '../factories/items';
import {
  attributeRule,
  audienceRule,
  defineCustomerData,
  eventRule,
  group,
  importBody,
  sizeOf,
  wsUrl,
  type MarketingDefinitions,
} from '../factories/customers';

let t: TestApp;
let manager: TestUser;
let team: Team;
let member: TestUser;
let outsider: TestUser;
let defs: MarketingDefinitions;
const asOf = '2026-06-15T12:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Mia Manager' });
  team = await teamWorkspace(t, manager, {
    name: 'Audiences',
    domains: ['marketing'],
    roles: { marketer: role('Marketer', { canEdit: ['audience'], customerData: ['read', 'export'] }) },
    people: { 'Max Marketer': ['marketer'] },
  });
  member = team.members['Max Marketer'];
  outsider = await verifiedUser(t, { name: 'Otto Outsider' });
  defs = await defineCustomerData(t, manager, team.ws);
  const profiles = [
    'id,age,city,tier,vip,tags,renews',
    'a,31,Paris,gold,yes,news|sale,2026-06-20T12:00:00Z',
    'b,45,Rome,silver,no,sale,2026-05-01T00:00:00Z',
    'c,22,Oslo,bronze,,vip,',
    'd,,,,,,',
  ].join('\n');
  expect((await importBody(t, manager, team.ws, 'profiles', 'text/csv', profiles)).json().batch.failed).toBe(
    0,
  );
  const events = [
    'profileId,event,at,amount,sku,page',
    'a,purchase,2026-06-14T12:00:00Z,30,A,',
    'a,purchase,2026-06-10T12:00:00Z,10,B,',
    'b,purchase,2026-06-15T11:00:00Z,100,A,',
    'b,purchase,2026-06-16T00:00:00Z,100,A,',
    'c,visit,2026-06-15T11:50:00Z,,,home',
    'c,purchase,2025-01-01T00:00:00Z,5,C,',
  ].join('\n');
  expect(
    (await importBody(t, manager, team.ws, 'customer-events', 'text/csv', events)).json().batch.failed,
  ).toBe(0);
});
afterAll(() => t.close());

const size = async (criteria: unknown) => {
  const res = await sizeOf(t, member, team.ws, criteria, asOf);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().size as number;
};

describe('sizes', () => {
  it('counts matching and all profiles', async () => {
    const res = await sizeOf(t, member, team.ws, group('and', [attributeRule(defs, 'age', '>', 30)]), asOf);
    expect(res.json()).toEqual({ size: 2, profiles: 4 });
    expect(await size(group('and', []))).toBe(4);
  });

  it('a profile without a value matches no attribute rule, and matches not of one', async () => {
    expect(await size(group('and', [attributeRule(defs, 'city', '!=', 'Paris')]))).toBe(2);
    expect(await size(group('not', [attributeRule(defs, 'city', '==', 'Paris')]))).toBe(3);
    expect(await size(group('and', [attributeRule(defs, 'tier', 'not in', ['gold'])]))).toBe(2);
    expect(await size(group('and', [attributeRule(defs, 'vip', '==', true)]))).toBe(1);
  });

  it('arrays and dates', async () => {
    expect(await size(group('and', [attributeRule(defs, 'tags', 'overlaps', ['sale'])]))).toBe(2);
    expect(await size(group('and', [attributeRule(defs, 'tags', 'is subset of', ['sale', 'vip'])]))).toBe(2);
    expect(await size(group('and', [attributeRule(defs, 'tags', 'disjoint', ['news'])]))).toBe(2);
    expect(await size(group('and', [attributeRule(defs, 'renews', 'is in the next', 7)]))).toBe(1);
    expect(await size(group('and', [attributeRule(defs, 'renews', 'was not in the last', 30)]))).toBe(1);
  });

  it('event rules: window up to asOf, COUNT, TOTAL with a where clause, and zero counts', async () => {
    expect(await size(group('and', [eventRule(defs, 'purchase', { lookBackValue: 7 })]))).toBe(2);
    expect(await size(group('and', [eventRule(defs, 'purchase', { lookBackValue: 2 })]))).toBe(2);
    expect(await size(group('and', [eventRule(defs, 'purchase', { lookBackUnit: 'anytime' })]))).toBe(3);
    expect(
      await size(
        group('and', [eventRule(defs, 'purchase', { aggregatorCondition: '<=', aggregatorValue: 0 })]),
      ),
    ).toBe(2);
    expect(
      await size(
        group('and', [
          eventRule(defs, 'purchase', {
            aggregator: 'TOTAL',
            property: 'amount',
            aggregatorCondition: '==',
            aggregatorValue: 30,
            whereProperty: 'sku',
            whereOperator: '==',
            whereValue: 'A',
          }),
        ]),
      ),
    ).toBe(1);
    expect(
      await size(group('and', [eventRule(defs, 'visit', { lookBackUnit: 'minutes', lookBackValue: 15 })])),
    ).toBe(1);
  });

  it('property names that are not identifiers reach the SQL/JSON paths intact: quotes, backslashes, $, constructor, emoji', async () => {
    const [amount, sku, dollar, emoji] = ['say "hi"\\now', 'constructor', '$v', '€ 😀'];
    const order = await createItem(t, manager, team.ws, 'behavioral-event', {
      name: 'odd order',
      key: 'odd-order',
      properties: [
        { name: amount, type: 'number' },
        { name: sku, type: 'string' },
        { name: dollar, type: 'string' },
        { name: emoji, type: 'number' },
      ],
    });
    const events = [
      {
        profileId: 'a',
        event: 'odd-order',
        at: '2026-06-14T00:00:00Z',
        properties: { [amount]: 7, [sku]: 'x', [dollar]: 'p', [emoji]: 1 },
      },
      {
        profileId: 'a',
        event: 'odd-order',
        at: '2026-06-13T00:00:00Z',
        properties: { [amount]: 5, [sku]: 'y', [dollar]: 'q', [emoji]: 2 },
      },
      {
        profileId: 'b',
        event: 'odd-order',
        at: '2026-06-13T00:00:00Z',
        properties: { [amount]: 7, [sku]: 'x', [dollar]: 'q', [emoji]: 3 },
      },
    ];
    const ndjson = events.map((event) => JSON.stringify(event)).join('\n');
    const imported = await importBody(t, manager, team.ws, 'customer-events', 'application/x-ndjson', ndjson);
    expect(imported.json().batch).toMatchObject({ processed: 3, failed: 0 });
    const rule = (over: Record<string, unknown>) =>
      group('and', [
        {
          type: 'event',
          event: { schemaType: 'behavioral-event', id: order.id, label: 'odd order' },
          lookBackUnit: 'days',
          lookBackValue: 30,
          aggregator: 'TOTAL',
          aggregatorCondition: '>=',
          ...over,
        },
      ]);
    // a: 7 + 5 = 12 in all, 7 where constructor is "x"; b: 7.
    expect(await size(rule({ property: amount, aggregatorValue: 12 }))).toBe(1);
    const whereX = { whereProperty: sku, whereOperator: '==', whereValue: 'x' };
    expect(await size(rule({ property: amount, aggregatorValue: 7, ...whereX }))).toBe(2);
    expect(await size(rule({ property: amount, aggregatorValue: 8, ...whereX }))).toBe(0);
    const whereQ = { whereProperty: dollar, whereOperator: 'in', whereValue: ['q'] };
    expect(await size(rule({ property: emoji, aggregatorValue: 3, ...whereQ }))).toBe(1);
    expect(await size(rule({ property: emoji, aggregatorValue: 2, ...whereQ }))).toBe(2);
  });

  it('nests groups with not, and includes audiences inside audiences', async () => {
    const buyers = await createItem(t, member, team.ws, 'audience', {
      name: 'Buyers',
      criteria: group('and', [eventRule(defs, 'purchase', { lookBackValue: 7 })]),
    });
    const richBuyers = await createItem(t, member, team.ws, 'audience', {
      name: 'Rich buyers',
      criteria: group('and', [audienceRule(buyers.id), attributeRule(defs, 'age', '>=', 40)]),
    });
    const tree = group('or', [
      audienceRule(richBuyers.id),
      group('not', [group('or', [attributeRule(defs, 'age', '>', 0), group('and', [])], '1.2.1')], '1.2'),
    ]);
    expect(await size(group('and', [audienceRule(buyers.id)]))).toBe(2);
    expect(await size(group('and', [audienceRule(richBuyers.id)]))).toBe(1);
    expect(await size(group('or', [audienceRule(richBuyers.id)]))).toBe(1);
    expect(await size(group('or', [audienceRule(richBuyers.id), group('and', [])]))).toBe(4);
    expect(await size(group('or', [audienceRule(richBuyers.id), group('not', [group('and', [])])]))).toBe(1);
    expect(await size(tree)).toBe(1);
    expect(await size(group('not', [audienceRule(buyers.id)]))).toBe(2);

    const sizes = (await call(t, 'GET', wsUrl(team.ws, 'audiences/sizes'), member)).json();
    // The list's sizes are as of now, long after these purchases.
    expect(sizes.sizes[richBuyers.id]).toBe(0);
    expect(sizes.profiles).toBe(4);

    const sample = await call(t, 'POST', wsUrl(team.ws, 'audiences/sample'), member, {
      criteria: tree,
      asOf,
    });
    expect(sample.json().profiles.map((p: { id: string }) => p.id)).toEqual(['b']);
  });

  it('streams the matching profiles of an audience as CSV', async () => {
    const audience = await createItem(t, member, team.ws, 'audience', {
      name: 'Adults',
      criteria: group('and', [attributeRule(defs, 'age', '>=', 30)]),
    });
    const sizes = (await call(t, 'GET', wsUrl(team.ws, 'audiences/sizes'), member)).json();
    expect(sizes.sizes[audience.id]).toBe(2);
    const res = await call(t, 'GET', wsUrl(team.ws, `audiences/${audience.id}/profiles.csv`), member);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body).toBe(
      'id,age,city,renews,tags,tier,vip\r\na,31,Paris,2026-06-20T12:00:00.000Z,news|sale,gold,true\r\nb,45,Rome,2026-05-01T00:00:00.000Z,sale,silver,false\r\n',
    );
    expect((await call(t, 'GET', wsUrl(team.ws, 'audiences/nope/profiles.csv'), member)).statusCode).toBe(
      404,
    );
  });

  it('refuses a tree that does not check, naming the node', async () => {
    const res = await sizeOf(
      t,
      member,
      team.ws,
      group('and', [group('or', [attributeRule(defs, 'age', 'overlaps', [1])])]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'data.criteria 1.1.1: operator "overlaps" does not fit attribute "age" of type number (==, !=, in, not in, <, <=, >, >=)',
    );
  });

  it('401 signed out, 404 outside the workspace', async () => {
    const criteria = group('and', []);
    expect((await sizeOf(t, undefined as unknown as TestUser, team.ws, criteria)).statusCode).toBe(401);
    expect((await sizeOf(t, outsider, team.ws, criteria)).statusCode).toBe(404);
    expect(
      (await call(t, 'POST', wsUrl(team.ws, 'audiences/sample'), outsider, { criteria })).statusCode,
    ).toBe(404);
    expect((await call(t, 'GET', wsUrl(team.ws, 'audiences/sizes'), undefined)).statusCode).toBe(401);
  });
});

describe('criteria are checked strictly on every save', () => {
  const save = (criteria: unknown) =>
    call(t, 'POST', wsUrl(team.ws, 'items/audience'), member, { data: { name: 'Checked', criteria } });

  it.each([
    [
      () => [attributeRule(defs, 'vip', '==', 'yes')],
      'data.criteria 1.1: "==" needs yes or no value, not "yes"',
    ],
    [() => [{ type: 'attribute', predicate: {} }], 'data.criteria 1.1: Attribute not selected'],
    [
      () => [eventRule(defs, 'purchase', { aggregator: 'TOTAL', property: 'sku' })],
      'data.criteria 1.1: TOTAL needs a number property of event "purchase" to sum',
    ],
    [
      () => [eventRule(defs, 'visit', { whereProperty: 'page', whereOperator: '>=', whereValue: 20 })],
      'data.criteria 1.1: operator ">=" does not fit property "page" of type string (==, !=, in, not in)',
    ],
    [() => [audienceRule('missing')], 'data.criteria 1.1: audience missing does not exist in this workspace'],
    [
      () => [group('and', [group('and', [group('and', [group('and', [])])])])],
      'data.criteria 1.1.1.1.1: groups may nest at most 4 deep',
    ],
  ])('refuses case %#', async (children, message) => {
    const res = await save(group('and', children()));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(message);
  });

  it('refuses an audience that includes itself through a chain', async () => {
    const a = await createItem(t, member, team.ws, 'audience', { name: 'A', criteria: group('and', []) });
    const b = await createItem(t, member, team.ws, 'audience', {
      name: 'B',
      criteria: group('and', [audienceRule(a.id)]),
    });
    const res = await call(t, 'PUT', itemUrl(team.ws, 'audience', a.id), member, {
      data: { name: 'A', criteria: group('and', [group('or', [audienceRule(b.id)], '1.1')]) },
      baseVersion: 1,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'data.criteria 1.1.1: an audience cannot include itself (A → B → A)',
    );
    const self = await call(t, 'PUT', itemUrl(team.ws, 'audience', a.id), member, {
      data: { name: 'A', criteria: group('and', [audienceRule(a.id)]) },
      baseVersion: 1,
    });
    expect(self.json().error.message).toBe('data.criteria 1.1: an audience cannot include itself (A → A)');
    // A valid tree saves and reads back unchanged.
    const tree = group('and', [attributeRule(defs, 'age', 'in', [1, 2]), eventRule(defs, 'visit')]);
    const saved = await saveItem(t, member, team.ws, 'audience', a.id, { name: 'A', criteria: tree }, 1);
    expect(saved.data.criteria).toEqual(tree);
  });
});
