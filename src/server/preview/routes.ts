import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  CreatedPreviewToken,
  CreatePreviewTokenBody,
  PreviewOrigins,
  PreviewRenderAnswer,
  PreviewRenderBody,
  PreviewTokenId,
} from '@shared/api/preview';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as preview from './service';

/** `/api/v1/workspaces/{ws}/…`: the preview pane's origins, tokens and renders of unsaved values. */
export async function previewRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['preview'];

  app.get(
    '/preview-origins',
    {
      schema: {
        tags,
        description: "The workspace's preview origins: the sites the preview pane may show (any member)",
        params: WorkspaceParams,
        response: { 200: PreviewOrigins },
      },
    },
    async (request) => preview.getPreviewOrigins(ctx, request.access),
  );

  app.put(
    '/preview-origins',
    {
      schema: {
        tags,
        description:
          "Sets the workspace's preview origins, scheme://host[:port] each, at most 20 (managers): a preview URL of another origin is not offered",
        params: WorkspaceParams,
        body: PreviewOrigins,
        response: { 200: PreviewOrigins },
      },
    },
    async (request) => preview.setPreviewOrigins(ctx, request.access, request.body.origins),
  );

  app.post(
    '/preview-tokens',
    {
      schema: {
        tags,
        description:
          'Creates a preview token (mqp_…) that reads drafts through the delivery API with ?preview=draft: for the workspace, a schema, one item or a release the caller can read; it expires after expiresIn seconds (default 3,600, at most 86,400) and is answered this once',
        params: WorkspaceParams,
        body: CreatePreviewTokenBody,
        response: { 201: CreatedPreviewToken },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await preview.createPreviewToken(ctx, request.access, request.body)),
  );

  app.delete(
    '/preview-tokens/:id',
    {
      schema: {
        tags,
        description:
          'Revokes a preview token (its maker or a manager): reads with it answer 401 from then on',
        params: WorkspaceParams.extend({ id: PreviewTokenId }),
      },
    },
    async (request, reply) => {
      await preview.revokePreviewToken(ctx, request.access, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/preview/render',
    {
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        tags,
        description:
          "A form's unsaved values in the delivery shape, as ?preview=draft&include=refs would answer them had they been saved (references as drafts, images signed, blocks, locale fallback), with each field path's edit attribute; checked as a save is (400), nothing written",
        params: WorkspaceParams,
        body: PreviewRenderBody,
        response: { 200: PreviewRenderAnswer },
      },
    },
    async (request) =>
      (await preview.renderUnsaved(ctx, request.access, request.body)) as z.infer<typeof PreviewRenderAnswer>,
  );
}
