import { z } from 'zod';
import type { FieldDef, FieldType, SchemaType } from '../schemas/types';

/**
 * Localised content. A workspace's basics may hold its locales; a localised field keeps the default
 * locale's value where a single value always was (so everything that reads item data reads the default
 * locale) and every other locale's value under `_locales[tag][key]`. Fallback is resolved when reading,
 * never copied.
 */
export const LOCALES_KEY = '_locales';

/**
 * The field types that may be localised: text, rich text, name-slugs, images (files), references and
 * blocks (a localised blocks field holds one whole list of blocks per locale).
 */
export const LOCALIZABLE_TYPES: readonly FieldType[] = [
  'text',
  'rich-text',
  'name-slug',
  'file',
  'reference',
  'blocks',
];

const Tag = z.string().max(35);

/** A record of at most `max` entries: a map's size is not bounded by its keys' and values' schemas. */
const atMost = <T extends z.ZodRecord>(record: T, max: number) =>
  record.refine((value) => Object.keys(value).length <= max, { error: `At most ${max} entries` });

export const LocaleSettings = z.object({
  tags: z.array(Tag).min(1, { error: 'A workspace with locales needs at least one' }).max(50),
  default: Tag,
  /** Each locale's next locale to read when it has no value: fr-CA → fr-FR → en-US is two entries. */
  fallback: atMost(z.record(Tag, Tag), 50),
  /**
   * Per schema, the fields localised in this workspace (overriding the schema's own `localized` flags)
   * and, per field, the other locales in which it is required too.
   */
  fields: atMost(
    z.record(
      z.string().max(100),
      atMost(z.record(z.string().max(100), z.object({ requiredIn: z.array(Tag).max(50) })), 500),
    ),
    500,
  ).optional(),
});
export type LocaleSettings = z.infer<typeof LocaleSettings>;

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** A known BCP 47 tag in its canonical spelling (fr-FR, sr-Latn-RS), whose language and region exist. */
export function isKnownLocale(tag: string): boolean {
  try {
    if (Intl.getCanonicalLocales(tag)[0] !== tag) return false;
    const { language, region } = new Intl.Locale(tag);
    if (languageNames.of(language) === language) return false;
    if (region === undefined) return true;
    const regionName = regionNames.of(region);
    return regionName !== region && regionName !== 'Unknown Region';
  } catch {
    return false;
  }
}

/** How a locale reads for people: 'French (France)'. */
export function localeName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** The locales a locale's value is read from, in order: itself, then its fallbacks (stops at a cycle). */
export function fallbackChain(settings: Pick<LocaleSettings, 'fallback'>, tag: string): string[] {
  const chain = [tag];
  let next = Object.hasOwn(settings.fallback, tag) ? settings.fallback[tag] : undefined;
  while (next !== undefined && !chain.includes(next)) {
    chain.push(next);
    next = Object.hasOwn(settings.fallback, next) ? settings.fallback[next] : undefined;
  }
  return chain;
}

/** A fallback cycle as it reads ('fr-CA → fr-FR → fr-CA'), or undefined. */
function findFallbackCycle(settings: Pick<LocaleSettings, 'fallback'>): string | undefined {
  for (const start of Object.keys(settings.fallback)) {
    const chain = fallbackChain(settings, start);
    const last = chain.at(-1)!;
    const next = Object.hasOwn(settings.fallback, last) ? settings.fallback[last] : undefined;
    if (next !== undefined && chain.includes(next))
      return [...chain.slice(chain.indexOf(next)), next].join(' → ');
  }
  return undefined;
}

export const localeMessages = {
  unknownTag: (tag: string) => `Unknown locale "${tag}": use a BCP 47 tag such as fr-FR`,
  twice: (tag: string) => `Locale ${tag} is listed twice`,
  defaultNotListed: (tag: string) => `The default locale ${tag} must be one of the workspace's locales`,
  notListed: (tag: string) => `${tag} is not one of the workspace's locales`,
  noLocales: 'This workspace has no locales: add them in Settings › Locales first',
  fallbackUnknown: (from: string, to: string) =>
    `${from} cannot fall back to ${to}: not one of the workspace's locales`,
  fallbackSelf: (tag: string) => `${tag} cannot fall back to itself`,
  cycle: (cycle: string) => `Fallback chain ${cycle} is a cycle`,
  unknownSchema: (name: string) => `Schema "${name}" not found`,
  unknownField: (schema: string, key: string) => `Schema "${schema}" has no field "${key}"`,
  notLocalizable: (label: string, type: string) =>
    `${label} (${type}) cannot be localised: only text, rich-text, name-slug, image, reference and blocks fields can`,
  removalNeedsConfirmation: (tags: string[]) =>
    `Removing ${tags.join(', ')} needs confirmation: send confirmRemoveLocales with ${tags.length > 1 ? 'them' : 'it'}`,
  defaultChanged: 'The default locale cannot change while the workspace has content',
  fieldRequired: (label: string, tag: string) => `${label} (${tag}) is required`,
  cannotEditLocale: (tag: string, what: string) =>
    `You do not have permission to edit ${tag} values of ${what}`,
  cannotEditShared: (what: string) =>
    `You do not have permission to edit fields shared by every locale of ${what}`,
};

