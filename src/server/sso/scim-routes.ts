import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedScimToken,
  CreateScimTokenBody,
  SCIM_CONTENT_TYPE,
  SCIM_MESSAGES,
  SCIM_PREFIX,
  SCIM_SCHEMAS,
  scimBasePath,
  ScimTokenId,
  ScimTokenList,
} from '@shared/api/scim';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { parseJsonAs } from '../http/input-guard';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { resourceTypesOf, schemasOf, serviceProviderConfigOf } from './scim-discovery';
import * as scim from './scim-service';
import { ScimError, type ScimCaller } from './scim-service';
import * as tokens from './scim-tokens';
import { findWorkspace } from './scim-repository';

/** `/api/v1/workspaces/{ws}/scim-tokens…`, under the workspace scope: managers make, list and revoke SCIM tokens. */
export async function scimTokenRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['scim-tokens'];

  app.post(
    '/scim-tokens',
    {
      schema: {
        tags,
        description:
          'Makes a SCIM token with which the identity provider provisions members (managers); the token is answered this once',
        params: WorkspaceParams,
        body: CreateScimTokenBody,
        response: { 201: CreatedScimToken },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await tokens.createScimToken(ctx, request.access, request.body)),
  );

  app.get(
    '/scim-tokens',
    {
      schema: {
        tags,
        description:
          'The SCIM base URL to register and the workspace’s SCIM tokens, without secrets (managers)',
        params: WorkspaceParams,
        response: { 200: ScimTokenList },
      },
    },
    async (request) => tokens.listScimTokens(ctx, request.access),
  );

  app.delete(
    '/scim-tokens/:id',
    {
      schema: {
        tags,
        description: 'Revokes a SCIM token (managers)',
        params: WorkspaceParams.extend({ id: ScimTokenId }),
        response: { 200: z.object({ id: z.string(), revoked: z.literal(true) }) },
      },
    },
    async (request) => tokens.revokeScimToken(ctx, request.access, request.params.id),
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The identity provider calling the SCIM service, set on `/scim/v2/{ws}/…` only. */
    scim: ScimCaller;
  }
}

const errorBody = (status: number, detail: string, scimType?: string) => ({
  schemas: [SCIM_SCHEMAS.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/** Every failure of the SCIM service leaves in RFC 7644's error shape; unexpected ones are logged, never shown. */
function scimErrorOf(err: FastifyError | Error, request: FastifyRequest) {
  if (err instanceof ScimError) return errorBody(err.status, err.message, err.scimType);
  if (err instanceof AppError) return errorBody(err.statusCode, err.message);
  const status = (err as FastifyError).statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err }, 'SCIM request failed');
    return errorBody(500, 'Internal error');
  }
  if ((err as FastifyError).validation) return errorBody(400, err.message, 'invalidValue');
  return errorBody(status, err.message, status === 400 ? 'invalidSyntax' : undefined);
}

const ScimParams = z.object({ ws: z.string().max(100) });
const IdParams = ScimParams.extend({ id: z.string().max(100) });
const ListQuery = z.object({
  filter: z.string().max(2000).optional(),
  startIndex: z.string().max(20).optional(),
  count: z.string().max(20).optional(),
  attributes: z.string().max(2000).optional(),
  excludedAttributes: z.string().max(2000).optional(),
});
const ReadQuery = ListQuery.pick({ attributes: true, excludedAttributes: true });

/**
 * `/scim/v2/{ws}/…`: the SCIM 2.0 service (RFC 7644) the workspace's identity provider calls with a SCIM
 * token — no session cookie, no CSRF check. Bodies may come as application/scim+json; answers are that
 * type, errors in the SCIM error shape.
 */
export async function scimRoutes(instance: FastifyInstance, ctx: AppContext) {
  parseJsonAs(instance, SCIM_CONTENT_TYPE);
  instance.decorateRequest('scim', null as unknown as ScimCaller);
  instance.setErrorHandler((err: FastifyError, request, reply) => {
    const body = scimErrorOf(err, request);
    if (body.status === '401') reply.header('www-authenticate', 'Bearer realm="SCIM"');
    return reply.code(Number(body.status)).send(body);
  });
  instance.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(404, `No SCIM endpoint ${request.method} ${request.url.split('?')[0]}`)),
  );
  instance.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-type', `${SCIM_CONTENT_TYPE}; charset=utf-8`);
    return payload;
  });
  // The token first, before the body is read: a request without one learns nothing else.
  instance.addHook('onRequest', async (request: FastifyRequest<{ Params: { ws?: string } }>) => {
    // A path no route has (404) names its workspace too: the token is checked first all the same.
    const ws = request.params.ws ?? request.url.slice(SCIM_PREFIX.length + 1).split(/[/?]/)[0];
    const found = WorkspaceId.safeParse(ws).success
      ? await tokens.authenticateScimToken(ctx, request.headers.authorization, ws)
      : { refused: SCIM_MESSAGES.invalidToken };
    if ('refused' in found) throw new ScimError(401, found.refused);
    const workspace = await findWorkspace(ctx.db, ws);
    if (!workspace) throw new ScimError(401, SCIM_MESSAGES.invalidToken);
    request.scim = { token: found, workspace, address: request.ip };
  });

  discoveryRoutes(instance, ctx);
  userRoutes(instance, ctx);
  groupRoutes(instance, ctx);
}

