import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AddEntriesBody,
  CreateReleaseBody,
  PublishReleaseBody,
  Release,
  RELEASE_MESSAGES,
  ReleaseList,
  ReleaseSummary,
  RemoveEntriesBody,
  UpdateReleaseBody,
} from '@shared/api/releases';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import { publishRelease, revertRelease } from './publish-release';
import { releaseReferenceRoutes } from './references';
import * as releases from './service';

const ReleaseParams = WorkspaceParams.extend({
  id: z.string().regex(/^[A-Za-z0-9]{1,40}$/, { error: RELEASE_MESSAGES.notFound }),
});

export async function releaseRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['releases'];

  app.get(
    '/releases',
    { schema: { tags, params: WorkspaceParams, response: { 200: ReleaseList } } },
    async (request) => releases.listReleases(ctx, request.access),
  );

  app.post(
    '/releases',
    { schema: { tags, params: WorkspaceParams, body: CreateReleaseBody, response: { 201: ReleaseSummary } } },
    async (request, reply) =>
      reply.code(201).send(await releases.createRelease(ctx, request.access, request.body)),
  );

  app.get(
    '/releases/:id',
    {
      schema: {
        tags,
        description: 'The release with each entry’s version, approvals, rights and blockers',
        params: ReleaseParams,
        response: { 200: Release },
      },
    },
    async (request) => releases.getRelease(ctx, request.access, request.params.id),
  );

  app.patch(
    '/releases/:id',
    {
      schema: {
        tags,
        description: 'Changes a release; 409 when updatedAt is stale or the release is published',
        params: ReleaseParams,
        body: UpdateReleaseBody,
        response: { 200: ReleaseSummary },
      },
    },
    async (request) => releases.updateRelease(ctx, request.access, request.params.id, request.body),
  );

  app.delete(
    '/releases/:id',
    {
      schema: {
        tags,
        params: ReleaseParams,
        response: { 200: z.object({ id: z.string(), deleted: z.literal(true) }) },
      },
    },
    async (request) => releases.deleteRelease(ctx, request.access, request.params.id),
  );

  await releaseChangeRoutes(instance, ctx);
  await releaseReferenceRoutes(instance, ctx);
}

/** Entries added and removed in bulk, publish and revert. */
async function releaseChangeRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['releases'];

  app.post(
    '/releases/:id/entries',
    {
      schema: {
        tags,
        description: 'Adds items (or changes their pinned version and action)',
        params: ReleaseParams,
        body: AddEntriesBody,
        response: { 200: Release },
      },
    },
    async (request) => releases.addEntries(ctx, request.access, request.params.id, request.body),
  );

  app.delete(
    '/releases/:id/entries',
    {
      schema: {
        tags,
        description: 'Removes items by id',
        params: ReleaseParams,
        body: RemoveEntriesBody,
        response: { 200: Release },
      },
    },
    async (request) => releases.removeEntries(ctx, request.access, request.params.id, request.body),
  );

  app.post(
    '/releases/:id/publish',
    {
      schema: {
        tags,
        description: 'Publishes every entry in one transaction, or none: 409 with the blockers of each entry',
        params: ReleaseParams,
        body: PublishReleaseBody.nullish(),
        response: { 200: Release },
      },
    },
    async (request) =>
      publishRelease(ctx, request.access, request.params.id, {
        publishRefs: request.body?.publishRefs ?? false,
      }),
  );

  app.post(
    '/releases/:id/revert',
    {
      schema: {
        tags,
        description: 'Restores what the release replaced in its stage, in one transaction',
        params: ReleaseParams,
        response: { 200: Release },
      },
    },
    async (request) => revertRelease(ctx, request.access, request.params.id),
  );
}
