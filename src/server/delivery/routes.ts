import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeliveredItemSchema, DeliveryList, DeliveryQuery } from '@shared/api/delivery';
import { ItemId, SchemaName, StageParam } from '@shared/api/items';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { AppError, badRequest } from '../http/errors';
import type { DraftSeed } from './draft-stage';
import {
  answerFromDrafts,
  asDraftAnswer,
  draftReaderOf,
  draftStageOf,
  readingDrafts,
  renderDraftAnswer,
  requireWholeWorkspace,
  type DraftReader,
  type FindAnswer,
} from './drafts';
import { JSON_API_SECURITY_HEADERS } from '../http/security-headers';
import type { Rendered } from './cache';
import { runGraphql, type GraphqlParams } from './graphql-http';
import { previewRelease } from './release-preview';
import * as delivery from './service';

const ListParams = z.object({ ws: WorkspaceId, stage: StageParam, schema: SchemaName });
const ItemParams = ListParams.extend({ id: ItemId });
const SlugParams = ListParams.extend({
  slug: z.string().min(1).max(400, { error: 'slug is at most 400 characters' }),
});

/**
 * Published content changes only on publish. Browsers and CDNs may keep an answer a minute and serve it
 * stale for ten more while they revalidate (If-None-Match gets a 304); keyed by the API key (Vary), so
 * only holders of the same key share it. With a purge webhook a CDN keeps answers a day: a publish
 * purges what it changed by the keys in Surrogate-Key / Cache-Tag.
 */
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';
const CACHE_CONTROL_PURGED = `${CACHE_CONTROL}, s-maxage=86400`;

/** Where the delivery API is mounted; its answers carry its own, shorter set of security headers. */
export const DELIVERY_PREFIX = '/delivery/v1';

/** Every answer's, errors' too: open CORS and the security headers of a JSON API. */
const ANSWER_HEADERS = Object.freeze({
  ...JSON_API_SECURITY_HEADERS,
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag',
  'cross-origin-resource-policy': 'cross-origin',
});

function queryTextOf(request: FastifyRequest) {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
}

