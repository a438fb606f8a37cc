import { CampaignExperiment, EXPERIMENT_MESSAGES, experimentShares, pickWinner } from './experiment';

const base = {
  variants: [{ subject: 'One' }, { subject: 'Two' }],
  testPercent: 20,
  waitHours: 4,
  winnerBy: 'opens',
};
const problems = (value: unknown) => {
  const parsed = CampaignExperiment.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe('CampaignExperiment', () => {
  it('takes 2 to 4 variants, shares within 1..100, a bounded wait and a winner rule', () => {
    expect(problems(base)).toEqual([]);
    expect(CampaignExperiment.parse(base).holdoutPercent).toBe(0);
    expect(problems({ ...base, variants: [{}] })).toEqual([EXPERIMENT_MESSAGES.variants]);
    expect(problems({ ...base, variants: [{}, {}, {}, {}, {}] })).toEqual([EXPERIMENT_MESSAGES.variants]);
    expect(problems({ ...base, testPercent: 0 })).toEqual([EXPERIMENT_MESSAGES.testPercent]);
    expect(problems({ ...base, testPercent: 101 })).toEqual([EXPERIMENT_MESSAGES.testPercent]);
    expect(problems({ ...base, testPercent: 12.5 })).toEqual([EXPERIMENT_MESSAGES.testPercent]);
    expect(problems({ ...base, holdoutPercent: 100 })).toEqual([EXPERIMENT_MESSAGES.holdoutPercent]);
    expect(problems({ ...base, testPercent: 90, holdoutPercent: 20 })).toEqual([EXPERIMENT_MESSAGES.shares]);
    expect(problems({ ...base, waitHours: 0 })).toEqual([EXPERIMENT_MESSAGES.waitHours]);
    expect(problems({ ...base, waitHours: 721 })).toEqual([EXPERIMENT_MESSAGES.waitHours]);
    expect(problems({ ...base, winnerBy: 'vibes' })).toEqual([EXPERIMENT_MESSAGES.winnerBy]);
    expect(problems({ ...base, winnerBy: undefined })).toEqual([EXPERIMENT_MESSAGES.winnerBy]);
    expect(problems({ ...base, winnerBy: 'conversion' })).toEqual([
      EXPERIMENT_MESSAGES.conversionEvent,
      EXPERIMENT_MESSAGES.windowHours,
    ]);
    expect(
      problems({ ...base, winnerBy: 'conversion', conversionEvent: 'purchase', windowHours: 48 }),
    ).toEqual([]);
    expect(problems({ ...base, extra: 1 })).toEqual(['Unknown field "extra" in the experiment']);
  });

  it('shares the test part evenly between the variants after the holdout', () => {
    expect(experimentShares({ ...CampaignExperiment.parse(base), holdoutPercent: 10 })).toEqual([10, 10, 10]);
    expect(experimentShares({ variants: [{}, {}, {}], testPercent: 30, holdoutPercent: 0 })).toEqual([
      0, 10, 10, 10,
    ]);
  });
});

describe('pickWinner', () => {
  const figures = (key: string, delivered: number, opened: number, clicked: number, converted = 0) => ({
    key,
    recipients: delivered,
    delivered,
    opened,
    clicked,
    converted,
  });

  it('picks the highest rate under the rule and says why with the figures', () => {
    const variants = [figures('A', 10, 5, 1, 0), figures('B', 8, 2, 4, 3)];
    expect(pickWinner('opens', variants)).toEqual({
      winner: 'A',
      reason:
        'Variant A had the highest open rate (opened of delivered): A 50.0% (5 of 10), against B 25.0% (2 of 8)',
    });
    expect(pickWinner('clicks', variants).winner).toBe('B');
    expect(pickWinner('conversion', variants).reason).toBe(
      'Variant B had the highest conversion rate (converted of recipients): B 37.5% (3 of 8), against A 0.0% (0 of 10)',
    );
  });

  it('gives a tie to the variant listed first, and says so', () => {
    const tie = pickWinner('opens', [figures('A', 4, 1, 0), figures('B', 4, 1, 0), figures('C', 4, 0, 0)]);
    expect(tie.winner).toBe('A');
    expect(tie.reason).toMatch(/tied, the first listed wins$/);
  });
});