/**
 * The first thing wrong with locale settings, as a message, or undefined: tags known and listed once,
 * the default among them, fallbacks to listed locales without cycles, localised fields of allowed types.
 */
export function localeSettingsError(
  settings: LocaleSettings,
  schemaOf: (name: string) => SchemaType | undefined,
): string | undefined {
  const seen = new Set<string>();
  for (const tag of settings.tags) {
    if (!isKnownLocale(tag)) return localeMessages.unknownTag(tag);
    if (seen.has(tag)) return localeMessages.twice(tag);
    seen.add(tag);
  }
  if (!seen.has(settings.default)) return localeMessages.defaultNotListed(settings.default);
  for (const [from, to] of Object.entries(settings.fallback)) {
    if (!seen.has(from))
      return isKnownLocale(from) ? localeMessages.notListed(from) : localeMessages.unknownTag(from);
    if (!seen.has(to)) return localeMessages.fallbackUnknown(from, to);
    if (from === to) return localeMessages.fallbackSelf(from);
  }
  const cycle = findFallbackCycle(settings);
  if (cycle) return localeMessages.cycle(cycle);
  for (const [schemaName, fields] of Object.entries(settings.fields ?? {})) {
    const schema = schemaOf(schemaName);
    if (!schema) return localeMessages.unknownSchema(schemaName);
    for (const [key, options] of Object.entries(fields)) {
      const field = schema.fields.find((candidate) => candidate.key === key);
      if (!field) return localeMessages.unknownField(schemaName, key);
      if (!LOCALIZABLE_TYPES.includes(field.type))
        return localeMessages.notLocalizable(field.label, field.type);
      for (const tag of options.requiredIn) if (!seen.has(tag)) return localeMessages.unknownTag(tag);
    }
  }
  return undefined;
}

export const isLocalized = (field: FieldDef) => field.localized === true;

/**
 * The schema as a workspace with these locales sees it: the fields it localises flagged `localized`
 * (with the other locales they are required in) and the locales on the schema. A schema with no
 * localised field in the workspace is answered as it is.
 */
export function localizedSchema(schema: SchemaType, settings: LocaleSettings): SchemaType {
  const chosen =
    settings.fields && Object.hasOwn(settings.fields, schema.name) ? settings.fields[schema.name] : undefined;
  const fields = schema.fields.map((field): FieldDef => {
    const localized = chosen
      ? Object.hasOwn(chosen, field.key)
      : field.localized === true && LOCALIZABLE_TYPES.includes(field.type);
    const requiredIn = chosen && Object.hasOwn(chosen, field.key) ? chosen[field.key].requiredIn : [];
    const { localized: _declared, requiredInLocales: _required, ...plain } = field;
    return (localized ? { ...plain, localized: true, requiredInLocales: requiredIn } : plain) as FieldDef;
  });
  if (!fields.some(isLocalized)) return schema;
  return {
    ...schema,
    fields,
    locales: { default: settings.default, others: settings.tags.filter((tag) => tag !== settings.default) },
  };
}

type Data = Readonly<Record<string, unknown>>;

/** The values item data holds for one non-default locale (nothing when it holds none). */
export function localeValues(data: Data, tag: string): Data {
  const all = data[LOCALES_KEY];
  if (typeof all !== 'object' || all === null || !Object.hasOwn(all, tag)) return {};
  const values = (all as Record<string, unknown>)[tag];
  return typeof values === 'object' && values !== null ? (values as Data) : {};
}

/** A localised field's own value in one locale (the default locale's sits at the field's key). */
export function valueIn(data: Data, key: string, tag: string, defaultTag: string): unknown {
  if (tag === defaultTag) return data[key];
  const values = localeValues(data, tag);
  return Object.hasOwn(values, key) ? values[key] : undefined;
}
