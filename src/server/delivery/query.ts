import { DELIVERY_DEFAULT_LIMIT, type DeliveryQuery } from '@shared/api/delivery';
import type { SchemaType } from '@shared/schemas/types';
import { badRequest } from '../http/errors';
import { isUnsafeText } from '../http/input-guard';

const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
type Operator = (typeof OPERATORS)[number];

export interface Filter {
  field: string;
  op: Operator;
  value: string;
}

export interface ListOptions {
  fields: string[] | null;
  filters: Filter[];
  order: { key: string; descending: boolean };
  limit: number;
  cursor: { value: unknown; id: string } | null;
  depth: number;
}

const FILTER_KEY = /^filter\[([^\][]+)\](?:\[([^\][]+)\])?$/;
const KNOWN = new Set(['cursor', 'limit', 'fields', 'order', 'include', 'depth', 'locale', 'fallback']);
/** Keys that sort without being fields of the schema. */
const META_ORDER = new Set(['publishedAt', 'id', 'version']);

const fieldKeysOfSchema = new WeakMap<SchemaType, Set<string>>();
function fieldKeys(schema: SchemaType) {
  let keys = fieldKeysOfSchema.get(schema);
  if (!keys) fieldKeysOfSchema.set(schema, (keys = new Set(schema.fields.map((f) => f.key))));
  return keys;
}

function requireField(keys: Set<string>, field: string, what: string) {
  if (!keys.has(field)) throw badRequest(`${what}: unknown field "${field}"`);
}

/** Reads and checks fields=, filter[…], order and cursor against the schema; 400 names the bad part. */
export function parseListOptions(schema: SchemaType, query: DeliveryQuery): ListOptions {
  const keys = fieldKeys(schema);
  const fields = query.fields
    ? query.fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : null;
  for (const field of fields ?? []) requireField(keys, field, 'fields');
  const filters: Filter[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (KNOWN.has(name) || value === undefined) continue;
    const match = FILTER_KEY.exec(name);
    if (!match) throw badRequest(`Unknown query parameter "${name}"`);
    const [, field, op = 'eq'] = match;
    requireField(keys, field, `filter[${field}]`);
    if (!(OPERATORS as readonly string[]).includes(op)) {
      throw badRequest(`filter[${field}]: unknown operator "${op}" (use ${OPERATORS.join(', ')})`);
    }
    filters.push({ field, op: op as Operator, value: String(value) });
  }
  const orderText = query.order?.trim() || '-publishedAt';
  const descending = orderText.startsWith('-');
  const orderKey = descending ? orderText.slice(1) : orderText;
  if (!META_ORDER.has(orderKey)) requireField(keys, orderKey, 'order');
  return {
    fields,
    filters,
    order: { key: orderKey, descending },
    limit: query.limit ?? DELIVERY_DEFAULT_LIMIT,
    cursor: query.cursor ? checkCursor(schema, orderKey, decodeCursor(query.cursor)) : null,
    depth: query.include === 'refs' ? (query.depth ?? 1) : 0,
  };
}

export function encodeCursor(value: unknown, id: string) {
  return Buffer.from(JSON.stringify([value ?? null, id])).toString('base64url');
}

function decodeCursor(text: string): { value: unknown; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[1] === 'string') {
      return { value: parsed[0], id: parsed[1] };
    }
  } catch {
    // answered below
  }
  throw badRequest('cursor: invalid, ask for the first page again');
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;
const NUMERIC_FIELDS = new Set(['number', 'range']);
/** The largest version PostgreSQL's integer holds. */
const MAX_INTEGER = 2_147_483_647;

/** What a list sorts by: the publish time, a whole number (version), a number field, or text. */
export function sortKindOf(schema: SchemaType, orderKey: string) {
  if (orderKey === 'publishedAt') return 'timestamp';
  if (orderKey === 'version') return 'integer';
  const type = schema.fields.find((f) => f.key === orderKey)?.type;
  return type && NUMERIC_FIELDS.has(type) ? 'number' : 'text';
}

/** A cursor's value must be of the kind its order sorts by (it reaches PostgreSQL as a typed parameter). */
function checkCursor(schema: SchemaType, orderKey: string, cursor: { value: unknown; id: string }) {
  const { value, id } = cursor;
  const kind = sortKindOf(schema, orderKey);
  const valid =
    kind === 'timestamp'
      ? typeof value === 'string' && TIMESTAMP.test(value)
      : kind === 'integer'
        ? Number.isInteger(value) && Math.abs(value as number) <= MAX_INTEGER
        : (value === null && orderKey !== 'id') ||
          (kind === 'number' ? Number.isFinite(value) : typeof value === 'string' && !isUnsafeText(value));
  if (!valid || isUnsafeText(id)) throw badRequest('cursor: invalid, ask for the first page again');
  return cursor;
}

/** The data with only the chosen fields. */
export function pickFields(data: Record<string, unknown>, fields: string[] | null) {
  if (!fields) return data;
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (field in data) picked[field] = data[field];
  return picked;
}
