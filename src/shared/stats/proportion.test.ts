import { wilsonInterval } from './proportion';

describe('wilsonInterval', () => {
  it('matches published values', () => {
    // 20 of 100: the textbook 95% Wilson interval is 0.1334 to 0.2888.
    const { rate, low, high } = wilsonInterval(20, 100);
    expect(rate).toBe(0.2);
    expect(low).toBeCloseTo(0.1334, 3);
    expect(high).toBeCloseTo(0.2888, 3);
    // 0 of 10: 0 to 0.2775, never below zero.
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    // 10 of 10: 0.7225 to 1.
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(10, 10).high).toBeCloseTo(1, 10);
  });

  it('answers the whole range without trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ rate: 0, low: 0, high: 1 });
    // Exactly, for every count: computed, 0 of 7 gave a low of a rounding error above 0.
    for (let trials = 1; trials <= 300; trials++) {
      expect(wilsonInterval(0, trials).low, `0 of ${trials}`).toBe(0);
      expect(wilsonInterval(trials, trials).high, `${trials} of ${trials}`).toBe(1);
    }
  });

  it('holds the rate inside a range that narrows as trials grow', () => {
    let width = Infinity;
    for (const trials of [5, 50, 500, 5000]) {
      const interval = wilsonInterval(Math.round(trials * 0.3), trials);
      expect(interval.low).toBeLessThanOrEqual(interval.rate);
      expect(interval.high).toBeGreaterThanOrEqual(interval.rate);
      expect(interval.high - interval.low).toBeLessThan(width);
      width = interval.high - interval.low;
    }
  });
});
