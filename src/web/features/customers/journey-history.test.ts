import { describe, expect, it } from 'vitest';
import { journeyRuns } from './journey-history';

const at = (second: number) => `2026-05-01T10:00:${String(second).padStart(2, '0')}.000Z`;

describe('journeyRuns', () => {
  it('groups a profile journey events into runs, newest first, with each step and the exit reason', () => {
    const runs = journeyRuns([
      {
        event: 'journey-exited',
        at: at(9),
        properties: { journey: 'j1', version: 2, step: 'end', reason: 'finished' },
      },
      {
        event: 'journey-step',
        at: at(5),
        properties: { journey: 'j1', version: 2, step: 'mail', type: 'email', exit: 'next' },
      },
      { event: 'journey-entered', at: at(5), properties: { journey: 'j1', version: 2 } },
      {
        event: 'journey-step',
        at: at(9),
        properties: { journey: 'j1', version: 2, step: 'end', type: 'exit' },
      },
      { event: 'journey-entered', at: at(20), properties: { journey: 'j1', version: 2 } },
    ]);
    expect(runs).toEqual([
      { journeyId: 'j1', version: 2, enteredAt: at(20), steps: [], exit: null },
      {
        journeyId: 'j1',
        version: 2,
        enteredAt: at(5),
        steps: [
          { at: at(5), stepId: 'mail', type: 'email', exit: 'next' },
          { at: at(9), stepId: 'end', type: 'exit', exit: null },
        ],
        exit: { at: at(9), reason: 'finished', stepId: 'end' },
      },
    ]);
  });

  it('starts a run whose entry is past the events read at its first known step', () => {
    const [run] = journeyRuns([
      { event: 'journey-exited', at: at(1), properties: { journey: 'j2', reason: 'goal' } },
    ]);
    expect(run).toMatchObject({ journeyId: 'j2', enteredAt: null, exit: { reason: 'goal', stepId: null } });
  });
});
