import DataLoader from 'dataloader';
import type { DeliveredItem, DeliveryQuery } from '@shared/api/delivery';
import type { SchemaType } from '@shared/schemas/types';
import type { AppContext } from '../context';
import { badRequest } from '../http/errors';
import type { LocaleView } from './locales';
import type { Copy } from './repository';
import {
  copyByIdIn,
  copyBySlugIn,
  deliveredSchema,
  inCurrentModel,
  itemKeyOf,
  localeAsked,
  pageDelivered,
  presentCopy,
  referencedCopies,
  referencedKey,
  schemaKeyOf,
  stageKeys,
  type DeliveryTarget,
} from './service';

/** The stage a GraphQL request reads: what every schema's target shares. */
export type DeliveryStage = Omit<DeliveryTarget, 'schema'>;

/** An item as the GraphQL schema resolves it: as REST delivers it, with the copy it came from. */
export interface ItemSource {
  item: DeliveredItem;
  copy: Copy;
  target: DeliveryTarget;
  /** The locale it was asked in: the items it references are delivered in it too. */
  locale?: LocaleView;
}

/** A block of a blocks field: its data, and the item it is part of. */
export interface BlockSource {
  data: Record<string, unknown>;
  item: ItemSource;
}

interface RefKey {
  schema: string;
  id: string;
  locale?: LocaleView;
}

const viewOf = (key: RefKey) => (key.locale ? `${key.locale.locale}\n${key.locale.fallback}` : '');
const refKeyOf = (key: RefKey) => `${viewOf(key)}\n${key.schema}\n${key.id}`;

/** What a GraphQL request's resolvers share: its stage, the CDN keys its answer depends on, its loaders. */
export interface GraphqlContext {
  ctx: AppContext;
  stage: DeliveryStage;
  keys: Set<string>;
  refs: DataLoader<RefKey, ItemSource | null, string>;
  targetOf(schema: SchemaType): DeliveryTarget;
}

interface LocaleArgs {
  locale?: string | null;
  fallback?: boolean | null;
}

const localeQuery = (args: LocaleArgs): Pick<DeliveryQuery, 'locale' | 'fallback'> => ({
  ...(args.locale != null && { locale: args.locale }),
  ...(args.fallback === false && { fallback: 'false' }),
});

const sourceOf = (
  context: GraphqlContext,
  target: DeliveryTarget,
  copy: Copy,
  locale: LocaleView | undefined,
): ItemSource => ({
  item: presentCopy(context.ctx, target, copy, { fields: null, locale }),
  copy,
  target,
  locale,
});

/**
 * The request's context. References asked for while a level of the answer resolves are read together
 * (one query a level, as REST's include=refs reads them), each locale view apart.
 */
export function graphqlContext(ctx: AppContext, stage: DeliveryStage): GraphqlContext {
  const targets = new Map<string, DeliveryTarget>();
  const targetOf = (schema: SchemaType) => {
    let target = targets.get(schema.name);
    if (!target) targets.set(schema.name, (target = { ...stage, schema }));
    return target;
  };
  const context: GraphqlContext = {
    ctx,
    stage,
    keys: new Set(stageKeys(stage)),
    targetOf,
    refs: new DataLoader<RefKey, ItemSource | null, string>(
      async (wanted) => {
        const byView = new Map<string, RefKey[]>();
        for (const key of wanted) byView.set(viewOf(key), [...(byView.get(viewOf(key)) ?? []), key]);
        const found = new Map<string, ItemSource>();
        for (const keys of byView.values()) {
          const view = keys[0].locale;
          for (const copy of await referencedCopies(
            ctx,
            targetOf(stage.model.schema(keys[0].schema)!),
            keys,
          )) {
            const schema = stage.model.schema(copy.schema);
            const source = schema && sourceOf(context, targetOf(schema), copy, view);
            if (source) found.set(refKeyOf({ schema: copy.schema, id: copy.id, locale: view }), source);
          }
        }
        return wanted.map((key) => found.get(refKeyOf(key)) ?? null);
      },
      { cacheKeyFn: refKeyOf },
    ),
  };
  return context;
}

