import { Badge, Group, NativeSelect, Switch } from '@mantine/core';
import { fallbackChain, isLocalized, localeValues, LOCALES_KEY, valueIn } from '@shared/locales/locales';
import type { SchemaType } from '@shared/schemas/types';
import { isEmptyValue } from '@shared/validation/empty';
import type { ItemData } from '../fields/types';
import { patchItemData } from './prepare-item-data';

/** The locales an item form offers: the schema's, each locale's fallback and those the user may edit. */
export interface FormLocales {
  default: string;
  others: readonly string[];
  fallback: Readonly<Record<string, string>>;
  /** Undefined: every locale and the shared fields; otherwise only these locales' values. */
  editable?: readonly string[];
}

export const canEditLocale = (locales: FormLocales, tag: string) =>
  !locales.editable || locales.editable.includes(tag);

/** Where the errors of a locale's values sit: '_locales.fr-FR.' ('' for the default locale). */
export const localePathPrefix = (locales: FormLocales, tag: string) =>
  tag === locales.default ? '' : `${LOCALES_KEY}.${tag}.`;

export type LocaleStatus = { kind: 'translated' } | { kind: 'fallback'; from: string } | { kind: 'missing' };

/** A localised field in a locale: its own value, the first value down its fallback chain, or none. */
export function localeStatus(data: ItemData, key: string, tag: string, locales: FormLocales): LocaleStatus {
  const chain = fallbackChain({ fallback: locales.fallback }, tag);
  const from = chain.find((candidate) => !isEmptyValue(valueIn(data, key, candidate, locales.default)));
  if (from === tag) return { kind: 'translated' };
  return from ? { kind: 'fallback', from } : { kind: 'missing' };
}

/** The item's data as a locale's fields see it: each localised field holds that locale's own value. */
export function localeScope(schema: Pick<SchemaType, 'fields'>, data: ItemData, tag: string): ItemData {
  const own = localeValues(data, tag);
  const scope: ItemData = { ...data };
  for (const field of schema.fields.filter(isLocalized))
    scope[field.key] = Object.hasOwn(own, field.key) ? own[field.key] : undefined;
  return scope;
}

/**
 * Applies a patch made in a non-default locale: localised fields go to `_locales[tag]` (an emptied one
 * is left out, so the locale falls back again; its name-slugs follow its names), other keys stay shared.
 */
export function patchLocaleData(
  schema: Pick<SchemaType, 'fields'>,
  previous: ItemData,
  tag: string,
  patch: Readonly<ItemData>,
): ItemData {
  const localized = schema.fields.filter(isLocalized);
  const next = patchItemData(schema, localeScope(schema, previous, tag), patch);
  const values: ItemData = { ...localeValues(previous, tag) };
  for (const field of localized) {
    if (isEmptyValue(next[field.key])) delete values[field.key];
    else values[field.key] = next[field.key];
  }
  const shared = Object.fromEntries(
    Object.entries(patch).filter(([key]) => !localized.some((field) => field.key === key)),
  );
  const all = previous[LOCALES_KEY];
  const stored = typeof all === 'object' && all !== null ? (all as ItemData) : {};
  return { ...previous, ...shared, [LOCALES_KEY]: { ...stored, [tag]: values } };
}

/** 'Translated', 'Falling back to en-US' or 'Missing' beside a localised field's label. */
export function LocaleStatusBadge({ status }: { status: LocaleStatus }) {
  const [color, label] =
    status.kind === 'translated'
      ? ['teal', 'Translated']
      : status.kind === 'fallback'
        ? ['yellow', `Falling back to ${status.from}`]
        : ['red', 'Missing'];
  return (
    <Badge size="xs" variant="light" color={color} data-locale-status={status.kind}>
      {label}
    </Badge>
  );
}

/** The locale being shown and whether the default locale's values sit beside it. */
export function LocaleBar({
  locales,
  locale,
  onLocaleChange,
  sideBySide,
  onSideBySideChange,
}: {
  locales: FormLocales;
  locale: string;
  onLocaleChange: (tag: string) => void;
  sideBySide: boolean;
  onSideBySideChange: (on: boolean) => void;
}) {
  const describe = (tag: string) =>
    [tag === locales.default ? 'default' : undefined, canEditLocale(locales, tag) ? undefined : 'read-only']
      .filter(Boolean)
      .join(', ');
  return (
    <Group gap="md" align="flex-end" wrap="wrap" data-testid="locale-bar">
      <NativeSelect
        label="Locale"
        size="sm"
        value={locale}
        onChange={(event) => onLocaleChange(event.currentTarget.value)}
        data={[locales.default, ...locales.others].map((tag) => ({
          value: tag,
          label: describe(tag) ? `${tag} (${describe(tag)})` : tag,
        }))}
      />
      <Switch
        label={`Side by side with ${locales.default}`}
        checked={sideBySide && locale !== locales.default}
        disabled={locale === locales.default}
        onChange={(event) => onSideBySideChange(event.currentTarget.checked)}
        mb={6}
      />
    </Group>
  );
}
