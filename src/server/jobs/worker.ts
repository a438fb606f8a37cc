import type { AppContext } from '../context';
import { recordDailyAudienceSizes } from '../audiences/service';
import { runCampaignWork } from '../campaigns/engine';
import { runDueSchedules } from './scheduler';
import { sendDuePurges } from './purge-sender';
import { sendDueWebhooks } from './webhook-sender';

/** A job that does the due part of its work and answers how many things it did. */
type Job = (ctx: AppContext, stopping: AbortSignal) => Promise<number>;

const JOBS: Record<string, Job> = {
  schedules: runDueSchedules,
  webhooks: sendDueWebhooks,
  deliveryPurges: sendDuePurges,
  audienceSizes: recordDailyAudienceSizes,
  campaigns: runCampaignWork,
};

/**
 * The background worker: every JOBS_POLL_MS it runs each job until nothing is due. Work is claimed from
 * PostgreSQL (FOR UPDATE SKIP LOCKED with a lease), so several processes share it and each piece runs
 * once. `stop` aborts what is under way (it is recorded and tried again) and waits for the loop to end.
 */
export function startWorker(ctx: AppContext) {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const runOnce = async () => {
    for (const [name, job] of Object.entries(JOBS)) {
      try {
        while (!stopping.signal.aborted && (await job(ctx, stopping.signal)) > 0) {
          // more may be due
        }
      } catch (err) {
        if (!stopping.signal.aborted) ctx.log.error({ err, job: name }, 'background job failed');
      }
    }
  };
  const tick = () => {
    running = runOnce().finally(() => {
      if (!stopping.signal.aborted) timer = setTimeout(tick, ctx.config.jobsPollMs);
    });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
