import { Alert, Badge, Button, Divider, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFlag, IconTrash } from '@tabler/icons-react';
import type { JourneyProblem } from '@shared/journeys/validate';
import { connect, stepExits, stepLabel, type CanvasDefinition, type CanvasStep } from './definition';
import { stepKindOf } from './step-kinds';

interface StepPanelProps {
  definition: CanvasDefinition;
  step: CanvasStep;
  problems: readonly JourneyProblem[];
  workspaceId: string;
  readOnly: boolean;
  onChange: (definition: CanvasDefinition) => void;
  onStepChange: (step: CanvasStep) => void;
  onRemove: () => void;
}

/** Where each exit of the step leads: the keyboard's way to connect steps. */
function NextSteps({
  definition,
  step,
  readOnly,
  onChange,
}: Pick<StepPanelProps, 'definition' | 'step' | 'readOnly' | 'onChange'>) {
  const exits = stepExits(step, definition.edges);
  if (exits.length === 0)
    return (
      <Text size="xs" c="dimmed">
        The journey ends here.
      </Text>
    );
  const options = definition.steps
    .filter((other) => other.id !== step.id)
    .map((other) => ({ value: other.id, label: stepLabel(other) }));
  return (
    <Stack gap={6}>
      {exits.map((exit) => {
        const to = definition.edges.find((edge) => edge.from === step.id && edge.exit === exit)?.to ?? null;
        return (
          <Select
            key={exit}
            size="xs"
            label={exits.length === 1 && exit === 'next' ? 'Next step' : `Next step on “${exit}”`}
            placeholder="Not connected"
            data={options}
            value={to}
            clearable
            readOnly={readOnly}
            onChange={(value) => onChange(connect(definition, step.id, exit, value))}
          />
        );
      })}
    </Stack>
  );
}

/** The side panel of the selected step: its name, its kind's properties, where its exits lead. */
export function StepPanel(props: StepPanelProps) {
  const { definition, step, problems, workspaceId, readOnly, onChange, onStepChange, onRemove } = props;
  const kind = stepKindOf(step.type);
  const isStart = definition.start === step.id;
  return (
    <Stack gap="sm" data-testid="journey-step-panel">
      <Group justify="space-between" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <kind.icon size={18} aria-hidden />
          <Title order={3} size="h5">
            {kind.title}
          </Title>
        </Group>
        {isStart && (
          <Badge size="sm" variant="light" leftSection={<IconFlag size={12} />}>
            First step
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        Id: {step.id}
      </Text>
      {problems.map((problem) => (
        <Alert key={problem.message} color="red" variant="light" py={6} fz="xs">
          {problem.message}
        </Alert>
      ))}
      <TextInput
        size="xs"
        label="Name"
        value={typeof step.name === 'string' ? step.name : ''}
        readOnly={readOnly}
        onChange={(event) => onStepChange({ ...step, name: event.currentTarget.value || undefined })}
      />
      {kind.Form && (
        <kind.Form step={step} onChange={onStepChange} readOnly={readOnly} workspaceId={workspaceId} />
      )}
      <Divider />
      <NextSteps definition={definition} step={step} readOnly={readOnly} onChange={onChange} />
      {!readOnly && (
        <Group gap="xs">
          {!isStart && (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFlag size={14} />}
              onClick={() => onChange({ ...definition, start: step.id })}
            >
              Make first step
            </Button>
          )}
          <Button
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} />}
            onClick={onRemove}
          >
            Remove step
          </Button>
        </Group>
      )}
    </Stack>
  );
}
