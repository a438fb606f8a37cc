import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKeyId, ApiKeyList, CreateApiKeyBody, CreatedApiKey } from '@shared/api/delivery';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as keys from './service';

const KeyParams = WorkspaceParams.extend({ id: ApiKeyId });

export async function apiKeyRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['api-keys'];

  app.post(
    '/api-keys',
    {
      schema: {
        tags,
        description: 'Creates a delivery API key (managers); the key is answered this once',
        params: WorkspaceParams,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await keys.createApiKey(ctx, request.access, request.body)),
  );

  app.get(
    '/api-keys',
    {
      schema: {
        tags,
        description: 'The workspace API keys, without secrets (managers)',
        params: WorkspaceParams,
        response: { 200: ApiKeyList },
      },
    },
    async (request) => keys.listApiKeys(ctx, request.access),
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        tags,
        description: 'Revokes an API key (managers)',
        params: KeyParams,
        response: { 200: z.object({ id: z.string(), revoked: z.literal(true) }) },
      },
    },
    async (request) => keys.revokeApiKey(ctx, request.access, request.params.id),
  );
}
