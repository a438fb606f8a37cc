import type { AppContext } from '../context';
import { queueActiveSends } from '../campaigns/engine';
import { queueDueExperiments } from '../campaigns/experiment-repository';
import { queueDueTasks } from '../journeys/engine';
import { queueDuePurges } from '../delivery/purge-repository';
import { queueRunningMigrations } from '../model/migrate';
import { queueDueReleases } from '../releases/schedule-repository';
import { queueDueSchedules } from '../schedules/repository';
import { queueDueDeliveries } from '../webhooks/repository';
import { hasPendingSearchTexts } from '../items/search-text-repository';
import { enqueue, wakeWorkers } from '../queue/queue';
import {
  CAMPAIGN_EXPERIMENT_QUEUE,
  DELIVERY_PURGE_QUEUE,
  JOURNEY_TASK_QUEUE,
  MODEL_MIGRATION_QUEUE,
  RELEASE_PUBLISH_QUEUE,
  SCHEDULE_QUEUE,
  SEARCH_TEXT_JOB,
  SEARCH_TEXT_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
} from '../queue/queues';

/**
 * Queues a job for every row whose work is due (a job for a row that has one waiting is dropped by its
 * key): rows written before the queue, and any whose job was lost; and the computing of items' search
 * text while some have none. Runs every minute and at each start.
 */
export async function sweepDueWork(ctx: AppContext) {
  await queueDueDeliveries(ctx.db);
  await queueDueSchedules(ctx.db);
  await queueDueReleases(ctx.db);
  if (ctx.config.deliveryPurge) await queueDuePurges(ctx.db);
  await queueActiveSends(ctx);
  await queueDueExperiments(ctx.db);
  await queueDueTasks(ctx.db);
  if (await hasPendingSearchTexts(ctx.db))
    await enqueue(ctx.db, SEARCH_TEXT_QUEUE, {}, { singletonKey: SEARCH_TEXT_JOB });
  await queueRunningMigrations(ctx.db);
  for (const queue of [
    CAMPAIGN_EXPERIMENT_QUEUE,
    WEBHOOK_DELIVERY_QUEUE,
    SCHEDULE_QUEUE,
    RELEASE_PUBLISH_QUEUE,
    DELIVERY_PURGE_QUEUE,
    MODEL_MIGRATION_QUEUE,
    JOURNEY_TASK_QUEUE,
  ])
    wakeWorkers(ctx.db, queue);
}
