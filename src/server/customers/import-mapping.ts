import type { Readable } from 'node:stream';
import {
  PREVIEW_ROWS,
  PREVIEW_SAMPLE_ROWS,
  type ImportMapping,
  type InferredType,
  type PreviewAnswer,
  type PreviewColumn,
} from '@shared/api/customer-imports';
import { consentFromText } from '@shared/api/customers';
import { convertValue, isBlank, toStoredDate } from '@shared/criteria/convert';
import type { AttributeType } from '@shared/criteria/operators';
import { isReservedName } from '@shared/text/reserved-names';
import { isDataKey, toDataKey, toKebabCase } from '@shared/text/slug';
import type { AppContext } from '../context';
import { AppError, badRequest } from '../http/errors';
import { createItem, updateItem } from '../items/service';
import { schemaIn } from '../items/scope';
import type { WorkspaceAccess } from '../workspaces/access';
import {
  HEADERS,
  missingColumnsMessage,
  OWN_FIELDS,
  type ColumnKeys,
  type ImportKind,
} from './customer-rows';
import type { CustomerDefinitions } from './definitions';
import { readRecords, type ImportFormat, type RecordLine } from './read-records';
import { listDefinitions } from './repository';

const NESTED: Record<ImportKind, 'attributes' | 'properties'> = {
  profiles: 'attributes',
  'customer-events': 'properties',
};
const SAMPLES = 3;
const MAX_OPTIONS = 100;

/** Letters and digits only, lower case: `first_name`, `firstName` and `First Name` compare equal. */
const loose = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

const BOOLEAN_WORDS = new Set(['true', 'false', 'yes', 'no']);

/**
 * The type a column's values suggest: boolean (true/false/yes/no), number, date (ISO), array (JSON
 * lists or `a|b`), else string; null when there are none. Every value must fit, so a typed attribute
 * never refuses a row the preview showed.
 */
function inferType(values: readonly unknown[]): InferredType | null {
  if (!values.length) return null;
  const fits = (type: AttributeType) => values.every((value) => convertValue(type, value).ok);
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : undefined);
  if (
    values.some(
      (value) => typeof value === 'boolean' || BOOLEAN_WORDS.has(text(value)?.toLowerCase() ?? ''),
    ) &&
    fits('boolean')
  )
    return 'boolean';
  if (fits('number')) return 'number';
  if (values.every((value) => toStoredDate(value) !== undefined)) return 'date';
  const listLike = (value: unknown) =>
    Array.isArray(value) || /^\[.*\]$/s.test(text(value) ?? '') || /\S\|\S/.test(text(value) ?? '');
  if (values.some(listLike) && fits('array') && values.every((v) => !isProse(v))) return 'array';
  return 'string';
}

/** Text with spaces around a bar reads as prose (`A | B`), not a list. */
const isProse = (value: unknown) => typeof value === 'string' && / \| /.test(value);

const asCell = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** The values read in one column (or NDJSON key), for its preview. */
class ColumnSample {
  values: unknown[] = [];
  filled = 0;
  constructor(readonly column: string) {}
  add(raw: unknown) {
    if (isBlank(raw)) return;
    this.filled += 1;
    this.values.push(raw);
  }
}

/** Names a CRM export gives a profile's email consent (its values: yes/no, opted in/out…). */
const CONSENT_NAMES = [
  'emailconsent',
  'consent',
  'marketingconsent',
  'emailoptin',
  'optin',
  'optedin',
  'emailsubscription',
  'emailsubscribed',
  'subscribed',
  'emailsubscriptionstatus',
  'emailmarketingconsent',
  'acceptsmarketing',
  'acceptsemailmarketing',
];

/**
 * The customer fields every CRM has, by the names its exports give them (compared like `loose`): the
 * words of the key a workspace without such an attribute gets, its name, and the names it goes by.
 */
const WELL_KNOWN: { key: string; label: string; names: string[] }[] = [
  { key: 'email', label: 'Email', names: ['email', 'emailaddress', 'mail', 'mailaddress', 'emails'] },
  {
    key: 'first name',
    label: 'First name',
    names: ['firstname', 'givenname', 'forename', 'fname', 'firstnames'],
  },
  { key: 'last name', label: 'Last name', names: ['lastname', 'surname', 'familyname', 'lname'] },
  {
    key: 'phone',
    label: 'Phone',
    names: [
      'phone',
      'phonenumber',
      'telephone',
      'tel',
      'telephonenumber',
      'mobile',
      'mobilephone',
      'mobilenumber',
      'cellphone',
      'cell',
    ],
  },
];

