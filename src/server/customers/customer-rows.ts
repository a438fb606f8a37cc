import { convertValue, isBlank, toStoredDate } from '@shared/criteria/convert';
import { consentFromText, type EmailConsentState } from '@shared/api/customers';
import type { AttributeType, PropertyType } from '@shared/criteria/operators';
import { MAX_UNDECLARED_PER_MESSAGE, undeclaredKeyOf, undeclaredValue } from '@shared/criteria/undeclared';
import { ANONYMOUS_PREFIX, INGEST_MESSAGES } from '@shared/api/ingest';
import { UNDECLARED_MESSAGES, type UndeclaredKind } from '@shared/api/undeclared';
import { declaredEventKey, type CustomerDefinitions } from './definitions';
import type { RecordLine } from './read-records';
import type { EventTuple } from './repository';

export type ImportKind = 'profiles' | 'customer-events';

/** A profile's id, attributes and, when the row has the reserved `emailConsent` field, its email consent. */
type ProfileRow = [string, Record<string, unknown>, EmailConsentState?];
type Row<K extends ImportKind> = K extends 'profiles' ? ProfileRow : EventTuple;

/**
 * A key a row kept that the workspace has not declared: an event key (`event` the key itself, no
 * type), a property of an event or an attribute, with the type of the value sent; an array
 * attribute's texts too, the options it would be declared with.
 */
export interface UndeclaredName {
  kind: UndeclaredKind;
  event: string;
  name: string;
  type: PropertyType | '';
  examples?: string[];
}

export type Converted<K extends ImportKind> =
  { row: Row<K>; undeclared?: UndeclaredName[] } | { error: string };

/**
 * What a row's keys the workspace has not declared do: refuse the row (imports, live tracking by
 * members, strict write keys), or be kept as sent, checked for shape and size (other write keys).
 */
export type UndeclaredPolicy = 'refuse' | 'keep';

/** Where a row's undeclared keys go when kept: their kind and the event of a property. */
interface Keeping {
  kind: 'property' | 'attribute';
  event: string;
  names: UndeclaredName[];
}

/**
 * A row's attributes or properties: names, and the raw values at the same positions (a CSV row's cells
 * picked by the header, an NDJSON object's values); or why the row is refused.
 */
type Fields = { keys: readonly string[]; values: readonly unknown[] } | string;

/** Typed values of a row's attributes or properties; the first key that does not fit refuses the row. */
function convertFields(
  fields: Exclude<Fields, string>,
  types: Map<string, AttributeType>,
  what: string,
  keeping?: Keeping,
): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  const { keys, values } = fields;
  for (let i = 0; i < keys.length; i++) {
    const raw = values[i];
    if (isBlank(raw)) continue;
    let key = keys[i];
    let type = types.get(key);
    if (!type) {
      if (!keeping) return `unknown ${what} "${key}"`;
      const kept = keepUndeclared(key, raw, types, keeping, out);
      if (typeof kept === 'string') return kept;
      if (kept === true) continue;
      [key, type] = kept;
    }
    const converted = convertValue(type, raw);
    if (!converted.ok) return `${key}: ${converted.message}`;
    out[key] = converted.value;
  }
  return out;
}

/**
 * An undeclared key of a kept row: under the ingestion's naming of keys, which may turn out a
 * declared one (answered with its type, to convert by), else its value checked and put in `out`
 * (answers true); or why the row is refused.
 */
function keepUndeclared(
  sent: string,
  raw: unknown,
  types: Map<string, AttributeType>,
  keeping: Keeping,
  out: Record<string, unknown>,
): [string, AttributeType] | true | string {
  const { kind, event, names } = keeping;
  const name = undeclaredKeyOf(sent, kind);
  if (!name) return UNDECLARED_MESSAGES.notAKey(kind, sent);
  const declared = types.get(name);
  if (declared) return [name, declared];
  const value = undeclaredValue(raw);
  if (!value.ok) return `${sent}: ${value.message}`;
  if (names.length >= MAX_UNDECLARED_PER_MESSAGE)
    return `at most ${MAX_UNDECLARED_PER_MESSAGE} undeclared ${pluralOf(kind)} in one message`;
  out[name] = value.value;
  const examples = kind === 'attribute' && value.type === 'array' ? (value.value as string[]) : undefined;
  names.push({ kind, event, name, type: value.type, ...(examples ? { examples } : {}) });
  return true;
}

