import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { profileMatches } from '@shared/criteria/evaluate';
import {
  OPERATORS_BY_TYPE,
  LOOK_BACK_UNITS,
  isMultiValue,
  type AttributeType,
  type LookBackUnit,
} from '@shared/criteria/operators';
import { isGroup, type CriteriaGroup, type CriteriaNode } from '@shared/criteria/tree';
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
 * The SQL compiler against the meaning: random trees (depth ≤ 4, every operator, every leaf type, not
 * groups) over random profiles and events; the size the server answers must equal the count of profiles
 * the plain TypeScript evaluator (`profileMatches`) accepts. Data is drawn on the edges where a wrong
 * comparison shows: dates exactly asOf ± N days and 1 ms either side, events on the look-back windows'
 * starts and on asOf (± 1 ms) at asOfs on month, leap-day and year edges, values equal to the rules'
 * values, empty arrays, missing attributes and values of the wrong JSON type (null and objects too).
 */

let t: TestApp;
let manager: TestUser;
let ws: string;
let defs: MarketingDefinitions;
let definitions: CustomerDefinitions;
const audienceIds: string[] = [];
const MS = 1;
const DAY = 86_400_000;
/**
 * The instants a size is asked at: an ordinary day, and calendar edges where months and years back
 * land on shorter months, leap days and year ends.
 */
const AS_OFS = [
  '2026-06-15T12:00:00.000Z',
  '2024-03-31T23:59:59.999Z',
  '2024-02-29T00:00:00.000Z',
  '2026-01-01T00:00:00.000Z',
  '2025-12-31T23:59:59.999Z',
].map((iso) => new Date(iso));
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
/** The N of the date operators and the look-back values rules use: the edges data is generated on. */
const RULE_DAYS = [0, 1, 3, 7, 30];
const LOOK_BACK_VALUES = [1, 2, 3, 7, 12, 30];
/**
 * A look-back window. Each run draws a few windows and day counts, and both its data and its rules
 * mostly use them, so values land exactly on (and 1 ms around) the edges the rules ask about.
 */
type Window = { unit: LookBackUnit; value: number };
/** The edges a run draws its data and rules on: look-back windows and the N of the date operators. */
interface Edges {
  windows: Window[];
  days: number[];
}
const edgesOfRun: fc.Arbitrary<Edges> = fc.record({
  windows: fc.uniqueArray(
    fc.record({ unit: fc.constantFrom(...LOOK_BACK_UNITS), value: fc.constantFrom(...LOOK_BACK_VALUES) }),
    { minLength: 1, maxLength: 3, selector: ({ unit, value }) => `${unit}${value}` },
  ),
  days: fc.uniqueArray(fc.constantFrom(...RULE_DAYS), { minLength: 1, maxLength: 2 }),
});
const ms = (time: number) => new Date(time);
/** An instant exactly on an edge, or 1 ms either side of it. */
const around = (edge: Date) => fc.constantFrom(-MS, 0, MS).map((delta) => ms(edge.getTime() + delta));

/** A stored date near asOf: exactly asOf ± N days (± 1 ms), or anywhere within `spanDays`. */
const dateNear = (asOf: Date, spanDays: number, days: number[]) =>
  fc
    .oneof(
      {
        weight: 3,
        arbitrary: fc
          .constantFrom(...days, ...days.map((n) => -n))
          .chain((n) => around(ms(asOf.getTime() + n * DAY))),
      },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: -spanDays * 24, max: spanDays * 24 })
          .map((hours) => ms(asOf.getTime() + hours * 3_600_000)),
      },
    )
    .map((date) => date.toISOString());

/**
 * When an event happened: on the start of one of the run's look-back windows (± 1 ms, calendar months
 * and years included), on asOf (± 1 ms), anywhere from two years back to a few days after asOf, or up to
 * a year after it (an asOf in the past, which the all-time counts' rollup must correct exactly).
 */
const eventTime = (asOf: Date, { windows }: Edges) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(...windows)
        .chain(({ unit, value }) => around(lookBackStart(asOf, unit, value) ?? asOf)),
    },
    { weight: 1, arbitrary: around(asOf) },
    {
      weight: 2,
      arbitrary: fc
        .integer({ min: -800 * 24, max: 5 * 24 })
        .map((hours) => ms(asOf.getTime() + hours * 3_600_000)),
    },
    {
      weight: 2,
      arbitrary: fc.integer({ min: 1, max: 365 * 24 }).map((hours) => ms(asOf.getTime() + hours * 3_600_000)),
    },
  );

