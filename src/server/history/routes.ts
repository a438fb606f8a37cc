import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HistoryList, HistoryVersion, Item, VersionParams } from '@shared/api/items';
import { restoreVersion } from './restore-version';
import { presentWritten } from '../items/service';
import type { AppContext } from '../context';
import { baseVersionOf, ITEM_PATH, ItemParams } from '../items/routes';
import { schemaIn } from '../items/scope';
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
      const scope = schemaIn(request.access, request.params.schema);
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
      const scope = schemaIn(request.access, request.params.schema);
      return history.getVersion(ctx, scope, request.params.id, request.params.num);
    },
  );

  app.post(
    `${ITEM_PATH}/history/:num/restore`,
    {
      schema: {
        tags,
        description:
          "'Restore this version': saves that version's data as a new version (approvals start over); a stale baseVersion or If-Match answers 409",
        params: ItemParams.extend(VersionParams.shape),
        body: z
          .object({
            baseVersion: z
              .number()
              .int()
              .min(1)
              .optional()
              .describe('The current version the restore is based on'),
          })
          .strict()
          .optional(),
        response: { 200: Item },
      },
    },
    async (request) => {
      const scope = schemaIn(request.access, request.params.schema);
      const base = baseVersionOf(request, request.body?.baseVersion);
      const row = await restoreVersion(ctx, scope, request.params.id, request.params.num, base);
      return presentWritten(ctx, scope, row);
    },
  );
}
