import { describe, expect, it } from 'vitest';
import { overallPercent, progressPercent } from './upload-progress';

describe('progressPercent', () => {
  it('is whole percents of the event total', () => {
    expect(progressPercent(0, 1000)).toBe(0);
    expect(progressPercent(333, 1000)).toBe(33);
    expect(progressPercent(999, 1000)).toBe(99);
    expect(progressPercent(1000, 1000)).toBe(100);
  });

  it('falls back to the file size when the browser does not know the total', () => {
    expect(progressPercent(50, null, 200)).toBe(25);
    expect(progressPercent(50, 0, 200)).toBe(25);
  });

  it('never leaves 0 to 100, whatever the events say', () => {
    expect(progressPercent(1200, 1000)).toBe(100);
    expect(progressPercent(-5, 1000)).toBe(0);
    expect(progressPercent(Number.NaN, 1000)).toBe(0);
    expect(progressPercent(10, null)).toBe(0);
  });
});

describe('overallPercent', () => {
  it('weights each upload by its size', () => {
    expect(
      overallPercent([
        { size: 300, percent: 100 },
        { size: 100, percent: 0 },
      ]),
    ).toBe(75);
    expect(
      overallPercent([
        { size: 100, percent: 50 },
        { size: 100, percent: 50 },
      ]),
    ).toBe(50);
  });

  it('is 0 for nothing and 100 for empty files that are done', () => {
    expect(overallPercent([])).toBe(0);
    expect(overallPercent([{ size: 0, percent: 100 }])).toBe(100);
  });
});