/** A value of a type, sometimes of the wrong JSON type (the compiler must not match or fail on it). */
function storedValue(type: AttributeType, asOf: Date, edges: Edges): fc.Arbitrary<unknown> {
  const right = {
    number: fc.constantFrom(...NUMBERS),
    string: fc.constantFrom(...STRINGS),
    categorical: fc.constantFrom(...OPTIONS),
    boolean: fc.boolean(),
    array: fc.oneof(fc.constant([]), fc.subarray(OPTIONS)),
    date: dateNear(asOf, 40, edges.days),
  }[type];
  return fc.oneof(
    { weight: 8, arbitrary: right },
    { weight: 1, arbitrary: fc.constantFrom('12', 7, true, ['x'], [], 'soon', '2026-06-15', null, { v: 7 }) },
    ...(type === 'date' ? [{ weight: 1, arbitrary: nearlyIso(asOf, edges) }] : []),
  );
}

/**
 * Text that is not a stored date but sorts among them, so the range tests pass it and only the check
 * of the form refuses it: a digit turned into ':' (just above '9'), no 'Z', no milliseconds, a space.
 */
const nearlyIso = (asOf: Date, edges: Edges) =>
  fc
    .tuple(dateNear(asOf, 40, edges.days), fc.integer({ min: 0, max: 3 }))
    .map(([iso, how]) =>
      how === 0
        ? `${iso.slice(0, 22)}:Z`
        : how === 1
          ? iso.slice(0, 23)
          : how === 2
            ? `${iso.slice(0, 19)}Z`
            : `${iso.slice(0, 9)}:${iso.slice(10)}`,
    );

/** A rule value fitting a type and operator: the same values the data is drawn from, lists maybe empty. */
function ruleValue(type: AttributeType, operator: string, edges: Edges): fc.Arbitrary<unknown> {
  if (type === 'date')
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...edges.days) }, fc.constantFrom(...RULE_DAYS));
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

const comparison = (type: AttributeType, edges: Edges) =>
  fc
    .constantFrom(...OPERATORS_BY_TYPE[type])
    .chain((operator) => ruleValue(type, operator, edges).map((value) => ({ operator, value })));

const attributeLeaf = (edges: Edges) =>
  fc.constantFrom('age', 'city', 'tier', 'vip', 'tags', 'renews').chain((key) => {
    const type = defs.attributes[key].type as AttributeType;
    return comparison(type, edges).map(({ operator, value }) => attributeRule(defs, key, operator, value));
  });

const PURCHASE_PROPERTIES: [string, AttributeType][] = [
  ['amount', 'number'],
  ['sku', 'string'],
  ['gift', 'boolean'],
  ['sent', 'date'],
  ['labels', 'array'],
];

const whereClause = (edges: Edges) =>
  fc.option(
    fc.constantFrom(...PURCHASE_PROPERTIES).chain(([name, type]) =>
      comparison(type, edges).map(({ operator, value }) => ({
        whereProperty: name,
        whereOperator: operator,
        whereValue: value,
      })),
    ),
    { nil: undefined },
  );

const eventLeaf = (edges: Edges) =>
  fc
    .record({
      key: fc.constantFrom('purchase', 'visit'),
      window: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...edges.windows) },
        {
          weight: 1,
          arbitrary: fc.record({
            unit: fc.constantFrom(...LOOK_BACK_UNITS),
            value: fc.integer({ min: 1, max: 40 }),
          }),
        },
      ),
      aggregator: fc.constantFrom('COUNT', 'TOTAL'),
      aggregatorCondition: fc.constantFrom('>=', '<=', '=='),
      aggregatorValue: fc.integer({ min: 0, max: 4 }),
      where: whereClause(edges),
    })
    .map(({ key, window, aggregator, aggregatorValue, where, ...rest }) => {
      const isPurchase = key === 'purchase';
      const total = isPurchase && aggregator === 'TOTAL';
      return eventRule(defs, key, {
        ...rest,
        lookBackUnit: window.unit,
        lookBackValue: window.value,
        aggregator: total ? 'TOTAL' : 'COUNT',
        aggregatorValue: total ? aggregatorValue * 10 : aggregatorValue,
        ...(total ? { property: 'amount' } : {}),
        ...(isPurchase && where ? where : {}),
      });
    });

/** An all-time COUNT without a where: the rule the compiler answers from `customer_event_counts`. */
const allTimeCountLeaf = fc
  .record({
    key: fc.constantFrom('purchase', 'visit'),
    aggregatorCondition: fc.constantFrom('>=', '<=', '=='),
    aggregatorValue: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ key, ...rest }) => eventRule(defs, key, { ...rest, lookBackUnit: 'anytime', aggregator: 'COUNT' }));

