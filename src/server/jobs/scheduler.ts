import type { AppContext } from '../context';
import { claimDueSchedules } from '../schedules/repository';
import { runSchedule } from '../schedules/service';

/** A claimed schedule is another process's for this long; after it, a died process's work is taken over. */
const LEASE_MS = 60_000;

/** Claims the due schedules and runs them; answers how many ran. */
export async function runDueSchedules(ctx: AppContext): Promise<number> {
  const claimed = await claimDueSchedules(ctx.db, 10, LEASE_MS);
  for (const row of claimed) {
    try {
      await runSchedule(ctx, row);
    } catch (err) {
      // Left running: it is tried again once its lease is over.
      ctx.log.error({ err, schedule: row.id }, 'scheduled publish failed');
    }
  }
  return claimed.length;
}
