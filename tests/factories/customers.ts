import { sql } from 'drizzle-orm';
import { rows } from '@server/db/migrate';
import type { TestUser } from './users';
import type { TestApp } from '../helpers/test-app';
import { call, createItem } from './items';

export const wsUrl = (ws: string, rest: string) => `/api/v1/workspaces/${ws}/${rest}`;

/** Sends a raw import body (CSV or NDJSON) as a user. */
export const importBody = (
  t: TestApp,
  user: TestUser | undefined,
  ws: string,
  what: 'profiles' | 'customer-events',
  contentType: string,
  body: string | Buffer,
) =>
  t.app.inject({
    method: 'POST',
    url: wsUrl(ws, `${what}/import`),
    headers: { ...(user?.auth ?? {}), 'content-type': contentType },
    payload: body,
  });

export interface MarketingDefinitions {
  attributes: Record<string, { id: string; key: string; type: string }>;
  events: Record<string, { id: string; key: string }>;
}

/** Attribute items of every type and two behavioral events, as a workspace defines its customer data. */
export async function defineCustomerData(
  t: TestApp,
  user: TestUser,
  ws: string,
): Promise<MarketingDefinitions> {
  const attributes: MarketingDefinitions['attributes'] = {};
  for (const [key, type, options] of [
    ['age', 'number', undefined],
    ['city', 'string', undefined],
    ['tier', 'categorical', ['gold', 'silver', 'bronze']],
    ['vip', 'boolean', undefined],
    ['tags', 'array', ['news', 'sale', 'vip']],
    ['renews', 'date', undefined],
  ] as const) {
    const item = await createItem(t, user, ws, 'customer-profile-attribute', {
      name: key,
      key,
      attributeType: type,
      ...(options ? { options } : {}),
    });
    attributes[key] = { id: item.id, key, type };
  }
  const events: MarketingDefinitions['events'] = {};
  for (const [key, properties] of [
    [
      'purchase',
      [
        { name: 'amount', type: 'number' },
        { name: 'sku', type: 'string' },
        { name: 'gift', type: 'boolean' },
        { name: 'sent', type: 'date' },
        { name: 'labels', type: 'array' },
      ],
    ],
    ['visit', [{ name: 'page', type: 'string' }]],
  ] as const) {
    const item = await createItem(t, user, ws, 'behavioral-event', { name: key, key, properties });
    events[key] = { id: item.id, key };
  }
  return { attributes, events };
}

/** A rule on the attribute item `id` (shown as `label`). */
export const attributeRuleOn = (id: string, label: string, operator: string, value: unknown) => ({
  type: 'attribute',
  predicate: { attribute: { schemaType: 'customer-profile-attribute', id, label } },
  operator,
  value,
});

export const attributeRule = (defs: MarketingDefinitions, key: string, operator: string, value: unknown) =>
  attributeRuleOn(defs.attributes[key].id, key, operator, value);

export const eventRule = (defs: MarketingDefinitions, key: string, over: Record<string, unknown> = {}) => ({
  type: 'event',
  event: { schemaType: 'behavioral-event', id: defs.events[key].id, label: key },
  lookBackUnit: 'days',
  lookBackValue: 30,
  aggregator: 'COUNT',
  aggregatorCondition: '>=',
  aggregatorValue: 1,
  ...over,
});

export const audienceRule = (id: string) => ({
  type: 'audience',
  predicate: { remote: { schemaType: 'audience', id, label: id } },
});

export const group = (predicate: string, children: unknown[], label = '1') => ({
  label,
  predicate,
  children,
});

export const sizeOf = async (t: TestApp, user: TestUser, ws: string, criteria: unknown, asOf?: string) =>
  call(t, 'POST', wsUrl(ws, 'audiences/size'), user, { criteria, ...(asOf ? { asOf } : {}) });

/** A workspace's stored events, one line each (profile, event, time to the second, properties), sorted. */
export const storedEventLines = async (t: TestApp, ws: string) =>
  rows<{ line: string }>(
    await t.database.db.execute(sql`
      select line from (
        select profile_id || ' ' || event || ' ' || to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
          || ' ' || properties::text as line
        from customer_events where workspace_id = ${ws}) e
      order by line collate "C"`),
  ).map((row) => row.line);
