import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateScheduleBody, Schedule, SCHEDULE_MESSAGES, ScheduleList } from '@shared/api/schedules';
import type { AppContext } from '../context';
import { ITEM_PATH, ItemParams } from '../items/routes';
import { schemaIn } from '../items/scope';
import * as schedules from './service';

const ScheduleParams = ItemParams.extend({
  scheduleId: z.string().regex(/^[A-Za-z0-9]{1,40}$/, { error: SCHEDULE_MESSAGES.notFound }),
});

export async function scheduleRoutes(instance: FastifyInstance, ctx: AppContext) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const tags = ['publishing'];

  app.post(
    `${ITEM_PATH}/schedules`,
    {
      schema: {
        tags,
        description:
          'Plans a publish or unpublish in a stage at a time; run with the planner’s rights at that time',
        params: ItemParams,
        body: CreateScheduleBody,
        response: { 201: Schedule },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await schedules.createSchedule(
            ctx,
            schemaIn(request.access, request.params.schema),
            request.params.id,
            request.body,
          ),
        ),
  );

  app.get(
    `${ITEM_PATH}/schedules`,
    {
      schema: {
        tags,
        description: 'The item’s schedules, latest time first',
        params: ItemParams,
        response: { 200: ScheduleList },
      },
    },
    async (request) =>
      schedules.listSchedules(ctx, schemaIn(request.access, request.params.schema), request.params.id),
  );

  app.delete(
    `${ITEM_PATH}/schedules/:scheduleId`,
    {
      schema: {
        tags,
        description: 'Cancels a pending schedule',
        params: ScheduleParams,
        response: { 200: Schedule },
      },
    },
    async (request) =>
      schedules.cancelSchedule(
        ctx,
        schemaIn(request.access, request.params.schema),
        request.params.id,
        request.params.scheduleId,
      ),
  );
}
