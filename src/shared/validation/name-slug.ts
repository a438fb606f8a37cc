import { mapNestedEntries } from '../schemas/blocks';
import type { FieldDef, NameSlugField, SchemaType } from '../schemas/types';
import { toDataKey, toKebabCase } from '../text/slug';

/** Typed text as the field stores it: kebab-case, or kept when the field keeps data keys and it is one. */
const slugOf = (text: string, keepsDataKeys: boolean | undefined) =>
  keepsDataKeys ? toDataKey(text) : toKebabCase(text);

/**
 * Spec §5 name-slug: typed text becomes kebab-case (a field that keeps data keys keeps one as typed);
 * cleared (blank) text derives the slug from the source field, usually the name.
 */
export function nameSlugValue(
  typed: string | null | undefined,
  source: unknown,
  keepsDataKeys?: boolean,
): string {
  const text = typeof typed === 'string' ? typed : '';
  if (text.trim()) return slugOf(text, keepsDataKeys);
  return typeof source === 'string' ? toKebabCase(source) : '';
}

/**
 * Whether a form marks the field as one the user must fill: a required name-slug is not, since left
 * empty it is derived from its source (the slug itself must still come out non-empty).
 */
export const isMarkedRequired = (field: FieldDef) => field.required === true && field.type !== 'name-slug';

const nameSlugFields = (fields: SchemaType['fields']) =>
  (fields as readonly FieldDef[]).filter((field): field is NameSlugField => field.type === 'name-slug');

/**
 * The keys of the name-slug fields whose slug stays when the name changes. A slug follows its source
 * only while the item has never been published (a live URL must not move) and the stored slug was not
 * typed by hand: it is empty or the slug of the stored source.
 */
export function fixedNameSlugs(
  fields: SchemaType['fields'],
  saved: Readonly<Record<string, unknown>>,
  hasBeenPublished: boolean,
): Set<string> {
  const fixed = new Set<string>();
  for (const field of nameSlugFields(fields)) {
    const slug = saved[field.key];
    const isFollowing =
      typeof slug !== 'string' || slug === '' || slug === nameSlugValue('', saved[field.from]);
    if (hasBeenPublished || !isFollowing) fixed.add(field.key);
  }
  return fixed;
}

/** The stored version a save replaces, and which of its slugs stay when the name changes. */
export interface SlugBasis {
  data: Readonly<Record<string, unknown>>;
  fixed: ReadonlySet<string>;
}

/**
 * The data with every name-slug field normalised: kebab-case, or derived from its source when empty.
 * Saved over `previous`, a slug sent unchanged while it still follows its source is derived from the
 * source's new value.
 */
export function applyNameSlugs(
  fields: SchemaType['fields'],
  data: Readonly<Record<string, unknown>>,
  previous?: SlugBasis,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...data };
  for (const field of nameSlugFields(fields)) {
    const current = data[field.key];
    const typed = typeof current === 'string' ? current : '';
    const isUnchanged =
      previous !== undefined && slugOf(typed, field.keepsDataKeys) === previous.data[field.key];
    const follows = isUnchanged && !previous.fixed.has(field.key);
    const slug = nameSlugValue(follows ? '' : typed, data[field.from], field.keepsDataKeys);
    if (slug || current !== undefined) result[field.key] = slug;
  }
  return result;
}

/**
 * `applyNameSlugs` of the data, then of every table row and block inside it (at any depth), each
 * against its own fields: a block's slug derives from a field of the same block. Only the item's own
 * slugs have a stored version to follow (`previous`).
 */
export function applyNameSlugsDeep(
  schema: Pick<SchemaType, 'fields' | 'blockTypes'>,
  data: Readonly<Record<string, unknown>>,
  previous?: SlugBasis,
): Record<string, unknown> {
  const { blockTypes } = schema;
  const inside = (fields: readonly FieldDef[], holder: Record<string, unknown>) => {
    for (const field of fields) {
      const value = holder[field.key];
      const rows = mapNestedEntries(field, value, blockTypes, (entry) =>
        inside(entry.fields, applyNameSlugs(entry.fields, entry.data)),
      );
      if (rows !== value) holder[field.key] = rows;
    }
    return holder;
  };
  return inside(schema.fields, applyNameSlugs(schema.fields, data, previous));
}

/**
 * Whether the stored version could change what `applyNameSlugs` makes of `data`: only where a typed slug
 * differs from the slug its source derives. Elsewhere a slug that follows its source comes out the same
 * as one kept as typed, so a save need not read the stored version.
 */
export function slugsNeedBasis(fields: SchemaType['fields'], data: Readonly<Record<string, unknown>>) {
  return nameSlugFields(fields).some((field) => {
    const typed = data[field.key];
    const source = data[field.from];
    return (
      nameSlugValue(typeof typed === 'string' ? typed : '', source, field.keepsDataKeys) !==
      nameSlugValue('', source, field.keepsDataKeys)
    );
  });
}

/** A name-slug whose published value a publish replaces. */
export interface SlugChange {
  key: string;
  from: string;
  to: string;
}

/** The name-slugs of `current` that differ from a published copy's: publishing moves the item's URL. */
export function slugChanges(
  fields: SchemaType['fields'],
  published: Readonly<Record<string, unknown>>,
  current: Readonly<Record<string, unknown>>,
): SlugChange[] {
  return nameSlugFields(fields).flatMap((field) => {
    const from = published[field.key];
    const to = current[field.key];
    return typeof from === 'string' && from && typeof to === 'string' && from !== to
      ? [{ key: field.key, from, to }]
      : [];
  });
}

/** The publish screen's warning when a slug changes in the stage. */
export const urlChangeMessage = (from: string, to: string) => `The URL changes from ${from} to ${to}`;