/** The value of an item's field in the locale the field's own arguments ask for. */
export async function localisedValueOf(
  source: ItemSource,
  key: string,
  args: LocaleArgs,
  context: GraphqlContext,
) {
  const view = await localeAsked(context.ctx, source.target, localeQuery(args));
  return presentCopy(context.ctx, source.target, source.copy, { fields: [key], locale: view }).data[key];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A reference (or a list of them) as the referenced items published in the stage; null when not published there. */
export async function referenced(
  value: unknown,
  many: boolean,
  owner: ItemSource,
  context: GraphqlContext,
  allowed: Set<string> | undefined,
) {
  const refs = (many ? (Array.isArray(value) ? value : []) : [value]).filter(
    (ref): ref is { id: string; schemaType: string } =>
      isObject(ref) &&
      typeof ref.id === 'string' &&
      typeof ref.schemaType === 'string' &&
      (!allowed || allowed.has(ref.schemaType)) &&
      deliveredSchema(context.stage.model, ref.schemaType) !== undefined,
  );
  if (!many && refs.length === 0) return null;
  const keys = refs.map((ref) => ({ schema: ref.schemaType, id: ref.id, locale: owner.locale }));
  for (const key of keys) context.keys.add(referencedKey(owner.target, key));
  const found = await context.refs.loadMany(keys);
  const items = found.map((item) => (item instanceof Error ? null : item));
  return many ? items.filter((item) => item !== null) : items[0];
}

/** A blocks field's entries of the block types the schema knows. */
export function blocksOf(value: unknown, item: ItemSource, known: Set<string>): BlockSource[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((block): block is Record<string, unknown> => isObject(block) && known.has(String(block._type)))
    .map((data) => ({ data, item }));
}

async function one(
  context: GraphqlContext,
  schema: SchemaType,
  args: LocaleArgs,
  find: (target: DeliveryTarget, locale?: LocaleView) => Promise<Copy | undefined>,
) {
  const target = context.targetOf(schema);
  const locale = await localeAsked(context.ctx, target, localeQuery(args));
  const found = await find(target, locale);
  if (!found) return null;
  const [copy] = await inCurrentModel(context.ctx, target, [found]);
  context.keys.add(itemKeyOf(target, copy.id));
  return sourceOf(context, target, copy, locale);
}

export function itemById(
  context: GraphqlContext,
  schema: SchemaType,
  id: string | null | undefined,
  args: LocaleArgs,
) {
  if (id == null) throw badRequest('Ask for an item by id or by slug');
  if (id.length > 40) return null;
  return one(context, schema, args, (target) => copyByIdIn(context.ctx, target, id));
}

export function itemBySlug(context: GraphqlContext, schema: SchemaType, slug: string, args: LocaleArgs) {
  if (slug.length > 400) throw badRequest('slug is at most 400 characters');
  const target = context.targetOf(schema);
  // Which item a slug names changes with any publish of the schema.
  context.keys.add(schemaKeyOf(target));
  return one(context, schema, args, (_target, locale) => copyBySlugIn(context.ctx, target, slug, locale));
}

interface ListArgs extends LocaleArgs {
  first?: number | null;
  after?: string | null;
  order?: string | null;
  filter?: Record<string, Record<string, string | string[] | null> | null> | null;
}

/** A list query's arguments as REST's query string: the same checks, filters, order and cursor. */
function deliveryQueryOf(args: ListArgs, filterKeys: Map<string, string>): DeliveryQuery {
  const first = args.first ?? 20;
  if (first < 1 || first > 100) throw badRequest('first is 1 to 100');
  if (args.after != null && args.after.length > 2000)
    throw badRequest('cursor: invalid, ask for the first page again');
  if (args.order != null && args.order.length > 120) throw badRequest('order is at most 120 characters');
  const query: Record<string, unknown> = {
    limit: first,
    ...(args.after != null && { cursor: args.after }),
    ...(args.order != null && { order: args.order }),
    ...localeQuery(args),
  };
  for (const [name, ops] of Object.entries(args.filter ?? {})) {
    for (const [op, value] of Object.entries(ops ?? {})) {
      if (value == null) continue;
      query[`filter[${filterKeys.get(name) ?? name}][${op}]`] = Array.isArray(value)
        ? value.join(',')
        : value;
    }
  }
  return query as DeliveryQuery;
}

/** A page of a schema's items, read as REST's list reads it. */
export async function listOf(
  context: GraphqlContext,
  schema: SchemaType,
  args: ListArgs,
  filterKeys: Map<string, string>,
) {
  const target = context.targetOf(schema);
  const { copies, locale, nextCursor } = await pageDelivered(
    context.ctx,
    target,
    deliveryQueryOf(args, filterKeys),
  );
  context.keys.add(schemaKeyOf(target));
  return {
    items: copies.map((copy) => sourceOf(context, target, copy, locale)),
    pageInfo: { endCursor: nextCursor, hasNextPage: nextCursor !== null },
  };
}
