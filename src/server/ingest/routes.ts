import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '@shared/api/errors';
import {
  BatchBody,
  CreatedWriteKey,
  CreateWriteKeyBody,
  IdentifyBody,
  IngestAnswer,
  TrackBody,
  UpdateWriteKeyBody,
  WriteKeyId,
  WriteKeyList,
  WriteKeyQuery,
  WriteKeySummary,
} from '@shared/api/ingest';
import { DeclareBody, DeclaredAnswer, UndeclaredList } from '@shared/api/undeclared';
import type { AppContext } from '../context';
import { browserScriptRoute } from '../http/browser-script';
import { parseJsonAs } from '../http/input-guard';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import type { WriteKeyRow } from './repository';
import * as ingestion from './service';
import * as undeclared from './undeclared-service';
import * as keys from './write-keys';

/** `/api/v1/workspaces/{ws}/write-keys…`, under the workspace scope: managers create, list, change and revoke write keys. */
export async function writeKeyRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['write-keys'];

  app.post(
    '/write-keys',
    {
      schema: {
        tags,
        description: 'Creates a write key for /ingest/v1 (managers); the key is answered this once',
        params: WorkspaceParams,
        body: CreateWriteKeyBody,
        response: { 201: CreatedWriteKey },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await keys.createWriteKey(ctx, request.access, request.body)),
  );

  app.get(
    '/write-keys',
    {
      schema: {
        tags,
        description: 'The workspace write keys, without secrets (managers)',
        params: WorkspaceParams,
        response: { 200: WriteKeyList },
      },
    },
    async (request) => keys.listWriteKeys(ctx, request.access),
  );

  app.patch(
    '/write-keys/:id',
    {
      schema: {
        tags,
        description:
          'Makes a key strict (refusing undeclared events, properties and attributes) or not (managers)',
        params: WorkspaceParams.extend({ id: WriteKeyId }),
        body: UpdateWriteKeyBody,
        response: { 200: WriteKeySummary },
      },
    },
    async (request) => keys.updateWriteKey(ctx, request.access, request.params.id, request.body),
  );

  app.delete(
    '/write-keys/:id',
    {
      schema: {
        tags,
        description: 'Revokes a write key (managers)',
        params: WorkspaceParams.extend({ id: WriteKeyId }),
        response: { 200: z.object({ id: z.string(), revoked: z.literal(true) }) },
      },
    },
    async (request) => keys.revokeWriteKey(ctx, request.access, request.params.id),
  );
}

/**
 * `/api/v1/workspaces/{ws}/undeclared…`, under the workspace scope: what websites and apps sent that
 * the workspace has not declared, and its one-click declaration.
 */
export async function undeclaredRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['undeclared'];

  app.get(
    '/undeclared',
    {
      schema: {
        tags,
        description:
          'Events, properties and attributes sent with write keys that the workspace has not declared, with counts and the first and last time',
        params: WorkspaceParams,
        response: { 200: UndeclaredList },
      },
    },
    async (request) => undeclared.listUndeclaredData(ctx, request.access),
  );

  app.post(
    '/undeclared/declare',
    {
      schema: {
        tags,
        description:
          'Declares an undeclared event (with its properties), property or attribute with the type inferred from what was sent; needs the right to edit behavioral events or customer profile attributes',
        params: WorkspaceParams,
        body: DeclareBody,
        response: { 201: DeclaredAnswer },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await undeclared.declareUndeclared(ctx, request.access, request.body)),
  );
}

/** The key a request was authenticated with, for its CORS headers. */
const keyOfRequest = new WeakMap<FastifyRequest, WriteKeyRow>();

const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '600',
};

/**
 * `/ingest/v1/track|identify|batch`: events from websites and apps, with a write key. A browser may
 * read the answer only from one of the key's origins (CORS), and a request from another origin is
 * refused (403); bodies may be sent as text/plain, so the browser script's requests need no preflight.
 */
export async function ingestRoutes(instance: FastifyInstance, ctx: AppContext) {
  instance.removeContentTypeParser('text/plain');
  parseJsonAs(instance, 'text/plain');
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['ingest'];
  const security = [{ writeKey: [] }];

  async function authenticate(request: FastifyRequest<{ Querystring: z.infer<typeof WriteKeyQuery> }>) {
    const key = await ingestion.authenticateWriteKey(
      ctx,
      request.headers.authorization,
      request.query.writeKey,
    );
    ingestion.checkOrigin(key, request.headers.origin);
    keyOfRequest.set(request, key);
    return key;
  }

  app.addHook('onSend', (request, reply, payload, done) => {
    const key = keyOfRequest.get(request);
    const origin = request.headers.origin;
    reply.header('vary', 'Origin');
    if (key && origin && ingestion.originAllowed(key, origin))
      reply.header('access-control-allow-origin', origin);
    done(null, payload);
  });

  // A preflight names no key unless it is in the query: then its origins decide; else the request will.
  app.options(
    '/*',
    { schema: { hide: true, querystring: WriteKeyQuery } },
    async (request: FastifyRequest<{ Querystring: z.infer<typeof WriteKeyQuery> }>, reply: FastifyReply) => {
      const origin = request.headers.origin;
      if (request.query.writeKey) await authenticate(request);
      if (origin) reply.header('access-control-allow-origin', origin);
      return reply.code(204).headers(PREFLIGHT_HEADERS).send();
    },
  );

  const answers = { 202: IngestAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };
  const accepted =
    "Answers 202 with how many messages were accepted and rejected, and why each rejected one was; 429 past the key's rate limit.";

  app.post(
    '/track',
    {
      schema: {
        tags,
        security,
        summary: 'Track one event of a profile or an anonymous visitor',
        description: accepted,
        querystring: WriteKeyQuery,
        body: TrackBody,
        response: answers,
      },
    },
    async (request, reply) => {
      const key = await authenticate(request);
      return reply
        .code(202)
        .send(await ingestion.ingest(ctx, { key, address: request.ip }, [request.body], 'track'));
    },
  );

  app.post(
    '/identify',
    {
      schema: {
        tags,
        security,
        summary: "Set a profile's attributes; with anonymousId, move the visitor's events to it",
        description: accepted,
        querystring: WriteKeyQuery,
        body: IdentifyBody,
        response: answers,
      },
    },
    async (request, reply) => {
      const key = await authenticate(request);
      return reply
        .code(202)
        .send(await ingestion.ingest(ctx, { key, address: request.ip }, [request.body], 'identify'));
    },
  );

  app.post(
    '/batch',
    {
      schema: {
        tags,
        security,
        summary: 'Up to 500 track and identify messages in one transaction',
        description: accepted,
        querystring: WriteKeyQuery,
        body: BatchBody,
        response: answers,
      },
    },
    async (request, reply) => {
      const key = await authenticate(request);
      return reply
        .code(202)
        .send(await ingestion.ingest(ctx, { key, address: request.ip }, request.body.batch));
    },
  );
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** `GET /sdk/marquee.js`: the browser script, for pages of any origin (it needs a write key to send). */
export async function sdkRoutes(app: FastifyInstance) {
  await browserScriptRoute(app, '/sdk/marquee.js', [
    path.join(here, 'sdk/marquee.js'),
    path.resolve(here, '../../src/server/ingest/sdk/marquee.js'),
  ]);
}
