import { changedFields, sameValue } from '../schemas/compare';
import type { SchemaType } from '../schemas/types';
import { isEmptyValue } from '../validation/empty';
import { isLocalized, LOCALES_KEY, valueIn } from './locales';

type Data = Readonly<Record<string, unknown>>;

/** What one version changed against another: the locales whose own values differ, and the shared fields. */
export interface LocaleChanges {
  locales: string[];
  shared: boolean;
}

type LocalizedSchema = Pick<SchemaType, 'fields'> & { locales: NonNullable<SchemaType['locales']> };

/** The non-default locales item data holds values for ('__proto__' is never a locale). */
function storedTags(data: Data): string[] {
  const all = data[LOCALES_KEY];
  if (typeof all !== 'object' || all === null || Array.isArray(all)) return [];
  return Object.keys(all).filter((tag) => tag !== '__proto__');
}

/**
 * The locales to show versions in: the default, the workspace's others, then any locale only the
 * versions still hold values for (removed from the workspace since), in alphabetical order.
 */
export function versionLocales(
  locales: NonNullable<SchemaType['locales']>,
  versions: readonly Data[],
): string[] {
  const removed = [...new Set(versions.flatMap(storedTags))]
    .filter((tag) => tag !== locales.default && !locales.others.includes(tag))
    .sort();
  return [locales.default, ...locales.others, ...removed];
}

/** A locale's own value: an empty one is no value (the locale falls back). */
const ownValue = (data: Data, key: string, tag: string, defaultTag: string) => {
  const value = valueIn(data, key, tag, defaultTag);
  return isEmptyValue(value) ? undefined : value;
};

/**
 * The locales whose own values of localised fields differ between two versions, the default first, then
 * the workspace's other locales, then any locale only the versions still hold (removed from the
 * workspace since); and whether a field every locale shares changed. A locale reading another's value
 * through its fallback did not change itself.
 */
export function localeChanges(schema: LocalizedSchema, before: Data, after: Data): LocaleChanges {
  const localized = schema.fields.filter(isLocalized);
  const shared = schema.fields.filter((field) => !isLocalized(field));
  const defaultTag = schema.locales.default;
  const locales = versionLocales(schema.locales, [before, after]).filter((tag) =>
    localized.some(
      (field) =>
        !sameValue(ownValue(before, field.key, tag, defaultTag), ownValue(after, field.key, tag, defaultTag)),
    ),
  );
  return { locales, shared: changedFields({ fields: shared }, before, after).length > 0 };
}
