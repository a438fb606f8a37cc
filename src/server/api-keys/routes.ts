import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKeyId, ApiKeyList, CreateApiKeyBody, CreatedApiKey } from '@shared/api/delivery';
import { WorkspaceId } from '@shared/api/workspaces';
import type { AppContext } from '../context';
import { loadWorkspaceAccess } from '../workspaces/access';
import * as keys from './service';

const WsParams = z.object({ ws: WorkspaceId });
const KeyParams = WsParams.extend({ id: ApiKeyId });

export async function apiKeyRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['api-keys'];

  app.post(
    '/workspaces/:ws/api-keys',
    {
      schema: {
        tags,
        description: 'Creates a delivery API key (managers); the key is answered this once',
        params: WsParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) => {
      const access = await loadWorkspaceAccess(ctx, request.user, request.params.ws);
      return reply.code(201).send(await keys.createApiKey(ctx, access, request.body));
    },
  );

  app.get(
    '/workspaces/:ws/api-keys',
    {
      schema: {
        tags,
        description: 'The workspace API keys, without secrets (managers)',
        params: WsParams,
        response: { 200: ApiKeyList },
      },
    },
    async (request) => keys.listApiKeys(ctx, await loadWorkspaceAccess(ctx, request.user, request.params.ws)),
  );

  app.delete(
    '/workspaces/:ws/api-keys/:id',
    {
      schema: {
        tags,
        description: 'Revokes an API key (managers)',
        params: KeyParams,
        response: { 200: z.object({ id: z.string(), revoked: z.literal(true) }) },
      },
    },
    async (request) =>
      keys.revokeApiKey(
        ctx,
        await loadWorkspaceAccess(ctx, request.user, request.params.ws),
        request.params.id,
      ),
  );
}
