import { Code, Stack, Text } from '@mantine/core';
import type { StepFormProps } from './types';

/** A kind this screen does not know yet: its type and its properties as they are stored. */
export function UnknownStepForm({ step }: StepFormProps) {
  const { id: _id, name: _name, position: _position, ...properties } = step;
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Steps of type “{step.type}” cannot be edited here yet; the canvas keeps them as they are.
      </Text>
      <Code block data-testid="unknown-step-json">
        {JSON.stringify(properties, null, 2)}
      </Code>
    </Stack>
  );
}
