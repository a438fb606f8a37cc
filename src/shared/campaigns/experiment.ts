import { z } from 'zod';
import { wilsonInterval, type Proportion } from '../stats/proportion';

/**
 * A campaign's A/B test (its `experiment` field): 2 to 4 variants, each overriding the campaign's
 * subject, email template and/or sender name, sent to a share of the audience; after a wait the
 * winner by opens, clicks or a conversion event goes to the rest. A holdout share gets nothing.
 */

export const EXPERIMENT_LIMITS = {
  minVariants: 2,
  maxVariants: 4,
  maxWaitHours: 720,
  maxWindowHours: 720,
} as const;

export const EXPERIMENT_MESSAGES = {
  variants: `An experiment tests ${EXPERIMENT_LIMITS.minVariants} to ${EXPERIMENT_LIMITS.maxVariants} variants`,
  testPercent: 'The test share is a whole percentage from 1 to 100',
  holdoutPercent: 'The holdout is a whole percentage from 0 (none) to 99',
  shares: 'The test share and the holdout together are at most 100%',
  waitHours: `The wait before the winner is picked is 1 to ${EXPERIMENT_LIMITS.maxWaitHours} hours`,
  winnerBy: 'Choose how the winner is picked: opens, clicks or a conversion event',
  conversionEvent: 'Choose the conversion event the winner is picked by',
  windowHours: `The conversion window is 1 to ${EXPERIMENT_LIMITS.maxWindowHours} hours`,
  subject: 'A variant subject is at most 500 characters',
  fromName: "A variant's sender name is at most 200 characters",
  badExperiment: (problem: string) => `experiment: ${problem}`,
} as const;

const WINNER_RULES = ['opens', 'clicks', 'conversion'] as const;
export type WinnerRule = (typeof WINNER_RULES)[number];

/** The letters variants are known by, in their order. */
export const VARIANT_KEYS = ['A', 'B', 'C', 'D'] as const;

const whole = (min: number, max: number, error: string) =>
  z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

export const ExperimentVariant = z.strictObject(
  {
    subject: z.string().max(500, { error: EXPERIMENT_MESSAGES.subject }).nullish(),
    email: z
      .object({ id: z.string().min(1), schemaType: z.literal('email'), label: z.string().optional() })
      .nullish()
      .describe('The email template sent instead of the campaign’s'),
    fromName: z.string().max(200, { error: EXPERIMENT_MESSAGES.fromName }).nullish(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Unknown field in a variant' : undefined) },
);
export type ExperimentVariant = z.infer<typeof ExperimentVariant>;

export const CampaignExperiment = z
  .strictObject(
    {
      variants: z
        .array(ExperimentVariant, { error: EXPERIMENT_MESSAGES.variants })
        .min(EXPERIMENT_LIMITS.minVariants, { error: EXPERIMENT_MESSAGES.variants })
        .max(EXPERIMENT_LIMITS.maxVariants, { error: EXPERIMENT_MESSAGES.variants }),
      testPercent: whole(1, 100, EXPERIMENT_MESSAGES.testPercent).describe(
        'The share of the audience the variants split evenly',
      ),
      holdoutPercent: whole(0, 99, EXPERIMENT_MESSAGES.holdoutPercent)
        .default(0)
        .describe('The share that gets no send at all, for the conversion lift'),
      waitHours: whole(1, EXPERIMENT_LIMITS.maxWaitHours, EXPERIMENT_MESSAGES.waitHours).describe(
        'Hours from the test send to the pick of the winner',
      ),
      winnerBy: z.enum(WINNER_RULES, { error: EXPERIMENT_MESSAGES.winnerBy }),
      conversionEvent: z.string().trim().max(200).nullish(),
      windowHours: whole(1, EXPERIMENT_LIMITS.maxWindowHours, EXPERIMENT_MESSAGES.windowHours)
        .nullish()
        .describe('Conversions count this many hours from the test send'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')} in the experiment`
          : undefined,
    },
  )
  .superRefine((experiment, ctx) => {
    const { testPercent, holdoutPercent } = experiment;
    // Each share out of its own range has said so already.
    if (testPercent <= 100 && holdoutPercent <= 99 && testPercent + holdoutPercent > 100)
      ctx.addIssue({ code: 'custom', message: EXPERIMENT_MESSAGES.shares, path: ['holdoutPercent'] });
    if (experiment.winnerBy === 'conversion' && !experiment.conversionEvent)
      ctx.addIssue({
        code: 'custom',
        message: EXPERIMENT_MESSAGES.conversionEvent,
        path: ['conversionEvent'],
      });
    if ((experiment.winnerBy === 'conversion' || experiment.conversionEvent) && !experiment.windowHours)
      ctx.addIssue({ code: 'custom', message: EXPERIMENT_MESSAGES.windowHours, path: ['windowHours'] });
  });
export type CampaignExperiment = z.infer<typeof CampaignExperiment>;
export type CampaignExperimentInput = z.input<typeof CampaignExperiment>;

/** What a new experiment starts as: two variants, a fifth of the audience each way, the winner by opens. */
export const NEW_EXPERIMENT: CampaignExperimentInput = {
  variants: [{}, {}],
  testPercent: 20,
  holdoutPercent: 0,
  waitHours: 4,
  winnerBy: 'opens',
};

/**
 * The shares of the audience in draw order, as percentages: the holdout, then each variant's part of
 * the test share; whoever draws past them is the rest, who get the winner.
 */
export function experimentShares(
  experiment: Pick<CampaignExperiment, 'variants' | 'testPercent' | 'holdoutPercent'>,
) {
  const each = experiment.testPercent / experiment.variants.length;
  return [experiment.holdoutPercent, ...experiment.variants.map(() => each)];
}

/** One variant's figures. */
export interface VariantFigures {
  key: string;
  recipients: number;
  delivered: number;
  opened: number;
  clicked: number;
  converted: number;
}

/** The rate a rule compares: opens and clicks of those delivered, conversions of the recipients. */
export function ruleRate(rule: WinnerRule, figures: VariantFigures): Proportion {
  if (rule === 'conversion') return wilsonInterval(figures.converted, figures.recipients);
  return wilsonInterval(rule === 'opens' ? figures.opened : figures.clicked, figures.delivered);
}

const RULE_NOUNS: Record<WinnerRule, string> = {
  opens: 'open rate (opened of delivered)',
  clicks: 'click rate (clicked of delivered)',
  conversion: 'conversion rate (converted of recipients)',
};

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/**
 * The winner under the rule: the highest rate; a tie goes to the variant listed first. Answers its key
 * and why, in words with the figures compared.
 */
export function pickWinner(rule: WinnerRule, variants: readonly VariantFigures[]) {
  const rated = variants.map((figures) => ({ figures, rate: ruleRate(rule, figures).rate }));
  const best = rated.reduce((top, next) => (next.rate > top.rate ? next : top));
  const figuresOf = ({ figures, rate }: (typeof rated)[number]) => {
    const of = rule === 'conversion' ? figures.recipients : figures.delivered;
    const count = rule === 'opens' ? figures.opened : rule === 'clicks' ? figures.clicked : figures.converted;
    return `${figures.key} ${percent(rate)} (${count} of ${of})`;
  };
  const others = rated.filter((entry) => entry !== best);
  const tie = others.some((entry) => entry.rate === best.rate);
  const reason =
    `Variant ${best.figures.key} had the highest ${RULE_NOUNS[rule]}: ${figuresOf(best)}, against ` +
    others.map(figuresOf).join(', ') +
    (tie ? `; tied, the first listed wins` : '');
  return { winner: best.figures.key, reason };
}
