import { ownValue } from '../text/reserved-names';
import { stageValue } from './stages';

/** Spec §4: publish status of an item in one stage. */
export const PUBLISH_STATUSES = ['NOT_PUBLISHED', 'MODIFIED', 'CURRENT'] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];

/**
 * DESIGN §4: NOT_PUBLISHED without a stage copy, CURRENT when the copy holds the current version,
 * MODIFIED when the copy is of an older version.
 */
export function publishStatus(copyVersion: number | null | undefined, currentVersion: number): PublishStatus {
  if (copyVersion === null || copyVersion === undefined) return 'NOT_PUBLISHED';
  return copyVersion >= currentVersion ? 'CURRENT' : 'MODIFIED';
}

/** The status in every stage of the workspace (keyed by stage value), from the versions of the item's stage copies. */
export function publishStatuses(
  stageLabels: readonly string[],
  copyVersions: Readonly<Record<string, number>>,
  currentVersion: number,
): Record<string, PublishStatus> {
  return Object.fromEntries(
    stageLabels.map((label) => {
      const stage = stageValue(label);
      return [stage, publishStatus(ownValue(copyVersions, stage), currentVersion)];
    }),
  );
}

/** The stage value a label or value names among the workspace's stages, or undefined. */
export function findStage(stageLabels: readonly string[], labelOrValue: string): string | undefined {
  const wanted = stageValue(labelOrValue);
  return stageLabels.map(stageValue).find((value) => value === wanted && value !== '');
}
