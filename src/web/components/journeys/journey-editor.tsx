import { useMemo, useState } from 'react';
import { Alert, Anchor, Box, Flex, List, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { ReactFlowProvider } from '@xyflow/react';
import { checkJourney, type JourneyProblem } from '@shared/journeys/validate';
import { newStepId, removeStep, updateStep, type CanvasDefinition } from './definition';
import { EdgePanel } from './edge-panel';
import { EntryPanel } from './entry-panel';
import { edgeOfId, ENTRY_NODE_ID, type StepCounts } from './graph';
import { JourneyCanvas } from './journey-canvas';
import { arrangeSteps, placeStep } from './layout';
import { StepPanel } from './step-panel';
import { STEP_KINDS } from './step-kinds';
import { StepPalette } from './step-palette';

const CANVAS_HEIGHT = 560;

interface JourneyEditorProps {
  definition: CanvasDefinition;
  onUpdate: (change: (definition: CanvasDefinition) => CanvasDefinition) => void;
  counts?: ReadonlyMap<string, StepCounts>;
  readOnly: boolean;
  workspaceId: string;
}

/** What keeps the journey from starting; a problem about a step selects it. */
function ProblemList({
  problems,
  stepIds,
  onSelect,
}: {
  problems: readonly JourneyProblem[];
  stepIds: readonly string[];
  onSelect: (id: string) => void;
}) {
  if (problems.length === 0) return null;
  return (
    <Alert color="orange" variant="light" py={6} title="Not ready to start" data-testid="journey-problems">
      <List size="xs" spacing={2}>
        {problems.map(({ message, stepId }) => (
          <List.Item key={message}>
            {stepId && stepIds.includes(stepId) ? (
              <Anchor component="button" type="button" size="xs" onClick={() => onSelect(stepId)}>
                {message}
              </Anchor>
            ) : (
              message
            )}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/** The canvas, the palette above it, what is wrong with the journey, and the side panel of the selection. */
export function JourneyEditor({ definition, onUpdate, counts, readOnly, workspaceId }: JourneyEditorProps) {
  const [selectedId, setSelectedId] = useState<string | null>(ENTRY_NODE_ID);
  const { problems } = useMemo(() => checkJourney(definition), [definition]);
  const selectedStep = definition.steps.find((step) => step.id === selectedId);
  const selectedEdge = selectedId ? edgeOfId(selectedId) : null;
  const replace = (next: CanvasDefinition) => onUpdate(() => next);

  const handleAdd = (kind: string) => {
    const id = newStepId(definition, kind);
    onUpdate((current) =>
      placeStep(current, { id, type: kind, ...STEP_KINDS[kind].create() }, selectedStep?.id ?? null),
    );
    setSelectedId(id);
  };
  const [fitKey, setFitKey] = useState(0);
  const handleArrange = () => {
    onUpdate(arrangeSteps);
    setFitKey((key) => key + 1);
  };
  const handleRemove = (id: string) => {
    onUpdate((current) => removeStep(current, id));
    setSelectedId((current) => (current === id ? ENTRY_NODE_ID : current));
  };

  return (
    <Stack gap="xs" data-testid="journey-editor">
      {!readOnly && <StepPalette onAdd={handleAdd} onArrange={handleArrange} />}
      <ProblemList
        problems={problems}
        stepIds={definition.steps.map((step) => step.id)}
        onSelect={setSelectedId}
      />
      <Flex direction={{ base: 'column', md: 'row' }} align="stretch" gap="xs">
        <Paper
          withBorder
          radius="md"
          h={CANVAS_HEIGHT}
          style={{ flex: '1 1 auto', minWidth: 0 }}
          data-testid="journey-canvas"
        >
          <ReactFlowProvider>
            <JourneyCanvas
              definition={definition}
              problems={problems}
              counts={counts}
              selectedId={selectedId}
              readOnly={readOnly}
              onUpdate={onUpdate}
              onSelect={setSelectedId}
              onRemoveStep={handleRemove}
              fitKey={fitKey}
            />
          </ReactFlowProvider>
        </Paper>
        <Paper
          withBorder
          radius="md"
          w={{ base: '100%', md: 320 }}
          style={{ flex: 'none' }}
          component="aside"
          aria-label="Selected step"
        >
          <ScrollArea h={CANVAS_HEIGHT - 2} p="sm">
            {selectedStep ? (
              <StepPanel
                key={selectedStep.id}
                definition={definition}
                step={selectedStep}
                problems={problems.filter((problem) => problem.stepId === selectedStep.id)}
                workspaceId={workspaceId}
                readOnly={readOnly}
                onChange={replace}
                onStepChange={(step) => onUpdate((current) => updateStep(current, step))}
                onRemove={() => handleRemove(selectedStep.id)}
              />
            ) : selectedEdge ? (
              <EdgePanel definition={definition} {...selectedEdge} readOnly={readOnly} onChange={replace} />
            ) : selectedId === ENTRY_NODE_ID ? (
              <EntryPanel
                definition={definition}
                onChange={replace}
                readOnly={readOnly}
                workspaceId={workspaceId}
              />
            ) : (
              <Box>
                <Text size="sm" c="dimmed">
                  Select a step (click it, or Tab to it and press Enter) to edit it here.
                </Text>
              </Box>
            )}
          </ScrollArea>
        </Paper>
      </Flex>
    </Stack>
  );
}
