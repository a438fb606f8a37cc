import { z } from 'zod';
import { isKnownLocale, isLocalized, localeMessages, LOCALES_KEY } from '../locales/locales';
import type { FieldDef, SchemaType, VariationDef } from './types';
import { timezoneKey, VARIATION_KEY } from './types';
import {
  addressSchema,
  countryCodeSchema,
  criteriaNodeSchema,
  emailTemplateSchema,
  fileValueSchema,
  referenceSchema,
  serviceConnectionSchema,
  socialInterestsSchema,
  strictObject,
  timezoneSchema,
} from './value-shapes';

/**
 * The structural zod type of one field's value (not its required-ness nor its rules: `validateItem`
 * reports those, because items may be saved incomplete).
 */
function fieldValueSchema(field: FieldDef, schema?: SchemaType): z.ZodType {
  switch (field.type) {
    case 'text':
    case 'multiline':
    case 'name-slug':
    case 'generatable':
    case 'rich-text':
    case 'code':
    case 'schema-selector':
      return z.string();
    case 'number':
      return z.number();
    case 'range':
      return z.number().int();
    case 'boolean':
      return z.boolean();
    // Stored select values are not checked against the options: old values stay readable.
    case 'select':
      return field.multiple ? z.array(z.string()) : z.string();
    case 'tags':
      return z.array(z.string());
    case 'date':
      return z.iso.date();
    case 'datetime':
      return z.iso.datetime({ offset: true });
    case 'reference':
      return referenceSchema(field.schemaTypes, field.label);
    case 'reference-list':
      return z.array(referenceSchema(field.schemaTypes, field.label));
    case 'table':
      return z.array(strictObject(fieldsShape(field.columns), `${field.label} row`));
    case 'combinations':
      return z.array(combinationRowSchema(schema));
    case 'country':
      return countryCodeSchema;
    case 'file':
      return fileValueSchema;
    case 'email-template':
      return emailTemplateSchema;
    case 'criteria':
      return criteriaNodeSchema;
    case 'address':
      return addressSchema;
    case 'service-connection':
      return serviceConnectionSchema;
    case 'social-interests':
      return socialInterestsSchema;
    case 'sender':
      return z
        .string()
        .regex(/^[A-Za-z0-9]{1,40}$/, { error: `${field.label}: choose one of the workspace's senders` });
  }
}

/** Every field optional and nullable, plus a `{key}_tz` companion for each date-time field. */
function fieldsShape(fields: readonly FieldDef[], schema?: SchemaType): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    shape[field.key] = fieldValueSchema(field, schema).nullable().optional();
    if (field.type === 'datetime') shape[timezoneKey(field.key)] = timezoneSchema.nullable().optional();
  }
  return shape;
}

function variationsSchema(variations: readonly VariationDef[], where: string) {
  const shape = Object.fromEntries(
    variations.map((variation) => [
      variation.name,
      z.enum(variation.options.map((option) => option.value) as [string, ...string[]]).optional(),
    ]),
  );
  return strictObject(shape, where);
}

/** A combination row: `_slug`, the chosen variation values and overrides of the schema's other fields. */
function combinationRowSchema(schema?: SchemaType) {
  const overridable = (schema?.fields ?? []).filter((field) => field.type !== 'combinations');
  return strictObject(
    {
      _slug: z.string(),
      variations: variationsSchema(schema?.variations ?? [], 'combination variations'),
      overrides: strictObject(fieldsShape(overridable, schema), 'combination overrides'),
    },
    'combination',
  );
}

/**
 * The other locales' values of localised fields: `{ 'fr-FR': { name, … } }`. Values of a locale the
 * workspace no longer has are dropped on save (earlier versions keep them); a key that is no locale at
 * all (`constructor`, `fr-fr`) is refused.
 */
function localesSchema(schema: SchemaType, tags: readonly string[]) {
  const values = strictObject(fieldsShape(schema.fields.filter(isLocalized), schema), 'locale values');
  return z
    .record(z.string().max(35), values)
    .superRefine((byTag, ctx) => {
      for (const tag of Object.keys(byTag))
        if (!isKnownLocale(tag))
          ctx.addIssue({ code: 'custom', message: localeMessages.unknownTag(tag), path: [tag] });
    })
    .transform((byTag) => Object.fromEntries(Object.entries(byTag).filter(([tag]) => tags.includes(tag))))
    .nullable()
    .optional();
}

/**
 * The zod schema of an item's data for a schema type: strict, so unknown fields are rejected
 * with a message naming them; structural checks per field type; `{key}_tz` companions for date-time
 * fields; `_variation` only in schemas with variations and combinations only with allowCombinations.
 */
export function itemDataSchema(schema: SchemaType): z.ZodType<Record<string, unknown>> {
  const fields = schema.fields.filter((field) => field.type !== 'combinations' || schema.allowCombinations);
  const shape = fieldsShape(fields, schema);
  if (schema.variations?.length) {
    shape[VARIATION_KEY] = variationsSchema(schema.variations, 'variation').nullable().optional();
  }
  if (schema.locales) shape[LOCALES_KEY] = localesSchema(schema, schema.locales.others);
  return strictObject(shape, schema.name) as z.ZodType<Record<string, unknown>>;
}
