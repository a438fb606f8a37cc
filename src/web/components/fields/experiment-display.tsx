import { List, Stack, Text } from '@mantine/core';
import { CampaignExperiment, VARIANT_KEYS, type ExperimentVariant } from '@shared/campaigns/experiment';
import type { FieldProps } from './types';
import { ViewValue } from './view-value';

const RULE_LABELS = { opens: 'open rate', clicks: 'click rate', conversion: 'conversion rate' } as const;

/** What a variant changes, in words: "Subject “…”, template Spring, sender name Ada". */
function variantSummary(variant: ExperimentVariant) {
  const parts = [
    variant.subject?.trim() && `subject “${variant.subject.trim()}”`,
    variant.email && `template ${variant.email.label ?? variant.email.id}`,
    variant.fromName?.trim() && `sender name ${variant.fromName.trim()}`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : "the campaign's own settings";
}

/** The rule the winner is picked by, and when: "by click rate after 4 hours". */
function experimentRule(experiment: CampaignExperiment) {
  const rule = RULE_LABELS[experiment.winnerBy];
  const event =
    experiment.winnerBy === 'conversion'
      ? ` of ${experiment.conversionEvent} within ${experiment.windowHours} h`
      : '';
  return `Winner by ${rule}${event}, ${experiment.waitHours} h after the test send`;
}

/** A campaign's A/B test in view and compare modes: the variants, the shares and the winner rule. */
export function ExperimentDisplay({ value }: FieldProps) {
  const parsed = CampaignExperiment.safeParse(value);
  if (value === null || value === undefined) return <ViewValue>No A/B test: one send to everyone</ViewValue>;
  if (!parsed.success) return <ViewValue>{parsed.error.issues[0].message}</ViewValue>;
  const experiment = parsed.data;
  return (
    <Stack gap={4}>
      <Text size="sm">
        {experiment.variants.length} variants on {experiment.testPercent}% of the audience
        {experiment.holdoutPercent > 0 && `, ${experiment.holdoutPercent}% held out`}
      </Text>
      <List size="sm" spacing={2}>
        {experiment.variants.map((variant, index) => (
          <List.Item key={VARIANT_KEYS[index]}>
            {VARIANT_KEYS[index]}: {variantSummary(variant)}
          </List.Item>
        ))}
      </List>
      <Text size="sm">{experimentRule(experiment)}</Text>
    </Stack>
  );
}
