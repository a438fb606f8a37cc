import { toKebabCase } from '../text/slug';

export const LIVE_STAGE_LABEL = 'Live';
export const LIVE_STAGE = 'live';

/** A stage's value is the kebab-case of its label (spec §9). */
export const stageValue = (label: string) => toKebabCase(label);

/**
 * Normalises a workspace's stage labels: trimmed, without blanks or duplicate values, and with Live
 * always present (spec §9: "The Live stage is always present").
 */
export function normaliseStages(labels: readonly string[]): string[] {
  const seen = new Set<string>();
  const stages: string[] = [];
  for (const raw of labels) {
    const label = raw.trim();
    const value = stageValue(label);
    if (!value || seen.has(value)) continue;
    seen.add(value);
    stages.push(value === LIVE_STAGE ? LIVE_STAGE_LABEL : label);
  }
  if (!seen.has(LIVE_STAGE)) stages.push(LIVE_STAGE_LABEL);
  return stages;
}