const pluralOf = (kind: 'property' | 'attribute') => (kind === 'property' ? 'properties' : 'attributes');

/** A record that was read (its values are yet to be converted). */
export type ReadRecord = Exclude<RecordLine, { error: string }>;

/** The names a row itself has; the other CSV columns are attributes or properties. */
const PROFILE_FIELDS: ReadonlySet<string> = new Set(['id', 'attributes', 'emailConsent']);
const EVENT_FIELDS: ReadonlySet<string> = new Set(['profileId', 'event', 'at', 'properties', 'id']);
/** A row's own names by kind: not attributes or properties, never mapped. */
export const OWN_FIELDS: Record<ImportKind, ReadonlySet<string>> = {
  profiles: PROFILE_FIELDS,
  'customer-events': EVENT_FIELDS,
};

/**
 * Where an import's columns go, resolved once from its mapping: a column to another key, or to none
 * (skipped). A column it does not name goes to the key it spells.
 */
export type ColumnKeys = ReadonlyMap<string, string | null>;

/** Fields with their keys as the mapping says, skipped ones left out. */
function mapFields(fields: Exclude<Fields, string>, mapped: ColumnKeys): Exclude<Fields, string> {
  const keys: string[] = [];
  const values: unknown[] = [];
  fields.keys.forEach((column, index) => {
    const key = mapped.has(column) ? mapped.get(column)! : column;
    if (key === null) return;
    keys.push(key);
    values.push(fields.values[index]);
  });
  return { keys, values };
}

/** The attributes or properties of an NDJSON row: its nested object, or why the row is refused. */
function nestedFields(
  value: Record<string, unknown>,
  own: ReadonlySet<string>,
  nested: 'attributes' | 'properties',
  mapped?: ColumnKeys,
): Fields {
  const unknown = Object.keys(value).find((key) => !own.has(key));
  if (unknown !== undefined) return `unknown field "${unknown}" (${nested} go in "${nested}")`;
  const fields = value[nested];
  if (fields === undefined) return { keys: [], values: [] };
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return `${nested} must be an object`;
  const keys = Object.keys(fields);
  const read = { keys, values: keys.map((key) => (fields as Record<string, unknown>)[key]) };
  return mapped?.size ? mapFields(read, mapped) : read;
}

/**
 * Where a CSV row's fields are, read once from the header: a column of the row's own names (by its
 * name, or mapped to one) by that name, every other column as an attribute or property. A name given
 * twice takes its last column, in the place of its first, as when the columns were the keys of one object.
 */
interface CsvLayout {
  columns: string[];
  ownAt: Map<string, number>;
  fieldKeys: string[];
  fieldAt: number[];
}

function csvLayout(columns: string[], own: ReadonlySet<string>, mapped: ColumnKeys): CsvLayout {
  const at = new Map<string, number>();
  columns.forEach((name, index) => at.set(name, index));
  const ownOf = (name: string) => {
    const to = mapped.get(name);
    if (to && own.has(to)) return to;
    return own.has(name) && !mapped.has(name) ? name : undefined;
  };
  const ownAt = new Map<string, number>();
  for (const [name, index] of at) {
    const ownName = ownOf(name);
    if (ownName === undefined) continue;
    const other = [...at.keys()].find((column) => column !== name && ownOf(column) === ownName);
    if (other !== undefined) throw new Error(`The columns "${name}" and "${other}" both give ${ownName}`);
    ownAt.set(ownName, index);
  }
  const fieldColumns = [...at.keys()].filter((name) => ownOf(name) === undefined && !own.has(name));
  const fields = mapFields({ keys: fieldColumns, values: fieldColumns.map((name) => at.get(name)) }, mapped);
  return { columns, ownAt, fieldKeys: [...fields.keys], fieldAt: fields.values as number[] };
}

