import type { JourneyResults } from '@shared/api/journeys';
import type { StepCounts } from './graph';

/** Each step's counts summed over the started versions: profiles waiting there now, and per exit taken. */
export function countsByStep(results: JourneyResults | undefined): Map<string, StepCounts> | undefined {
  if (!results || results.versions.length === 0) return undefined;
  const counts = new Map<string, StepCounts>();
  for (const version of results.versions)
    for (const step of version.steps) {
      const sum = counts.get(step.stepId) ?? { waiting: 0, exits: {} };
      sum.waiting += step.waiting;
      for (const [exit, passed] of Object.entries(step.exits))
        sum.exits[exit] = (sum.exits[exit] ?? 0) + passed;
      counts.set(step.stepId, sum);
    }
  return counts;
}
