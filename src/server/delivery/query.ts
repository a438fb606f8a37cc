import { DELIVERY_DEFAULT_LIMIT, type DeliveryQuery } from '@shared/api/delivery';
import type { SchemaType } from '@shared/schemas/types';
import { badRequest } from '../http/errors';

/** A published copy as the delivery cache holds it. */
export interface Copy {
  id: string;
  schema: string;
  version: number;
  publishedAt: string;
  data: Record<string, unknown>;
  refs: Record<string, { schemaType: string }>;
  /** Its answer to a request without a query, once rendered (service.ts). */
  plainAnswer?: { body: string; etag: string };
}

const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
type Operator = (typeof OPERATORS)[number];

interface Filter {
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
const KNOWN = new Set(['cursor', 'limit', 'fields', 'order', 'include', 'depth']);
/** Keys that sort without being fields of the schema. */
const META_ORDER = new Set(['publishedAt', 'id', 'version']);

function fieldKeys(schema: SchemaType) {
  return new Set(schema.fields.map((f) => f.key));
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
    cursor: query.cursor ? decodeCursor(query.cursor) : null,
    depth: query.include === 'refs' ? (query.depth ?? 1) : 0,
  };
}

function encodeCursor(value: unknown, id: string) {
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

/** The value an item sorts and filters by. */
function sortValue(copy: Copy, key: string): unknown {
  if (key === 'publishedAt') return copy.publishedAt;
  if (key === 'id') return copy.id;
  if (key === 'version') return copy.version;
  return copy.data[key];
}

/** Numbers by value, everything else as text; missing values sort last. */
function compareValues(a: unknown, b: unknown): number {
  const aMissing = a === undefined || a === null;
  const bMissing = b === undefined || b === null;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const textA = typeof a === 'string' ? a : JSON.stringify(a);
  const textB = typeof b === 'string' ? b : JSON.stringify(b);
  return textA < textB ? -1 : textA > textB ? 1 : 0;
}

function equals(value: unknown, wanted: string): boolean {
  if (Array.isArray(value)) return value.some((v) => equals(v, wanted));
  if (value === null || value === undefined) return wanted === '' || wanted === 'null';
  if (typeof value === 'object') return false;
  return String(value) === wanted;
}

function compareTo(value: unknown, wanted: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    const number = Number(wanted);
    return Number.isNaN(number) ? null : value - number;
  }
  return compareValues(typeof value === 'string' ? value : String(value), wanted);
}

function matches(copy: Copy, filter: Filter): boolean {
  const value = copy.data[filter.field];
  switch (filter.op) {
    case 'eq':
      return equals(value, filter.value);
    case 'ne':
      return !equals(value, filter.value);
    case 'in':
      return filter.value.split(',').some((v) => equals(value, v));
    default: {
      const diff = compareTo(value, filter.value);
      if (diff === null) return false;
      if (filter.op === 'gt') return diff > 0;
      if (filter.op === 'gte') return diff >= 0;
      if (filter.op === 'lt') return diff < 0;
      return diff <= 0;
    }
  }
}

/** One keyset page of the copies: filtered, ordered (ties by id), after the cursor. */
export function pageOf(copies: readonly Copy[], options: ListOptions) {
  const { key, descending } = options.order;
  const direction = descending ? -1 : 1;
  const compare = (a: { value: unknown; id: string }, b: { value: unknown; id: string }) =>
    direction * compareValues(a.value, b.value) || direction * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const rows = copies
    .filter((copy) => options.filters.every((f) => matches(copy, f)))
    .map((copy) => ({ copy, value: sortValue(copy, key), id: copy.id }))
    .sort(compare);
  const after = options.cursor;
  const start = after ? rows.findIndex((row) => compare(row, after) > 0) : 0;
  const page = start < 0 ? [] : rows.slice(start, start + options.limit);
  const last = page.at(-1);
  const hasMore = start >= 0 && start + options.limit < rows.length;
  return {
    copies: page.map((row) => row.copy),
    nextCursor: hasMore && last ? encodeCursor(last.value, last.id) : null,
  };
}

/** The data with only the chosen fields. */
export function pickFields(data: Record<string, unknown>, fields: string[] | null) {
  if (!fields) return data;
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (field in data) picked[field] = data[field];
  return picked;
}
