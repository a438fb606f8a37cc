import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { ContentModel } from '@shared/model/registry';
import type { BlockType, FieldDef, SchemaType } from '@shared/schemas/types';
import { slugFieldOf } from '../publishing/slugs';
import {
  blocksOf,
  itemById,
  itemBySlug,
  listOf,
  referenced,
  localisedValueOf,
  type BlockSource,
  type GraphqlContext,
  type ItemSource,
} from './graphql-data';

/** Any JSON value, as REST answers it (fields whose shape GraphQL does not spell out). */
const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value, as the REST delivery API answers it',
  serialize: (value) => value,
});

const ImageFormat = new GraphQLEnumType({
  name: 'ImageFormat',
  values: { webp: {}, avif: {}, jpeg: {}, png: {} },
});

interface AssetSource {
  value: Record<string, unknown>;
}

/** The signed link of a delivered image, sized: the signature does not name the size or format. */
function sizedUrl(
  source: AssetSource,
  args: { w?: number | null; h?: number | null; format?: string | null },
) {
  const { publicUrl, contentType } = source.value;
  if (typeof publicUrl !== 'string' || !String(contentType).startsWith('image/')) return null;
  const url = new URL(publicUrl);
  if (args.w) url.searchParams.set('w', String(args.w));
  if (args.h) url.searchParams.set('h', String(args.h));
  if (args.format) url.searchParams.set('format', args.format);
  return url.toString();
}

const text = (key: string) => ({
  type: GraphQLString,
  resolve: (source: AssetSource) => {
    const value = source.value[key];
    return typeof value === 'string' ? value : null;
  },
});

const Asset = new GraphQLObjectType<AssetSource, GraphqlContext>({
  name: 'Asset',
  description: 'A file; for an image, links that load it without a session, at any size',
  fields: {
    url: {
      type: GraphQLString,
      description: 'The image resized to fit inside w × h, in the format asked for (null for other files)',
      args: { w: { type: GraphQLInt }, h: { type: GraphQLInt }, format: { type: ImageFormat } },
      resolve: sizedUrl,
    },
    name: text('name'),
    contentType: text('contentType'),
    publicUrl: text('publicUrl'),
    thumbnailUrl: text('thumbnailUrl'),
    imageUrl: text('imageUrl'),
    altText: text('altText'),
    size: {
      type: GraphQLFloat,
      resolve: (source) => (typeof source.value.size === 'number' ? source.value.size : null),
    },
    raw: { type: JsonScalar, description: 'The value as REST answers it', resolve: (source) => source.value },
  },
});

const Sys = new GraphQLObjectType<ItemSource>({
  name: 'Sys',
  fields: {
    schema: { type: new GraphQLNonNull(GraphQLString), resolve: (source) => source.item.schema },
    version: { type: new GraphQLNonNull(GraphQLInt), resolve: (source) => source.item.version },
    publishedAt: { type: new GraphQLNonNull(GraphQLString), resolve: (source) => source.item.publishedAt },
    locale: {
      type: GraphQLString,
      description: 'The locale asked for',
      resolve: (source) => source.item.locale,
    },
    fellBack: {
      type: JsonScalar,
      description: 'Localised fields that fell back → the locale their value came from',
      resolve: (source) => source.item._locale ?? null,
    },
  },
});

const PageInfo = new GraphQLObjectType({
  name: 'PageInfo',
  fields: {
    endCursor: { type: GraphQLString },
    hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
  },
});

const StringFilter = new GraphQLInputObjectType({
  name: 'FieldFilter',
  description: "A field's value compared as REST's filter[field][op] compares it (numbers by value)",
  fields: {
    eq: { type: GraphQLString },
    ne: { type: GraphQLString },
    gt: { type: GraphQLString },
    gte: { type: GraphQLString },
    lt: { type: GraphQLString },
    lte: { type: GraphQLString },
    in: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
  },
});

const RESERVED_TYPES = ['Query', 'Item', 'Sys', 'PageInfo', 'Asset', 'JSON', 'ImageFormat', 'FieldFilter'];
const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('') || 'Schema';

