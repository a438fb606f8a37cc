import type { JourneyDefinition, JourneyStep } from '@shared/api/journeys';

/**
 * Whether runs waiting at `from` keep their time when they move to `to`: a step of the same kind (a wait
 * to a wait, an email held by the caps to an email), so a wait ends when it would have.
 */
export const isSameKind = (from: JourneyStep, to: JourneyStep) => from.type === to.type;

/**
 * Where the runs waiting at `step` of an older version go by default when `next` starts: its step of the
 * same id when it is of the same kind, else null (they finish on the older version).
 */
export function defaultTarget(step: JourneyStep, next: JourneyDefinition): string | null {
  const same = next.steps.find((each) => each.id === step.id);
  return same && isSameKind(step, same) ? same.id : null;
}