const csvFields = (layout: CsvLayout, cells: string[]): Fields => ({
  keys: layout.fieldKeys,
  values: layout.fieldAt.map((index) => cells[index]),
});
const csvCell = (layout: CsvLayout, cells: string[], name: string) => {
  const index = layout.ownAt.get(name);
  return index === undefined ? undefined : cells[index];
};
/** A CSV row as an object of its columns, for the rare walk for unsafe text (paths by column name). */
function csvObject(layout: CsvLayout, cells: string[]) {
  // No prototype: a column named __proto__ is a key like any other.
  const value: Record<string, unknown> = Object.create(null);
  layout.columns.forEach((name, index) => (value[name] = cells[index]));
  return value;
}

const asText = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

function profileRow(
  rawId: unknown,
  fields: Fields,
  defs: CustomerDefinitions,
  rawConsent: unknown,
  undeclared: UndeclaredPolicy = 'refuse',
): Converted<'profiles'> {
  const profileId = asText(rawId);
  if (!profileId) return { error: 'id is required' };
  if (profileId.length > 200) return { error: 'id is longer than 200 characters' };
  if (profileId.startsWith(ANONYMOUS_PREFIX)) return { error: `id: ${INGEST_MESSAGES.reservedId}` };
  if (typeof fields === 'string') return { error: fields };
  const consent = isBlank(rawConsent)
    ? undefined
    : consentFromText(typeof rawConsent === 'boolean' ? String(rawConsent) : asText(rawConsent));
  if (!isBlank(rawConsent) && !consent)
    return {
      error: `emailConsent: ${JSON.stringify(rawConsent)} is not subscribed, unsubscribed or unknown`,
    };
  const keeping: Keeping | undefined =
    undeclared === 'keep' ? { kind: 'attribute', event: '', names: [] } : undefined;
  const converted = convertFields(fields, defs.attributesByKey, 'attribute', keeping);
  if (typeof converted === 'string') return { error: converted };
  const row: ProfileRow = consent ? [profileId, converted, consent] : [profileId, converted];
  return keeping?.names.length ? { row, undeclared: keeping.names } : { row };
}

/**
 * One live or imported event checked: known profile id, event key (a declared one, or one that
 * differs from it only in `-` and `_`), date and properties by type, and the source's own id for the
 * event when it has one (blank: none). Kept undeclared, an event goes under the ingestion's naming
 * of its key and takes any properties; a declared one takes undeclared properties beside its own.
 */
function eventRow(
  rawId: unknown,
  rawKey: unknown,
  rawAt: unknown,
  fields: Fields,
  defs: CustomerDefinitions,
  rawEventId?: unknown,
  undeclared: UndeclaredPolicy = 'refuse',
): Converted<'customer-events'> {
  const id = asText(rawId);
  if (!id) return { error: 'profileId is required' };
  if (id.startsWith(ANONYMOUS_PREFIX)) return { error: `profileId: ${INGEST_MESSAGES.reservedId}` };
  const sent = asText(rawKey);
  if (!sent) return { error: 'event is required' };
  const event = eventKeyOf(sent, defs, undeclared);
  if (typeof event !== 'string') return event;
  const when = toStoredDate(rawAt);
  if (!when) return { error: `at: ${JSON.stringify(rawAt ?? null)} is not a date` };
  if (typeof fields === 'string') return { error: fields };
  const eventId = asText(rawEventId);
  if (eventId.length > 200) return { error: 'id is longer than 200 characters' };
  const propertyTypes = defs.eventsByKey.get(event);
  const keeping: Keeping | undefined =
    undeclared === 'keep' ? { kind: 'property', event, names: [] } : undefined;
  const converted = convertFields(fields, propertyTypes ?? new Map(), 'property', keeping);
  if (typeof converted === 'string') return { error: converted };
  const row: EventTuple = eventId ? [id, event, when, converted, eventId] : [id, event, when, converted];
  if (propertyTypes && !keeping?.names.length) return { row };
  const names: UndeclaredName[] = propertyTypes ? [] : [{ kind: 'event', event, name: event, type: '' }];
  return { row, undeclared: [...names, ...(keeping?.names ?? [])] };
}

