import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import {
  ChangeSetBody,
  CONTENT_MODEL_MESSAGES,
  ContentModelAnswer,
  ModelApplied,
  ModelChange,
  ModelHistory,
  PlanAnswer,
} from '@shared/api/content-model';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as model from './service';

const ChangeParams = WorkspaceParams.extend({
  id: z.string().regex(/^[A-Za-z0-9]{1,40}$/, { error: CONTENT_MODEL_MESSAGES.changeNotFound }),
});

/** `/api/v1/workspaces/{ws}/content-model`: the workspace's model, and the change sets that change it. */
export async function contentModelRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['content model'];
  const params = WorkspaceParams;

  app.get(
    '/content-model',
    {
      schema: {
        tags,
        description:
          'The content model (domains, schemas, block types) at its current version; admin domains for managers only',
        params,
        response: { 200: ContentModelAnswer },
      },
    },
    async (request) => {
      const { model: current, permissions } = request.access;
      const doc = permissions.canManageWorkspace
        ? current.doc
        : { ...current.doc, domains: current.doc.domains.filter((domain) => !domain.admin) };
      const now = new Date().toISOString();
      return { version: current.version, model: doc, renamed: current.renamed.filter((r) => r.until > now) };
    },
  );

  app.get(
    '/content-model/export',
    {
      schema: {
        tags,
        description: 'The model as one document, to keep in a repository and apply elsewhere (managers)',
        params,
        response: { 200: ContentModelAnswer },
      },
    },
    async (request) => model.exportModel(request.access),
  );

  await contentModelChangeRoutes(instance, ctx);
}

/** The change sets: planned, applied, listed and reverted (managers). */
async function contentModelChangeRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['content model'];
  const params = WorkspaceParams;

  /** A route taking a change set (operations or a whole document, up to 16 MB). */
  const takingChangeSet = <R extends ZodType>(description: string, answer: R) => ({
    schema: { tags, description, params, body: ChangeSetBody, response: { 200: answer } },
    bodyLimit: 16 * 1024 * 1024,
  });

  app.post(
    '/content-model/plan',
    takingChangeSet(
      'What a change set (operations, or a whole model document) would do to the model and its items; writes nothing',
      PlanAnswer,
    ),
    async (request) => model.planChangeSet(ctx, request.access, request.body),
  );

  app.post(
    '/content-model/apply',
    takingChangeSet(
      'Applies a change set (operations, or a whole model document) at once, all or nothing; 409 when baseVersion is stale',
      ModelApplied,
    ),
    async (request) => model.applyChangeSet(ctx, request.access, request.body),
  );

  app.get(
    '/content-model/changes',
    {
      schema: {
        tags,
        description: 'Every applied change set, newest first',
        params,
        response: { 200: ModelHistory },
      },
    },
    async (request) => model.listChanges(ctx, request.access),
  );

  app.get(
    '/content-model/changes/:id',
    {
      schema: {
        tags,
        description: 'One change set: its operations, progress and the items it transformed',
        params: ChangeParams,
        response: { 200: ModelChange },
      },
    },
    async (request) => model.getChange(ctx, request.access, request.params.id),
  );

  app.post(
    '/content-model/changes/:id/revert',
    {
      schema: {
        tags,
        description: 'Applies the change set that undoes this one: a new change set in the history',
        params: ChangeParams,
        body: z.object({ baseVersion: z.number().int().min(0) }),
        response: { 200: ModelApplied },
      },
    },
    async (request) => model.revertChange(ctx, request.access, request.params.id, request.body.baseVersion),
  );
}
