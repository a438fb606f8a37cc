import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HistoryList, HistoryVersion, VersionParams } from '@shared/api/items';
import type { AppContext } from '../context';
import { ITEM_PATH, ItemParams } from '../items/routes';
import { loadSchemaScope } from '../items/scope';
import * as history from './service';

export async function historyRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['history'];

  app.get(
    `${ITEM_PATH}/history`,
    {
      schema: {
        tags,
        description: 'The change log, newest version first',
        params: ItemParams,
        response: { 200: HistoryList },
      },
    },
    async (request) => {
      const scope = await loadSchemaScope(ctx, request.user, request.params.ws, request.params.schema);
      return { versions: await history.listHistory(ctx, scope, request.params.id) };
    },
  );

  app.get(
    `${ITEM_PATH}/history/:num`,
    {
      schema: {
        tags,
        description: 'The full data of one version, to show or compare',
        params: ItemParams.extend(VersionParams.shape),
        response: { 200: HistoryVersion },
      },
    },
    async (request) => {
      const scope = await loadSchemaScope(ctx, request.user, request.params.ws, request.params.schema);
      return history.getVersion(ctx, scope, request.params.id, request.params.num);
    },
  );
}
