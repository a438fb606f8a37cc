/** The customer events a journey records on a profile's timeline. */
export const JOURNEY_EVENT_KEYS = ['journey-entered', 'journey-step', 'journey-exited'] as const;

interface TimelineEvent {
  event: string;
  at: string;
  properties: Record<string, unknown>;
}

export interface JourneyRunHistory {
  journeyId: string;
  version: number | null;
  enteredAt: string | null;
  steps: { at: string; stepId: string; type: string; exit: string | null }[];
  exit: { at: string; reason: string; stepId: string | null } | null;
}

const RANK: Record<string, number> = { 'journey-entered': 0, 'journey-step': 1, 'journey-exited': 2 };
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * A profile's journeys, run by run, newest first, from its journey events: entered, each step done
 * (and the exit it left by), and why it left. A run whose entry is past the events read starts at its
 * first step known.
 */
export function journeyRuns(events: readonly TimelineEvent[]): JourneyRunHistory[] {
  const ordered = [...events].sort(
    (a, b) => a.at.localeCompare(b.at) || (RANK[a.event] ?? 9) - (RANK[b.event] ?? 9),
  );
  const runs: JourneyRunHistory[] = [];
  const open = new Map<string, JourneyRunHistory>();
  for (const { event, at, properties } of ordered) {
    const journeyId = text(properties.journey);
    if (!journeyId) continue;
    const version = typeof properties.version === 'number' ? properties.version : null;
    let run = event === 'journey-entered' ? undefined : open.get(journeyId);
    if (!run) {
      run = { journeyId, version, enteredAt: event === 'journey-entered' ? at : null, steps: [], exit: null };
      runs.push(run);
      open.set(journeyId, run);
    }
    const stepId = text(properties.step);
    if (event === 'journey-step' && stepId)
      run.steps.push({ at, stepId, type: text(properties.type) ?? '', exit: text(properties.exit) });
    if (event === 'journey-exited') {
      run.exit = { at, reason: text(properties.reason) ?? 'exited', stepId };
      open.delete(journeyId);
    }
  }
  return runs.reverse();
}
