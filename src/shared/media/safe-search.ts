/**
 * Safe-search ratings (spec §9): VERY_UNLIKELY 0, UNLIKELY 1, POSSIBLE 2, LIKELY 3, VERY_LIKELY 4.
 * `UNKNOWN` is Google Cloud Vision's own value for "not rated"; the local analyser uses it because it
 * never invents a rating.
 */
export const SAFE_SEARCH_LEVELS = {
  VERY_UNLIKELY: 0,
  UNLIKELY: 1,
  POSSIBLE: 2,
  LIKELY: 3,
  VERY_LIKELY: 4,
} as const;

export type SafeSearchLevel = keyof typeof SAFE_SEARCH_LEVELS;
export type Likelihood = SafeSearchLevel | 'UNKNOWN';

export const LIKELIHOODS: readonly Likelihood[] = [
  'UNKNOWN',
  'VERY_UNLIKELY',
  'UNLIKELY',
  'POSSIBLE',
  'LIKELY',
  'VERY_LIKELY',
];

/** The five categories the image check dialog shows, in its order. */
export const SAFE_SEARCH_CATEGORIES = ['adult', 'spoof', 'medical', 'violence', 'racy'] as const;
export type SafeSearchCategory = (typeof SAFE_SEARCH_CATEGORIES)[number];

/** The number of a rating, or null for UNKNOWN and anything that is not a rating. */
export function safeSearchLevel(likelihood: string | null | undefined): number | null {
  return likelihood && Object.hasOwn(SAFE_SEARCH_LEVELS, likelihood)
    ? SAFE_SEARCH_LEVELS[likelihood as SafeSearchLevel]
    : null;
}

/** A Vision answer's value as one of ours: anything unexpected (or missing) is UNKNOWN, never a guess. */
export function toLikelihood(value: unknown): Likelihood {
  return typeof value === 'string' && (LIKELIHOODS as readonly string[]).includes(value)
    ? (value as Likelihood)
    : 'UNKNOWN';
}

/** True when the rating is known and at least `threshold` (default POSSIBLE). */
export function isAtLeast(
  likelihood: string | null | undefined,
  threshold: SafeSearchLevel = 'POSSIBLE',
): boolean {
  const level = safeSearchLevel(likelihood);
  return level !== null && level >= SAFE_SEARCH_LEVELS[threshold];
}

/** The categories rated at least `threshold`, e.g. to flag a row in the bulk upload table. */
export function flaggedCategories(
  ratings: Partial<Record<SafeSearchCategory, string>> | null | undefined,
  threshold: SafeSearchLevel = 'LIKELY',
): SafeSearchCategory[] {
  return SAFE_SEARCH_CATEGORIES.filter((category) => isAtLeast(ratings?.[category], threshold));
}

/** Whether every category carries a real rating (none UNKNOWN or missing). */
export function isFullyRated(
  ratings: Partial<Record<SafeSearchCategory, string>> | null | undefined,
): boolean {
  return SAFE_SEARCH_CATEGORIES.every((category) => safeSearchLevel(ratings?.[category]) !== null);
}
