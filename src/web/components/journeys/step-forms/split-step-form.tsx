import { ActionIcon, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { StepFormProps } from './types';

interface SplitPath {
  key: string;
  percent: number;
}

const MAX_PATHS = 4;

/** Random split: up to four paths with their shares, and a holdout that gets nothing. */
export function SplitStepForm({ step, onChange, readOnly }: StepFormProps) {
  const paths = (Array.isArray(step.paths) ? step.paths : []) as SplitPath[];
  const holdout = typeof step.holdoutPercent === 'number' ? step.holdoutPercent : 0;
  const setPaths = (next: SplitPath[]) => onChange({ ...step, paths: next });
  const total = paths.reduce((sum, path) => sum + path.percent, holdout);
  return (
    <Stack gap="xs">
      {paths.map((path, index) => (
        <Group key={index} gap={4} wrap="nowrap" align="flex-end">
          <TextInput
            size="xs"
            label={index === 0 ? 'Path' : undefined}
            aria-label={`Path ${index + 1}`}
            value={path.key}
            readOnly={readOnly}
            onChange={(event) =>
              setPaths(
                paths.map((each, at) => (at === index ? { ...each, key: event.currentTarget.value } : each)),
              )
            }
            style={{ flex: 1 }}
          />
          <NumberInput
            size="xs"
            w={90}
            label={index === 0 ? 'Share' : undefined}
            aria-label={`Share of path ${index + 1}`}
            suffix="%"
            min={0}
            max={100}
            value={path.percent}
            readOnly={readOnly}
            onChange={(value) =>
              setPaths(
                paths.map((each, at) => (at === index ? { ...each, percent: Number(value) || 0 } : each)),
              )
            }
          />
          {!readOnly && paths.length > 1 && (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove path ${index + 1}`}
              onClick={() => setPaths(paths.filter((_, at) => at !== index))}
            >
              <IconTrash size={14} />
            </ActionIcon>
          )}
        </Group>
      ))}
      {!readOnly && paths.length < MAX_PATHS && (
        <Button
          size="compact-xs"
          variant="subtle"
          leftSection={<IconPlus size={12} />}
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setPaths([...paths, { key: String.fromCharCode(97 + paths.length), percent: 0 }])}
        >
          Add path
        </Button>
      )}
      <NumberInput
        size="xs"
        label="Holdout"
        description="Profiles held out get nothing; they measure the lift"
        suffix="%"
        min={0}
        max={100}
        value={holdout}
        readOnly={readOnly}
        onChange={(value) => onChange({ ...step, holdoutPercent: Number(value) || 0 })}
      />
      <Text size="xs" c={Math.abs(total - 100) > 1e-9 ? 'red' : 'dimmed'}>
        Total {total}% (must be 100%)
      </Text>
    </Stack>
  );
}
