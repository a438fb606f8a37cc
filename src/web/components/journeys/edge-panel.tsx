import { Button, Stack, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { connect, stepLabel, type CanvasDefinition } from './definition';

/** The side panel of a selected connection: which exit it joins to which step, and Remove. */
export function EdgePanel({
  definition,
  from,
  exit,
  readOnly,
  onChange,
}: {
  definition: CanvasDefinition;
  from: string;
  exit: string;
  readOnly: boolean;
  onChange: (definition: CanvasDefinition) => void;
}) {
  const edge = definition.edges.find((each) => each.from === from && each.exit === exit);
  const label = (id: string | undefined) => {
    const step = definition.steps.find((each) => each.id === id);
    return step ? stepLabel(step) : (id ?? '');
  };
  if (!edge) return null;
  return (
    <Stack gap="sm" data-testid="journey-edge-panel">
      <Title order={3} size="h5">
        Connection
      </Title>
      <Text size="sm">
        From “{label(edge.from)}” by “{edge.exit}” to “{label(edge.to)}”.
      </Text>
      {!readOnly && (
        <Button
          size="xs"
          color="red"
          variant="light"
          leftSection={<IconTrash size={14} />}
          onClick={() => onChange(connect(definition, from, exit, null))}
          style={{ alignSelf: 'flex-start' }}
        >
          Remove connection
        </Button>
      )}
    </Stack>
  );
}
