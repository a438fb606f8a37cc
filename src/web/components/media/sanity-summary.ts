import type { SanityResult } from '@shared/media/contract';
import {
  flaggedCategories,
  isFullyRated,
  safeSearchLevel,
  SAFE_SEARCH_CATEGORIES,
  type SafeSearchCategory,
} from '@shared/media/safe-search';

export const NOT_ANALYSED = 'Not analysed';

const LIKELIHOOD_TEXT: Record<string, string> = {
  VERY_UNLIKELY: 'Very unlikely',
  UNLIKELY: 'Unlikely',
  POSSIBLE: 'Possible',
  LIKELY: 'Likely',
  VERY_LIKELY: 'Very likely',
};

const CATEGORY_TITLES: Record<SafeSearchCategory, string> = {
  adult: 'Adult',
  spoof: 'Spoof',
  medical: 'Medical',
  violence: 'Violence',
  racy: 'Racy',
};

/** A rating as people read it; UNKNOWN (and anything unexpected) is 'Not analysed', never a guess. */
export const likelihoodText = (likelihood: string | null | undefined) =>
  likelihood && LIKELIHOOD_TEXT[likelihood] ? LIKELIHOOD_TEXT[likelihood] : NOT_ANALYSED;

/** Mantine colour of a rating: green when unlikely, yellow when possible, red when likely, grey when unknown. */
function likelihoodColor(likelihood: string | null | undefined): string {
  const level = safeSearchLevel(likelihood);
  if (level === null) return 'gray';
  if (level <= 1) return 'teal';
  if (level === 2) return 'yellow';
  return 'red';
}

interface Rating {
  category: SafeSearchCategory;
  title: string;
  likelihood: string;
  /** 0 to 4, or null when not analysed. */
  level: number | null;
  text: string;
  color: string;
}

export interface SanitySummary {
  /** True when Google Cloud Vision answered: matches come from the public internet. */
  checkedPublicInternet: boolean;
  /** Where the matches were looked for, for the dialog's heading. */
  matchScope: 'public internet' | 'workspace';
  matches: { url: string; pageTitle: string }[];
  labels: string[];
  ratings: Rating[];
  /** False when some category has no rating (the local analyser never invents one). */
  safeSearchAnalysed: boolean;
  /** Categories rated LIKELY or VERY_LIKELY. */
  flagged: SafeSearchCategory[];
  /** Everything the analyser could not check, and why. */
  notes: string[];
}

export function summariseSanity(result: SanityResult): SanitySummary {
  const safe = result.safeSearchDetection;
  const checkedPublicInternet = result.analysedBy === 'google-vision';
  const labels = [
    ...result.webDetection.bestGuessLabels.map((entry) => entry.label),
    ...result.webDetection.webEntities.map((entity) => entity.description),
  ]
    .map((label) => label.trim())
    .filter((label, index, all) => label && all.indexOf(label) === index);
  return {
    checkedPublicInternet,
    matchScope: checkedPublicInternet ? 'public internet' : 'workspace',
    matches: result.webDetection.pagesWithMatchingImages,
    labels,
    ratings: SAFE_SEARCH_CATEGORIES.map((category) => ({
      category,
      title: CATEGORY_TITLES[category],
      likelihood: safe[category],
      level: safeSearchLevel(safe[category]),
      text: likelihoodText(safe[category]),
      color: likelihoodColor(safe[category]),
    })),
    safeSearchAnalysed: isFullyRated(safe),
    flagged: flaggedCategories(safe),
    notes: [...result._issues, ...safe._issues].filter((note, index, all) => all.indexOf(note) === index),
  };
}

export interface RowIssue {
  /** warning: a person should look (matches, risky ratings); info: something was not checked. */
  level: 'warning' | 'info';
  text: string;
}

/** The short issues a row of the upload table shows for an image's analysis. */
export function sanityIssues(result: SanityResult | null | undefined): RowIssue[] {
  if (!result) return [];
  const summary = summariseSanity(result);
  const issues: RowIssue[] = [];
  if (summary.matches.length > 0) {
    const where = summary.checkedPublicInternet ? 'on the internet' : 'in this workspace';
    issues.push({
      level: 'warning',
      text: `${summary.matches.length} matching image${summary.matches.length === 1 ? '' : 's'} ${where}`,
    });
  }
  for (const category of summary.flagged) {
    const rating = summary.ratings.find((r) => r.category === category)!;
    issues.push({ level: 'warning', text: `${rating.title}: ${rating.text}` });
  }
  if (!summary.safeSearchAnalysed) issues.push({ level: 'info', text: 'Safe search not analysed' });
  return issues;
}

/** Labels the analysis suggests for an image set (best guesses first), without those it already has. */
export function suggestedLabels(
  result: SanityResult | null | undefined,
  existing: readonly string[] = [],
  max = 8,
): string[] {
  if (!result) return [];
  const have = new Set(existing.map((label) => label.toLowerCase()));
  return summariseSanity(result)
    .labels.filter((label) => !have.has(label.toLowerCase()))
    .slice(0, max);
}