const audienceLeaf = fc.constantFrom(0, 1).map((index) => audienceRule(audienceIds[index]));

const leaf = (edges: Edges) =>
  fc.oneof(
    { weight: 4, arbitrary: attributeLeaf(edges) },
    { weight: 3, arbitrary: eventLeaf(edges) },
    { weight: 1, arbitrary: allTimeCountLeaf },
    { weight: 1, arbitrary: audienceLeaf },
  );

function groupAt(depth: number, edges: Edges): fc.Arbitrary<unknown> {
  const child =
    depth < 4
      ? fc.oneof(
          { weight: 3, arbitrary: leaf(edges) },
          { weight: 1, arbitrary: fc.constant(null).chain(() => groupAt(depth + 1, edges)) },
        )
      : leaf(edges);
  return fc
    .record({ predicate: fc.constantFrom('and', 'or', 'not'), children: fc.array(child, { maxLength: 3 }) })
    .map(({ predicate, children }) => group(predicate, children));
}

const profileData = (asOf: Date, edges: Edges) =>
  fc.array(
    fc.record({
      attributes: fc.record(
        {
          age: storedValue('number', asOf, edges),
          city: storedValue('string', asOf, edges),
          tier: storedValue('categorical', asOf, edges),
          vip: storedValue('boolean', asOf, edges),
          tags: storedValue('array', asOf, edges),
          renews: storedValue('date', asOf, edges),
        },
        { requiredKeys: [] },
      ),
      events: fc.array(
        fc.record({
          event: fc.constantFrom('purchase', 'visit'),
          at: eventTime(asOf, edges),
          properties: fc.record(
            {
              amount: fc.oneof(
                { weight: 6, arbitrary: fc.integer({ min: 0, max: 30 }) },
                fc.constantFrom('lots', null, [3], { n: 3 }),
              ),
              sku: storedValue('string', asOf, edges),
              gift: storedValue('boolean', asOf, edges),
              sent: storedValue('date', asOf, edges),
              labels: storedValue('array', asOf, edges),
            },
            { requiredKeys: [] },
          ),
        }),
        { maxLength: 6 },
      ),
    }),
    { minLength: 1, maxLength: 25 },
  );

type Profiles = ReturnType<typeof profileData> extends fc.Arbitrary<infer T> ? T : never;

async function seed(profiles: Profiles) {
  const db = t.database.db;
  await db.execute(sql`delete from customer_profiles where workspace_id = ${ws}`);
  await db.execute(sql`delete from customer_events where workspace_id = ${ws}`);
  await db.execute(sql`delete from customer_event_counts where workspace_id = ${ws}`);
  await upsertProfiles(
    db,
    ws,
    profiles.map((p, i) => [`p${i}`, p.attributes]),
  );
  const events: EventTuple[] = profiles.flatMap((p, i) =>
    p.events.map((e): EventTuple => [`p${i}`, e.event, e.at.toISOString(), e.properties]),
  );
  // In two writes, the second inside a transaction: its counts add to rows the first created.
  const half = Math.floor(events.length / 2);
  await insertEvents(db, ws, events.slice(0, half));
  await db.transaction((tx) => insertEvents(tx, ws, events.slice(half)));
}

const leavesOf = (node: unknown): unknown[] =>
  isGroup(node as CriteriaNode) ? (node as CriteriaGroup).children.flatMap(leavesOf) : [node];

it('the SQL size equals the TypeScript meaning for random trees, profiles and events', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc
        .tuple(fc.constantFrom(...AS_OFS), edgesOfRun)
        .chain(([asOf, edges]) =>
          fc.tuple(
            fc.constant(asOf),
            profileData(asOf, edges),
            fc.array(groupAt(1, edges), { minLength: 6, maxLength: 6 }),
          ),
        ),
      async ([asOf, profiles, trees]) => {
        await seed(profiles);
        // Each tree, and the first leaves alone (where no sibling can hide a wrong edge).
        const leaves = trees.flatMap(leavesOf).slice(0, 6);
        for (const tree of [...trees, ...leaves.map((one) => group('and', [one]))]) {
          const expected = profiles.filter((p) =>
            profileMatches(
              tree as CriteriaGroup,
              definitions.catalog,
              { attributes: p.attributes, events: p.events },
              asOf,
            ),
          ).length;
          const res = await sizeOf(t, manager, ws, tree, asOf.toISOString());
          expect(res.statusCode, res.body).toBe(200);
          expect({ asOf, tree, size: res.json().size }).toEqual({ asOf, tree, size: expected });
        }
      },
    ),
    { numRuns: 80 },
  );
  // 80 runs of a dozen sizes each: minutes on a loaded machine.
}, 600_000);
