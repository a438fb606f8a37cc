import { describe, expect, it } from 'vitest';
import { JourneyDefinition, type JourneyStep } from '@shared/api/journeys';
import { defaultTarget } from './migration';

const next = JourneyDefinition.parse({
  entry: { kind: 'api' },
  start: 'hello',
  steps: [
    { id: 'hello', type: 'email', email: 'e1', sender: 's1' },
    { id: 'pause', type: 'wait', seconds: 60 },
    { id: 'end', type: 'exit' },
  ],
  edges: [
    { from: 'hello', to: 'pause' },
    { from: 'pause', to: 'end' },
  ],
});

describe('defaultTarget', () => {
  it('maps a step to the step of the same id and kind in the new version', () => {
    const step: JourneyStep = { id: 'pause', type: 'wait', seconds: 3600 };
    expect(defaultTarget(step, next)).toBe('pause');
  });

  it('leaves a step to finish on the old version when the new one has no step of its id', () => {
    expect(defaultTarget({ id: 'gone', type: 'wait', seconds: 60 }, next)).toBeNull();
  });

  it('leaves a step to finish on the old version when the step of its id is of another kind', () => {
    const step: JourneyStep = {
      id: 'pause',
      type: 'wait-for-event',
      event: 'buy',
      conditions: [],
      timeoutSeconds: 60,
    };
    expect(defaultTarget(step, next)).toBeNull();
  });
});
