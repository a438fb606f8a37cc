import { describe, expect, it } from 'vitest';
import {
  likelihoodText,
  NOT_ANALYSED,
  sanityIssues,
  suggestedLabels,
  summariseSanity,
} from './sanity-summary';
import { localSanity, visionSanity } from './test-data';

describe('summariseSanity', () => {
  it('reads the local analyser: workspace matches, no ratings, and why', () => {
    const summary = summariseSanity(
      localSanity({
        pagesWithMatchingImages: [
          { url: '/acme/assets/marquee-assets-image-set/x1', pageTitle: 'Duplicate: Image Set "Beach"' },
        ],
      }),
    );
    expect(summary.checkedPublicInternet).toBe(false);
    expect(summary.matchScope).toBe('workspace');
    expect(summary.matches).toHaveLength(1);
    expect(summary.safeSearchAnalysed).toBe(false);
    expect(summary.ratings.map((r) => [r.title, r.text])).toEqual([
      ['Adult', NOT_ANALYSED],
      ['Spoof', NOT_ANALYSED],
      ['Medical', NOT_ANALYSED],
      ['Violence', NOT_ANALYSED],
      ['Racy', NOT_ANALYSED],
    ]);
    expect(summary.notes).toHaveLength(2);
    expect(summary.labels).toEqual(['landscape png image', 'png', 'landscape']);
  });

  it('reads Google Cloud Vision: public matches and the five ratings in order', () => {
    const summary = summariseSanity(visionSanity());
    expect(summary.checkedPublicInternet).toBe(true);
    expect(summary.ratings.map((r) => r.text)).toEqual([
      'Very unlikely',
      'Unlikely',
      'Possible',
      'Likely',
      'Very likely',
    ]);
    expect(summary.ratings.map((r) => r.color)).toEqual(['teal', 'teal', 'yellow', 'red', 'red']);
    expect(summary.flagged).toEqual(['violence', 'racy']);
    expect(summary.safeSearchAnalysed).toBe(true);
  });

  it('never turns an unknown rating into a guess', () => {
    expect(likelihoodText('UNKNOWN')).toBe(NOT_ANALYSED);
    expect(likelihoodText('SOMETIMES')).toBe(NOT_ANALYSED);
    expect(likelihoodText(undefined)).toBe(NOT_ANALYSED);
  });
});

describe('sanityIssues', () => {
  it('lists matches, risky ratings and what was not analysed', () => {
    expect(sanityIssues(visionSanity())).toEqual([
      { level: 'warning', text: '1 matching image on the internet' },
      { level: 'warning', text: 'Violence: Likely' },
      { level: 'warning', text: 'Racy: Very likely' },
    ]);
    expect(sanityIssues(localSanity())).toEqual([{ level: 'info', text: 'Safe search not analysed' }]);
    expect(sanityIssues(null)).toEqual([]);
  });
});

describe('suggestedLabels', () => {
  it('suggests the analysis labels the image set does not have yet', () => {
    expect(suggestedLabels(localSanity(), ['PNG'])).toEqual(['landscape png image', 'landscape']);
    expect(suggestedLabels(null)).toEqual([]);
  });
});
