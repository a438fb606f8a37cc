import crypto from 'node:crypto';
import {
  API_KEY_PREFIX,
  DELIVERY_MESSAGES,
  type DeliveredItem,
  type DeliveryQuery,
} from '@shared/api/delivery';
import { MESSAGES } from '@shared/api/errors';
import { domainOfSchema, getSchema } from '@shared/schemas/catalogue';
import type { SchemaType } from '@shared/schemas/types';
import type { ApiKeyRow } from '../api-keys/repository';
import { findApiKeyByHash, touchApiKey } from '../api-keys/repository';
import type { AppContext } from '../context';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors';
import { hashToken } from '../lib/ids';
import { imageLinkUrl, signOwnImages } from '../media/image-links';
import { DeliveryCache, deliveryCacheOf, type StageSet } from './cache';
import { pageOf, parseListOptions, pickFields, type Copy } from './query';
import { loadStageCopies } from './repository';

/** The delivery key of a request, from `Authorization: Bearer mq_…`, or 401. */
export async function authenticateKey(
  ctx: AppContext,
  authorization: string | undefined,
): Promise<ApiKeyRow> {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  if (!token) throw unauthorized(DELIVERY_MESSAGES.missingKey);
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200)
    throw unauthorized(DELIVERY_MESSAGES.invalidKey);
  const hash = hashToken(token);
  const key = await deliveryCacheOf(ctx.db).apiKey(hash, () => findApiKeyByHash(ctx.db, hash));
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
}

export function resolveTarget(key: ApiKeyRow, ws: string, stage: string, schemaName: string): DeliveryTarget {
  if (key.workspaceId !== ws) throw notFound(MESSAGES.workspaceNotFound);
  if (!key.stages.includes(stage)) throw forbidden(DELIVERY_MESSAGES.stageNotAllowed(stage));
  const schema = getSchema(schemaName);
  // Admin domains (client tasks, service connections, tests) are for workspace managers only, never delivered.
  if (!schema || domainOfSchema(schemaName)?.admin) throw notFound(`Schema "${schemaName}" not found`);
  return { workspaceId: ws, stage, schema };
}

/**
 * Images in delivered data load without a member's session: file values of images carry, beside their
 * file URL and focus point, `thumbnailUrl` (400 px wide) and `imageUrl` (1200 px wide), and the
 * workspace's own images in rich text point at the same kind of link; each is absolute, signed for that
 * workspace, file and size (the signed image links of sent emails).
 */
function withPublicImages(
  ctx: AppContext,
  workspaceId: string,
  schema: SchemaType,
  data: Record<string, unknown>,
) {
  const { publicUrl, secret } = ctx.config;
  const signed = (storageName: string, w: number) =>
    `${publicUrl}${imageLinkUrl(secret, { workspaceId, storageName, w })}`;
  let out = data;
  const set = (key: string, value: unknown) => {
    if (out === data) out = { ...data };
    out[key] = value;
  };
  for (const field of schema.fields) {
    const value = data[field.key];
    if (field.type === 'rich-text' && typeof value === 'string') {
      const html = signOwnImages(value, { publicUrl, secret, workspaceId });
      if (html !== value) set(field.key, html);
      continue;
    }
    if (field.type !== 'file') continue;
    const file = value as { contentType?: unknown; storageName?: unknown } | undefined;
    if (!file || typeof file.storageName !== 'string' || !String(file.contentType).startsWith('image/'))
      continue;
    set(field.key, {
      ...file,
      thumbnailUrl: signed(file.storageName, 400),
      imageUrl: signed(file.storageName, 1200),
    });
  }
  return out;
}

