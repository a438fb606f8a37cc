import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { profileMatches } from '@shared/criteria/evaluate';
import {
  OPERATORS_BY_TYPE,
  LOOK_BACK_UNITS,
  isMultiValue,
  type AttributeType,
} from '@shared/criteria/operators';
import type { CriteriaGroup } from '@shared/criteria/tree';
import { lookBackStart } from '@shared/criteria/time';
import { loadDefinitions, type CustomerDefinitions } from '@server/customers/definitions';
import { insertEvents, upsertProfiles, type EventTuple } from '@server/customers/repository';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { verifiedUser, type TestUser } from '../factories/users';
import { createItem, role, teamWorkspace } from '../factories/items';
import {
  attributeRule,
  audienceRule,
  defineCustomerData,
  eventRule,
  group,
  sizeOf,
  type MarketingDefinitions,
} from '../factories/customers';

/**
 * The SQL compiler against the meaning: random trees (depth ≤ 4, every operator, every leaf type) over
 * random profiles and events; the size the server answers must equal the count of profiles the plain
 * TypeScript evaluator (`profileMatches`) accepts.
 */

let t: TestApp;
let manager: TestUser;
let ws: string;
let defs: MarketingDefinitions;
let definitions: CustomerDefinitions;
const audienceIds: string[] = [];
const AS_OF = new Date('2026-06-15T12:00:00.000Z');

beforeAll(async () => {
  t = await createTestApp();
  manager = await verifiedUser(t, { name: 'Pia Property' });
  const team = await teamWorkspace(t, manager, {
    name: 'Property',
    domains: ['marketing'],
    roles: { x: role('X', {}) },
    people: {},
  });
  ws = team.ws;
  defs = await defineCustomerData(t, manager, ws);
  const adults = await createItem(t, manager, ws, 'audience', {
    name: 'Adults',
    criteria: group('or', [attributeRule(defs, 'age', '>=', 18), attributeRule(defs, 'vip', '==', true)]),
  });
  const recentAdults = await createItem(t, manager, ws, 'audience', {
    name: 'Recent adults',
    criteria: group('and', [audienceRule(adults.id), eventRule(defs, 'visit', { lookBackValue: 10 })]),
  });
  audienceIds.push(adults.id, recentAdults.id);
  definitions = await loadDefinitions(t.database.db, ws);
});
afterAll(() => t.close());

const OPTIONS = ['news', 'sale', 'vip'];
const STRINGS = ['Paris', 'Rome', 'Oslo'];
const NUMBERS = [0, 1, 2, 3, 5, 10, 18, 20, 30];
/** A date near asOf: often a whole number of days away, exactly on the edge of a days rule. */
const dateNear = (spanDays: number) =>
  fc
    .oneof(
      fc.constantFrom(-30, -7, -3, -1, 0, 1, 3, 7, 30).map((days) => days * 24),
      fc.integer({ min: -spanDays * 24, max: spanDays * 24 }),
    )
    .map((hours) => new Date(AS_OF.getTime() + hours * 3_600_000).toISOString());

/** When an event happened: anywhere from two years back to a few days after asOf, or exactly on a window's edge. */
const eventTime = fc.oneof(
  fc.integer({ min: -800 * 24, max: 5 * 24 }).map((hours) => new Date(AS_OF.getTime() + hours * 3_600_000)),
  fc
    .record({ unit: fc.constantFrom(...LOOK_BACK_UNITS), value: fc.integer({ min: 0, max: 40 }) })
    .map(({ unit, value }) => lookBackStart(AS_OF, unit, value) ?? AS_OF),
);

/** A value of a type, sometimes of the wrong JSON type (the compiler must not match or fail on it). */
function storedValue(type: AttributeType): fc.Arbitrary<unknown> {
  const right = {
    number: fc.constantFrom(...NUMBERS),
    string: fc.constantFrom(...STRINGS),
    categorical: fc.constantFrom(...OPTIONS),
    boolean: fc.boolean(),
    array: fc.subarray(OPTIONS),
    date: dateNear(40),
  }[type];
  return fc.oneof(
    { weight: 8, arbitrary: right },
    { weight: 1, arbitrary: fc.constantFrom('12', 7, true, ['x'], 'soon') },
  );
}

/** A rule value fitting a type and operator. */
function ruleValue(type: AttributeType, operator: string): fc.Arbitrary<unknown> {
  if (type === 'date') return fc.constantFrom(0, 1, 3, 7, 30);
  const single: fc.Arbitrary<unknown> = {
    number: fc.constantFrom(...NUMBERS),
    string: fc.constantFrom(...STRINGS),
    categorical: fc.constantFrom(...OPTIONS),
    boolean: fc.boolean(),
    array: fc.constantFrom(...OPTIONS),
    date: fc.constant(0),
  }[type];
  return isMultiValue(operator)
    ? fc.uniqueArray(single, { maxLength: 3, selector: (v) => JSON.stringify(v) })
    : single;
}

const comparison = (type: AttributeType) =>
  fc
    .constantFrom(...OPERATORS_BY_TYPE[type])
    .chain((operator) => ruleValue(type, operator).map((value) => ({ operator, value })));

