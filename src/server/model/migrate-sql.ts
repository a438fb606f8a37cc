/**
 * The operations of a model change that SQL can run over stored rows exactly as the replay does
 * (shared/model/pass.ts): a schema field's rename, its removal, and its retype from text to number
 * or back, over the item's own values and each locale's under `_locales`. The row never leaves the
 * database. A row the SQL cannot bring to what the replay would write (a value that does not
 * convert, a rename onto a key already there, words of the item's search that move, a removal from
 * an incomplete item…) is left behind, to the replay's pass that follows.
 */
import { sql, type SQL } from 'drizzle-orm';
import { LOCALES_KEY } from '@shared/locales/locales';
import { schemaIn, touchesSchema, type AppliedChange } from '@shared/model/pass';
import type { FieldDef, SchemaType } from '@shared/schemas/types';
import { timezoneKey } from '@shared/schemas/types';
import type { ItemFieldReaders } from '../items/field-readers';
import { WORD_TYPES } from '../items/search-text';

/** One operation as SQL runs it, over one field of the schema's own (no block type, no table). */
type SqlOp =
  | { kind: 'rename'; index: number; pairs: [string, string][] }
  | { kind: 'remove'; index: number; keys: string[]; words: 'none' | 'text' | 'any' }
  | { kind: 'textToNumber'; index: number; key: string }
  | { kind: 'numberToText'; index: number; key: string };

/** Field types that hold fields of their own, whose words the item's search may read. */
const NESTING = new Set(['blocks', 'table', 'combinations']);
const TEXTUAL = new Set(['text', 'multiline']);
/** What a retype run in SQL may differ in: nothing that validation reads. */
const PLAIN_KEYS = new Set(['key', 'label', 'type', 'description', 'labelWidth', 'readOnly', 'locked']);
const SAME_KEYS = ['required', 'localized', 'requiredInLocales', 'displayIf'] as const;

/** Whether the field holds nothing validation reads beyond what a retype keeps as it was. */
const plainField = (field: FieldDef) =>
  Object.entries(field).every(
    ([key, value]) =>
      PLAIN_KEYS.has(key) ||
      (SAME_KEYS as readonly string[]).includes(key) ||
      (TEXTUAL.has(field.type) && (key === 'placeholder' || key === 'rows')) ||
      (key === 'validators' && Array.isArray(value) && value.length === 0),
  );

const sameRules = (before: FieldDef, after: FieldDef) =>
  SAME_KEYS.every((key) => JSON.stringify(before[key]) === JSON.stringify(after[key]));

/**
 * Whether another field names the field (a display condition, a slug's source…): what validation
 * reads of it may then change with it.
 */
const namedElsewhere = (schema: SchemaType, key: string) =>
  schema.fields.some((field) => field.key !== key && JSON.stringify(field).includes(JSON.stringify(key)));