function send(request: FastifyRequest, reply: FastifyReply, answer: Rendered, purged: boolean) {
  reply.headers({
    etag: answer.etag,
    'cache-control': purged ? CACHE_CONTROL_PURGED : CACHE_CONTROL,
    vary: 'Authorization',
    'surrogate-key': answer.keys.join(' '),
    'cache-tag': answer.keys.join(','),
  });
  if (delivery.isNotModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/** A release preview or drafts: for the holder only, never kept by a browser or CDN as live content. */
function sendPreview(request: FastifyRequest, reply: FastifyReply, answer: Rendered) {
  reply.headers({ etag: answer.etag, 'cache-control': 'private, no-store', vary: 'Authorization' });
  if (delivery.isNotModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/** Open CORS: any site may read with a key; errors carry the headers too so browsers can show them. */
function openToWebsites(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(ANSWER_HEADERS);
    if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  // Here, not the app's: so that its answer gets the headers above.
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: { code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}` },
    }),
  );
  app.options('/*', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .headers({
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match',
        'access-control-max-age': '86400',
      })
      .send(),
  );
}

type ItemsRequest = FastifyRequest<{ Params: z.infer<typeof ListParams>; Querystring: DeliveryQuery }>;

/**
 * Checks the key against the route's workspace, stage and schema, then sends what `find` answers (with
 * `?release=`, as the release will make it); with `?preview=draft` and a preview token, what it answers
 * from the drafts `seed` names.
 */
async function answer(
  ctx: AppContext,
  request: ItemsRequest,
  reply: FastifyReply,
  find: FindAnswer,
  seed: DraftSeed,
) {
  const { ws, stage, schema } = request.params;
  const { preview, previewToken, editInfo, ...asked } = request.query;
  const authorization = request.headers.authorization;
  const reader = await draftReaderOf(ctx, { authorization, preview, previewToken }, ws);
  if (reader) {
    const drafts = await answerFromDrafts(ctx, reader, { stage, schema }, request.query, seed, find);
    return sendPreview(request, reply, drafts);
  }
  if (editInfo !== undefined) throw badRequest('editInfo applies to preview=draft only');
  const key = await delivery.authenticateKey(ctx, authorization);
  const target = await delivery.resolveTarget(ctx, key, ws, stage, schema);
  if (asked.release !== undefined) {
    const { release, ...query } = asked;
    const preview = await previewRelease(ctx, key, target, release, (inPreview) =>
      find(inPreview, target, query, ''),
    );
    return sendPreview(request, reply, preview);
  }
  const purged = ctx.config.deliveryPurge !== undefined;
  return send(request, reply, await find(ctx, target, asked, queryTextOf(request)), purged);
}

/** `/delivery/v1/{ws}/{stage}/items/{schema}[/{id}]`: published copies for websites and apps, read with API keys. */
export async function deliveryRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['delivery'];
  const security = [{ apiKey: [] }];
  const purged = ctx.config.deliveryPurge !== undefined;

  openToWebsites(instance);

  app.get(
    '/:ws/:stage/items/:schema',
    {
      schema: {
        tags,
        security,
        description:
          'A keyset page of the items of a schema published in the stage. Filters: filter[field]=value, ' +
          'filter[field][gte]=value (eq, ne, gt, gte, lt, lte, in) on top-level fields. With ' +
          "preview=draft and a preview token: the schema's drafts, in the same shape, never cached.",
        params: ListParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveryList },
      },
    },
    (request, reply) =>
      answer(
        ctx,
        request,
        reply,
        (c, target, query, queryText) => delivery.listDelivered(c, target, query, queryText),
        { schema: request.params.schema },
      ),
  );

  app.get(
    '/:ws/:stage/items/:schema/:id',
    {
      schema: {
        tags,
        security,
        description:
          'One item as published in the stage; with preview=draft and a preview token, its draft (and ' +
          "its references' drafts), never cached",
        params: ItemParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveredItemSchema },
      },
    },
    (request, reply) =>
      answer(
        ctx,
        request,
        reply,
        (c, target, query, queryText) =>
          delivery.getDelivered(c, target, request.params.id, query, queryText),
        { schema: request.params.schema, id: request.params.id },
      ),
  );

  app.get(
    '/:ws/:stage/items/:schema/by-slug/:slug',
    {
      schema: {
        tags,
        security,
        description:
          'The item published in the stage under this slug, or the one once published under it: its ' +
          'previousSlugs then hold the slug asked for, so a site can redirect the old URL. With ' +
          'preview=draft and a preview token: the item whose draft has the slug, never cached',
        params: SlugParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveredItemSchema },
      },
    },
    (request, reply) =>
      answer(
        ctx,
        request,
        reply,
        (c, target, query, queryText) =>
          delivery.getDeliveredBySlug(c, target, request.params.slug, query, queryText),
        { schema: request.params.schema, slug: request.params.slug },
      ),
  );

  typesRoute(app, ctx);
  graphqlRoutes(app, ctx, purged);
}

/** What a GraphQL request's query string says about drafts (`?preview=draft`, its token). */
const DraftQuery = DeliveryQuery.pick({ preview: true, previewToken: true }).strict();

const GraphqlParamsOfGet = DraftQuery.extend({
  query: z.string().optional(),
  variables: z.string().optional(),
  operationName: z.string().max(200).optional(),
  extensions: z.string().max(2000).optional(),
});

const CODE_OF_STATUS: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/**
 * `GET` and `POST /{ws}/{stage}/graphql`: the stage's content through the schema generated from the
 * workspace's model, with the keys, caching headers and purges of the REST routes.
 */
function graphqlRoutes(instance: FastifyInstance, ctx: AppContext, purged: boolean) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const Params = z.object({ ws: WorkspaceId, stage: StageParam });
  const handle = async (
    request: FastifyRequest<{ Params: z.infer<typeof Params>; Querystring: z.infer<typeof DraftQuery> }>,
    reply: FastifyReply,
    params: GraphqlParams,
  ) => {
    let answer;
    let isDraft = false;
    try {
      const { preview, previewToken } = request.query;
      const { authorization } = request.headers;
      const reader = await draftReaderOf(ctx, { authorization, preview, previewToken }, request.params.ws);
      if (reader) {
        isDraft = true;
        answer = await graphqlOfDrafts(ctx, reader, request.params.stage, params);
      } else {
        const key = await delivery.authenticateKey(ctx, authorization);
        const stage = await delivery.resolveStage(ctx, key, request.params.ws, request.params.stage);
        answer = await runGraphql(ctx, stage, params);
      }
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
      const code = CODE_OF_STATUS[err.statusCode] ?? 'BAD_REQUEST';
      return reply
        .code(err.statusCode)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ errors: [{ message: err.message, extensions: { code } }] }));
    }
    if (answer.status !== 200 || answer.uncacheable)
      return reply
        .code(answer.status)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(answer.body);
    return isDraft ? sendPreview(request, reply, answer) : send(request, reply, answer, purged);
  };
  const schema = { tags: ['delivery'], security: [{ apiKey: [] }], params: Params };
  app.get(
    '/:ws/:stage/graphql',
    {
      schema: {
        ...schema,
        description:
          'A GraphQL query (query, variables, operationName, extensions as JSON) of the stage, or a persisted one by its sha256 (extensions.persistedQuery): answers a CDN may keep. With preview=draft and a preview token of the whole workspace (or a release): the drafts, never cached',
        querystring: GraphqlParamsOfGet,
      },
    },
    (request, reply) => handle(request, reply, request.query),
  );
  app.post(
    '/:ws/:stage/graphql',
    {
      bodyLimit: 256 * 1024,
      schema: {
        ...schema,
        description:
          'A GraphQL query of the stage: { query, variables, operationName, extensions }; ?preview=draft with a preview token queries the drafts',
        querystring: DraftQuery,
      },
    },
    (request, reply) =>
      handle(
        request,
        reply,
        typeof request.body === 'object' && request.body !== null ? (request.body as GraphqlParams) : {},
      ),
  );
}

/**
 * A GraphQL query of the workspace's drafts: any of them may be asked for, so a token scoped to a
 * schema or an item reads none through it.
 */
async function graphqlOfDrafts(
  ctx: AppContext,
  reader: DraftReader,
  stageName: string,
  params: GraphqlParams,
) {
  requireWholeWorkspace(reader);
  const stage = await draftStageOf(ctx, reader, stageName);
  if (stage.fromDrafts) return asDraftAnswer(() => runGraphql(readingDrafts(ctx), stage, params));
  return renderDraftAnswer(
    ctx,
    reader,
    stage,
    { seed: { everything: true }, depth: 0, editInfo: false },
    (c) => runGraphql(c, stage, params),
  );
}

/** `/{ws}/types.ts`: what a website's TypeScript build reads. */
function typesRoute(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:ws/types.ts',
    {
      schema: {
        tags: ['delivery'],
        security: [{ apiKey: [] }],
        description:
          "TypeScript types of the workspace's delivered content model: each schema's item data, its blocks, and the answer's envelope",
        params: z.object({ ws: z.string().max(64) }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const key = await delivery.authenticateKey(ctx, request.headers.authorization);
      const text = await delivery.deliveredTypes(ctx, key, request.params.ws);
      reply.headers({ 'cache-control': 'private, no-cache', vary: 'Authorization' });
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );
}
