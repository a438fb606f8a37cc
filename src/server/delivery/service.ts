import crypto from 'node:crypto';
import {
  API_KEY_PREFIX,
  DELIVERY_MESSAGES,
  type DeliveredItem,
  type DeliveryQuery,
} from '@shared/api/delivery';
import { MESSAGES } from '@shared/api/errors';
import type { ContentModel } from '@shared/model/registry';
import { generateModelTypes } from '@shared/schemas/typegen';
import type { SchemaType } from '@shared/schemas/types';
import type { ApiKeyRow } from '../api-keys/repository';
import { findApiKeyByHash, touchApiKey } from '../api-keys/repository';
import type { AppContext } from '../context';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors';
import { hashToken } from '../lib/ids';
import { modelOfWorkspace } from '../workspaces/content-model';
import { formerNamesOf, replayedCopies } from '../workspaces/model-changes';
import { slugFieldOf } from '../publishing/slugs';
import { deliveryCacheOf, type Rendered } from './cache';
import {
  copyByLocaleSlug,
  localeFacts,
  localeViewOf,
  localisedValueOf,
  localiseData,
  type LocaleView,
} from './locales';
import { mayHoldImages, withPublicImages } from './public-images';
import { encodeCursor, parseListOptions, pickFields, sortKindOf, type ListOptions } from './query';
import { copiesByKeys, copyById, copyBySlug, pageOfCopies, STAGE_COPIES, type Copy } from './repository';
import { draftCopiesOf, draftsTable, withPreviousSlugs } from './draft-stage';
import {
  itemKey,
  schemaKey,
  stageKey,
  workspaceKey,
  type DeliveredPlace,
} from '@shared/publishing/surrogate-keys';

/** The delivery key of a request, from `Authorization: Bearer mq_…`, or 401. */
export async function authenticateKey(
  ctx: AppContext,
  authorization: string | undefined,
): Promise<ApiKeyRow> {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  if (!token) throw unauthorized(DELIVERY_MESSAGES.missingKey);
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200)
    throw unauthorized(DELIVERY_MESSAGES.invalidKey);
  // Kept by the token itself: a hit costs no hashing.
  const key = await deliveryCacheOf(ctx.db).apiKey(token, () => findApiKeyByHash(ctx.db, hashToken(token)));
  if (!key) throw unauthorized(DELIVERY_MESSAGES.invalidKey);
  noteUse(ctx, key);
  return key;
}

const lastNoted = new WeakMap<ApiKeyRow, number>();
/**
 * Records lastUsedAt at most once a minute per key and process, without holding up the answer (per
 * cached row: a key read again after a change is noted again).
 */
function noteUse(ctx: AppContext, key: ApiKeyRow) {
  const now = Date.now();
  if ((lastNoted.get(key) ?? 0) > now - 60_000) return;
  lastNoted.set(key, now);
  touchApiKey(ctx.db, key.workspaceId, key.id, new Date(now)).catch((err: unknown) =>
    ctx.log.warn({ err }, 'could not record the use of an API key'),
  );
}

/** What a delivery route names, checked against the key: its workspace (404), stage (403) and schema (404). */
export interface DeliveryTarget {
  workspaceId: string;
  stage: string;
  schema: SchemaType;
  model: ContentModel;
  /** The stage holds drafts (a preview token's read): image links name no published copy. */
  isDraft?: boolean;
  /**
   * Read the items' drafts as the stage's copies (draft-stage.ts), not the stage's copies, and keep
   * nothing in the delivery cache.
   */
  fromDrafts?: boolean;
}

/** A stage of the key's workspace with the workspace's current model: 404 for another workspace, 403 for a stage the key may not read. */
export async function resolveStage(
  ctx: AppContext,
  key: ApiKeyRow,
  ws: string,
  stage: string,
): Promise<Omit<DeliveryTarget, 'schema'>> {
  if (key.workspaceId !== ws) throw notFound(MESSAGES.workspaceNotFound);
  if (!key.stages.includes(stage)) throw forbidden(DELIVERY_MESSAGES.stageNotAllowed(stage));
  const model = await modelOfWorkspace(ctx.db, ws);
  if (!model) throw notFound(MESSAGES.workspaceNotFound);
  return { workspaceId: ws, stage, model };
}