function sqlOpOf(
  change: AppliedChange,
  index: number,
  schema: string,
  readers: ItemFieldReaders,
): SqlOp | 'skip' | undefined {
  const op = change.plan.ops[index];
  const before = change.plan.steps[index];
  if (!touchesSchema(op, schema, before)) return 'skip';
  const schemaBefore = schemaIn(before, schema);
  if (!schemaBefore || schemaBefore.fields.some((field) => field.type === 'combinations')) return undefined;
  if (!('schema' in op) || op.schema !== schema || ('blockType' in op && op.blockType !== undefined))
    return undefined;
  if ('table' in op && op.table !== undefined) return undefined;
  const fieldOf = (key: string) => schemaBefore.fields.find((field) => field.key === key);
  if (op.op === 'renameField') {
    if (namedElsewhere(schemaBefore, op.from)) return undefined;
    const field = fieldOf(op.from);
    const pairs: [string, string][] = [[op.from, op.to]];
    if (field?.type === 'datetime') pairs.push([timezoneKey(op.from), timezoneKey(op.to)]);
    return { kind: 'rename', index, pairs };
  }
  if (op.op === 'removeField') {
    const field = fieldOf(op.key);
    if (!field || namedElsewhere(schemaBefore, op.key)) return undefined;
    const keys = field.type === 'datetime' ? [op.key, timezoneKey(op.key)] : [op.key];
    const searched = WORD_TYPES.has(field.type) || NESTING.has(field.type) || !!readers[field.type]?.text;
    const words = !searched ? 'none' : TEXTUAL.has(field.type) ? 'text' : 'any';
    return { kind: 'remove', index, keys, words };
  }
  if (op.op === 'retypeField') {
    const field = fieldOf(op.key);
    const after = op.field;
    if (!field || !plainField(field) || !plainField(after) || !sameRules(field, after)) return undefined;
    if (after.key !== op.key || namedElsewhere(schemaBefore, op.key)) return undefined;
    if (TEXTUAL.has(field.type) && after.type === 'number' && !readers.number?.text)
      return { kind: 'textToNumber', index, key: op.key };
    if (field.type === 'number' && TEXTUAL.has(after.type))
      return { kind: 'numberToText', index, key: op.key };
  }
  return undefined;
}

/** The change's operations over the schema as SQL runs them, or undefined when one of them cannot be. */
export function sqlOpsOf(
  change: AppliedChange,
  schema: string,
  readers: ItemFieldReaders,
): SqlOp[] | undefined {
  if (change.reverts) return undefined;
  const found: SqlOp[] = [];
  for (const index of change.plan.ops.keys()) {
    const op = sqlOpOf(change, index, schema, readers);
    if (op === undefined) return undefined;
    if (op !== 'skip') found.push(op);
  }
  return found;
}

/** What the operations make of a row: each step reads the columns the one before it wrote. */
interface Step {
  /** The data after it. */
  data: SQL;
  /** Whether SQL can run it over this row exactly as the replay would. */
  ok: SQL;
  /** What it kept for a revert (a JSON list), or null. */
  kept: SQL;
  changed: SQL;
  /** The item's search words after it (items only). */
  words: SQL;
  /** What the other parts read, computed once: a FROM clause naming them `f`. */
  facts?: SQL;
}

const NUMBER_TEXT = '^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)$';
/** Digits few enough that a double holds the decimal exactly and prints it back as written. */
const MAX_NUMBER_CHARS = 15;

const text = (value: string) => sql`${value}::text`;

/** The locale values of `d` (a record) as rows (tag, values, ord), in their stored order. */
const localesOf = (d: SQL) =>
  sql`jsonb_each(case when jsonb_typeof(${d} -> ${text(LOCALES_KEY)}) = 'object' then ${d} -> ${text(LOCALES_KEY)} else '{}'::jsonb end) with ordinality`;

/** Whether a locale's values (records only, as the replay reads them) satisfy `test` (over `l.v`). */
const anyLocale = (d: SQL, test: SQL) =>
  sql`(${d} ? ${text(LOCALES_KEY)} and exists (select 1 from ${localesOf(d)} as l(k, v, ord) where jsonb_typeof(l.v) = 'object' and ${test}))`;

/**
 * `base` (`d` with its own values changed, its locales' as they were) with `edit` (over `l.v`) made
 * to each locale's values of `d` that `test` picks.
 */
const editLocales = (d: SQL, base: SQL, test: SQL, edit: SQL) =>
  sql`case when ${anyLocale(d, test)} then jsonb_set(${base}, array[${text(LOCALES_KEY)}], (select jsonb_object_agg(l.k, case when jsonb_typeof(l.v) = 'object' and ${test} then ${edit} else l.v end) from ${localesOf(d)} as l(k, v, ord))) else ${base} end`;

/** A holder `h` with each pair's value moved from its first key to its second. */
const moved = (h: SQL, pairs: [string, string][]) =>
  pairs.reduce<SQL>(
    (current, [from, to]) =>
      sql`(case when ${current} ? ${text(from)} then (${current} - ${text(from)}) || jsonb_build_object(${text(to)}, ${current} -> ${text(from)}) else ${current} end)`,
    h,
  );