/** Names a CRM export gives the row's own columns, compared without case, spaces or punctuation. */
const OWN_ALIASES: Record<string, string[]> = {
  id: ['id', 'customerid', 'contactid', 'userid', 'profileid', 'externalid', 'clientid', 'memberid'],
  profileId: ['profileid', 'customerid', 'contactid', 'userid', 'id', 'externalid', 'clientid', 'memberid'],
  event: ['event', 'eventname', 'eventtype', 'eventkey', 'action'],
  at: ['at', 'timestamp', 'time', 'occurredat', 'eventtime', 'datetime', 'date', 'createdat'],
  emailConsent: CONSENT_NAMES,
};

/** Own columns a row may have besides those its header needs: a profile's email consent. */
const OPTIONAL_OWN: Record<ImportKind, string[]> = { profiles: ['emailConsent'], 'customer-events': [] };

/**
 * The columns of a CSV header that are the row's own: each own name's column as spelled, else the
 * first column with one of its usual names (`Customer ID` for id, `timestamp` for at).
 */
function ownColumnsOf(kind: ImportKind, columns: string[]) {
  const found = new Map<string, string>();
  for (const name of [...HEADERS[kind], ...OPTIONAL_OWN[kind]]) {
    const free = (column: string) => !found.has(column);
    const column =
      columns.find((c) => c === name && free(c)) ??
      OWN_ALIASES[name].map((alias) => columns.find((c) => loose(c) === alias && free(c))).find(Boolean);
    if (column !== undefined) found.set(column, name);
  }
  return found;
}

/** What a preview read: columns in order, the first rows, the events of an event import. */
class PreviewReader {
  readonly columns = new Map<string, ColumnSample>();
  private readonly firstRows: Map<string, unknown>[] = [];
  readonly errors: { line: number; message: string }[] = [];
  readonly eventRows = new Map<string, { rows: number; columns: Set<string> }>();
  rowsRead = 0;
  private header: string[] | undefined;
  /** A CSV's columns that are the row's own (id, profileId, event, at), by the own name each gives. */
  readonly ownNames = new Map<string, string>();

  constructor(private readonly kind: ImportKind) {}

  readonly checkHeader = (columns: string[]) => {
    for (const [column, name] of ownColumnsOf(this.kind, columns)) this.ownNames.set(column, name);
    const found = new Set(this.ownNames.values());
    const missing = HEADERS[this.kind].filter((name) => !found.has(name));
    if (missing.length) throw badRequest(missingColumnsMessage(missing));
    this.header = columns;
    for (const column of columns) this.sample(column);
  };

  /** The column that gives an own name (the name itself in NDJSON). */
  private columnOf(name: string) {
    return [...this.ownNames].find(([, own]) => own === name)?.[0] ?? name;
  }

  private sample(column: string) {
    let sample = this.columns.get(column);
    if (!sample) this.columns.set(column, (sample = new ColumnSample(column)));
    return sample;
  }

  add(record: RecordLine) {
    if ('error' in record) {
      if (this.errors.length < 10) this.errors.push({ line: record.line, message: record.error });
      return;
    }
    this.rowsRead += 1;
    const own = OWN_FIELDS[this.kind];
    const fields = new Map<string, unknown>();
    if ('cells' in record) {
      this.header!.forEach((column, index) => fields.set(column, record.cells[index]));
    } else {
      const nested = record.value[NESTED[this.kind]];
      for (const [key, value] of Object.entries(record.value)) if (own.has(key)) fields.set(key, value);
      if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
        for (const [key, value] of Object.entries(nested)) if (!own.has(key)) fields.set(key, value);
      }
    }
    for (const [column, value] of fields) {
      if (column === NESTED[this.kind]) continue;
      this.sample(column).add(value);
    }
    if (this.firstRows.length < PREVIEW_SAMPLE_ROWS) this.firstRows.push(fields);
    if (this.kind === 'customer-events') {
      const event = asCell(fields.get(this.columnOf('event'))).trim();
      if (!event) return;
      let seen = this.eventRows.get(event);
      if (!seen) this.eventRows.set(event, (seen = { rows: 0, columns: new Set() }));
      seen.rows += 1;
      for (const [column, value] of fields) {
        if (!own.has(column) && !this.ownNames.has(column) && !isBlank(value)) seen.columns.add(column);
      }
    }
  }

  /** The first rows, cells in column order (a CSV's header; NDJSON keys as first met). */
  rows() {
    const order = [...this.columns.keys()];
    return this.firstRows.map((fields) => order.map((column) => asCell(fields.get(column))));
  }
}

