import {
  API_KEY_PREFIX,
  DELIVERY_MESSAGES,
  type DeliveredItem,
  type DeliveryQuery,
} from '@shared/api/delivery';
import { MESSAGES } from '@shared/api/errors';
import { PREVIEW_MESSAGES } from '@shared/api/preview';
import { RELEASE_MESSAGES } from '@shared/api/releases';
import { editInfoOf } from '@shared/preview/edit-attribute';
import { findStage } from '@shared/publishing/status';
import type { AppContext } from '../context';
import type { Rendered } from './cache';
import {
  deliveredSchema,
  deliverUncached,
  inCurrentModel,
  renderedText,
  type DeliveryTarget,
  type ReadReferenced,
} from './service';
import { AppError, badRequest, notFound, unauthorized } from '../http/errors';
import { findRelease, type ReleaseRow } from '../releases/repository';
import { modelOfWorkspace } from '../workspaces/content-model';
import type { WorkspaceRow } from '../workspaces/repository';
import { copyKeyOf, draftCopiesOf, renderFromDrafts, type DraftSeed } from './draft-stage';
import { authenticatePreviewToken, looksLikePreviewToken } from './preview-tokens';
import { parseListOptions } from './query';
import type { Copy, PreviewTokenRow } from './repository';

/** Who reads drafts: a preview token, its workspace and the release it previews. */
export interface DraftReader {
  token: PreviewTokenRow;
  workspace: WorkspaceRow;
  release?: ReleaseRow;
}

/** What a delivery request says about drafts. */
export interface DraftAsk {
  authorization?: string;
  preview?: 'draft';
  previewToken?: string;
}

const bearerOf = (authorization: string | undefined) =>
  authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';

/**
 * The reader of a delivery request that reads drafts (`?preview=draft` with a preview token, sent as
 * Authorization or `?previewToken=`), or undefined for a request of published content. A preview token
 * never reads published content, an API key never reads drafts.
 */
export async function draftReaderOf(ctx: AppContext, ask: DraftAsk, ws: string) {
  const credential = bearerOf(ask.authorization) || ask.previewToken || '';
  if (ask.preview !== 'draft') {
    if (ask.previewToken !== undefined || looksLikePreviewToken(credential))
      throw unauthorized(PREVIEW_MESSAGES.draftsOnly);
    return undefined;
  }
  if (credential.startsWith(API_KEY_PREFIX)) throw unauthorized(PREVIEW_MESSAGES.apiKeyForDrafts);
  const { token, workspace } = await authenticatePreviewToken(ctx, credential, ws);
  const reader: DraftReader = { token, workspace };
  if (token.releaseId) {
    reader.release = await findRelease(ctx.db, workspace.id, token.releaseId);
    if (!reader.release) throw notFound(RELEASE_MESSAGES.notFound);
  }
  return reader;
}

/**
 * A stage of the reader's workspace (404 for another), with its current model: read from the drafts
 * directly, unless the reader's release goes over them there.
 */
export async function draftStageOf(ctx: AppContext, reader: DraftReader, stage: string) {
  if (findStage(reader.workspace.basics.stages, stage) !== stage)
    throw notFound(`Stage "${stage}" not found in this workspace`);
  const model = await modelOfWorkspace(ctx.db, reader.workspace.id);
  if (!model) throw notFound(MESSAGES.workspaceNotFound);
  const { release } = reader;
  const inRelease = release !== undefined && release.state !== 'published' && release.stage === stage;
  return { workspaceId: reader.workspace.id, stage, model, isDraft: true, fromDrafts: !inRelease };
}

/** Drafts are read from the primary: a preview shows what was saved a moment ago. */
export const readingDrafts = (ctx: AppContext): AppContext => ({ ...ctx, readDb: ctx.db });

/** A schema the reader may read drafts of: 404 outside the token's scope, as for one that does not exist. */
async function draftTargetOf(
  ctx: AppContext,
  reader: DraftReader,
  stage: string,
  schemaName: string,
): Promise<DeliveryTarget> {
  const place = await draftStageOf(ctx, reader, stage);
  const schema = deliveredSchema(place.model, schemaName);
  if (!schema) throw notFound(`Schema "${schemaName}" not found`);
  if (reader.token.schema !== null && reader.token.schema !== schemaName)
    throw notFound(PREVIEW_MESSAGES.itemNotFound);
  return { ...place, schema };
}

/** A token scoped to one item reads that item only (404, as for one that does not exist). */
function requireInScope(reader: DraftReader, id?: string) {
  const scoped = reader.token.itemId;
  if (scoped !== null && id !== scoped) throw notFound(PREVIEW_MESSAGES.itemNotFound);
}

/** A token scoped to a schema or an item reads nothing that may hold any item (GraphQL). */
export function requireWholeWorkspace(reader: DraftReader) {
  if (reader.token.schema !== null) throw notFound(PREVIEW_MESSAGES.itemNotFound);
}

