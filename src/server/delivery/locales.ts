import { and, sql, type SQL } from 'drizzle-orm';
import type { DeliveredItem } from '@shared/api/delivery';
import {
  fallbackChain,
  isLocalized,
  localizedSchema,
  LOCALES_KEY,
  valueIn,
  type LocaleSettings,
} from '@shared/locales/locales';
import type { DeliveredPlace } from '@shared/publishing/surrogate-keys';
import type { SchemaType } from '@shared/schemas/types';
import { isEmptyValue } from '@shared/validation/empty';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { published } from '../db/schema';
import { localeSettingsCacheOf } from './locale-settings';
import { badRequest } from '../http/errors';
import { slugFieldOf } from '../publishing/slugs';
import {
  copyBySlug,
  copyColumns,
  ofPlace,
  STAGE_COPIES,
  type CopiesTable,
  type Copy,
  type LocalisedValue,
} from './repository';

/** What `?locale=` (and `?fallback=`) ask of a delivered answer. */
export interface LocaleView {
  settings: LocaleSettings;
  /** A locale of the workspace, or '*' for every locale. */
  locale: string;
  fallback: boolean;
}

const ALL = '*';

/** The locale view a request asks for; 400 for a locale the workspace does not have. */
export async function localeViewOf(
  ctx: AppContext,
  workspaceId: string,
  locale: string,
  fallback: 'true' | 'false' | undefined,
): Promise<LocaleView> {
  const settings = await localeSettingsCacheOf(ctx.db).settingsOf(ctx.readDb, workspaceId);
  if (!settings) throw badRequest('locale: this workspace has no locales');
  if (locale !== ALL && !settings.tags.includes(locale)) {
    throw badRequest(
      `locale: unknown locale "${locale}" (this workspace has ${settings.tags.join(', ')}, or *)`,
    );
  }
  return { settings, locale, fallback: fallback !== 'false' };
}

/**
 * The keys of a schema's localised fields per settings object (kept by the settings cache, so derived
 * once per workspace).
 */
const localizedKeysOfSettings = new WeakMap<LocaleSettings, Map<SchemaType, string[]>>();
function localizedKeysInView(view: LocaleView, schema: SchemaType) {
  let derived = localizedKeysOfSettings.get(view.settings);
  if (!derived) localizedKeysOfSettings.set(view.settings, (derived = new Map()));
  let keys = derived.get(schema);
  if (!keys) {
    keys = localizedSchema(schema, view.settings)
      .fields.filter(isLocalized)
      .map((field) => field.key);
    derived.set(schema, keys);
  }
  return keys;
}

/** The locales a view reads, in order: every locale for '*', else the asked one and (with fallback) its chain. */
const chainsOfSettings = new WeakMap<LocaleSettings, Map<string, readonly string[]>>();
function chainOf(view: LocaleView): readonly string[] {
  const { settings, locale } = view;
  if (locale === ALL) return settings.tags;
  if (!view.fallback) return [locale];
  let chains = chainsOfSettings.get(settings);
  if (!chains) chainsOfSettings.set(settings, (chains = new Map()));
  let chain = chains.get(locale);
  if (!chain) chains.set(locale, (chain = fallbackChain(settings, locale)));
  return chain;
}

/** The data without `_locales`, its keys in their order (a copy, as an object rest would make). */
function withoutLocales(data: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (key === LOCALES_KEY) continue;
    // A key named __proto__ stays a plain property, never the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: data[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = data[key];
  }
  return out;
}

/**
 * A published copy's data in the asked locale: each localised field's value in that locale or, with
 * fallback, in the first locale of its chain that has one (`fellBack` names that locale per field);
 * without fallback a field the locale has no value for is left out. With '*', each localised field is
 * `{ locale: value }` over the locales that have one. `_locales` itself is never delivered this way.
 */