const camel = (name: string) => {
  const p = pascal(name);
  return p[0].toLowerCase() + p.slice(1);
};

/** A GraphQL name for `wanted` not taken yet (model names may collide once spelled as GraphQL names). */
function uniqueName(taken: Set<string>, wanted: string) {
  let base = /^[0-9]/.test(wanted) ? `_${wanted}` : wanted;
  if (base.startsWith('__')) base = base.replace(/^_+/, '_');
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

/** A field key as a GraphQL name: as it is when it is one, else its letters and digits. */
const fieldNameOf = (key: string) => (NAME.test(key) && !key.startsWith('__') ? key : camel(key) || '_field');

const namesOfSchema = new WeakMap<SchemaType, Map<string, string>>();
/** The GraphQL name of each field of a schema (by key), none of them the item's own id, sys or previousSlugs. */
function fieldNamesOf(schema: SchemaType) {
  let names = namesOfSchema.get(schema);
  if (!names) {
    const taken = new Set(['id', 'sys', 'previousSlugs']);
    names = new Map(schema.fields.map((field) => [field.key, uniqueName(taken, fieldNameOf(field.key))]));
    namesOfSchema.set(schema, names);
  }
  return names;
}

const SCALARS: Partial<Record<FieldDef['type'], GraphQLOutputType>> = {
  text: GraphQLString,
  multiline: GraphQLString,
  'name-slug': GraphQLString,
  select: GraphQLString,
  country: GraphQLString,
  'rich-text': GraphQLString,
  date: GraphQLString,
  datetime: GraphQLString,
  number: GraphQLFloat,
  boolean: GraphQLBoolean,
  tags: new GraphQLList(GraphQLString),
};

/** Builds the schema: types are made once per schema and block type, then looked up by name. */
class Builder {
  private readonly taken = new Set(RESERVED_TYPES);
  readonly items = new Map<string, GraphQLObjectType>();
  private readonly blocks = new Map<string, GraphQLObjectType>();
  readonly Item: GraphQLInterfaceType;

  constructor(
    private readonly model: ContentModel,
    private readonly schemas: readonly SchemaType[],
    private readonly now: Date,
  ) {
    this.Item = new GraphQLInterfaceType({
      name: 'Item',
      description: 'A published item of any schema',
      fields: { id: { type: new GraphQLNonNull(GraphQLID) }, sys: { type: new GraphQLNonNull(Sys) } },
      resolveType: (source: ItemSource) => this.items.get(source.copy.schema)?.name,
    });
    for (const schema of schemas) this.items.set(schema.name, this.itemType(schema));
    for (const [name, blockType] of Object.entries(schemas[0]?.blockTypes ?? {}))
      this.blocks.set(name, this.blockType(blockType));
  }

  private itemType(schema: SchemaType): GraphQLObjectType<ItemSource, GraphqlContext> {
    return new GraphQLObjectType<ItemSource, GraphqlContext>({
      name: uniqueName(this.taken, pascal(schema.name)),
      description: schema.title,
      interfaces: () => [this.Item],
      fields: () => this.itemFields(schema),
    });
  }

  private itemFields(schema: SchemaType) {
    const names = fieldNamesOf(schema);
    const taken = new Set(['id', 'sys', 'previousSlugs', ...names.values()]);
    const fields: GraphQLFieldConfigMap<ItemSource, GraphqlContext> = {
      id: { type: new GraphQLNonNull(GraphQLID), resolve: (source) => source.item.id },
      sys: { type: new GraphQLNonNull(Sys), resolve: (source) => source },
    };
    if (slugFieldOf(schema))
      fields.previousSlugs = {
        type: new GraphQLList(new GraphQLNonNull(GraphQLString)),
        description: 'Slugs the item was published under before in this stage, oldest first',
        resolve: (source) => source.item.previousSlugs ?? [],
      };
    const byKey = new Map<string, GraphQLFieldConfig<ItemSource, GraphqlContext>>();
    for (const field of schema.fields) {
      const config = this.itemField(schema, field);
      byKey.set(field.key, config);
      fields[names.get(field.key)!] = config;
    }
    for (const alias of this.model.aliasesOf(schema.name, this.now)) {
      const target = byKey.get(alias.to);
      if (!target || !NAME.test(alias.from) || taken.has(alias.from)) continue;
      taken.add(alias.from);
      fields[alias.from] = {
        ...target,
        deprecationReason: `Renamed to ${alias.to}; answered under this name until ${alias.until}`,
      };
    }
    return fields;
  }

  private itemField(schema: SchemaType, field: FieldDef): GraphQLFieldConfig<ItemSource, GraphqlContext> {
    const output = this.outputOf(`${pascal(schema.name)}${pascal(field.key)}`, field);
    const localized = field.localized === true;
    return {
      type: output.type,
      description: field.label,
      ...(localized && {
        args: {
          locale: { type: GraphQLString, description: 'This field in this locale (else the query’s)' },
          fallback: {
            type: GraphQLBoolean,
            description: 'Fall back along the locale’s chain (default true)',
          },
        },
      }),
      // Synchronous unless the field asks for its own locale: a promise per field slows a list down.
      resolve: (source, args: { locale?: string | null; fallback?: boolean | null }, context) =>
        localized && args.locale != null
          ? localisedValueOf(source, field.key, args, context).then((value) =>
              output.resolve(value, source, context),
            )
          : output.resolve(source.item.data[field.key], source, context),
    };
  }

  private blockType(blockType: BlockType): GraphQLObjectType<BlockSource, GraphqlContext> {
    return new GraphQLObjectType<BlockSource, GraphqlContext>({
      name: uniqueName(this.taken, `${pascal(blockType.name)}Block`),
      description: blockType.title,
      fields: () => {
        const taken = new Set(['_type', '_key']);
        const fields: GraphQLFieldConfigMap<BlockSource, GraphqlContext> = {
          _type: { type: new GraphQLNonNull(GraphQLString), resolve: (source) => source.data._type },
          _key: { type: GraphQLString, resolve: (source) => source.data._key },
        };
        for (const field of blockType.fields) {
          const output = this.outputOf(`${pascal(blockType.name)}Block${pascal(field.key)}`, field);
          fields[uniqueName(taken, fieldNameOf(field.key))] = {
            type: output.type,
            description: field.label,
            resolve: (source, _args, context) => output.resolve(source.data[field.key], source.item, context),
          };
        }
        return fields;
      },
    });
  }

  /** The GraphQL type of a field's value, and how a delivered value becomes what it resolves. */
  private outputOf(
    name: string,
    field: FieldDef,
  ): {
    type: GraphQLOutputType;
    resolve: (value: unknown, owner: ItemSource, context: GraphqlContext) => unknown;
  } {
    const plain = { resolve: (value: unknown) => value };
    const scalar = SCALARS[field.type];
    if (scalar) return { type: scalar, ...plain };
    switch (field.type) {
      case 'file':
        return {
          type: Asset,
          resolve: (value) => (value && typeof value === 'object' ? { value } : null),
        };
      case 'reference':
      case 'reference-list': {
        const target = this.referenceType(name, field.schemaTypes);
        const many = field.type === 'reference-list';
        return {
          type: many ? new GraphQLList(target) : target,
          resolve: (value, owner, context) =>
            referenced(value, many, owner, context, this.allowed(field.schemaTypes)),
        };
      }
      case 'blocks': {
        const members = [...new Set(field.blockTypes)]
          .map((blockName) => this.blocks.get(blockName))
          .filter((t) => t !== undefined);
        const known = new Set(field.blockTypes.filter((blockName) => this.blocks.has(blockName)));
        if (members.length === 0) return { type: JsonScalar, ...plain };
        const union = new GraphQLUnionType({
          name: uniqueName(this.taken, `${name}Block`),
          types: members,
          resolveType: (source: BlockSource) => this.blocks.get(String(source.data._type))?.name,
        });
        return { type: new GraphQLList(union), resolve: (value, owner) => blocksOf(value, owner, known) };
      }
      default:
        return { type: JsonScalar, ...plain };
    }
  }

  /** The schemas a reference may name that are delivered (none named: any). */
  private allowed(schemaTypes: readonly string[]) {
    const named = schemaTypes.filter((schemaName) => this.items.has(schemaName));
    return schemaTypes.length === 0 ? undefined : new Set(named);
  }

  private referenceType(name: string, schemaTypes: readonly string[]): GraphQLOutputType {
    const targets = [...new Set(schemaTypes)]
      .map((schemaName) => this.items.get(schemaName))
      .filter((t) => t !== undefined);
    if (targets.length === 1) return targets[0];
    if (targets.length === 0) return this.Item;
    return new GraphQLUnionType({
      name: uniqueName(this.taken, `${name}Ref`),
      types: targets,
      resolveType: (source: ItemSource) => this.items.get(source.copy.schema)?.name,
    });
  }

  /** The query fields of a schema: one item by id (or slug), and a page of them. */
  queryFields(schema: SchemaType, taken: Set<string>): GraphQLFieldConfigMap<unknown, GraphqlContext> {
    const type = this.items.get(schema.name)!;
    const localeArgs = {
      locale: { type: GraphQLString, description: 'Localised fields in this locale (or * for all)' },
      fallback: { type: GraphQLBoolean, description: 'Fall back along the locale’s chain (default true)' },
    };
    const hasSlug = slugFieldOf(schema) !== undefined;
    const names = [...fieldNamesOf(schema)];
    const filterFields = Object.fromEntries(names.map(([, name]) => [name, { type: StringFilter }]));
    const filterKeys = new Map(names.map(([key, name]) => [name, key]));
    // An input type needs a field: a schema without fields has nothing to filter by.
    const Filter =
      names.length > 0
        ? new GraphQLInputObjectType({
            name: uniqueName(this.taken, `${type.name}Filter`),
            fields: filterFields,
          })
        : undefined;
    const Page = new GraphQLObjectType({
      name: uniqueName(this.taken, `${type.name}Page`),
      fields: {
        items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type))) },
        pageInfo: { type: new GraphQLNonNull(PageInfo) },
      },
    });
    const single = uniqueName(taken, camel(schema.name));
    const list = uniqueName(taken, `${camel(schema.name)}List`);
    return {
      [single]: {
        type,
        description: `One ${schema.title} published in the stage, by id${hasSlug ? ' or slug (also a former one)' : ''}`,
        args: { id: { type: GraphQLID }, ...(hasSlug && { slug: { type: GraphQLString } }), ...localeArgs },
        resolve: (
          _root,
          args: {
            id?: string | null;
            slug?: string | null;
            locale?: string | null;
            fallback?: boolean | null;
          },
          context,
        ) =>
          args.slug != null
            ? itemBySlug(context, schema, args.slug, args)
            : itemById(context, schema, args.id, args),
      },
      [list]: {
        type: new GraphQLNonNull(Page),
        description: `A page of the ${schema.pluralTitle} published in the stage`,
        args: {
          first: { type: GraphQLInt, defaultValue: 20, description: 'Page size, 1 to 100' },
          after: { type: GraphQLString, description: 'endCursor of the previous page' },
          ...(Filter && { filter: { type: Filter } }),
          order: {
            type: GraphQLString,
            description: 'A field or publishedAt, id, version; - first for descending (default -publishedAt)',
          },
          ...localeArgs,
        },
        resolve: (_root, args, context) => listOf(context, schema, args, filterKeys),
      },
    };
  }
}

/** The GraphQL schema of a workspace's delivered content model, as it stands at `now` (renamed fields' aliases). */
export function buildDeliverySchema(model: ContentModel, schemas: readonly SchemaType[], now = new Date()) {
  const builder = new Builder(model, schemas, now);
  const taken = new Set<string>();
  const fields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const schema of schemas) Object.assign(fields, builder.queryFields(schema, taken));
  if (schemas.length === 0)
    fields._empty = {
      type: GraphQLBoolean,
      description: 'This workspace delivers no schema',
      resolve: () => null,
    };
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields }),
    types: [...builder.items.values()],
  });
}
