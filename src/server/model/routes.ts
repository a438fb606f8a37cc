import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ContentModelAnswer } from '@shared/api/content-model';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';

/** `/api/v1/workspaces/{ws}/content-model`: the workspace's model, and the change sets that change it. */
export async function contentModelRoutes(instance: FastifyInstance, _ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['content model'];

  app.get(
    '/content-model',
    {
      schema: {
        tags,
        description:
          'The content model (domains, schemas, block types) at its current version; admin domains for managers only',
        params: WorkspaceParams,
        response: { 200: ContentModelAnswer },
      },
    },
    async (request) => {
      const { model, permissions } = request.access;
      const doc = permissions.canManageWorkspace
        ? model.doc
        : { ...model.doc, domains: model.doc.domains.filter((domain) => !domain.admin) };
      return { version: model.version, model: doc };
    },
  );
}