export async function resolveTarget(
  ctx: AppContext,
  key: ApiKeyRow,
  ws: string,
  stage: string,
  schemaName: string,
): Promise<DeliveryTarget> {
  const place = await resolveStage(ctx, key, ws, stage);
  const schema = deliveredSchema(place.model, schemaName);
  if (!schema) throw notFound(`Schema "${schemaName}" not found`);
  return { ...place, schema };
}

const placeOf = (target: DeliveryTarget): DeliveredPlace => ({
  workspaceId: target.workspaceId,
  stage: target.stage,
  schema: target.schema.name,
});

/** A copy whose data's text shows nothing withPublicImages would sign (known for copies read by id). */
const holdsNoImages = (copy: Copy) => copy.dataText !== undefined && !mayHoldImages(copy.dataText);

/** `GET /delivery/v1/{ws}/types.ts`: the TypeScript types of every schema the key's workspace delivers. */
export async function deliveredTypes(ctx: AppContext, key: ApiKeyRow, ws: string): Promise<string> {
  if (key.workspaceId !== ws) throw notFound(MESSAGES.workspaceNotFound);
  const model = await modelOfWorkspace(ctx.db, ws);
  if (!model) throw notFound(MESSAGES.workspaceNotFound);
  const schemas = model.domains.filter((domain) => !domain.admin).flatMap((domain) => domain.schemas);
  return generateModelTypes(schemas);
}

/** Admin domains (client tasks, service connections, tests) are for workspace managers only, never delivered. */
export const deliveredSchema = (model: ContentModel, schemaName: string) => {
  const schema = model.schema(schemaName);
  return schema && !model.domainOf(schemaName)?.admin ? schema : undefined;
};

/**
 * A field renamed in the last 30 days is answered under its old name too, named in `_deprecated`, so a
 * website reading the old name keeps working while it moves to the new one.
 */
function answerRenamedFields(model: ContentModel, item: DeliveredItem, fields: string[] | null) {
  if (model.renamed.length === 0) return;
  for (const alias of model.aliasesOf(item.schema, new Date())) {
    if (!(alias.to in item.data) || (fields && !fields.includes(alias.to))) continue;
    // A copy: the data may be the cached copy's own object.
    item.data = { ...item.data, [alias.from]: item.data[alias.to] };
    (item._deprecated ??= {})[alias.from] = { renamedTo: alias.to, until: alias.until };
  }
}

/**
 * The copies in the workspace's current model version: a copy the migration of a model change has not
 * reached yet is answered as the changes since make it (its stored text no longer is its answer).
 */
export async function inCurrentModel(ctx: AppContext, target: DeliveryTarget, copies: readonly Copy[]) {
  const { workspaceId, model } = target;
  const replayed = await replayedCopies(ctx.readDb, workspaceId, model.version, copies, 'copy');
  return replayed.map((copy, i): Copy => (copy === copies[i] ? copy : { ...copy, dataText: undefined }));
}

/** A copy as delivered (refs aside): localised, its images signed, its renamed fields answered under their old names too. */
export function presentCopy(
  ctx: AppContext,
  target: DeliveryTarget,
  copy: Copy,
  options: { fields: string[] | null; locale?: LocaleView },
): DeliveredItem {
  const schema = target.model.schema(copy.schema)!;
  const localised = options.locale && localiseData(schema, copy.data, options.locale);
  const data = localised ? localised.data : copy.data;
  const item: DeliveredItem = {
    id: copy.id,
    schema: copy.schema,
    version: copy.version,
    publishedAt: copy.publishedAt.toISOString(),
    data: pickFields(
      holdsNoImages(copy)
        ? data
        : withPublicImages(
            ctx,
            {
              workspaceId: target.workspaceId,
              stage: target.stage,
              schema,
              id: copy.id,
              isDraft: target.isDraft,
            },
            data,
          ),
      options.fields,
    ),
    ...(localised && localeFacts(options.locale!, localised.fellBack)),
  };
  if (slugFieldOf(schema)) item.previousSlugs = copy.previousSlugs;
  answerRenamedFields(target.model, item, options.fields);
  return item;
}

