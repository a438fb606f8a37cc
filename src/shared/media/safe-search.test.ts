import fc from 'fast-check';
import {
  flaggedCategories,
  isAtLeast,
  isFullyRated,
  safeSearchLevel,
  SAFE_SEARCH_LEVELS,
  toLikelihood,
} from './safe-search';

describe('safe-search levels (spec §9)', () => {
  it('numbers the five ratings 0 to 4', () => {
    expect(SAFE_SEARCH_LEVELS).toEqual({
      VERY_UNLIKELY: 0,
      UNLIKELY: 1,
      POSSIBLE: 2,
      LIKELY: 3,
      VERY_LIKELY: 4,
    });
    expect(['VERY_UNLIKELY', 'UNLIKELY', 'POSSIBLE', 'LIKELY', 'VERY_LIKELY'].map(safeSearchLevel)).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it('gives no number to UNKNOWN, missing values and inherited property names', () => {
    for (const value of ['UNKNOWN', '', undefined, null, 'toString', '__proto__', 'likely']) {
      expect(safeSearchLevel(value)).toBeNull();
    }
  });

  it('never turns an unexpected value into a rating', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const likelihood = toLikelihood(value);
        return typeof value === 'string' && value === likelihood ? true : likelihood === 'UNKNOWN';
      }),
    );
  });

  it('compares against a threshold only when rated', () => {
    expect(isAtLeast('LIKELY')).toBe(true);
    expect(isAtLeast('POSSIBLE')).toBe(true);
    expect(isAtLeast('UNLIKELY')).toBe(false);
    expect(isAtLeast('UNKNOWN', 'VERY_UNLIKELY')).toBe(false);
    expect(isAtLeast('VERY_LIKELY', 'VERY_LIKELY')).toBe(true);
  });

  it('flags categories at or above LIKELY and tells fully rated from not analysed', () => {
    const ratings = {
      adult: 'VERY_UNLIKELY',
      spoof: 'LIKELY',
      medical: 'POSSIBLE',
      violence: 'VERY_LIKELY',
      racy: 'UNKNOWN',
    };
    expect(flaggedCategories(ratings)).toEqual(['spoof', 'violence']);
    expect(flaggedCategories(ratings, 'POSSIBLE')).toEqual(['spoof', 'medical', 'violence']);
    expect(isFullyRated(ratings)).toBe(false);
    expect(isFullyRated({ ...ratings, racy: 'UNLIKELY' })).toBe(true);
    expect(flaggedCategories(null)).toEqual([]);
  });
});