/** The chunks of a stream until `enough` says stop; the rest of the body is read and dropped. */
async function* until(stream: Readable, enough: () => boolean): AsyncGenerator<Buffer> {
  try {
    for await (const piece of stream.iterator({ destroyOnReturn: false })) {
      yield piece as Buffer;
      if (enough()) break;
    }
  } finally {
    stream.resume();
  }
}

interface Known {
  key: string;
  label: string;
  type: AttributeType;
}

/** The attribute (or event property) a column matches: same key, then same key or label loosely. */
function matchOf(column: string, known: Known[]): { known: Known; by: 'key' | 'label' } | undefined {
  const exact = known.find((k) => k.key === column);
  if (exact) return { known: exact, by: 'key' };
  const wanted = loose(column);
  if (!wanted) return undefined;
  const byKey = known.find((k) => loose(k.key) === wanted);
  if (byKey) return { known: byKey, by: 'key' };
  const byLabel = known.find((k) => loose(k.label) === wanted);
  return byLabel && { known: byLabel, by: 'label' };
}

/** How a workspace spells its keys of several words: `first-name`, `first_name` or `firstName`. */
type KeyStyle = 'kebab' | 'snake' | 'camel';
const STYLE_NAMES: Record<KeyStyle, string> = {
  kebab: 'kebab-case',
  snake: 'snake_case',
  camel: 'camelCase',
};
const JOINERS: Record<KeyStyle, string> = { kebab: '-', snake: '_', camel: '' };

/** The style most of the workspace's keys of several words have; kebab-case when none has several. */
function keyStyleOf(keys: Iterable<string>): KeyStyle {
  const counts: Record<KeyStyle, number> = { kebab: 0, snake: 0, camel: 0 };
  for (const key of keys) {
    if (key.includes('-')) counts.kebab += 1;
    else if (key.includes('_')) counts.snake += 1;
    else if (/[a-z0-9][A-Z]/.test(key)) counts.camel += 1;
  }
  if (counts.snake > counts.kebab && counts.snake >= counts.camel) return 'snake';
  return counts.camel > counts.kebab && counts.camel > counts.snake ? 'camel' : 'kebab';
}

/** A text's words as a key in a style: `First Name` → `first-name`, `first_name` or `firstName`. */
function keyInStyle(text: string, style: KeyStyle) {
  const words = toKebabCase(text).split('-').filter(Boolean);
  const cased = style === 'camel' ? words.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)) : words;
  return cased.join(JOINERS[style]).slice(0, 100);
}

/**
 * The key a new attribute gets from a column (in the workspace's style; event properties as the file
 * spells them, when that is a key), and why it differs from the column when it does.
 */
function proposedKey(
  column: string,
  taken: ReadonlySet<string>,
  style: KeyStyle | null,
): { key: string; change: string | null } {
  const base = style ? keyInStyle(column, style) : toDataKey(column);
  let key = base;
  let why =
    style && isDataKey(column.trim())
      ? `new keys are ${STYLE_NAMES[style]}, like the workspace's`
      : 'keys are letters, digits, _ and -, starting with a letter';
  const joiner = style ? JOINERS[style] : '-';
  if (!isDataKey(key)) key = style ? keyInStyle(`field ${base}`, style) : `field-${key}`.replace(/-+$/, '');
  if (isReservedName(key)) {
    key = `${key}${joiner}value`;
    why = `"${column}" is a reserved name`;
  }
  for (let n = 2; taken.has(key); n++) {
    key = `${base}${joiner}${n}`;
    why = 'another column has that key';
  }
  return { key, change: key === column ? null : `Becomes "${key}": ${why}` };
}