/** The delivered items a copy references (refs) and the key under which they are read (schema and id). */
const referencedKeys = (target: DeliveryTarget, copies: readonly Copy[]) =>
  copies.flatMap((copy) =>
    Object.entries(copy.refs)
      .filter(([, ref]) => deliveredSchema(target.model, ref.schemaType))
      .map(([id, ref]) => ({ schema: ref.schemaType, id })),
  );

/** The stage's copies of these items (or their drafts) in the current model (absent: not published there). */
export async function referencedCopies(
  ctx: AppContext,
  target: DeliveryTarget,
  wanted: readonly { schema: string; id: string }[],
): Promise<Copy[]> {
  return inCurrentModel(
    ctx,
    target,
    target.fromDrafts
      ? await draftCopiesOf(ctx.readDb, target, wanted)
      : await copiesByKeys(ctx.readDb, target.workspaceId, target.stage, wanted),
  );
}

/** Where the target's copies are read: the stage's, or its schema's drafts. */
const copiesOf = (target: DeliveryTarget) =>
  target.fromDrafts ? draftsTable(target, target.schema) : STAGE_COPIES;

/** Copies read from copiesOf, with their previousSlugs (drafts get theirs after the read). */
const completed = async <T extends Copy>(ctx: AppContext, target: DeliveryTarget, copies: T[]) =>
  target.fromDrafts ? withPreviousSlugs(ctx.readDb, target, copies) : copies;

/** An answer kept in the delivery cache, or for drafts made anew each time. */
const keptAnswer = (
  ctx: AppContext,
  target: DeliveryTarget,
  id: string,
  make: () => Promise<Rendered>,
): Promise<Rendered> => (target.fromDrafts ? make() : deliveryCacheOf(ctx.db).answer(id, make));

/** The CDN key of a referenced item of the stage. */
export const referencedKey = (target: DeliveryTarget, ref: { schema: string; id: string }) =>
  itemKey({ ...placeOf(target), schema: ref.schema }, ref.id);

/**
 * Where the items an answer embeds are read, in the current model: the stage's copies (referencedCopies),
 * or for a preview the drafts.
 */
export type ReadReferenced = (wanted: readonly { schema: string; id: string }[]) => Promise<Copy[]>;

/**
 * The copies (in the current model) as delivered, with the items they reference published in the same
 * stage embedded `depth` levels deep (one query a level). `keys` gathers the CDN keys of every item the
 * answer shows.
 */
async function deliverAll(
  ctx: AppContext,
  target: DeliveryTarget,
  copies: readonly Copy[],
  options: { fields: string[] | null; depth: number; locale?: LocaleView },
  keys: Set<string>,
  readReferenced: ReadReferenced = (wanted) => referencedCopies(ctx, target, wanted),
): Promise<DeliveredItem[]> {
  const items = copies.map((copy) => presentCopy(ctx, target, copy, options));
  if (options.depth <= 0) return items;
  const wanted = referencedKeys(target, copies);
  for (const ref of wanted) keys.add(referencedKey(target, ref));
  const found = await readReferenced(wanted);
  const embedded = await deliverAll(
    ctx,
    target,
    found,
    { fields: null, depth: options.depth - 1, locale: options.locale },
    keys,
    readReferenced,
  );
  const byId = new Map(embedded.map((item) => [item.id, item]));
  copies.forEach((copy, at) => {
    items[at].refs = Object.fromEntries(Object.keys(copy.refs).map((id) => [id, byId.get(id) ?? null]));
  });
  return items;
}

function rendered(body: unknown, keys: Iterable<string>): Rendered {
  return renderedText(JSON.stringify(body), keys);
}

export function renderedText(text: string, keys: Iterable<string>): Rendered {
  const etag = `"${crypto.hash('sha1', text, 'base64url')}"`;
  return { body: text, etag, keys: [...keys] };
}

/**
 * The JSON of a copy delivered as stored (no locale, fields or refs asked for, no image to sign): its
 * data's text spliced in as read, not parsed and serialised again. The keys of deliverAll's item, in
 * its order.
 */
