import type { FieldDef, SchemaType } from '../schemas/types';
import { validateItem, type ValidationErrors } from '../validation/validate-item';
import { isLocalized, localeValues, LOCALES_KEY } from './locales';

type Data = Readonly<Record<string, unknown>>;

/** A localised field as one locale's validation sees it: its label names the locale ('Title (fr-FR)'). */
const inLocale = (field: FieldDef, tag: string, required: boolean): FieldDef => ({
  ...field,
  label: `${field.label} (${tag})`,
  required,
});

/**
 * Validates an item per locale: shared fields and the default locale's values as ever (a localised
 * field's messages name the locale: 'Title (en-US) is required'), then each other locale's values,
 * where a field is required only when the schema says so for that locale ('Title (fr-FR) is
 * required', at `_locales.fr-FR.name`). A schema without locales validates as `validateItem` does.
 */
export function validateLocalizedItem(
  schema: Pick<SchemaType, 'fields' | 'locales' | 'blockTypes'>,
  data: Data,
): ValidationErrors {
  const { locales } = schema;
  if (!locales) return validateItem(schema, data);
  const fields = schema.fields.map((field) =>
    isLocalized(field) ? inLocale(field, locales.default, field.required === true) : field,
  );
  const { blockTypes } = schema;
  const errors = validateItem({ fields, blockTypes }, data);
  const localized = schema.fields.filter(isLocalized);
  for (const tag of locales.others) {
    // Shared fields as stored (display conditions read them), localised ones as this locale holds them.
    const values = localeValues(data, tag);
    const view: Record<string, unknown> = { ...data };
    for (const field of localized)
      view[field.key] = Object.hasOwn(values, field.key) ? values[field.key] : undefined;
    const own = validateItem(
      {
        fields: localized.map((field) =>
          inLocale(field, tag, field.requiredInLocales?.includes(tag) === true),
        ),
        blockTypes,
      },
      view,
    );
    for (const [path, message] of Object.entries(own)) errors[`${LOCALES_KEY}.${tag}.${path}`] = message;
  }
  return errors;
}
