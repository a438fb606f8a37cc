import { toKebabCase } from '../text/slug';

export const LIVE_STAGE_LABEL = 'Live';
const LIVE_STAGE = 'live';

const stageValues = new Map<string, string>();

/**
 * A stage's value is the kebab-case of its label (spec §9). Remembered (labels are few): every item
 * answer derives the values of the workspace's stages.
 */
export function stageValue(label: string): string {
  let value = stageValues.get(label);
  if (value === undefined) {
    value = toKebabCase(label);
    if (stageValues.size < 1000) stageValues.set(label, value);
  }
  return value;
}

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
