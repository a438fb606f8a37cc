import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CAMPAIGN_MESSAGES,
  CampaignPreview,
  CampaignReadiness,
  CampaignResults,
  CampaignSend,
  CampaignSendAnswer,
  CampaignSends,
  CampaignStatuses,
  CampaignTestSendAnswer,
  CampaignTestSendBody,
  SendCampaignBody,
} from '@shared/api/campaigns';
import type { AppContext } from '../context';
import { sendCsv } from '../http/csv-output';
import { WorkspaceParams } from '../workspaces/workspace-scope';
import * as campaigns from './service';

const Id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: CAMPAIGN_MESSAGES.notFound });
const CampaignParams = WorkspaceParams.extend({ id: Id });
const SendParams = CampaignParams.extend({
  sendId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: CAMPAIGN_MESSAGES.sendNotFound }),
});
const SendAction = z.enum(['pause', 'resume', 'cancel']);

export async function campaignRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['campaigns'];

  app.post(
    '/campaigns/:id/send',
    {
      schema: {
        tags,
        description:
          "Sends the campaign's current, fully approved version at its send time, or now, to its " +
          "audience's members no earlier send of it reached, or with `everyone` to all of them (publish " +
          'rights on campaign). 202 with the send; the audience is snapshotted when it starts.',
        params: CampaignParams,
        body: SendCampaignBody.optional(),
        response: { 202: CampaignSendAnswer },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await campaigns.requestSend(ctx, request.access, request.params.id, request.body ?? {})),
  );

  await sendRoutes(instance, ctx);

  app.get(
    '/campaigns/statuses',
    {
      schema: {
        tags,
        description:
          'Where each campaign stands: draft, scheduled, sending, testing (an A/B test waiting to pick its winner) or sent, with its counts',
        params: WorkspaceParams,
        response: { 200: CampaignStatuses },
      },
    },
    async (request) => campaigns.campaignStatuses(ctx, request.access),
  );

  app.get(
    '/campaigns/:id/readiness',
    {
      schema: {
        tags,
        description: 'Who a send would reach now, and what must change before it can be sent',
        params: CampaignParams,
        response: { 200: CampaignReadiness },
      },
    },
    async (request) => campaigns.readiness(ctx, request.access, request.params.id),
  );

  app.get(
    '/campaigns/:id/preview',
    {
      schema: {
        tags,
        params: CampaignParams,
        querystring: z.object({ profileId: z.string().trim().min(1).max(200).optional() }),
        response: { 200: CampaignPreview },
      },
    },
    async (request) => campaigns.preview(ctx, request.access, request.params.id, request.query.profileId),
  );

  app.post(
    '/campaigns/:id/test-send',
    {
      schema: {
        tags,
        description: "The campaign's message, filled as a profile, to test addresses (edit rights)",
        params: CampaignParams,
        body: CampaignTestSendBody,
        response: { 200: CampaignTestSendAnswer },
      },
    },
    async (request) => campaigns.sendCampaignTest(ctx, request.access, request.params.id, request.body),
  );
}

/** A campaign's sends: listed, each with its state, its control, its resend and its results. */
async function sendRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['campaigns'];

  app.get(
    '/campaigns/:id/sends',
    { schema: { tags, params: CampaignParams, response: { 200: CampaignSends } } },
    async (request) => campaigns.listSends(ctx, request.access, request.params.id),
  );

  app.get(
    '/campaigns/:id/sends/:sendId',
    {
      schema: {
        tags,
        description: 'A send: queued, sending, paused, done or cancelled, with its counts',
        params: SendParams,
        response: { 200: CampaignSend },
      },
    },
    async (request) => campaigns.getSend(ctx, request.access, request.params.id, request.params.sendId),
  );

  app.post(
    '/campaigns/:id/sends/:sendId/resend-unconfirmed',
    {
      schema: {
        tags,
        description:
          "Sends a finished send's unconfirmed recipients their message again (publish rights on " +
          'campaign): the provider may have taken some of them already, so some may get it twice',
        params: SendParams,
        response: { 200: CampaignSendAnswer },
      },
    },
    async (request) =>
      campaigns.resendUnconfirmed(ctx, request.access, request.params.id, request.params.sendId),
  );

  app.post(
    '/campaigns/:id/sends/:sendId/:action',
    {
      schema: {
        tags,
        description: 'pause, resume or cancel a send (publish rights on campaign)',
        params: SendParams.extend({ action: SendAction }),
        response: { 200: CampaignSend },
      },
    },
    async (request) =>
      campaigns.changeSend(
        ctx,
        request.access,
        request.params.id,
        request.params.sendId,
        request.params.action,
      ),
  );

  app.get(
    '/campaigns/:id/sends/:sendId/results',
    { schema: { tags, params: SendParams, response: { 200: CampaignResults } } },
    async (request) => campaigns.results(ctx, request.access, request.params.id, request.params.sendId),
  );

  app.get(
    '/campaigns/:id/sends/:sendId/results.csv',
    {
      schema: {
        tags,
        summary: "A send's results per recipient, as CSV (streamed; the export right over customer data)",
        params: SendParams,
      },
    },
    async (request, reply) => {
      const { id, sendId } = request.params;
      const lines = await campaigns.sendResultsCsv(ctx, request.access, id, sendId);
      return sendCsv(reply, `campaign-${id}-send-${sendId}.csv`, lines);
    },
  );
}
