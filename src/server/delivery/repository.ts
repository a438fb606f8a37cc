import { and, eq, getTableName, sql, type SQL, type WithSubquery } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { FormerNames } from '@shared/model/former-names';
import type { SchemaType } from '@shared/schemas/types';
import DataLoader from 'dataloader';
import { readPipelined, type Db, type Tx } from '../db/client';
import { preparedPerDb } from '../db/prepared';
import { previewTokens, published, publishedSlugs } from '../db/schema';
import { copiesOfItems } from '../publishing/repository';
import { slugFieldOf } from '../publishing/slugs';
import type { DeliveredPlace } from '@shared/publishing/surrogate-keys';
import { sortKindOf, type Filter, type ListOptions } from './query';

/** A published copy as the delivery API reads it. */
export interface Copy {
  id: string;
  schema: string;
  version: number;
  publishedAt: Date;
  data: Record<string, unknown>;
  /** The data's JSON as read, where the read kept it (copies by id): an answer may send it as it is. */
  dataText?: string;
  refs: Record<string, { schemaType: string }>;
  slug: string | null;
  previousSlugs: string[];
  /** The model version the data is in (delivery answers it in the current one: see service.ts). */
  modelVersion: number;
}

/** A copy read by id: its data is parsed only when something reads it (a plain answer sends the text). */
class CopyById implements Copy {
  #data?: Copy['data'];
  constructor(
    readonly id: string,
    readonly schema: string,
    readonly version: number,
    readonly publishedAt: Date,
    readonly dataText: string,
    readonly refs: Copy['refs'],
    readonly slug: string | null,
    readonly previousSlugs: string[],
    readonly modelVersion: number,
  ) {}

