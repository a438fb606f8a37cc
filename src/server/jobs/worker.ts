import { PgBoss } from 'pg-boss';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { recordDailyAudienceSizes } from '../audiences/service';
import { runModelMigrations } from '../model/migrate';
import { workSendLanes } from '../campaigns/engine';
import { decideExperiments } from '../campaigns/experiments';
import {
  checkAudienceEntries,
  enterDueDates,
  handleJourneyEvents,
  runJourneyTasks,
} from '../journeys/engine';
import { journeyWebhookSender } from './journey-webhooks';
import { fillPendingSearchTexts } from '../items/search-text';
import { BOSS_OPTIONS, trackedJobDb } from '../queue/job-db';
import { onEnqueue, type JobQueue } from '../queue/queue';
import {
  AUDIENCE_SIZES_QUEUE,
  CAMPAIGN_EXPERIMENT_QUEUE,
  CAMPAIGN_SEND_QUEUE,
  DELIVERY_PURGE_QUEUE,
  JOURNEY_AUDIENCE_QUEUE,
  JOURNEY_DATE_QUEUE,
  JOURNEY_EVENT_QUEUE,
  JOURNEY_TASK_QUEUE,
  MODEL_MIGRATION_QUEUE,
  RELEASE_PUBLISH_QUEUE,
  SCHEDULE_QUEUE,
  SEARCH_TEXT_QUEUE,
  SWEEP_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
} from '../queue/queues';
import { runReleaseJobs } from './release-scheduler';
import { runSchedules } from './scheduler';
import { PURGE_BATCH, sendPurges } from './purge-sender';
import { sweepDueWork } from './sweep';
import { sendWebhooks } from './webhook-sender';

/** What works a queue's jobs in every process that runs jobs. */
interface JobHandler<T extends object> {
  queue: JobQueue<T>;
  /** Jobs fetched at once and given to one call (default 1). */
  batchSize?: number;
  /** Look for jobs every this many seconds instead of every JOBS_POLL_MS (queues fed by `cron`). */
  pollSeconds?: number;
  /** A cron expression (UTC) on which one job is added; one is also added when a worker starts. */
  cron?: string;
  /** How long a try may run before it counts as abandoned (default: JOBS_EXPIRE_SECONDS). */
  expireInSeconds?: number;
  /** Retries after a failed or abandoned try (default 20, with backoff from JOBS_RETRY_SECONDS). */
  retryLimit?: number;
  /** Whether this process works the queue (default: always); no worker, no polling. */
  enabled?(config: Config): boolean;
  /**
   * Does the work of the jobs' data. A throw fails the batch, which pg-boss tries again after
   * JOBS_RETRY_SECONDS; `stopping` is aborted when the server stops.
   */
  handle(ctx: AppContext, data: T[], stopping: AbortSignal): Promise<void>;
}

const handler = <T extends object>(definition: JobHandler<T>) => definition as unknown as JobHandler<object>;

/** Every queue's handler. */
const JOB_HANDLERS: JobHandler<object>[] = [
  handler({ queue: WEBHOOK_DELIVERY_QUEUE, batchSize: 10, handle: sendWebhooks }),
  handler({ queue: SCHEDULE_QUEUE, batchSize: 10, handle: (ctx, keys) => runSchedules(ctx, keys) }),
  handler({ queue: RELEASE_PUBLISH_QUEUE, handle: (ctx, keys) => runReleaseJobs(ctx, keys) }),
  handler({
    queue: DELIVERY_PURGE_QUEUE,
    batchSize: PURGE_BATCH,
    enabled: (config) => config.deliveryPurge !== undefined,
    handle: sendPurges,
  }),
  handler({
    queue: AUDIENCE_SIZES_QUEUE,
    pollSeconds: 30,
    cron: '*/10 * * * *',
    handle: (ctx) => recordDailyAudienceSizes(ctx),
  }),
  // Works until no item is left without its search text (an upgrade's million rows take a while).
  handler({
    queue: SEARCH_TEXT_QUEUE,
    expireInSeconds: 3600,
    handle: async (ctx, _jobs, stopping) => void (await fillPendingSearchTexts(ctx, stopping)),
  }),
  handler({ queue: SWEEP_QUEUE, pollSeconds: 30, cron: '* * * * *', handle: (ctx) => sweepDueWork(ctx) }),
  // A lane renews its chunk leases as it works; its own job may run long (a throttled chunk), and a
  // lane lost with its process is queued again by the sweep.
  handler({ queue: CAMPAIGN_SEND_QUEUE, expireInSeconds: 3600, retryLimit: 5, handle: workSendLanes }),
  handler({ queue: CAMPAIGN_EXPERIMENT_QUEUE, handle: decideExperiments }),
  // A try works a workspace's migration for half its expiry, then queues the next; one that dies is
  // resumed from the rows by the next try, and the sweep queues one for a running change without.
  handler({ queue: MODEL_MIGRATION_QUEUE, handle: runModelMigrations }),
  // A batch's wait, exit and email steps are done in one transaction (runTaskSet); the others one by one.
  handler({
    queue: JOURNEY_TASK_QUEUE,
    batchSize: 50,
    handle: (ctx, keys, stopping) => runJourneyTasks(ctx, keys, journeyWebhookSender(ctx, stopping)),
  }),
  // A batch's events of a workspace enter their profiles together (handleJourneyEvents).
  handler({ queue: JOURNEY_EVENT_QUEUE, batchSize: 50, handle: handleJourneyEvents }),
  handler({ queue: JOURNEY_AUDIENCE_QUEUE, batchSize: 10, cron: '* * * * *', handle: checkAudienceEntries }),
  handler({ queue: JOURNEY_DATE_QUEUE, cron: '* * * * *', handle: (ctx) => enterDueDates(ctx) }),
];