function storedItemText(copy: Copy, dataText: string, schema: SchemaType) {
  // Joined, not concatenated: the answer is one flat string, not a tree of its parts, while it is kept.
  return [
    `{"id":${JSON.stringify(copy.id)},"schema":${JSON.stringify(copy.schema)},"version":${copy.version},`,
    `"publishedAt":"${copy.publishedAt.toISOString()}","data":`,
    dataText,
    slugFieldOf(schema) ? `,"previousSlugs":${JSON.stringify(copy.previousSlugs)}}` : '}',
  ].join('');
}

/** Where an answer is kept in the delivery cache: by workspace and stage first (cache.ts drops by them). */
const answerIdOf = (target: DeliveryTarget, what: string, queryText: string) =>
  `${target.workspaceId}\t${target.stage}\t${target.schema.name}\t${what}?${queryText}`;

const placeKeys = (place: DeliveredPlace) => [
  workspaceKey(place.workspaceId),
  stageKey(place.workspaceId, place.stage),
];

/**
 * A keyset page of the stage's copies of a schema (in the current model), as `query` filters, orders and
 * pages it, with the cursor of the next page (null on the last).
 */
export async function pageDelivered(ctx: AppContext, target: DeliveryTarget, query: DeliveryQuery) {
  const options = parseListOptions(target.schema, query);
  const locale = await localeAsked(ctx, target, query);
  const rows = await pageOfCopies(
    ctx.readDb,
    placeOf(target),
    target.schema,
    options,
    locale && localisedValueOf(target.schema, locale),
    await formerNamesRead(ctx, target, options),
    copiesOf(target),
  );
  const page = await completed(ctx, target, rows.slice(0, options.limit));
  const last = page.at(-1);
  const nextCursor =
    rows.length > options.limit && last
      ? encodeCursor(cursorValueOf(sortKindOf(target.schema, options.order.key), last.sortValue), last.id)
      : null;
  return { copies: await inCurrentModel(ctx, target, page), options, locale, nextCursor };
}

/** The CDN keys of every answer from the stage: its workspace's and its stage's. */
export const stageKeys = (stage: { workspaceId: string; stage: string }) => [
  workspaceKey(stage.workspaceId),
  stageKey(stage.workspaceId, stage.stage),
];
/** The CDN key of the schema: any publish of it changes a list (or which item a slug names). */
export const schemaKeyOf = (target: DeliveryTarget) => schemaKey(placeOf(target));
/** The CDN key of one item of the target's schema. */
export const itemKeyOf = (target: DeliveryTarget, id: string) => itemKey(placeOf(target), id);

/**
 * A page of the stage's copies of a schema, read from PostgreSQL a keyset page at a time. Answers are
 * kept per query string until the stage changes; `queryText` is the request's raw query string.
 */
export async function listDelivered(
  ctx: AppContext,
  target: DeliveryTarget,
  query: DeliveryQuery,
  queryText: string,
): Promise<Rendered> {
  return keptAnswer(ctx, target, answerIdOf(target, 'list', queryText), async () => {
    const { copies, options, locale, nextCursor } = await pageDelivered(ctx, target, query);
    const keys = new Set([...stageKeys(target), schemaKeyOf(target)]);
    const items = await deliverAll(ctx, target, copies, { ...options, locale }, keys);
    return rendered({ items, nextCursor }, keys);
  });
}

/** The former names of fields a list filters or orders by in SQL (none when it does neither). */
const formerNamesRead = (ctx: AppContext, target: DeliveryTarget, options: ListOptions) =>
  options.filters.length > 0 || target.schema.fields.some((field) => field.key === options.order.key)
    ? formerNamesOf(ctx.readDb, target.workspaceId, target.model.version, target.schema)
    : undefined;

/** The locale view of a request with `?locale=`; none without, so such a request reads as it always has. */
export const localeAsked = (ctx: AppContext, target: DeliveryTarget, query: DeliveryQuery) =>
  query.locale === undefined
    ? undefined
    : localeViewOf(ctx, target.workspaceId, query.locale, query.fallback);

const cursorValueOf = (kind: ReturnType<typeof sortKindOf>, text: string | null) =>
  text !== null && (kind === 'integer' || kind === 'number') ? Number(text) : text;

/** How one item's answer is found: what it is (`item/{id}`, `slug/{slug}`) and where it is read. */
interface OneLookup {
  what: string;
  find: (locale?: LocaleView) => Promise<Copy | undefined>;
  /** Where the items it embeds are read (the stage's copies when undefined). */
  readReferenced?: ReadReferenced;
}