/**
 * The well-known field a column is (`E-mail`, `Given name`, `Mobile`…), as the workspace keys it: its
 * attribute with one of the field's names as key or label (for the email, first the attribute campaigns
 * read addresses from), else a new one in the workspace's style.
 */
function wellKnownOf(column: string, known: Known[], addressKey: string, style: KeyStyle) {
  const wanted = loose(column);
  const field = WELL_KNOWN.find((f) => f.names.includes(wanted));
  if (!field) return undefined;
  const address = field.key === 'email' ? known.find((k) => k.key === addressKey) : undefined;
  const existing =
    address ??
    known.find((k) => field.names.includes(loose(k.key))) ??
    known.find((k) => field.names.includes(loose(k.label)));
  if (existing) return { known: existing, isNew: false };
  const key = field.key === 'email' ? addressKey : keyInStyle(field.key, style);
  return { known: { key, label: field.label, type: 'string' as const }, isNew: true };
}

/** Distinct elements of an array column's values, for the options of an attribute created. */
function optionsOf(values: readonly unknown[]) {
  const options = new Set<string>();
  for (const value of values) {
    const converted = convertValue('array', value);
    if (!converted.ok) continue;
    for (const element of converted.value as string[]) {
      if (options.size >= MAX_OPTIONS) return [...options];
      options.add(element);
    }
  }
  return [...options];
}

const labelOf = (column: string) => column.trim().slice(0, 200) || column;

/** What a preview proposes keys by: the workspace's style, and where campaigns read addresses. */
interface Proposing {
  known: Known[];
  /** Keys the workspace has or the preview has proposed. */
  taken: Set<string>;
  /** Keys a well-known column went to: a second column of the same field is an ordinary one. */
  claimed: Set<string>;
  style: KeyStyle;
  addressKey: string;
}

const OWN_LABELS: Record<string, string> = { emailConsent: 'email consent' };

/** A column of a preview: own, matched to what the workspace has, or proposed as new. */
function proposeColumn(
  kind: ImportKind,
  sample: ColumnSample,
  proposing: Proposing,
  ownName: string | undefined,
): PreviewColumn {
  const { known, taken } = proposing;
  const { column } = sample;
  const inferred = inferType(sample.values);
  const read = {
    column,
    inferred,
    filled: sample.filled,
    samples: sample.values.slice(0, SAMPLES).map(asCell),
  };
  if (ownName !== undefined || OWN_FIELDS[kind].has(column)) {
    const key = ownName ?? column;
    return {
      ...read,
      own: true,
      match: 'own',
      key,
      keyChange: key === column ? null : `Read as the ${OWN_LABELS[key] ?? key} of each row`,
      label: column,
      type: 'string',
      options: [],
    };
  }
  const exact = known.some((k) => k.key === column);
  const wellKnown =
    kind === 'profiles' && !exact
      ? wellKnownOf(column, known, proposing.addressKey, proposing.style)
      : undefined;
  if (wellKnown && !proposing.claimed.has(wellKnown.known.key)) {
    const { key, label, type } = wellKnown.known;
    proposing.claimed.add(key);
    taken.add(key);
    const keyChange = key === column ? null : `Becomes "${key}": the ${label.toLowerCase()} of each profile`;
    const match = wellKnown.isNew ? 'new' : 'key';
    return { ...read, own: false, match, key, keyChange, label, type, options: [] };
  }
  const match = matchOf(column, known);
  if (match) {
    const { key, label, type } = match.known;
    return { ...read, own: false, match: match.by, key, keyChange: null, label, type, options: [] };
  }
  const { key, change } = proposedKey(column, taken, kind === 'profiles' ? proposing.style : null);
  taken.add(key);
  const type = inferred ?? 'string';
  const options = type === 'array' ? optionsOf(sample.values) : [];
  return { ...read, own: false, match: 'new', key, keyChange: change, label: labelOf(column), type, options };
}

/** What the workspace has that columns may match: attributes, or the properties of its events. */
const knownOf = (kind: ImportKind, defs: CustomerDefinitions): Known[] =>
  kind === 'profiles'
    ? [...defs.catalog.attributes.values()].map(({ key, label, type }) => ({ key, label, type }))
    : [...defs.eventsByKey.values()].flatMap((properties) =>
        [...properties].map(([name, type]) => ({ key: name, label: name, type })),
      );

