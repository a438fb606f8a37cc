import fc from 'fast-check';
import { normaliseStages, stageValue } from './stages';

describe('stages', () => {
  it('values are the kebab-case of labels', () => {
    expect(stageValue('Pre Production')).toBe('pre-production');
  });

  it('always keeps Live', () => {
    expect(normaliseStages([])).toEqual(['Live']);
    expect(normaliseStages(['Staging'])).toEqual(['Staging', 'Live']);
    expect(normaliseStages(['live', 'Staging'])).toEqual(['Live', 'Staging']);
  });

  it('drops blanks and duplicate values', () => {
    expect(normaliseStages(['Staging', ' staging ', '', '!!'])).toEqual(['Staging', 'Live']);
  });

  it('holds Live exactly once for any input', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (labels) => {
        const stages = normaliseStages(labels);
        expect(stages.filter((s) => stageValue(s) === 'live')).toHaveLength(1);
        expect(new Set(stages.map(stageValue)).size).toBe(stages.length);
      }),
    );
  });
});
