import type { PublishStatus } from '@shared/publishing/status';
import type { Release, ReleaseEntry, ReleaseSummary } from '@shared/api/releases';
import { stageValue } from '@shared/publishing/stages';
import { dayjs } from '@shared/time/dayjs';
import { DATE_DISPLAY_FORMAT } from '@shared/time/zones';

export const RELEASE_STATE_LABELS: Record<ReleaseSummary['state'], { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'gray' },
  published: { label: 'Published', color: 'teal' },
  reverted: { label: 'Reverted', color: 'orange' },
};

/** The label of a stage value among the workspace's stage labels (the value itself when it is gone). */
export const stageLabelOf = (stages: readonly string[], stage: string) =>
  stages.find((label) => stageValue(label) === stage) ?? stage;

/** The entry's publishing state in the release's stage, in the terms of the item chips (spec §4). */
export function entryPublishStatus(
  entry: Pick<ReleaseEntry, 'stageVersion' | 'currentVersion'>,
): PublishStatus {
  if (entry.stageVersion === null) return 'NOT_PUBLISHED';
  return entry.stageVersion === entry.currentVersion ? 'CURRENT' : 'MODIFIED';
}

/** 'Version 3', or 'Latest (version 4)' when the entry goes out at whatever is current at publish time. */
export function entryVersionLabel(entry: Pick<ReleaseEntry, 'version' | 'currentVersion'>) {
  if (entry.version !== null) return `Version ${entry.version}`;
  return entry.currentVersion === null ? 'Latest' : `Latest (version ${entry.currentVersion})`;
}

/**
 * Why 'Publish release' is refused, in the order a person fixes them: the release's own state, rights,
 * then each blocked entry by name. Empty when it can be published.
 */
export function publishRefusals(release: Release, canPublishSomething: boolean): string[] {
  if (release.state === 'published') return ['This release is published. Revert it before publishing again.'];
  if (!canPublishSomething) return ['You do not have permission to publish any item type'];
  if (release.entries.length === 0) return ['This release has no entries'];
  const blocked = release.entries.filter((e) => e.blockers.length > 0);
  if (blocked.length === 0) return [];
  return [
    `${blocked.length} of ${release.entries.length} ${release.entries.length === 1 ? 'entry is' : 'entries are'} blocked:`,
    ...blocked.map((e) => `${e.label || e.itemId}: ${e.blockers.join('; ')}`),
  ];
}

/** The publish time in the zone it was chosen in, with that zone's name. */
function publishAtLabel(release: Pick<ReleaseSummary, 'publishAt' | 'publishAtTz'>) {
  if (!release.publishAt) return null;
  const at = release.publishAtTz
    ? dayjs(release.publishAt).tz(release.publishAtTz)
    : dayjs(release.publishAt);
  return `${at.format(DATE_DISPLAY_FORMAT)}${release.publishAtTz ? ` (${release.publishAtTz})` : ''}`;
}

/** When the release is meant to go out, in the zone it was chosen in; or when it went out. */
export function releaseTimeLabel(
  release: Pick<ReleaseSummary, 'publishAt' | 'publishAtTz' | 'publishedAt' | 'state'>,
) {
  if (release.state === 'published' && release.publishedAt)
    return `Published ${dayjs(release.publishedAt).format(DATE_DISPLAY_FORMAT)}`;
  return publishAtLabel(release) ?? 'No time set';
}

/** The colour a schedule line is shown in, by where the scheduled publish stands. */
export const SCHEDULE_COLORS: Record<NonNullable<ReleaseSummary['scheduleStatus']>, string> = {
  pending: 'blue',
  running: 'blue',
  done: 'teal',
  refused: 'red',
  cleared: 'orange',
};

type ScheduleFields = Pick<ReleaseSummary, 'publishAt' | 'publishAtTz' | 'scheduleStatus' | 'ranAt'>;

/**
 * Where the scheduled publish stands, in one line; null without a schedule. `schedulerName` is who set the
 * time: the publish runs with their rights; once a change by someone else cleared it, they are to
 * schedule it again.
 */
export function scheduleLabel(release: ScheduleFields, schedulerName: string): string | null {
  const ranAt = release.ranAt ? dayjs(release.ranAt).format(DATE_DISPLAY_FORMAT) : null;
  switch (release.scheduleStatus) {
    case 'pending':
      return `Scheduled for ${publishAtLabel(release) ?? 'a time to come'} by ${schedulerName}`;
    case 'running':
      return 'Publishing…';
    case 'done':
      return ranAt ? `Published by schedule at ${ranAt}` : 'Published by schedule';
    case 'refused':
      return ranAt ? `Scheduled publish refused at ${ranAt}` : 'Scheduled publish refused';
    case 'cleared':
      return `${schedulerName} must schedule it again for ${publishAtLabel(release) ?? 'a time to come'}`;
    default:
      return null;
  }
}

/** An item a revert refused to overwrite: published again since the release. */
export interface ChangedSince {
  schema: string;
  itemId: string;
  label: string | null;
}

/** The items a refused revert (409) lists in `details.changed`; empty for any other failure. */
export function changedSinceOf(error: unknown): ChangedSince[] {
  const details = (error as { details?: unknown } | null)?.details;
  const changed = details && typeof details === 'object' ? (details as { changed?: unknown }).changed : null;
  if (!Array.isArray(changed)) return [];
  return changed.filter(
    (c): c is ChangedSince =>
      !!c && typeof c === 'object' && typeof c.schema === 'string' && typeof c.itemId === 'string',
  );
}

const PUBLISH_AT_PREFIX = 'publishAt: ';

/** The server's refusal of the publish time ('publishAt: …'), to show under the field; null otherwise. */
export function publishAtErrorOf(error: unknown): string | null {
  const message = error instanceof Error ? error.message : null;
  return message?.startsWith(PUBLISH_AT_PREFIX) ? message.slice(PUBLISH_AT_PREFIX.length) : null;
}