function stageSetOf(ctx: AppContext, workspaceId: string, stage: string, schema: SchemaType) {
  return deliveryCacheOf(ctx.db).stageSet(workspaceId, stage, schema.name, async (): Promise<StageSet> => {
    const rows = await loadStageCopies(ctx.readDb, workspaceId, stage, schema.name);
    const copies: Copy[] = rows.map((row) => ({
      id: row.id,
      schema: schema.name,
      version: row.version,
      publishedAt: row.publishedAt.toISOString(),
      data: withPublicImages(ctx, workspaceId, schema, row.data),
      refs: row.refs,
    }));
    return { copies, byId: new Map(copies.map((c) => [c.id, c])), rendered: new Map() };
  });
}

/** An item as delivered, with referenced items of the same stage embedded `depth` levels deep. */
async function deliver(
  ctx: AppContext,
  target: DeliveryTarget,
  copy: Copy,
  fields: string[] | null,
  depth: number,
): Promise<DeliveredItem> {
  const item: DeliveredItem = {
    id: copy.id,
    schema: copy.schema,
    version: copy.version,
    publishedAt: copy.publishedAt,
    data: pickFields(copy.data, fields),
  };
  if (depth <= 0) return item;
  item.refs = {};
  for (const [refId, ref] of Object.entries(copy.refs)) {
    const refSchema = getSchema(ref.schemaType);
    const set =
      refSchema && !domainOfSchema(ref.schemaType)?.admin
        ? await stageSetOf(ctx, target.workspaceId, target.stage, refSchema)
        : undefined;
    const refCopy = set?.byId.get(refId);
    item.refs[refId] = refCopy ? await deliver(ctx, target, refCopy, null, depth - 1) : null;
  }
  return item;
}

export interface Rendered {
  body: string;
  etag: string;
}

function rendered(body: unknown): Rendered {
  const text = JSON.stringify(body);
  const etag = `"${crypto.createHash('sha1').update(text).digest('base64url')}"`;
  return { body: text, etag };
}

/**
 * A page of the stage's copies of a schema. Answers are rendered once per query string and kept until
 * the stage changes; `queryText` is the request's raw query string.
 */
export async function listDelivered(
  ctx: AppContext,
  target: DeliveryTarget,
  query: DeliveryQuery,
  queryText: string,
): Promise<Rendered> {
  const set = await stageSetOf(ctx, target.workspaceId, target.stage, target.schema);
  const cacheKey = `list?${queryText}`;
  const cached = set.rendered.get(cacheKey);
  if (cached) return cached;
  const options = parseListOptions(target.schema, query);
  const page = pageOf(set.copies, options);
  const items = await Promise.all(
    page.copies.map((copy) => deliver(ctx, target, copy, options.fields, options.depth)),
  );
  const answer = rendered({ items, nextCursor: page.nextCursor });
  DeliveryCache.remember(set, cacheKey, answer);
  return answer;
}

/**
 * One copy of the stage, or 404. The plain answer (no query) is kept with its copy, so every published
 * item is rendered once, however many there are; answers to other queries share the set's bounded map.
 */
export async function getDelivered(
  ctx: AppContext,
  target: DeliveryTarget,
  id: string,
  query: DeliveryQuery,
  queryText: string,
): Promise<Rendered> {
  const set = await stageSetOf(ctx, target.workspaceId, target.stage, target.schema);
  const copy = set.byId.get(id);
  if (!copy) throw notFound(DELIVERY_MESSAGES.itemNotPublished);
  const cacheKey = `item/${id}?${queryText}`;
  const cached = queryText === '' ? copy.plainAnswer : set.rendered.get(cacheKey);
  if (cached) return cached;
  const options = parseListOptions(target.schema, query);
  if (options.filters.length > 0 || query.cursor || query.limit || query.order) {
    throw badRequest('filter, order, cursor and limit apply to lists only');
  }
  const answer = rendered(await deliver(ctx, target, copy, options.fields, options.depth));
  if (queryText === '') copy.plainAnswer = answer;
  else DeliveryCache.remember(set, cacheKey, answer);
  return answer;
}

/** If-None-Match holds the answer's ETag (or *). */
export function isNotModified(ifNoneMatch: string | undefined, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