/**
 * The preview of an import: its first rows read (then reading stops), each column matched to an
 * attribute (or event property) by key or label, or proposed as a new one with the type its values
 * suggest; for events, the events read and the properties they lack; and the mapping it all proposes.
 */
export async function previewImport(
  kind: ImportKind,
  defs: CustomerDefinitions,
  stream: Readable,
  format: ImportFormat,
  addressKey: string,
): Promise<PreviewAnswer> {
  const reader = new PreviewReader(kind);
  const enough = () => reader.rowsRead >= PREVIEW_ROWS;
  outer: for await (const records of readRecords(until(stream, enough), format, reader.checkHeader)) {
    for (const record of records) {
      reader.add(record);
      if (enough()) break outer;
    }
  }
  // A column named like consent whose values do not all say one is an ordinary column.
  for (const [column, name] of reader.ownNames) {
    const values = reader.columns.get(column)?.values ?? [];
    if (name === 'emailConsent' && !values.every((v) => consentFromText(asCell(v)))) {
      reader.ownNames.delete(column);
    }
  }
  const known = knownOf(kind, defs);
  const proposing: Proposing = {
    known,
    taken: new Set(known.map((k) => k.key)),
    claimed: new Set(),
    style: keyStyleOf(known.map((k) => k.key)),
    addressKey,
  };
  const columns = [...reader.columns.values()].map((sample) =>
    proposeColumn(kind, sample, proposing, reader.ownNames.get(sample.column)),
  );
  const mapping: ImportMapping = { columns: {}, events: {} };
  const keyOfColumn = new Map<string, { key: string; type: InferredType }>();
  for (const c of columns) {
    if (c.own && c.key !== c.column) mapping.columns[c.column] = { key: c.key };
    if (c.own) continue;
    keyOfColumn.set(c.column, { key: c.key, type: toPropertyType(c.type) });
    if (c.match !== 'new') {
      if (c.key !== c.column) mapping.columns[c.column] = { key: c.key };
    } else if (kind === 'profiles') {
      const type = toPropertyType(c.type);
      mapping.columns[c.column] = {
        key: c.key,
        type,
        label: c.label,
        ...(type === 'array' ? { options: c.options } : {}),
      };
    } else if (c.key !== c.column) mapping.columns[c.column] = { key: c.key };
  }
  const events = [...reader.eventRows].map(([key, seen]) => {
    const declared = defs.eventsByKey.get(key);
    const missing = [...seen.columns]
      .map((column) => keyOfColumn.get(column))
      .filter((p): p is { key: string; type: InferredType } => !!p && !declared?.has(p.key))
      .map((p) => ({ name: p.key, type: p.type }));
    if (!declared || missing.length) {
      mapping.events[key] = { ...(declared ? {} : { label: key }), properties: missing };
    }
    return { key, known: !!declared, rows: seen.rows, missing };
  });
  return {
    format,
    rowsRead: reader.rowsRead,
    columns,
    rows: reader.rows(),
    events,
    errors: reader.errors,
    mapping,
  };
}

/** An attribute type as an event property type (categorical values are text). */
const toPropertyType = (type: AttributeType): InferredType => (type === 'categorical' ? 'string' : type);

/** What an import's mapping resolves to: where columns go, and the definitions to create first. */
export interface ResolvedMapping {
  columns: ColumnKeys;
  attributes: { key: string; type: InferredType; label: string; options?: string[] }[];
  events: { key: string; label: string; properties: { name: string; type: InferredType }[] }[];
}

/**
 * Checks a mapping against the workspace's definitions (400 naming the first entry that cannot be
 * followed) and resolves it once, before any row is read.
 */
