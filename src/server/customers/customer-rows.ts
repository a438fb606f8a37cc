import { convertValue, isBlank, toStoredDate } from '@shared/criteria/convert';
import type { AttributeType } from '@shared/criteria/operators';
import type { CustomerDefinitions } from './definitions';
import type { RecordLine } from './read-records';
import type { EventTuple } from './repository';

export type ImportKind = 'profiles' | 'customer-events';

export type ProfileRow = [string, Record<string, unknown>];
type Row<K extends ImportKind> = K extends 'profiles' ? ProfileRow : EventTuple;
export type Converted<K extends ImportKind> = { row: Row<K> } | { error: string };

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
): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  const { keys, values } = fields;
  for (let i = 0; i < keys.length; i++) {
    const raw = values[i];
    if (isBlank(raw)) continue;
    const key = keys[i];
    const type = types.get(key);
    if (!type) return `unknown ${what} "${key}"`;
    const converted = convertValue(type, raw);
    if (!converted.ok) return `${key}: ${converted.message}`;
    out[key] = converted.value;
  }
  return out;
}

/** A record that was read (its values are yet to be converted). */
export type ReadRecord = Exclude<RecordLine, { error: string }>;

/** The names a row itself has; the other CSV columns are attributes or properties. */
const PROFILE_FIELDS: ReadonlySet<string> = new Set(['id', 'attributes']);
const EVENT_FIELDS: ReadonlySet<string> = new Set(['profileId', 'event', 'at', 'properties', 'id']);

/** The attributes or properties of an NDJSON row: its nested object, or why the row is refused. */
function nestedFields(
  value: Record<string, unknown>,
  own: ReadonlySet<string>,
  nested: 'attributes' | 'properties',
): Fields {
  const unknown = Object.keys(value).find((key) => !own.has(key));
  if (unknown !== undefined) return `unknown field "${unknown}" (${nested} go in "${nested}")`;
  const fields = value[nested];
  if (fields === undefined) return { keys: [], values: [] };
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return `${nested} must be an object`;
  const keys = Object.keys(fields);
  return { keys, values: keys.map((key) => (fields as Record<string, unknown>)[key]) };
}

/**
 * Where a CSV row's fields are, read once from the header: a column of the row's own names by its
 * name, every other column as an attribute or property. A name given twice takes its last column,
 * in the place of its first, as when the columns were the keys of one object.
 */
interface CsvLayout {
  columns: string[];
  ownAt: Map<string, number>;
  fieldKeys: string[];
  fieldAt: number[];
}

function csvLayout(columns: string[], own: ReadonlySet<string>): CsvLayout {
  const at = new Map<string, number>();
  columns.forEach((name, index) => at.set(name, index));
  const ownAt = new Map([...at].filter(([name]) => own.has(name)));
  const fieldKeys = [...at.keys()].filter((name) => !own.has(name));
  return { columns, ownAt, fieldKeys, fieldAt: fieldKeys.map((name) => at.get(name)!) };
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

function profileRow(rawId: unknown, fields: Fields, defs: CustomerDefinitions): Converted<'profiles'> {
  const profileId = asText(rawId);
  if (!profileId) return { error: 'id is required' };
  if (profileId.length > 200) return { error: 'id is longer than 200 characters' };
  if (typeof fields === 'string') return { error: fields };
  const converted = convertFields(fields, defs.attributesByKey, 'attribute');
  return typeof converted === 'string' ? { error: converted } : { row: [profileId, converted] };
}

/**
 * One live or imported event checked: known profile id, event key, date and properties by type, and
 * the source's own id for the event when it has one (blank: none).
 */
function eventRow(
  rawId: unknown,
  rawKey: unknown,
  rawAt: unknown,
  fields: Fields,
  defs: CustomerDefinitions,
  rawEventId?: unknown,
): Converted<'customer-events'> {
  const id = asText(rawId);
  if (!id) return { error: 'profileId is required' };
  const key = asText(rawKey);
  const propertyTypes = defs.eventsByKey.get(key);
  if (!propertyTypes) return { error: key ? `unknown event "${key}"` : 'event is required' };
  const when = toStoredDate(rawAt);
  if (!when) return { error: `at: ${JSON.stringify(rawAt ?? null)} is not a date` };
  if (typeof fields === 'string') return { error: fields };
  const eventId = asText(rawEventId);
  if (eventId.length > 200) return { error: 'id is longer than 200 characters' };
  const converted = convertFields(fields, propertyTypes, 'property');
  if (typeof converted === 'string') return { error: converted };
  return { row: eventId ? [id, key, when, converted, eventId] : [id, key, when, converted] };
}

/** An NDJSON or live event. */
export const eventFromObject = (value: Record<string, unknown>, defs: CustomerDefinitions) =>
  eventRow(
    value.profileId,
    value.event,
    value.at,
    nestedFields(value, EVENT_FIELDS, 'properties'),
    defs,
    value.id,
  );

const HEADERS: Record<ImportKind, string[]> = {
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
  ) {}

  /** Refuses a CSV header that does not start with the kind's own columns; reads where the fields are. */
  readonly checkHeader = (columns: string[]) => {
    const expected = HEADERS[this.kind];
    if (expected.some((name, index) => columns[index] !== name)) {
      throw new Error(`The header row must start with ${expected.join(',')}`);
    }
    this.layout = csvLayout(columns, this.kind === 'profiles' ? PROFILE_FIELDS : EVENT_FIELDS);
  };

  /** The record as one object, for the walk for unsafe text. */
  asObject(record: ReadRecord) {
    return 'cells' in record ? csvObject(this.layout!, record.cells) : record.value;
  }

  profile(record: ReadRecord): Converted<'profiles'> {
    if (!('cells' in record)) {
      return profileRow(record.value.id, nestedFields(record.value, PROFILE_FIELDS, 'attributes'), this.defs);
    }
    const layout = this.layout!;
    return profileRow(csvCell(layout, record.cells, 'id'), csvFields(layout, record.cells), this.defs);
  }

  event(record: ReadRecord): Converted<'customer-events'> {
    if (!('cells' in record)) return eventFromObject(record.value, this.defs);
    const layout = this.layout!;
    const { cells } = record;
    return eventRow(
      csvCell(layout, cells, 'profileId'),
      csvCell(layout, cells, 'event'),
      csvCell(layout, cells, 'at'),
      csvFields(layout, cells),
      this.defs,
      csvCell(layout, cells, 'id'),
    );
  }
}
