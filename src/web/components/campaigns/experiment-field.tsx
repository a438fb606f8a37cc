import {
  Button,
  CloseButton,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import {
  CampaignExperiment,
  EXPERIMENT_LIMITS,
  NEW_EXPERIMENT,
  VARIANT_KEYS,
  type CampaignExperimentInput,
  type ExperimentVariant,
} from '@shared/campaigns/experiment';
import type { ReferenceField as ReferenceFieldDef } from '@shared/schemas/types';
import { ExperimentDisplay } from '../fields/experiment-display';
import { ReferenceField } from '../fields/reference-field';
import type { FieldProps } from '../fields/types';

const TEMPLATE_FIELD: ReferenceFieldDef = {
  key: 'email',
  label: 'Template',
  type: 'reference',
  schemaTypes: ['email'],
};

const WINNER_OPTIONS = [
  { value: 'opens', label: 'Open rate' },
  { value: 'clicks', label: 'Click rate' },
  { value: 'conversion', label: 'Conversion event' },
];

const asExperiment = (value: unknown): CampaignExperimentInput | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as CampaignExperimentInput) : null;

const wholeOrNull = (next: string | number) =>
  typeof next === 'number' ? next : next === '' ? null : Number(next);

/** One variant's overrides: subject, template and sender name, each empty for the campaign's own. */
function VariantEditor({
  index,
  variant,
  canRemove,
  onChange,
  onRemove,
  props,
}: {
  index: number;
  variant: ExperimentVariant;
  canRemove: boolean;
  onChange: (next: ExperimentVariant) => void;
  onRemove: () => void;
  props: FieldProps;
}) {
  const key = VARIANT_KEYS[index];
  const id = `${props.inputId}-variant-${key}`;
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`variant-${key}`}>
      <Group justify="space-between" mb={6}>
        <Text fw={600} size="sm">
          Variant {key}
        </Text>
        {canRemove && <CloseButton size="sm" aria-label={`Remove variant ${key}`} onClick={onRemove} />}
      </Group>
      <SimpleGrid type="container" cols={{ base: 1, '560px': 3 }} spacing="xs">
        <TextInput
          label="Subject"
          id={`${id}-subject`}
          placeholder="The campaign's subject"
          value={variant.subject ?? ''}
          onChange={(event) => onChange({ ...variant, subject: event.currentTarget.value || null })}
        />
        <Stack gap={4}>
          <Text component="label" htmlFor={`${id}-template`} size="sm" fw={500}>
            Template
          </Text>
          <ReferenceField
            {...props}
            field={TEMPLATE_FIELD}
            value={variant.email ?? null}
            inputId={`${id}-template`}
            error={undefined}
            path={`${props.path}.variants.${index}.email`}
            onChange={(next) => onChange({ ...variant, email: (next as ExperimentVariant['email']) ?? null })}
          />
        </Stack>
        <TextInput
          label="Sender name"
          id={`${id}-from`}
          placeholder="The sender's name"
          value={variant.fromName ?? ''}
          onChange={(event) => onChange({ ...variant, fromName: event.currentTarget.value || null })}
        />
      </SimpleGrid>
    </Paper>
  );
}

/** The shares, the wait and the rule the winner is picked by. */
function ExperimentSettings({
  experiment,
  change,
}: {
  experiment: CampaignExperimentInput;
  change: (patch: Partial<CampaignExperimentInput>) => void;
}) {
  return (
    <>
      <SimpleGrid type="container" cols={{ base: 1, '420px': 3 }} spacing="xs">
        <NumberInput
          label="Test share (%)"
          description="Split evenly between the variants"
          min={1}
          max={100}
          allowDecimal={false}
          value={experiment.testPercent ?? ''}
          onChange={(next) => change({ testPercent: wholeOrNull(next) as number })}
        />
        <NumberInput
          label="Holdout (%)"
          description="Gets no email at all"
          min={0}
          max={99}
          allowDecimal={false}
          value={experiment.holdoutPercent ?? 0}
          onChange={(next) => change({ holdoutPercent: (wholeOrNull(next) ?? 0) as number })}
        />
        <NumberInput
          label="Wait (hours)"
          description="Before the winner is picked"
          min={1}
          max={EXPERIMENT_LIMITS.maxWaitHours}
          allowDecimal={false}
          value={experiment.waitHours ?? ''}
          onChange={(next) => change({ waitHours: wholeOrNull(next) as number })}
        />
      </SimpleGrid>
      <SimpleGrid type="container" cols={{ base: 1, '420px': 3 }} spacing="xs">
        <Select
          label="Winner by"
          data={WINNER_OPTIONS}
          allowDeselect={false}
          value={experiment.winnerBy ?? null}
          onChange={(next) => change({ winnerBy: (next ?? 'opens') as CampaignExperiment['winnerBy'] })}
        />
        <TextInput
          label="Conversion event"
          description="Counted for every variant and the holdout"
          placeholder="purchase"
          value={experiment.conversionEvent ?? ''}
          onChange={(event) => change({ conversionEvent: event.currentTarget.value || null })}
        />
        <NumberInput
          label="Conversion window (hours)"
          min={1}
          max={EXPERIMENT_LIMITS.maxWindowHours}
          allowDecimal={false}
          value={experiment.windowHours ?? ''}
          onChange={(next) => change({ windowHours: wholeOrNull(next) })}
        />
      </SimpleGrid>
    </>
  );
}

/**
 * The campaign's A/B test (the `experiment` field type): off, one send to everyone; on, 2 to 4
 * variants, the share they split, the holdout, the wait and the rule the winner is picked by.
 */
export function ExperimentField(props: FieldProps) {
  const { value, onChange, readOnly, error, inputId } = props;
  if (readOnly) return <ExperimentDisplay {...props} />;
  const experiment = asExperiment(value);
  const parsed = experiment ? CampaignExperiment.safeParse(experiment) : null;
  const problem = error ?? (parsed && !parsed.success ? parsed.error.issues[0].message : undefined);
  const change = (patch: Partial<CampaignExperimentInput>) => onChange({ ...experiment, ...patch });
  const variants = experiment?.variants ?? [];

  return (
    <Stack gap="sm" data-testid="experiment-field">
      <Switch
        id={inputId}
        label="Test variants on a share of the audience first"
        description="The winner goes to the rest of the audience on its own once the wait is over."
        checked={!!experiment}
        onChange={(event) => onChange(event.currentTarget.checked ? NEW_EXPERIMENT : null)}
      />
      {experiment && (
        <>
          {variants.map((variant, index) => (
            <VariantEditor
              key={VARIANT_KEYS[index]}
              index={index}
              variant={variant}
              canRemove={variants.length > EXPERIMENT_LIMITS.minVariants}
              props={props}
              onChange={(next) =>
                change({ variants: variants.map((each, at) => (at === index ? next : each)) })
              }
              onRemove={() => change({ variants: variants.filter((_, at) => at !== index) })}
            />
          ))}
          {variants.length < EXPERIMENT_LIMITS.maxVariants && (
            <Group>
              <Button
                variant="default"
                size="compact-sm"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => change({ variants: [...variants, {}] })}
              >
                Add variant
              </Button>
            </Group>
          )}
          <ExperimentSettings experiment={experiment} change={change} />
          {problem && (
            <Text size="sm" c="red.8" role="alert" data-testid="experiment-problem">
              {problem}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