const anyKey = (h: SQL, keys: string[]) =>
  sql.join(
    keys.map((key) => sql`${h} ? ${text(key)}`),
    sql` or `,
  );

/**
 * The search words `w` without the line `line` (one without a line break) where it is there exactly
 * once, else null (which line is the field's only the replay knows).
 */
const withoutLine = (w: SQL, line: SQL) => {
  const padded = sql`(E'\\n' || ${w} || E'\\n')`;
  const needle = sql`(E'\\n' || ${line} || E'\\n')`;
  const at = sql`strpos(${padded}, ${needle})`;
  const cut = sql`(left(${padded}, ${at}) || substr(${padded}, ${at} + length(${needle})))`;
  return sql`case when ${at} > 0 and strpos(substr(${padded}, ${at} + 1), ${needle}) = 0
    then case when length(${cut}) < 2 then '' else substr(${cut}, 2, length(${cut}) - 2) end end`;
};

function stepOf(op: SqlOp, d: SQL, w: SQL, hasErrors: SQL, isItem: boolean): Step {
  const none = sql`null::jsonb`;
  switch (op.kind) {
    case 'rename': {
      const from = op.pairs.map(([key]) => key);
      // A rename onto a key already there keeps the value it replaces: left to the replay.
      const clash = (h: SQL) =>
        sql.join(
          op.pairs.map(([a, b]) => sql`(${h} ? ${text(a)} and ${h} ? ${text(b)})`),
          sql` or `,
        );
      const lv = sql`l.v`;
      return {
        data: editLocales(d, moved(d, op.pairs), anyKey(lv, from), moved(lv, op.pairs)),
        ok: sql`not (${clash(d)}) and not ${anyLocale(d, clash(lv))}`,
        kept: none,
        changed: sql`(${anyKey(d, from)} or ${anyLocale(d, anyKey(lv, from))})`,
        words: w,
      };
    }
    case 'remove': {
      const lv = sql`l.v`;
      const strip = (h: SQL) => op.keys.reduce<SQL>((current, key) => sql`(${current} - ${text(key)})`, h);
      const keys = sql.join(
        op.keys.map((key, i) => sql`(${text(key)}, ${i})`),
        sql`, `,
      );
      const kept = sql`case when ${anyKey(d, [...op.keys, LOCALES_KEY])} then (select jsonb_agg(x.e order by x.a, x.b) from (
          select 0 as a, c.ord as b, jsonb_build_object('at', jsonb_build_array(c.key), 'value', ${d} -> c.key) as e
          from (values ${keys}) as c(key, ord) where ${d} ? c.key
          union all
          select l.ord, c.ord, jsonb_build_object('at', jsonb_build_array(${text(LOCALES_KEY)}, l.k, c.key), 'value', l.v -> c.key)
          from ${localesOf(d)} as l(k, v, ord) cross join (values ${keys}) as c(key, ord)
          where jsonb_typeof(l.v) = 'object' and l.v ? c.key) as x) end`;
      const value = sql`(${d} -> ${text(op.keys[0])})`;
      const blank = sql`(${value} is null or jsonb_typeof(${value}) = 'null' or ${value} = '""'::jsonb)`;
      // The words its values gave the item's search go with them: exact for one line of text only.
      const line = sql`(case when jsonb_typeof(${value}) = 'string' and ${d} ->> ${text(op.keys[0])} !~ E'[\\n\\r]' and ${d} ->> ${text(op.keys[0])} ~ '[[:alnum:]]' then ${d} ->> ${text(op.keys[0])} end)`;
      const words =
        op.words === 'none' || !isItem
          ? w
          : sql`case when ${blank} then ${w} else ${op.words === 'text' ? withoutLine(w, line) : sql`null::text`} end`;
      return {
        data: editLocales(d, strip(d), anyKey(lv, op.keys), strip(lv)),
        // Whether the item is still incomplete without the field only the replay can tell.
        ok: sql`(${isItem ? sql`not ${hasErrors}` : sql`true`}) and ${
          op.words === 'none' || !isItem
            ? sql`true`
            : sql`not ${anyLocale(d, anyKey(lv, op.keys))} and (${blank} or ${words} is not null)`
        }`,
        kept,
        changed: sql`(${anyKey(d, op.keys)} or ${anyLocale(d, anyKey(lv, op.keys))})`,
        words,
      };
    }
    case 'textToNumber': {
      const key = text(op.key);
      const lv = sql`l.v`;
      const facts = sql`(select g.*, case when g.digits then trim_scale(g.raw::numeric) end as n,
            ${isItem ? sql`case when g.digits then ${withoutLine(w, sql`g.raw`)} end` : sql`null::text`} as removed
          from (select r.v, r.raw, (jsonb_typeof(r.v) = 'null' or r.v = '""'::jsonb) as empty,
              (jsonb_typeof(r.v) = 'string' and length(r.raw) <= ${MAX_NUMBER_CHARS}::int and r.raw ~ ${NUMBER_TEXT}) as digits
            from (select ${d} -> ${key} as v, ${d} ->> ${key} as raw offset 0) r offset 0) g offset 0) f`;
      const removed = sql`f.removed`;
      return {
        facts,
        data: sql`case when f.empty then ${d} - ${key} when f.digits then jsonb_set(${d}, array[${key}], to_jsonb(f.n)) else ${d} end`,
        ok: sql`(f.v is null or f.empty or (f.digits${isItem ? sql` and ${removed} is not null` : sql``})) and not ${anyLocale(d, sql`${lv} ? ${key}`)}`,
        // What the number does not give back as it was written ('07', '1.50') is kept for a revert.
        kept: sql`case when f.empty then jsonb_build_array(jsonb_build_object('at', jsonb_build_array(${key}), 'value', f.v, 'converted', '{}'::jsonb))
          when f.digits and f.n::text <> f.raw then jsonb_build_array(jsonb_build_object('at', jsonb_build_array(${key}), 'value', f.v, 'converted', jsonb_build_object('value', to_jsonb(f.n)))) end`,
        changed: sql`(f.v is not null)`,
        words: isItem ? sql`case when f.digits then ${removed} else ${w} end` : w,
      };
    }
    case 'numberToText': {
      const key = text(op.key);
      const value = sql`(${d} -> ${key})`;
      const lv = sql`l.v`;
      // A number would add a line to the item's search words where only the replay knows.
      return {
        data: sql`case when jsonb_typeof(${value}) = 'null' then ${d} - ${key} else ${d} end`,
        ok: sql`(not ${d} ? ${key} or jsonb_typeof(${value}) = 'null') and not ${anyLocale(d, sql`${lv} ? ${key}`)}`,
        kept: sql`case when jsonb_typeof(${value}) = 'null' then jsonb_build_array(jsonb_build_object('at', jsonb_build_array(${key}), 'value', ${value}, 'converted', '{}'::jsonb)) end`,
        changed: sql`(${d} ? ${key})`,
        words: w,
      };
    }
  }
}

