import { sql, type SQL } from 'drizzle-orm';
import { defineQueue } from './queue';

/** A row of an outbox table that a job works on. */
export interface RowKey {
  workspaceId: string;
  id: string;
}

/** One webhook delivery to try (its row in webhook_deliveries keeps the tries the API shows). */
export const WEBHOOK_DELIVERY_QUEUE = defineQueue<RowKey>('webhook-delivery', 'short');
/** One scheduled publish or unpublish, due at the schedule's time. */
export const SCHEDULE_QUEUE = defineQueue<RowKey>('schedule', 'short');
/** One scheduled release publish, due at the release's publishAt. */
export const RELEASE_PUBLISH_QUEUE = defineQueue<RowKey>('release-publish', 'short');
/** One queued CDN purge; purges due together go out as one request. */
export const DELIVERY_PURGE_QUEUE = defineQueue<RowKey>('delivery-purge', 'short');
/** The daily audience sizes of the dashboard (every 10 minutes, for the workspaces not measured today). */
export const AUDIENCE_SIZES_QUEUE = defineQueue<Record<string, never>>('audience-sizes', 'short');
/** Computes the search text of the items still without one (items/search-text.ts); the sweep queues it. */
export const SEARCH_TEXT_QUEUE = defineQueue<Record<string, never>>('item-search-text', 'short');
/** The singleton key of the search-text job: one waiting at a time. */
export const SEARCH_TEXT_JOB = 'pending';
/** Queues a job for due rows that have none (rows written before the queue, work whose job was lost). */
export const SWEEP_QUEUE = defineQueue<Record<string, never>>('jobs-sweep', 'short');

/** One of a campaign send's lanes: each works the send's chunks for a while, then queues itself again. */
export interface SendLane {
  workspaceId: string;
  id: string;
  lane: number;
}
export const CAMPAIGN_SEND_QUEUE = defineQueue<SendLane>('campaign-send', 'short');
/** A campaign experiment's pick of its winner (and the winner's send), due when its wait is over. */
export const CAMPAIGN_EXPERIMENT_QUEUE = defineQueue<RowKey>('campaign-experiment', 'short');

/** One step of one profile's journey run. */
export interface JourneyTaskKey {
  workspaceId: string;
  runId: string;
  seq: number;
}
/**
 * The steps of journey runs of one workspace due at one time (a wait's end): one task (its key, also
 * the job's singleton key), or several as `[runId, seq]` pairs.
 */
export type JourneyTaskJob = JourneyTaskKey | { workspaceId: string; tasks: [string, number][] };
export const JOURNEY_TASK_QUEUE = defineQueue<JourneyTaskJob>('journey-task', 'short');
/** Customer events a running journey may react to (entry, goal, a wait for an event), just stored. */
export interface JourneyEvents {
  workspaceId: string;
  events: [profileId: string, event: string, at: string, properties: Record<string, unknown>][];
}
export const JOURNEY_EVENT_QUEUE = defineQueue<JourneyEvents>('journey-events', 'standard');
/**
 * A look at the entry audiences of a workspace's running journeys (new events stored there), or of
 * every workspace's (the minute's job, without a workspace): who joined or left since the last look.
 */
export const JOURNEY_AUDIENCE_QUEUE = defineQueue<{ workspaceId?: string }>('journey-audiences', 'short');
/** Every minute: the date entries' occurrences that fell due. */
export const JOURNEY_DATE_QUEUE = defineQueue<Record<string, never>>('journey-dates', 'short');
/** The event key a journey entered by an audience lists: any stored event may change who is in it. */
export const ANY_EVENT_KEY = '*';

/** A workspace whose data follows a change of its content model (model/migrate.ts). */
export interface WorkspaceKey {
  workspaceId: string;
}
export const MODEL_MIGRATION_QUEUE = defineQueue<WorkspaceKey>('model-migration', 'short');

/** Rows of one kind the sweep queues a job for at most, each time it runs. */
export const SWEEP_LIMIT = 10_000;

/** Every queue; buildApp creates them. */
export const JOB_QUEUES = [
  WEBHOOK_DELIVERY_QUEUE,
  SCHEDULE_QUEUE,
  RELEASE_PUBLISH_QUEUE,
  DELIVERY_PURGE_QUEUE,
  AUDIENCE_SIZES_QUEUE,
  SEARCH_TEXT_QUEUE,
  SWEEP_QUEUE,
  CAMPAIGN_SEND_QUEUE,
  CAMPAIGN_EXPERIMENT_QUEUE,
  MODEL_MIGRATION_QUEUE,
  JOURNEY_TASK_QUEUE,
  JOURNEY_EVENT_QUEUE,
  JOURNEY_AUDIENCE_QUEUE,
  JOURNEY_DATE_QUEUE,
];

/** The singleton key of a row's job: one waiting job per row. */
export const rowKey = (row: RowKey) => `${row.workspaceId}/${row.id}`;

/** `rowKey` in SQL: the jobs (data and singleton key, for `insertJobsFrom`) of the rows `from` selects. */
export const rowJobs = (from: SQL) =>
  sql`(select jsonb_build_object('workspaceId', workspace_id, 'id', id) as data,
         workspace_id || '/' || id as singleton_key from ${from})`;
