/** z for a two-sided 95% interval. */
const Z_95 = 1.959963984540054;

/** A share with its 95% interval, each 0 to 1. */
export interface Proportion {
  rate: number;
  low: number;
  high: number;
}

/**
 * `successes` of `trials` as a rate with its Wilson score interval (95% unless `z` says otherwise).
 * Unlike the normal approximation it stays within 0..1 and is not zero-width at 0 or at every trial;
 * no trials answer 0 with the whole range.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Proportion {
  if (trials <= 0) return { rate: 0, low: 0, high: 1 };
  const p = Math.min(1, Math.max(0, successes / trials));
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // At none or every trial the bound is 0 or 1 exactly; computed, it misses by a rounding error.
  return {
    rate: p,
    low: p === 0 ? 0 : Math.max(0, centre - half),
    high: p === 1 ? 1 : Math.min(1, centre + half),
  };
}