/** The answer's items (a list's, or the one) and the items they embed, each with its `_editInfo`. */
function withEditInfo(target: Omit<DeliveryTarget, 'schema'>, answer: Rendered): Rendered {
  const body = JSON.parse(answer.body) as DeliveredItem | { items: DeliveredItem[] };
  const visit = (item: DeliveredItem | null) => {
    if (!item) return;
    const schema = target.model.schema(item.schema);
    if (schema) item._editInfo = editInfoOf(target.workspaceId, schema, item.id, item.data);
    for (const ref of Object.values(item.refs ?? {})) visit(ref);
  };
  if ('items' in body) body.items.forEach(visit);
  else visit(body);
  return renderedText(JSON.stringify(body), []);
}

/**
 * A delivery answer rendered from the drafts the seed names (see renderFromDrafts), with no CDN keys;
 * `editInfo` adds each item's edit attributes. An item with no draft is 'Item not found'.
 */
export async function renderDraftAnswer<T extends Rendered>(
  ctx: AppContext,
  reader: DraftReader,
  target: Omit<DeliveryTarget, 'schema'>,
  ask: { seed: DraftSeed; depth: number; editInfo: boolean },
  render: (ctx: AppContext) => Promise<T>,
): Promise<T> {
  const answer = await asDraftAnswer(() =>
    renderFromDrafts(
      ctx,
      {
        place: target,
        seed: ask.seed,
        depth: ask.depth,
        release: reader.release,
        by: `preview:${reader.token.id}`,
      },
      render,
    ),
  );
  return ask.editInfo ? { ...answer, ...withEditInfo(target, answer) } : answer;
}

/** A draft answer carries no CDN keys, and an item with no draft is 'Item not found'. */
export async function asDraftAnswer<T extends Rendered>(render: () => Promise<T>): Promise<T> {
  try {
    return { ...(await render()), keys: [] };
  } catch (err) {
    if (err instanceof AppError && err.message === DELIVERY_MESSAGES.itemNotPublished)
      throw notFound(PREVIEW_MESSAGES.itemNotFound);
    throw err;
  }
}

/**
 * Where a draft answer reads the items it embeds: their drafts (draftCopiesOf), those of `known` as
 * they are there (read already, or a form's unsaved values standing in for its item's draft).
 */
export const readDrafts =
  (ctx: AppContext, target: DeliveryTarget, known: readonly Copy[] = []): ReadReferenced =>
  async (wanted) => {
    const byKey = new Map(known.map((copy) => [copyKeyOf(copy), copy]));
    const at = wanted.map((key) => byKey.get(copyKeyOf(key)));
    const read = await draftCopiesOf(
      ctx.db,
      target,
      wanted.filter((_, i) => !at[i]),
    );
    return inCurrentModel(ctx, target, [...at.filter((copy) => copy !== undefined), ...read]);
  };

/**
 * An item's draft by id, as renderFromDrafts would answer it, read from the items without its writes,
 * with the drafts it embeds in the same statement.
 */
async function draftById(
  ctx: AppContext,
  target: DeliveryTarget,
  id: string,
  query: DeliveryQuery,
  ask: { depth: number; editInfo: boolean },
) {
  const seed = { schema: target.schema.name, id };
  const read = await draftCopiesOf(ctx.db, target, [seed], ask.depth);
  const answer = await asDraftAnswer(() =>
    deliverUncached(ctx, target, query, {
      what: `item/${id}`,
      find: async () => read.find((copy) => copyKeyOf(copy) === copyKeyOf(seed)),
      readReferenced: readDrafts(ctx, target, read),
    }),
  );
  return ask.editInfo ? { ...answer, ...withEditInfo(target, answer) } : answer;
}

/** The id of the item a single-item answer holds. */
const idOfAnswer = (answer: Rendered) => (JSON.parse(answer.body) as { id: string }).id;

/** What a delivery route answers for its target and query (published copies, or drafts in a transaction). */
export type FindAnswer = (
  ctx: AppContext,
  target: DeliveryTarget,
  query: DeliveryQuery,
  queryText: string,
) => Promise<Rendered>;

/**
 * A REST delivery route's answer from drafts: only what the token's scope holds (404 for the rest,
 * nothing of it shown).
 */
export async function answerFromDrafts(
  ctx: AppContext,
  reader: DraftReader,
  route: { stage: string; schema: string },
  asked: DeliveryQuery,
  seed: DraftSeed,
  find: FindAnswer,
) {
  const { preview: _preview, previewToken: _token, editInfo, ...query } = asked;
  if (query.release !== undefined)
    throw badRequest('release applies to API keys: a preview token previews the release it was made for');
  const target = await draftTargetOf(ctx, reader, route.stage, route.schema);
  if (!('slug' in seed)) requireInScope(reader, 'id' in seed ? seed.id : undefined);
  const { depth } = parseListOptions(target.schema, query);
  const asks = { depth, editInfo: editInfo === 'true' };
  let rendered;
  if (target.fromDrafts && 'id' in seed) rendered = await draftById(ctx, target, seed.id, query, asks);
  else if (target.fromDrafts) {
    const answer = await asDraftAnswer(() => find(readingDrafts(ctx), target, query, ''));
    rendered = asks.editInfo ? { ...answer, ...withEditInfo(target, answer) } : answer;
  } else
    rendered = await renderDraftAnswer(ctx, reader, target, { seed, ...asks }, (inDrafts) =>
      find(inDrafts, target, query, ''),
    );
  if ('slug' in seed) requireInScope(reader, idOfAnswer(rendered));
  return rendered;
}
