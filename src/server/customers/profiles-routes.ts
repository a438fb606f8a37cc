import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EraseProfileAnswer,
  EraseProfileOptions,
  ProfileDetail,
  ProfileEditBody,
  ProfileEventsPage,
  ProfileEventsQuery,
  ProfileId,
  ProfilePage,
  ProfilesQuery,
} from '@shared/api/customers';
import { ErrorBody } from '@shared/api/errors';
import type { AppContext } from '../context';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as profiles from './profiles-service';

/** `/api/v1/workspaces/{ws}/profiles…`, under the workspace scope: search, a profile, its timeline, edits and erasure. */
export async function profileRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['customers'];
  const params = WorkspaceParams;

  app.get(
    '/profiles',
    {
      schema: {
        tags,
        summary: 'Search profiles by id, email or any string attribute; or page through them by id',
        params,
        querystring: ProfilesQuery,
        response: { 200: ProfilePage },
      },
    },
    async (request) => profiles.listProfiles(ctx, request.access, request.query),
  );

  const profileParams = WorkspaceParams.extend({ profileId: ProfileId });
  app.get(
    '/profiles/:profileId',
    {
      schema: {
        tags,
        summary: "One profile's attributes (with their labels), consent and latest events",
        params: profileParams,
        response: { 200: ProfileDetail, 404: ErrorBody },
      },
    },
    async (request) => profiles.getProfile(ctx, request.access, request.params.profileId),
  );

  app.get(
    '/profiles/:profileId/events',
    {
      schema: {
        tags,
        summary: "A profile's timeline, newest first, paged, optionally of one event",
        params: profileParams,
        querystring: ProfileEventsQuery,
        response: { 200: ProfileEventsPage, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => profiles.profileTimeline(ctx, request.access, request.params.profileId, request.query),
  );

  app.patch(
    '/profiles/:profileId',
    {
      schema: {
        tags,
        summary: "Edit a profile's attributes and email consent (members who may import)",
        description: 'Send the updatedAt you read: if the profile changed since, 409 and nothing is written.',
        params: profileParams,
        body: ProfileEditBody,
        response: {
          200: ProfileDetail.pick({ profile: true, consent: true }),
          400: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request) => profiles.editProfile(ctx, request.access, request.params.profileId, request.body),
  );

  app.delete(
    '/profiles/:profileId',
    {
      schema: {
        tags,
        summary: 'Erase a profile with its events and counts (members who may import)',
        description:
          'One transaction; the audit row keeps no personal data. `suppress` (query or body) keeps the id on the suppression list so a later import or tracking call cannot bring it back.',
        params: profileParams,
        querystring: EraseProfileOptions,
        body: EraseProfileOptions.nullish(),
        response: { 200: EraseProfileAnswer, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) =>
      profiles.eraseProfile(
        ctx,
        request.access,
        request.params.profileId,
        request.query.suppress || request.body?.suppress === true,
      ),
  );
}