export function resolveMapping(
  kind: ImportKind,
  mapping: ImportMapping,
  defs: CustomerDefinitions,
  format: ImportFormat,
): ResolvedMapping {
  const own = OWN_FIELDS[kind];
  const columns = new Map<string, string | null>();
  const attributes: ResolvedMapping['attributes'] = [];
  const targets = new Map<string, string>();
  const knownProperties = new Set([...defs.eventsByKey.values()].flatMap((p) => [...p.keys()]));
  for (const [column, to] of Object.entries(mapping.columns)) {
    const at = `mapping.columns.${column}`;
    if (own.has(column)) throw badRequest(`${at}: the ${column} column cannot be mapped`);
    if (to === 'skip') {
      columns.set(column, null);
      continue;
    }
    const { key } = to;
    const other = targets.get(key);
    if (other !== undefined) throw badRequest(`${at}: "${other}" goes to "${key}" too`);
    targets.set(key, column);
    // A CSV column may be the row's id (or profileId, event, at) under another name; NDJSON names them.
    if (own.has(key) && format !== 'csv') throw badRequest(`${at}: "${key}" is a field of its own`);
    columns.set(column, key);
    if (own.has(key)) continue;
    const exists = kind === 'profiles' ? defs.attributesByKey.has(key) : knownProperties.has(key);
    if (exists || (kind === 'customer-events' && key === column)) continue;
    if (!isDataKey(key) || isReservedName(key)) {
      throw badRequest(
        `${at}: "${key}" cannot be a key: use letters, digits, _ and -, starting with a letter`,
      );
    }
    if (kind === 'customer-events') continue;
    if (!to.type) throw badRequest(`${at}: no attribute has the key "${key}"; give its type to create it`);
    if (to.type === 'array' && !to.options?.length) {
      throw badRequest(`${at}: an array attribute needs its options`);
    }
    attributes.push({
      key,
      type: to.type,
      label: to.label ?? labelOf(column),
      ...(to.type === 'array' ? { options: to.options } : {}),
    });
  }
  const events: ResolvedMapping['events'] = [];
  for (const [key, wanted] of Object.entries(mapping.events)) {
    const at = `mapping.events.${key}`;
    if (kind !== 'customer-events') throw badRequest(`${at}: events are mapped in event imports only`);
    const declared = defs.eventsByKey.get(key);
    if (!declared && (!isDataKey(key) || isReservedName(key))) {
      throw badRequest(
        `${at}: "${key}" cannot be a key: use letters, digits, _ and -, starting with a letter`,
      );
    }
    const properties = new Map<string, InferredType>();
    for (const { name, type } of wanted.properties) if (!declared?.has(name)) properties.set(name, type);
    if (declared && !properties.size) continue;
    events.push({
      key,
      label: wanted.label ?? key,
      properties: [...properties].map(([name, type]) => ({ name, type })),
    });
  }
  return { columns, attributes, events };
}

/**
 * Creates the attributes and events a mapping names that do not exist yet, and gives existing events
 * the properties they lack: each through the items service, so each has its versions, history and
 * audit rows like an item saved by hand. Answers how many items were written.
 */
export async function createDefinitions(ctx: AppContext, access: WorkspaceAccess, resolved: ResolvedMapping) {
  let written = 0;
  if (resolved.attributes.length) {
    const scope = schemaIn(access, 'customer-profile-attribute');
    for (const attribute of resolved.attributes) {
      await createItem(ctx, scope, {
        name: attribute.label,
        key: attribute.key,
        attributeType: attribute.type,
        ...(attribute.options ? { options: attribute.options } : {}),
        description: 'Created by an import.',
      });
      written += 1;
    }
  }
  if (resolved.events.length) {
    const scope = schemaIn(access, 'behavioral-event');
    const existing = new Map(
      (await listDefinitions(ctx.db, access.workspace.id))
        .filter((row) => row.schema === 'behavioral-event')
        .map((row) => [row.data.key, row] as const),
    );
    for (const event of resolved.events) {
      const row = existing.get(event.key);
      if (!row) {
        await createItem(ctx, scope, {
          name: event.label,
          key: event.key,
          properties: event.properties,
          description: 'Created by an import.',
        });
      } else {
        const properties = Array.isArray(row.data.properties) ? row.data.properties : [];
        await updateItem(
          ctx,
          scope,
          row.id,
          { ...row.data, properties: [...properties, ...event.properties] },
          undefined,
        );
      }
      written += 1;
    }
  }
  return written;
}

/** The `mapping` of an import request: JSON text (a query parameter or a multipart field). */
export function parseMapping(text: string | undefined, parse: (value: unknown) => ImportMapping) {
  if (text === undefined || text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'mapping: not valid JSON');
  }
  return parse(value);
}