const schema = <T extends object>(description: string, extra: T) => ({
  schema: { tags: ['scim'], security: [{ scimToken: [] }], description, ...extra },
});
const created = (reply: FastifyReply, resource: { meta: { location: string } }) =>
  reply.code(201).header('location', resource.meta.location).send(resource);

/** ServiceProviderConfig, ResourceTypes and Schemas (RFC 7644 §4). */
function discoveryRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const base = (request: FastifyRequest) =>
    `${ctx.config.publicUrl}${scimBasePath(request.scim.workspace.id)}`;
  app.get(
    '/:ws/ServiceProviderConfig',
    schema('What this SCIM service supports', { params: ScimParams }),
    async (request) => serviceProviderConfigOf(base(request), `${ctx.config.publicUrl}/api/docs`),
  );
  const lists = [
    {
      path: 'ResourceTypes',
      of: resourceTypesOf,
      what: 'The resource types: User and Group',
      missing: 'Resource type not found',
    },
    { path: 'Schemas', of: schemasOf, what: 'The schemas of Users and Groups', missing: 'Schema not found' },
  ];
  for (const { path, of, what, missing } of lists) {
    app.get(`/:ws/${path}`, schema(what, { params: ScimParams }), async (request) => {
      const resources: { id: string }[] = of(base(request));
      return scim.listResponse(resources, resources.length, 1);
    });
    app.get(`/:ws/${path}/:id`, schema(`One of ${path}`, { params: IdParams }), async (request) => {
      const found = of(base(request)).find((r: { id: string }) => r.id === request.params.id);
      if (!found) throw new ScimError(404, missing);
      return found;
    });
  }
}

function userRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:ws/Users',
    schema('Users, filtered (userName, emails.value, externalId, active, …) and paged (startIndex, count)', {
      params: ScimParams,
      querystring: ListQuery,
    }),
    async (request) => scim.listUsers(ctx, request.scim, request.query),
  );
  app.get(
    '/:ws/Users/:id',
    schema('One user', { params: IdParams, querystring: ReadQuery }),
    async (request) => scim.getUser(ctx, request.scim, request.params.id),
  );
  app.post(
    '/:ws/Users',
    schema(
      'Provisions a user: invites their address with the roles their groups map to; 409 uniqueness for a userName taken',
      {
        params: ScimParams,
      },
    ),
    async (request, reply) => created(reply, await scim.createUser(ctx, request.scim, request.body)),
  );
  app.put(
    '/:ws/Users/:id',
    schema('Replaces a user; active false deactivates the member', { params: IdParams }),
    async (request) => scim.replaceUser(ctx, request.scim, request.params.id, request.body),
  );
  app.patch(
    '/:ws/Users/:id',
    schema(
      'Changes a user (PatchOp add, replace, remove); active false deactivates the member and ends their sessions',
      {
        params: IdParams,
      },
    ),
    async (request) => scim.patchUser(ctx, request.scim, request.params.id, request.body),
  );
  app.delete(
    '/:ws/Users/:id',
    schema('Deprovisions a user: the member is deactivated and their sessions end', { params: IdParams }),
    async (request, reply) => {
      await scim.deleteUser(ctx, request.scim, request.params.id);
      return reply.code(204).send();
    },
  );
}

function groupRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/:ws/Groups',
    schema('Groups, filtered (displayName, externalId, members.value) and paged', {
      params: ScimParams,
      querystring: ListQuery,
    }),
    async (request) => scim.listGroups(ctx, request.scim, request.query),
  );
  app.get(
    '/:ws/Groups/:id',
    schema('One group', { params: IdParams, querystring: ReadQuery }),
    async (request) => scim.getGroup(ctx, request.scim, request.params.id, request.query.excludedAttributes),
  );
  app.post(
    '/:ws/Groups',
    schema('Creates a group; its members get the roles it maps to', { params: ScimParams }),
    async (request, reply) => created(reply, await scim.createGroup(ctx, request.scim, request.body)),
  );
  app.put(
    '/:ws/Groups/:id',
    schema('Replaces a group and its members', { params: IdParams }),
    async (request) => scim.replaceGroup(ctx, request.scim, request.params.id, request.body),
  );
  app.patch(
    '/:ws/Groups/:id',
    schema('Changes a group: rename, add or remove members (PatchOp); roles follow', { params: IdParams }),
    async (request) => scim.patchGroup(ctx, request.scim, request.params.id, request.body),
  );
  app.delete(
    '/:ws/Groups/:id',
    schema('Deletes a group; its members lose the roles it mapped to', { params: IdParams }),
    async (request, reply) => {
      await scim.deleteGroup(ctx, request.scim, request.params.id);
      return reply.code(204).send();
    },
  );
}