  get data(): Copy['data'] {
    return (this.#data ??= JSON.parse(this.dataText) as Copy['data']);
  }
}

export const copyColumns = {
  id: published.id,
  schema: published.schema,
  version: published.version,
  publishedAt: published.publishedAt,
  data: published.data,
  refs: published.refs,
  slug: published.slug,
  previousSlugs: published.previousSlugs,
  modelVersion: published.modelVersion,
};

export const ofPlace = (place: DeliveredPlace) =>
  and(
    eq(published.workspaceId, place.workspaceId),
    eq(published.stage, place.stage),
    eq(published.schema, place.schema),
  );

export interface CopyRow {
  /** bigint: text from postgres.js. */
  at: number | string;
  id: string;
  schema: string;
  version: number;
  published_at: Date | string;
  /** Text: parsed when read (CopyById). */
  data: string;
  refs: Copy['refs'];
  slug: string | null;
  previous_slugs: string[];
  model_version: number;
}

/**
 * Where a read finds copies: the stage's (the table itself), or a table shaped and named like it
 * (the drafts' copies of draft-stage.ts, copiesFrom), which the same SQL reads.
 */
export type CopiesTable = WithSubquery[];
export const STAGE_COPIES: CopiesTable = [];

/** A query's rows (shaped like the stage's copies) read in their place: a CTE named as their table. */
export const copiesFrom = (query: SQL): CopiesTable => [
  new QueryBuilder().$with(getTableName(published), { id: published.id }).as(query),
];

/** A copy of a row read with its data as text (parsed when something reads it). */
export const copyOfRow = (row: Omit<CopyRow, 'at'>): Copy =>
  new CopyById(
    row.id,
    row.schema,
    row.version,
    row.published_at instanceof Date ? row.published_at : new Date(row.published_at),
    row.data,
    row.refs,
    row.slug,
    row.previous_slugs,
    Number(row.model_version),
  );

type CopyKey = DeliveredPlace & { id: string };

/**
 * The copies of a JSON array of keys ([workspace, schema, id, stage] each), by primary key, each row
 * with its key's place in the array (from 1). PostgreSQL cannot see how many rows jsonb_array_elements
 * yields, so the prepared statement keeps one generic plan. Arrays of keys (unnest) would show it their
 * length: a plan for a few keys then looks cheaper than the generic one, and every batch is planned
 * anew, which costs PostgreSQL more than the reading.
 */
const COPIES_BY_KEY = `
  select wanted.at, p.id, p.schema, p.version, p.published_at, p.data::text as data, p.refs, p.slug, p.previous_slugs, p.model_version
  from jsonb_array_elements($1::jsonb) with ordinality as wanted(key, at)
  join published p on p.workspace_id = wanted.key->>0 and p.schema = wanted.key->>1
         and p.id = wanted.key->>2 and p.stage = wanted.key->>3`;

/**
 * At most this many batches of copies are read at a time, pipelined on one connection (readPipelined):
 * while they are under way, the copies asked for meanwhile gather into the next batch, so under load
 * every statement serves more answers, and the backend finds the next batch waiting when it is done
 * with one. A lone request still reads at once. With two, PostgreSQL slept between batches; with
 * eight, batches were too small.
 */
const BATCHES_IN_FLIGHT = 5;

/**
 * Copies asked for by id while the event loop handles one round of I/O are read together, whatever
 * their workspaces: one statement by primary key for all of them (under load, the single reads of
 * several requests share a round trip and a write to the socket). No memo: the delivery cache keeps
 * answers.
 */
const copyLoader = preparedPerDb((db) => {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const readBatch = async (keys: readonly CopyKey[]) => {
    const wanted = JSON.stringify(keys.map((key) => [key.workspaceId, key.schema, key.id, key.stage]));
    const found: (Copy | undefined)[] = new Array(keys.length).fill(undefined);
    for (const row of await readPipelined<CopyRow>(db, COPIES_BY_KEY, [wanted]))
      found[Number(row.at) - 1] = copyOfRow(row);
    return found;
  };
  return new DataLoader<CopyKey, Copy | undefined, string>(
    async (keys) => {
      inFlight++;
      try {
        return await readBatch(keys);
      } finally {
        inFlight--;
        waiting.shift()?.();
      }
    },
    {
      cache: false,
      // A batch takes keys until it is dispatched: one that waits for a slot keeps gathering them.
      batchScheduleFn: (dispatch) =>
        setImmediate(() => (inFlight < BATCHES_IN_FLIGHT ? dispatch() : waiting.push(dispatch))),
      maxBatchSize: 100,
    },
  );
});

/** A copy by id (the delivery API's most frequent read), batched with the others asked for meanwhile. */
export function copyById(db: Db, place: DeliveredPlace, id: string): Promise<Copy | undefined> {
  return copyLoader(db).load({ ...place, id });
}

/**
 * The copy published under this slug, or else the one that was once published under it (a website
 * redirects such an old URL to the item's slug).
 */
export async function copyBySlug(
  db: Db,
  place: DeliveredPlace,
  slug: string,
  copies: CopiesTable = STAGE_COPIES,
): Promise<Copy | undefined> {
  const [current] = await db
    .with(...copies)
    .select(copyColumns)
    .from(published)
    .where(and(ofPlace(place), eq(published.slug, slug)))
    .orderBy(published.id)
    .limit(1);
  if (current) return current;
  const [former] = await db
    .with(...copies)
    .select(copyColumns)
    .from(publishedSlugs)
    .innerJoin(
      published,
      and(
        eq(published.workspaceId, publishedSlugs.workspaceId),
        eq(published.schema, publishedSlugs.schema),
        eq(published.id, publishedSlugs.id),
        eq(published.stage, publishedSlugs.stage),
      ),
    )
    .where(
      and(
        eq(publishedSlugs.workspaceId, place.workspaceId),
        eq(publishedSlugs.stage, place.stage),
        eq(publishedSlugs.schema, place.schema),
        eq(publishedSlugs.slug, slug),
      ),
    )
    .orderBy(sql`${publishedSlugs.firstPublishedAt} desc`)
    .limit(1);
  return former;
}

/** Copies of a stage by schema and id (referenced items), in any order; ids not published are absent. */
export async function copiesByKeys(
  db: Db,
  workspaceId: string,
  stage: string,
  keys: readonly { schema: string; id: string }[],
): Promise<Copy[]> {
  if (keys.length === 0) return [];
  const { where, keep } = copiesOfItems(workspaceId, keys);
  const rows = await db
    .select(copyColumns)
    .from(published)
    .where(and(where, eq(published.stage, stage)));
  return rows.filter(keep);
}

/**
 * How a list sorts: the SQL expression, how a cursor's value is cast to compare with it, and whether it
 * is a column that is never null (its pages then seek through an index with a row comparison).
 */
interface SortKey {
  expression: SQL;
  cast: 'timestamptz' | 'text' | 'integer' | 'numeric';
  notNull?: boolean;
}

/**
 * Where a list reads a field's value: stored, or for a localised field in a request's locale the SQL
 * of that locale's value with its fallbacks (jsonb), and for a slug a condition an index can serve that
 * every copy whose value is `wanted` meets.
 */
export type LocalisedValue = (
  field: string,
) => { value: SQL; mayEqual?: (wanted: string) => SQL } | undefined;

interface FieldValues {
  json(field: string): SQL;
  text(field: string): SQL;
  localised: LocalisedValue;
  /** The slug column serves the field: it holds the stored (default locale's) slug. */
  isSlugColumn(field: string): boolean;
}

/**
 * A field's stored value (`->` as jsonb, `->>` as text): in a copy written before a rename of the field
 * (the migration has not reached it yet), under the name it had then.
 */
function storedValue(former: FormerNames, field: string, arrow: '->' | '->>'): SQL {
  const value = (name: string) => sql`${published.data}${sql.raw(arrow)}${name}`;
  const names = former.get(field);
  if (!names || names.length === 0) return sql`(${value(field)})`;
  const before = names.map(
    ({ until, name }) =>
      sql`when ${published.modelVersion} < ${until}::int then ${name === null ? sql`null` : value(name)}`,
  );
  return sql`(case ${sql.join(before, sql` `)} else ${value(field)} end)`;
}

function fieldValues(
  schema: SchemaType,
  localised: LocalisedValue = () => undefined,
  former: FormerNames = new Map(),
): FieldValues {
  return {
    json: (field) => localised(field)?.value ?? storedValue(former, field, '->'),
    text: (field) => {
      const value = localised(field)?.value;
      return value ? sql`(${value} #>> '{}')` : storedValue(former, field, '->>');
    },
    localised,
    isSlugColumn: (field) => field === slugFieldOf(schema) && !localised(field),
  };
}

/** Numbers sort by value, everything else as text; missing values sort last. */
function sortKeyOf(schema: SchemaType, values: FieldValues, key: string): SortKey {
  const kind = sortKindOf(schema, key);
  if (kind === 'timestamp')
    return { expression: sql`${published.publishedAt}`, cast: 'timestamptz', notNull: true };
  if (kind === 'integer') return { expression: sql`${published.version}`, cast: 'integer', notNull: true };
  if (key === 'id') return { expression: sql`${published.id}`, cast: 'text', notNull: true };
  if (values.isSlugColumn(key)) return { expression: sql`${published.slug}`, cast: 'text' };
  if (kind === 'number') {
    return {
      expression: sql`(case when jsonb_typeof(${values.json(key)}) = 'number' then ${values.text(key)}::numeric end)`,
      cast: 'numeric',
    };
  }
  return { expression: values.text(key), cast: 'text' };
}

const castTo = (value: unknown, cast: SortKey['cast']) =>
  sql`${value === null || value === undefined ? null : String(value)}::${sql.raw(cast)}`;

/**
 * The rows after the cursor in the order asked for, ties broken by id. Missing values sort last going
 * up and first going down (PostgreSQL's NULLS LAST / NULLS FIRST), so the cursor's row comparison is
 * spelled out for them.
 */
function afterCursor(sortKey: SortKey, descending: boolean, cursor: ListOptions['cursor']): SQL | undefined {
  if (!cursor) return undefined;
  const value = sortKey.expression;
  const id = sql`${published.id}`;
  const beyond = descending ? sql`<` : sql`>`;
  const cursorId = sql`${cursor.id}::text`;
  if (sortKey.notNull)
    return sql`(${value}, ${id}) ${beyond} (${castTo(cursor.value, sortKey.cast)}, ${cursorId})`;
  if (cursor.value === null || cursor.value === undefined) {
    return descending
      ? sql`(${value} is not null or ${id} ${beyond} ${cursorId})`
      : sql`(${value} is null and ${id} ${beyond} ${cursorId})`;
  }
  const cursorValue = castTo(cursor.value, sortKey.cast);
  const next = sql`(${value} ${beyond} ${cursorValue} or (${value} = ${cursorValue} and ${id} ${beyond} ${cursorId}))`;
  return descending ? next : sql`(${next} or ${value} is null)`;
}

/** A value of a field equals the text asked for: any element of a list, `null` or '' for a missing one. */
function equalsText(values: FieldValues, field: string, wanted: string): SQL {
  if (values.isSlugColumn(field)) {
    return wanted === '' || wanted === 'null'
      ? sql`${published.slug} is null`
      : sql`${published.slug} = ${wanted}`;
  }
  const json = values.json(field);
  const scalar = sql`(jsonb_typeof(${json}) in ('string', 'number', 'boolean') and ${values.text(field)} = ${wanted})`;
  const inList = sql`(jsonb_typeof(${json}) = 'array' and exists (select 1 from jsonb_array_elements_text(${json}) as element(value) where element.value = ${wanted}))`;
  if (wanted === '' || wanted === 'null')
    return sql`(${scalar} or ${inList} or ${json} is null or jsonb_typeof(${json}) = 'null')`;
  const mayEqual = values.localised(field)?.mayEqual;
  return sql`(${mayEqual ? sql`${mayEqual(wanted)} and ` : sql``}(${scalar} or ${inList}))`;
}

const COMPARISONS = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=` } as const;

/** Numbers compare by value (never with text that is not a number), other values as text. */
function compares(values: FieldValues, field: string, op: keyof typeof COMPARISONS, wanted: string): SQL {
  const json = values.json(field);
  const text = values.text(field);
  const number = Number(wanted);
  const asNumber =
    wanted.trim() !== '' && Number.isFinite(number)
      ? sql`${text}::numeric ${COMPARISONS[op]} ${String(number)}::numeric`
      : sql`false`;
  return sql`(case when jsonb_typeof(${json}) = 'number' then ${asNumber}
    when jsonb_typeof(${json}) in ('string', 'boolean') then ${text} ${COMPARISONS[op]} ${wanted}::text
    else false end)`;
}

function matches(values: FieldValues, filter: Filter): SQL {
  switch (filter.op) {
    case 'eq':
      return equalsText(values, filter.field, filter.value);
    case 'ne':
      return sql`not coalesce(${equalsText(values, filter.field, filter.value)}, false)`;
    case 'in':
      return sql`(${sql.join(
        filter.value.split(',').map((value) => equalsText(values, filter.field, value)),
        sql` or `,
      )})`;
    default:
      return compares(values, filter.field, filter.op, filter.value);
  }
}

/**
 * One keyset page of a schema's copies in a stage: filtered, ordered (ties by id), after the cursor,
 * with one row more than the page to tell whether another follows. Each row carries the value it sorts
 * by, as text, for the next cursor.
 */
export async function pageOfCopies(
  db: Db,
  place: DeliveredPlace,
  schema: SchemaType,
  options: ListOptions,
  localised?: LocalisedValue,
  former?: FormerNames,
  copies: CopiesTable = STAGE_COPIES,
) {
  const { key, descending } = options.order;
  const values = fieldValues(schema, localised, former);
  const sortKey = sortKeyOf(schema, values, key);
  const direction = descending ? sql`desc` : sql`asc`;
  return db
    .with(...copies)
    .select({ ...copyColumns, sortValue: sql<string | null>`(${sortKey.expression})::text` })
    .from(published)
    .where(
      and(
        ofPlace(place),
        ...options.filters.map((filter) => matches(values, filter)),
        afterCursor(sortKey, descending, options.cursor),
      ),
    )
    .orderBy(sql`${sortKey.expression} ${direction}`, sql`${published.id} ${direction}`)
    .limit(options.limit + 1);
}

export type PreviewTokenRow = typeof previewTokens.$inferSelect;

/** A preview token's row (by the workspace and id its signed text names). */
export async function findPreviewToken(db: Db | Tx, workspaceId: string, id: string) {
  const [row] = await db
    .select()
    .from(previewTokens)
    .where(and(eq(previewTokens.workspaceId, workspaceId), eq(previewTokens.id, id)));
  return row;
}
