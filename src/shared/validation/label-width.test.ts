import fc from 'fast-check';
import { clampLabelWidth } from './label-width';

describe('clampLabelWidth', () => {
  it('defaults to 5', () => {
    expect(clampLabelWidth()).toBe(5);
    expect(clampLabelWidth(null)).toBe(5);
    expect(clampLabelWidth(Number.NaN)).toBe(5);
  });

  it('clamps to whole numbers from 1 to 12', () => {
    expect(clampLabelWidth(0)).toBe(1);
    expect(clampLabelWidth(13)).toBe(12);
    expect(clampLabelWidth(7)).toBe(7);
    fc.assert(
      fc.property(fc.double(), (width) => {
        const clamped = clampLabelWidth(width);
        expect(Number.isInteger(clamped)).toBe(true);
        expect(clamped).toBeGreaterThanOrEqual(1);
        expect(clamped).toBeLessThanOrEqual(12);
      }),
    );
  });
});
