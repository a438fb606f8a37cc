import { findStage, publishStatus, publishStatuses } from './status';

describe('publishStatus', () => {
  it('is NOT_PUBLISHED without a copy, CURRENT for the current version and MODIFIED for an older one', () => {
    expect(publishStatus(undefined, 3)).toBe('NOT_PUBLISHED');
    expect(publishStatus(null, 3)).toBe('NOT_PUBLISHED');
    expect(publishStatus(3, 3)).toBe('CURRENT');
    expect(publishStatus(2, 3)).toBe('MODIFIED');
  });

  it('answers every stage of the workspace by its value', () => {
    expect(publishStatuses(['Live', 'Pre Prod'], { live: 4, 'pre-prod': 2 }, 4)).toEqual({
      live: 'CURRENT',
      'pre-prod': 'MODIFIED',
    });
    expect(publishStatuses(['Live'], { gone: 4 }, 4)).toEqual({ live: 'NOT_PUBLISHED' });
  });
});

describe('findStage', () => {
  it('finds a stage by label or value and nothing else', () => {
    expect(findStage(['Live', 'Pre Prod'], 'Pre Prod')).toBe('pre-prod');
    expect(findStage(['Live', 'Pre Prod'], 'pre-prod')).toBe('pre-prod');
    expect(findStage(['Live'], 'staging')).toBeUndefined();
    expect(findStage(['Live'], '!!')).toBeUndefined();
  });
});