/** One item of the stage, found by `find`, or 404; the answer is kept per query string until the stage changes. */
function deliverOne(
  ctx: AppContext,
  target: DeliveryTarget,
  query: DeliveryQuery,
  lookup: OneLookup & { queryText: string },
): Promise<Rendered> {
  return keptAnswer(ctx, target, answerIdOf(target, lookup.what, lookup.queryText), () =>
    deliverUncached(ctx, target, query, lookup),
  );
}

/**
 * One item as delivered from what `lookup` reads, or 404, kept nowhere (deliverOne keeps it): a
 * preview's draft is read from the items, not from the stage's copies.
 */
export async function deliverUncached(
  ctx: AppContext,
  target: DeliveryTarget,
  query: DeliveryQuery,
  lookup: OneLookup,
): Promise<Rendered> {
  const options = parseListOptions(target.schema, query);
  if (options.filters.length > 0 || query.cursor || query.limit || query.order) {
    throw badRequest('filter, order, cursor and limit apply to lists only');
  }
  const locale = await localeAsked(ctx, target, query);
  const found = await lookup.find(locale);
  if (!found) throw notFound(DELIVERY_MESSAGES.itemNotPublished);
  const [copy] = await inCurrentModel(ctx, target, [found]);
  const place = placeOf(target);
  const keys = new Set([...placeKeys(place), itemKey(place, copy.id)]);
  // Which item a slug names changes with any publish of the schema.
  if (lookup.what.startsWith('slug/')) keys.add(schemaKey(place));
  // Nothing to change in the stored data: its text goes out as read.
  const renamed =
    target.model.renamed.length > 0 && target.model.aliasesOf(copy.schema, new Date()).length > 0;
  if (!locale && !options.fields && options.depth <= 0 && !renamed && holdsNoImages(copy))
    return renderedText(storedItemText(copy, copy.dataText!, target.schema), keys);
  const [item] = await deliverAll(ctx, target, [copy], { ...options, locale }, keys, lookup.readReferenced);
  return rendered(item, keys);
}

/** One copy of the stage by id, or 404. */
export function getDelivered(
  ctx: AppContext,
  target: DeliveryTarget,
  id: string,
  query: DeliveryQuery,
  queryText: string,
): Promise<Rendered> {
  return deliverOne(ctx, target, query, {
    what: `item/${id}`,
    queryText,
    find: () => copyByIdIn(ctx, target, id),
  });
}

/** The stage's copy of an item of the target's schema (or its draft), by id. */
export const copyByIdIn = async (ctx: AppContext, target: DeliveryTarget, id: string) =>
  target.fromDrafts
    ? (await draftCopiesOf(ctx.readDb, target, [{ schema: target.schema.name, id }]))[0]
    : copyById(ctx.readDb, placeOf(target), id);

/**
 * The stage's copy published under this slug (in the locale, with its fallbacks), or else once; for
 * drafts, the item whose draft has it, or else the one published under it once.
 */
export async function copyBySlugIn(
  ctx: AppContext,
  target: DeliveryTarget,
  slug: string,
  locale?: LocaleView,
) {
  if (!slugFieldOf(target.schema)) throw notFound(`Schema "${target.schema.name}" has no slug`);
  const copies = copiesOf(target);
  const found = locale
    ? await copyByLocaleSlug(ctx.readDb, placeOf(target), target.schema, slug, locale, copies)
    : await copyBySlug(ctx.readDb, placeOf(target), slug, copies);
  return found && (await completed(ctx, target, [found]))[0];
}

/** The copy of the stage published under this slug now, or else once (previousSlugs names it), or 404. */
export function getDeliveredBySlug(
  ctx: AppContext,
  target: DeliveryTarget,
  slug: string,
  query: DeliveryQuery,
  queryText: string,
): Promise<Rendered> {
  if (!slugFieldOf(target.schema)) throw notFound(`Schema "${target.schema.name}" has no slug`);
  return deliverOne(ctx, target, query, {
    what: `slug/${slug}`,
    queryText,
    find: (locale) => copyBySlugIn(ctx, target, slug, locale),
  });
}

/** If-None-Match holds the answer's ETag (or *). */
export function isNotModified(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