const attributeLeaf = fc.constantFrom('age', 'city', 'tier', 'vip', 'tags', 'renews').chain((key) => {
  const type = defs.attributes[key].type as AttributeType;
  return comparison(type).map(({ operator, value }) => attributeRule(defs, key, operator, value));
});

const PURCHASE_PROPERTIES: [string, AttributeType][] = [
  ['amount', 'number'],
  ['sku', 'string'],
  ['gift', 'boolean'],
  ['sent', 'date'],
  ['labels', 'array'],
];

const whereClause = fc.option(
  fc.constantFrom(...PURCHASE_PROPERTIES).chain(([name, type]) =>
    comparison(type).map(({ operator, value }) => ({
      whereProperty: name,
      whereOperator: operator,
      whereValue: value,
    })),
  ),
  { nil: undefined },
);

const eventLeaf = fc
  .record({
    key: fc.constantFrom('purchase', 'visit'),
    lookBackUnit: fc.constantFrom(...LOOK_BACK_UNITS),
    lookBackValue: fc.integer({ min: 1, max: 40 }),
    aggregator: fc.constantFrom('COUNT', 'TOTAL'),
    aggregatorCondition: fc.constantFrom('>=', '<=', '=='),
    aggregatorValue: fc.integer({ min: 0, max: 4 }),
    where: whereClause,
  })
  .map(({ key, aggregator, aggregatorValue, where, ...rest }) => {
    const isPurchase = key === 'purchase';
    const total = isPurchase && aggregator === 'TOTAL';
    return eventRule(defs, key, {
      ...rest,
      aggregator: total ? 'TOTAL' : 'COUNT',
      aggregatorValue: total ? aggregatorValue * 10 : aggregatorValue,
      ...(total ? { property: 'amount' } : {}),
      ...(isPurchase && where ? where : {}),
    });
  });

const audienceLeaf = fc.constantFrom(0, 1).map((index) => audienceRule(audienceIds[index]));

const leaf = fc.oneof(
  { weight: 4, arbitrary: attributeLeaf },
  { weight: 3, arbitrary: eventLeaf },
  { weight: 1, arbitrary: audienceLeaf },
);

function groupAt(depth: number): fc.Arbitrary<unknown> {
  const child =
    depth < 4
      ? fc.oneof(
          { weight: 3, arbitrary: leaf },
          { weight: 1, arbitrary: fc.constant(null).chain(() => groupAt(depth + 1)) },
        )
      : leaf;
  return fc
    .record({ predicate: fc.constantFrom('and', 'or', 'not'), children: fc.array(child, { maxLength: 3 }) })
    .map(({ predicate, children }) => group(predicate, children));
}

const profileData = fc.array(
  fc.record({
    attributes: fc.record(
      {
        age: storedValue('number'),
        city: storedValue('string'),
        tier: storedValue('categorical'),
        vip: storedValue('boolean'),
        tags: storedValue('array'),
        renews: storedValue('date'),
      },
      { requiredKeys: [] },
    ),
    events: fc.array(
      fc.record({
        event: fc.constantFrom('purchase', 'visit'),
        // From two years back to a few days after asOf (later events must not count).
        at: eventTime,
        properties: fc.record(
          {
            amount: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant('lots')),
            sku: fc.constantFrom(...STRINGS),
            gift: fc.boolean(),
            sent: dateNear(20),
            labels: fc.subarray(OPTIONS),
          },
          { requiredKeys: [] },
        ),
      }),
      { maxLength: 5 },
    ),
  }),
  { minLength: 1, maxLength: 25 },
);

type Profiles = fc.Arbitrary<typeof profileData extends fc.Arbitrary<infer T> ? T : never>;

async function seed(profiles: Profiles extends fc.Arbitrary<infer T> ? T : never) {
  const db = t.database.db;
  await db.execute(sql`delete from customer_profiles where workspace_id = ${ws}`);
  await db.execute(sql`delete from customer_events where workspace_id = ${ws}`);
  await upsertProfiles(
    db,
    ws,
    profiles.map((p, i) => [`p${i}`, p.attributes]),
  );
  const events: EventTuple[] = profiles.flatMap((p, i) =>
    p.events.map((e): EventTuple => [`p${i}`, e.event, e.at.toISOString(), e.properties]),
  );
  await insertEvents(db, ws, events);
}

it('the SQL size equals the TypeScript meaning for random trees, profiles and events', async () => {
  await fc.assert(
    fc.asyncProperty(
      profileData,
      fc.array(groupAt(1), { minLength: 6, maxLength: 6 }),
      async (profiles, trees) => {
        await seed(profiles);
        for (const tree of trees) {
          const expected = profiles.filter((p) =>
            profileMatches(
              tree as CriteriaGroup,
              definitions.catalog,
              { attributes: p.attributes, events: p.events },
              AS_OF,
            ),
          ).length;
          const res = await sizeOf(t, manager, ws, tree, AS_OF.toISOString());
          expect(res.statusCode, res.body).toBe(200);
          expect({ tree, size: res.json().size }).toEqual({ tree, size: expected });
        }
      },
    ),
    { numRuns: 80 },
  );
});