/** A batch run in SQL: how many rows it read, the last one's key, and the rows it wrote. */
export interface SqlBatch {
  read: number;
  last: { id: string; stage: string } | null;
  written: { id: string; changed: boolean }[];
}

export interface SqlBatchOptions {
  table: 'items' | 'published';
  workspaceId: string;
  schema: string;
  change: AppliedChange & { id: string };
  ops: readonly SqlOp[];
  after: { id: string; stage: string };
  limit: number;
}

/**
 * One statement over the next `limit` rows of the schema one change behind it, in key order: those it
 * can run the change over exactly are written in the new version, with what the change kept of them;
 * the others are left behind. The row is read and written by the same statement, and a row saved
 * since the statement read it is passed over (same version, same model version, as the replay's write).
 */
export function sqlBatch({ table, workspaceId, schema, change, ops, after, limit }: SqlBatchOptions): SQL {
  const isItem = table === 'items';
  const base = change.version - 1;
  const steps: SQL[] = [];
  let d = sql.raw('src.d0');
  let w = sql.raw('src.w0');
  const names: { ok: SQL; kept: SQL; changed: SQL; index: number }[] = [];
  ops.forEach((op, i) => {
    const step = stepOf(op, d, w, sql.raw('src.h'), isItem);
    const alias = sql.raw(`s${i}`);
    steps.push(
      // offset 0: each step computed once, not inlined into the next (whose every use would repeat it).
      sql`cross join lateral (select ${step.data} as d, ${step.ok} as ok, ${step.kept} as k, ${step.changed} as c, ${step.words} as w ${step.facts ? sql`from ${step.facts}` : sql``} offset 0) ${alias}`,
    );
    d = sql.raw(`s${i}.d`);
    w = sql.raw(`s${i}.w`);
    names.push({
      ok: sql.raw(`s${i}.ok`),
      kept: sql.raw(`s${i}.k`),
      changed: sql.raw(`s${i}.c`),
      index: op.index,
    });
  });
  const ok = sql.join(
    names.map((name) => sql`coalesce(${name.ok}, false)`),
    sql` and `,
  );
  const kept = sql`nullif(${sql.join(
    names.map(
      (name) =>
        sql`(case when ${name.kept} is null then '{}'::jsonb else jsonb_build_object(${text(String(name.index))}, ${name.kept}) end)`,
    ),
    sql` || `,
  )}, '{}'::jsonb)`;
  const changed = sql.join(
    names.map((name) => sql`coalesce(${name.changed}, false)`),
    sql` or `,
  );
  const key = isItem
    ? sql`t.id > ${after.id}`
    : sql`(t.id, t.stage) > (${after.id}::text, ${after.stage}::text)`;
  const order = sql.raw(isItem ? 'id' : 'id, stage');
  const lastFirst = sql.raw(isItem ? 'id desc' : 'id desc, stage desc');
  const target = sql.raw(table);
  return sql`
    with src as (
      select t.id, ${sql.raw(isItem ? `''` : 't.stage')} as stage, t.version, t.model_version, t.data as d0,
        ${sql.raw(isItem ? 't.search_text as w0, t.has_errors as h' : 'null::text as w0, false as h')}
      from ${target} t
      where t.workspace_id = ${workspaceId} and t.schema = ${schema} and t.model_version = ${base}::int and ${key}
        ${isItem ? sql`and t.search_text is not null` : sql``}
      order by ${order} limit ${limit}::int
    ),
    calc as (
      select src.id, src.stage, src.version, src.model_version, ${d} as data, ${w} as words,
        ${ok} as ok, ${kept} as kept, ${changed} as changed
      from src ${sql.join(steps, sql` `)}
    ),
    upd as (
      update ${target} t set data = c.data, model_version = ${change.version}::int
        ${isItem ? sql`, search_text = c.words` : sql``}
      from calc c
      where t.workspace_id = ${workspaceId} and t.schema = ${schema} and t.id = c.id
        ${isItem ? sql`` : sql`and t.stage = c.stage`}
        and t.version = c.version and t.model_version = c.model_version and c.ok
      returning t.id, c.kept, c.changed
    ),
    ins as (
      insert into content_model_kept (change_id, schema, item_id, kept)
      select ${change.id}, ${schema}, upd.id, upd.kept from upd where ${isItem ? sql`upd.kept is not null` : sql`false`}
      on conflict do nothing
    )
    select (select count(*)::int from src) as read,
      (select jsonb_build_object('id', id, 'stage', stage) from src order by ${lastFirst} limit 1) as last,
      (select coalesce(jsonb_agg(jsonb_build_object('id', upd.id, 'changed', upd.changed)), '[]'::jsonb) from upd) as written`;
}