export function localiseData(
  schema: SchemaType,
  data: Record<string, unknown>,
  view: LocaleView,
): { data: Record<string, unknown>; fellBack: Record<string, string> } {
  const { settings } = view;
  const out = withoutLocales(data);
  const fellBack: Record<string, string> = {};
  const chain = chainOf(view);
  for (const key of localizedKeysInView(view, schema)) {
    if (view.locale === ALL) {
      const all: Record<string, unknown> = {};
      for (const tag of chain) {
        const value = valueIn(data, key, tag, settings.default);
        if (!isEmptyValue(value)) all[tag] = value;
      }
      out[key] = all;
      continue;
    }
    const from = chain.find((tag) => !isEmptyValue(valueIn(data, key, tag, settings.default)));
    if (from === undefined) delete out[key];
    else {
      out[key] = valueIn(data, key, from, settings.default);
      if (from !== view.locale) fellBack[key] = from;
    }
  }
  return { data: out, fellBack };
}

/** A value that counts as missing, as isEmptyValue sees it: null, '' or []. */
const present = (value: SQL) =>
  sql`(case when ${value} in ('null'::jsonb, '""'::jsonb, '[]'::jsonb) then null else ${value} end)`;

/**
 * How a list filters and sorts by localised fields in the asked locale: by the value localiseData
 * delivers (the locale's, or the first of its chain that has one). With '*', by the stored values.
 */
export function localisedValueOf(schema: SchemaType, view: LocaleView): LocalisedValue {
  const { settings } = view;
  if (view.locale === ALL) return () => undefined;
  const chain = chainOf(view);
  if (chain.length === 1 && chain[0] === settings.default) return () => undefined;
  const localized = new Set(localizedKeysInView(view, schema));
  const slugKey = slugFieldOf(schema);
  const valueIn = (field: string, tag: string) =>
    tag === settings.default
      ? sql`(${published.data} -> ${field})`
      : sql`(${published.data} -> '_locales' -> ${tag} -> ${field})`;
  // A copy delivered under this slug holds it in one of the chain's locales: the slug column's index
  // or published_locale_values_idx finds those.
  const holding = (field: string, wanted: string) =>
    sql`(${sql.join(
      chain.map((tag) =>
        tag === settings.default
          ? sql`${published.slug} = ${wanted}`
          : sql`(${published.data} ? '_locales' and ${published.data} -> '_locales' @> ${JSON.stringify({ [tag]: { [field]: wanted } })}::jsonb)`,
      ),
      sql` or `,
    )})`;
  return (field) => {
    if (!localized.has(field)) return undefined;
    const values = chain.map((tag) => present(valueIn(field, tag)));
    return {
      value: values.length === 1 ? values[0] : sql`coalesce(${sql.join(values, sql`, `)})`,
      ...(field === slugKey && { mayEqual: (wanted: string) => holding(field, wanted) }),
    };
  };
}

/** The locale facts of a delivered item: the locale asked for and, per field that fell back, the locale it came from. */
export function localeFacts(view: LocaleView, fellBack: Record<string, string>): Partial<DeliveredItem> {
  return { locale: view.locale, ...(Object.keys(fellBack).length > 0 ? { _locale: fellBack } : {}) };
}

/**
 * The copy published under this slug in the asked locale: the locale's own slugs first, then (with
 * fallback) those of its chain; the default locale's slug is the stored one, with its former slugs.
 */
export async function copyByLocaleSlug(
  db: Db,
  place: DeliveredPlace,
  schema: SchemaType,
  slug: string,
  view: LocaleView,
  copies: CopiesTable = STAGE_COPIES,
): Promise<Copy | undefined> {
  const key = slugFieldOf(schema);
  for (const tag of chainOf(view)) {
    const found =
      tag === view.settings.default || !key
        ? await copyBySlug(db, place, slug, copies)
        : await copyByOtherLocaleSlug(db, { ...place, copies }, key, tag, slug);
    if (found) return found;
  }
  return undefined;
}

async function copyByOtherLocaleSlug(
  db: Db,
  place: DeliveredPlace & { copies: CopiesTable },
  key: string,
  tag: string,
  slug: string,
) {
  const [found] = await db
    .with(...place.copies)
    .select(copyColumns)
    .from(published)
    .where(
      and(
        ofPlace(place),
        // As published_locale_values_idx reads it: its predicate, and containment.
        sql`${published.data} ? '_locales'`,
        sql`${published.data} -> '_locales' @> ${JSON.stringify({ [tag]: { [key]: slug } })}::jsonb`,
      ),
    )
    .orderBy(published.id)
    .limit(1);
  return found;
}
