import { z } from 'zod';
import { isKnownLocale, isLocalized, localeMessages, LOCALES_KEY } from '../locales/locales';
import { CampaignExperiment } from '../campaigns/experiment';
import { MAX_BLOCK_DEPTH } from '../model/types';
import { formatMessage } from '../validation/format-message';
import { MAX_BLOCKS_MESSAGE } from '../validation/messages';
import { allowedBlockTypes, blocksLimit, blockTypeNamed, MAX_BLOCK_KEY_LENGTH } from './blocks';
import type { BlocksField, BlockType, FieldDef, SchemaType, VariationDef } from './types';
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

/** What building an item's zod type carries down: the schema, how deep in blocks, the blocks built. */
interface Build {
  schema?: SchemaType;
  /** Blocks levels around the fields being built: 0 for the item's own fields. */
  depth: number;
  /** Block schemas by type and depth, so a type used in many places is built once per level. */
  blocks: Map<string, z.ZodType>;
}

const topLevel = (schema: SchemaType): Build => ({ schema, depth: 0, blocks: new Map() });

/**
 * The structural zod type of one field's value (not its required-ness nor its rules: `validateItem`
 * reports those, because items may be saved incomplete).
 */
function fieldValueSchema(field: FieldDef, build: Build): z.ZodType {
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
      return z.array(strictObject(fieldsShape(field.columns, build), `${field.label} row`));
    case 'blocks':
      return blocksSchema(field, build);
    case 'combinations':
      return z.array(combinationRowSchema(build));
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
    case 'experiment':
      return CampaignExperiment;
  }
}

/** Every field optional and nullable, plus a `{key}_tz` companion for each date-time field. */
function fieldsShape(fields: readonly FieldDef[], build: Build): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    shape[field.key] = fieldValueSchema(field, build).nullable().optional();
    if (field.type === 'datetime') shape[timezoneKey(field.key)] = timezoneSchema.nullable().optional();
  }
  return shape;
}

const BLOCK_MESSAGES = {
  tooMany: (label: string, max: number) =>
    formatMessage(MAX_BLOCKS_MESSAGE.replace('{maxBlocks}', String(max)), label),
  tooDeep: (label: string) => `${label}: blocks nest at most ${MAX_BLOCK_DEPTH} levels deep`,
  key: `A block's _key is 1 to ${MAX_BLOCK_KEY_LENGTH} characters`,
  duplicateKey: (key: string, label: string) => `Block key "${key}" is used twice in ${label}`,
  notAllowed: (type: string, label: string, allowed: readonly string[]) =>
    `${label} cannot hold "${type}" blocks${allowed.length ? `: choose ${allowed.join(', ')}` : ''}`,
  unknownType: (type: string) => `Unknown block type "${type}": the content model has none of that name`,
};

const blockKeySchema = z
  .string({ error: BLOCK_MESSAGES.key })
  .min(1, { error: BLOCK_MESSAGES.key })
  .max(MAX_BLOCK_KEY_LENGTH, { error: BLOCK_MESSAGES.key });

/** One block of a type: `_type`, `_key` and the type's fields (whose blocks fields go one level deeper). */
function blockSchema(blockType: BlockType, build: Build): z.ZodType {
  const id = `${build.depth}\n${blockType.name}`;
  let built = build.blocks.get(id);
  if (!built) {
    const inner = { ...build, depth: build.depth + 1 };
    const shape = {
      ...fieldsShape(blockType.fields, inner),
      _type: z.literal(blockType.name),
      _key: blockKeySchema,
    };
    build.blocks.set(id, (built = strictObject(shape, `${blockType.title} block`)));
  }
  return built;
}

/** The message for a block whose `_type` is not one of the field's block types in the model. */
function badBlockTypeMessage(field: BlocksField, type: unknown, build: Build, allowed: readonly BlockType[]) {
  const name = typeof type === 'string' ? type : JSON.stringify(type ?? null);
  return field.blockTypes.includes(name) && !blockTypeNamed(build.schema?.blockTypes, name)
    ? BLOCK_MESSAGES.unknownType(name)
    : BLOCK_MESSAGES.notAllowed(
        name,
        field.label,
        allowed.map((blockType) => blockType.name),
      );
}

/**
 * A blocks field's list: at most its maxBlocks (and `MAX_BLOCKS`) blocks of its block types that the
 * model has, keys unique in the list; empty only, deeper than `MAX_BLOCK_DEPTH` levels.
 */
function blocksSchema(field: BlocksField, build: Build): z.ZodType {
  if (build.depth >= MAX_BLOCK_DEPTH)
    return z.array(z.unknown()).max(0, { error: BLOCK_MESSAGES.tooDeep(field.label) });
  const allowed = allowedBlockTypes(field, build.schema?.blockTypes);
  const isBlock = z.looseObject({ _type: z.unknown() });
  const block =
    allowed.length > 0
      ? z.discriminatedUnion(
          '_type',
          allowed.map((blockType) => blockSchema(blockType, build)) as unknown as [
            z.ZodObject,
            ...z.ZodObject[],
          ],
          {
            error: (issue) =>
              issue.code === 'invalid_union'
                ? badBlockTypeMessage(field, (issue.input as { _type?: unknown })?._type, build, allowed)
                : undefined,
          },
        )
      : isBlock.refine(() => false, {
          error: (issue) =>
            badBlockTypeMessage(field, (issue.input as { _type?: unknown })._type, build, allowed),
          path: ['_type'],
        });
  const limit = blocksLimit(field);
  return z
    .array(block)
    .max(limit, { error: BLOCK_MESSAGES.tooMany(field.label, limit) })
    .superRefine((blocks, ctx) => {
      const seen = new Set<unknown>();
      blocks.forEach((entry, index) => {
        const key = (entry as { _key?: unknown })._key;
        if (seen.has(key))
          ctx.addIssue({
            code: 'custom',
            message: BLOCK_MESSAGES.duplicateKey(String(key), field.label),
            path: [index, '_key'],
          });
        seen.add(key);
      });
    });
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
function combinationRowSchema(build: Build) {
  const { schema } = build;
  const overridable = (schema?.fields ?? []).filter((field) => field.type !== 'combinations');
  return strictObject(
    {
      _slug: z.string(),
      variations: variationsSchema(schema?.variations ?? [], 'combination variations'),
      overrides: strictObject(fieldsShape(overridable, build), 'combination overrides'),
    },
    'combination',
  );
}

/**
 * The other locales' values of localised fields: `{ 'fr-FR': { name, … } }`. Values of a locale the
 * workspace no longer has are dropped on save (earlier versions keep them); a key that is no locale at
 * all (`constructor`, `fr-fr`) is refused.
 */
function localesSchema(schema: SchemaType, tags: readonly string[], build: Build) {
  const values = strictObject(fieldsShape(schema.fields.filter(isLocalized), build), 'locale values');
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
  const build = topLevel(schema);
  const shape = fieldsShape(fields, build);
  if (schema.variations?.length) {
    shape[VARIATION_KEY] = variationsSchema(schema.variations, 'variation').nullable().optional();
  }
  if (schema.locales) shape[LOCALES_KEY] = localesSchema(schema, schema.locales.others, build);
  return strictObject(shape, schema.name) as z.ZodType<Record<string, unknown>>;
}
