import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  type ButtonProps,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop, IconRocket } from '@tabler/icons-react';
import type { JourneyResults } from '@shared/api/journeys';
import { checkJourney } from '@shared/journeys/validate';
import { FormError } from '../form-error';
import { useControlJourney, type JourneyAction } from './api/control-journey';
import { useJourneyResults } from './api/get-results';
import { StartVersionDialog } from './start-version-dialog';

const STATE_COLOR = { running: 'teal', paused: 'yellow', stopped: 'gray' } as const;

function ControlButtons({
  version,
  state,
  isStarted,
  canStart,
  pending,
  onAction,
}: {
  version: number;
  state: JourneyResults['state'];
  isStarted: boolean;
  canStart: boolean;
  pending: JourneyAction | null;
  onAction: (action: JourneyAction) => void;
}) {
  const isLive = state === 'running' || state === 'paused';
  const button = (action: JourneyAction, label: string, Icon: typeof IconRocket, props: ButtonProps = {}) => (
    <Button
      size="xs"
      leftSection={<Icon size={14} />}
      loading={pending === action}
      onClick={() => onAction(action)}
      {...props}
    >
      {label}
    </Button>
  );
  return (
    <Group gap="xs">
      {!isStarted &&
        button('start', `Start version ${version}`, IconRocket, {
          disabled: !canStart,
          'aria-describedby': canStart ? undefined : START_PROBLEMS_ID,
        } as ButtonProps)}
      {state === 'running' && button('pause', 'Pause', IconPlayerPause, { variant: 'default' })}
      {state === 'paused' && button('resume', 'Resume', IconPlayerPlay, { variant: 'default' })}
      {isLive && button('stop', 'Stop', IconPlayerStop, { color: 'red', variant: 'light' })}
    </Group>
  );
}

const START_PROBLEMS_ID = 'journey-start-problems';

interface JourneyPanelProps {
  workspaceId: string;
  journeyId: string;
  /** The saved version, the one Start starts, and its definition. */
  version: number;
  definition: unknown;
  /** Publish rights on journey: the server's rule for start, pause, resume and stop. */
  canRun: boolean;
}

/**
 * The journey's state and its Start, Pause, Resume and Stop. Start refuses while the saved version's
 * definition has problems, and shows them; whatever the server refuses it with is shown too. While an
 * older version still runs, Start opens the plan of where its waiting profiles go.
 */
export function JourneyPanel({ workspaceId, journeyId, version, definition, canRun }: JourneyPanelProps) {
  const results = useJourneyResults(workspaceId, journeyId);
  const control = useControlJourney(workspaceId, journeyId);
  const [isPlanning, setPlanning] = useState(false);
  const state = results.data?.state ?? null;
  const isLive = state === 'running' || state === 'paused';
  const handleAction = (action: JourneyAction) => {
    if (action === 'start' && isLive) {
      control.reset();
      setPlanning(true);
    } else control.mutate({ action });
  };
  const started = results.data?.versions ?? [];
  const running = started.find((each) => each.version === version);
  const { problems } = checkJourney(definition);
  const canStart = !running && problems.length === 0;
  const totals = started.reduce(
    (sum, each) => ({
      entered: sum.entered + each.entered,
      active: sum.active + each.active,
      converted: sum.converted + each.converted,
    }),
    { entered: 0, active: 0, converted: 0 },
  );
  return (
    <Paper p={{ base: 'sm', sm: 'lg' }} radius="md" withBorder data-testid="journey-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={3} size="h5">
              Running
            </Title>
            <Badge color={state ? STATE_COLOR[state] : 'gray'} variant="light" data-testid="journey-state">
              {state ? `${state}${started[0] ? ` · version ${started[0].version}` : ''}` : 'not started'}
            </Badge>
          </Group>
          {canRun && (
            <ControlButtons
              version={version}
              state={state}
              isStarted={!!running}
              canStart={canStart}
              pending={control.isPending && !isPlanning ? control.variables.action : null}
              onAction={handleAction}
            />
          )}
        </Group>
        {!canRun && (
          <Text size="sm" c="dimmed">
            Members who may publish journeys start, pause and stop them.
          </Text>
        )}
        <FormError error={(isPlanning ? null : control.error) ?? results.error} />
        {isPlanning && (
          <StartVersionDialog
            workspaceId={workspaceId}
            journeyId={journeyId}
            version={version}
            isStarting={control.isPending}
            error={control.error}
            onStart={(migrate) =>
              control.mutate({ action: 'start', body: { migrate } }, { onSuccess: () => setPlanning(false) })
            }
            onClose={() => setPlanning(false)}
          />
        )}
        {!running && problems.length > 0 && (
          <Alert
            color="orange"
            variant="light"
            py={6}
            title={`Version ${version} cannot start yet`}
            id={START_PROBLEMS_ID}
            data-testid="journey-start-problems"
          >
            <List size="xs" spacing={2}>
              {problems.map((problem) => (
                <List.Item key={problem.message}>{problem.message}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {started.length > 0 && (
          <Text size="sm" data-testid="journey-totals">
            {totals.entered} entered · {totals.active} in the journey now · {totals.converted} converted
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