/** The key an event is stored under: the declared one it names, else (kept) its undeclared key. */
function eventKeyOf(sent: string, defs: CustomerDefinitions, undeclared: UndeclaredPolicy) {
  const declared = declaredEventKey(defs, sent);
  if (declared) return declared;
  if (undeclared === 'refuse') return { error: `unknown event "${sent}"` };
  const key = undeclaredKeyOf(sent, 'event');
  if (!key) return { error: UNDECLARED_MESSAGES.notAKey('event', sent) };
  return declaredEventKey(defs, key) ?? key;
}

/** An NDJSON or live event. */
export const eventFromObject = (
  value: Record<string, unknown>,
  defs: CustomerDefinitions,
  options: { mapped?: ColumnKeys; undeclared?: UndeclaredPolicy } = {},
) =>
  eventRow(
    value.profileId,
    value.event,
    value.at,
    nestedFields(value, EVENT_FIELDS, 'properties', options.mapped),
    defs,
    value.id,
    options.undeclared,
  );

/** The refusal of a CSV header without a row's own columns. */
export const missingColumnsMessage = (missing: string[]) =>
  missing.length === 1
    ? `The header row needs the column ${missing[0]}, or a column mapped to it`
    : `The header row needs the columns ${missing.join(', ')}, or columns mapped to them`;

export const HEADERS: Record<ImportKind, string[]> = {
  profiles: ['id'],
  'customer-events': ['profileId', 'event', 'at'],
};

/**
 * An import's records read as rows of its kind, by the workspace's declared types: a CSV record by
 * the layout of its header, an NDJSON record by its object.
 */
export class ImportRows {
  private layout: CsvLayout | undefined;

  constructor(
    private readonly kind: ImportKind,
    private readonly defs: CustomerDefinitions,
    private readonly mapped: ColumnKeys = new Map(),
    private readonly undeclared: UndeclaredPolicy = 'refuse',
  ) {}

  /** Reads where a CSV's fields are; refuses a header without the kind's own columns, by name or mapped. */
  readonly checkHeader = (columns: string[]) => {
    const layout = csvLayout(columns, OWN_FIELDS[this.kind], this.mapped);
    const missing = HEADERS[this.kind].filter((name) => !layout.ownAt.has(name));
    if (missing.length) throw new Error(missingColumnsMessage(missing));
    this.layout = layout;
  };

  /** The record as one object, for the walk for unsafe text. */
  asObject(record: ReadRecord) {
    return 'cells' in record ? csvObject(this.layout!, record.cells) : record.value;
  }

  profile(record: ReadRecord): Converted<'profiles'> {
    if (!('cells' in record)) {
      const { value } = record;
      const fields = nestedFields(value, PROFILE_FIELDS, 'attributes', this.mapped);
      return profileRow(value.id, fields, this.defs, value.emailConsent, this.undeclared);
    }
    const layout = this.layout!;
    const { cells } = record;
    return profileRow(
      csvCell(layout, cells, 'id'),
      csvFields(layout, cells),
      this.defs,
      csvCell(layout, cells, 'emailConsent'),
      this.undeclared,
    );
  }

  event(record: ReadRecord): Converted<'customer-events'> {
    if (!('cells' in record))
      return eventFromObject(record.value, this.defs, { mapped: this.mapped, undeclared: this.undeclared });
    const layout = this.layout!;
    const { cells } = record;
    return eventRow(
      csvCell(layout, cells, 'profileId'),
      csvCell(layout, cells, 'event'),
      csvCell(layout, cells, 'at'),
      csvFields(layout, cells),
      this.defs,
      csvCell(layout, cells, 'id'),
      this.undeclared,
    );
  }
}