/** The singleton key of the jobs `cron` and a worker's start add: one waiting at a time. */
const RECURRING_KEY = 'recurring';

/**
 * The background worker: pg-boss over this process's database client, working every queue of
 * JOB_HANDLERS, so several processes share the jobs. A job whose process dies is tried again elsewhere
 * once it has run JOBS_EXPIRE_SECONDS (pg-boss checks every JOBS_CHECK_SECONDS). `stop` aborts
 * what is under way (handlers record it and queue it again), then waits for the handlers and pg-boss's
 * queries to end.
 */
export async function startWorker(ctx: AppContext) {
  const { config } = ctx;
  const stopping = new AbortController();
  const tracked = trackedJobDb(ctx.db);
  const boss = new PgBoss({
    ...BOSS_OPTIONS,
    db: tracked.jobDb,
    // installJobQueues has migrated the schema, and runs its background migrations.
    migrate: false,
    supervise: true,
    schedule: true,
    // Each queue's monitor, in one process at a time, fails the tries that ran past their expiry.
    superviseIntervalSeconds: config.jobsCheckSeconds,
    monitorIntervalSeconds: config.jobsCheckSeconds,
    // The cron jobs are added every 10 minutes at the most often: their queue need not be polled every 5 s.
    cronWorkerIntervalSeconds: 30,
  });
  boss.on('error', (err: unknown) => {
    if (!stopping.signal.aborted) ctx.log.error({ err }, 'job queue failed');
  });
  await boss.start();
  const unsubscribe: (() => void)[] = [];
  for (const handler of JOB_HANDLERS) {
    const { queue, batchSize = 1, pollSeconds, cron, enabled, handle } = handler;
    if (enabled && !enabled(config)) continue;
    await boss.createQueue(queue.name, { policy: queue.policy });
    await boss.updateQueue(queue.name, {
      retryLimit: handler.retryLimit ?? 20,
      retryDelay: config.jobsRetrySeconds,
      retryBackoff: true,
      expireInSeconds: handler.expireInSeconds ?? config.jobsExpireSeconds,
    });
    const pollingIntervalSeconds = Math.max(0.5, pollSeconds ?? config.jobsPollMs / 1000);
    const worker = await boss.work<object>(
      queue.name,
      { batchSize, pollingIntervalSeconds },
      async (jobs) => {
        // Fetched while stopping: failed at once, so another process tries them.
        if (stopping.signal.aborted) throw new Error('The server is stopping');
        await handle(
          ctx,
          jobs.map((job) => job.data),
          stopping.signal,
        );
      },
    );
    unsubscribe.push(onEnqueue(ctx.db, queue.name, () => boss.notifyWorker(worker)));
    if (cron) {
      await boss.schedule(queue.name, cron, {}, { tz: 'UTC', singletonKey: RECURRING_KEY });
      await boss.send(queue.name, {}, { singletonKey: RECURRING_KEY });
      boss.notifyWorker(worker);
    }
  }

  return {
    async stop() {
      stopping.abort();
      for (const stop of unsubscribe) stop();
      await boss.stop({ graceful: true, timeout: 30_000 });
      // Fetches under way when the workers were told to stop, and the fail of what they fetched.
      await tracked.settled();
    },
  };
}
