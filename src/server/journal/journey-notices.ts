import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { rows } from '../db/migrate';
import { enqueue, enqueueMany } from '../queue/queue';
import {
  ANY_EVENT_KEY,
  JOURNEY_AUDIENCE_QUEUE,
  JOURNEY_EVENT_QUEUE,
  type JourneyEvents,
} from '../queue/queues';
import { textArray } from '../db/text-array';

/** Events handed to the journeys' job at once. */
const EVENTS_PER_JOB = 500;

/**
 * Hands stored customer events to the journeys that react to their keys (an entry, a goal, a wait for
 * an event; any key, for an entry audience's look), as jobs in the writer's transaction: the journeys see an event if and only if it
 * committed, in whichever process runs the job, at once. A workspace with no live journey on those
 * keys costs one indexed look-up.
 */
export async function noticeJourneyEvents(
  tx: Db | Tx,
  workspaceId: string,
  events: Map<string, [...JourneyEvents['events'][number], string?][]>,
) {
  const keys = [...events.keys()];
  if (!keys.length) return;
  const wanted = rows<{ key: string }>(
    await tx.execute(sql`
      select distinct unnest(event_keys) as key from journey_starts
      where workspace_id = ${workspaceId}::text and state <> 'stopped'
        and event_keys && ${textArray([...keys, ANY_EVENT_KEY])}`),
  ).map((row) => row.key);
  // A journey entered by an audience looks again at who is in it (one waiting look per workspace).
  if (wanted.includes(ANY_EVENT_KEY))
    await enqueue(tx, JOURNEY_AUDIENCE_QUEUE, { workspaceId }, { singletonKey: workspaceId });
  const noticed = wanted.flatMap((key) =>
    (events.get(key) ?? []).map(([profileId, event, at, properties]): JourneyEvents['events'][number] => [
      profileId,
      event,
      at,
      properties,
    ]),
  );
  if (noticed.length === 0) return;
  const jobs: { data: JourneyEvents }[] = [];
  for (let i = 0; i < noticed.length; i += EVENTS_PER_JOB) {
    jobs.push({ data: { workspaceId, events: noticed.slice(i, i + EVENTS_PER_JOB) } });
  }
  await enqueueMany(tx, JOURNEY_EVENT_QUEUE, jobs);
}

/**
 * Profiles whose attributes changed (an import, the API, a member's edit) may have joined or left an
 * audience: the journeys entered by an audience look again at once (one waiting look per workspace), in
 * the writer's transaction, rather than at the minute's look.
 */
export async function noticeProfileChanges(tx: Db | Tx, workspaceId: string) {
  const [watched] = rows<{ found: number }>(
    await tx.execute(sql`
      select 1 as found from journey_starts
      where workspace_id = ${workspaceId}::text and state <> 'stopped'
        and event_keys && ${textArray([ANY_EVENT_KEY])}
      limit 1`),
  );
  if (watched) await enqueue(tx, JOURNEY_AUDIENCE_QUEUE, { workspaceId }, { singletonKey: workspaceId });
}
