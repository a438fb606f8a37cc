import type { ReactNode } from 'react';
import { Alert, Button, Group } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '@web/lib/api-client';
import type { StageAction } from './use-stage-action';

/**
 * The end of the publish and unpublish screens: what went wrong, Cancel, and the button that acts now
 * (given) or schedules for the chosen time.
 */
export function StageActionFooter({
  flow,
  canAct,
  error,
  errorTitle,
  note,
  nowButton,
}: {
  flow: StageAction;
  canAct: boolean;
  error: Error | null;
  errorTitle: string;
  /** Shown before the buttons, e.g. why acting now is refused. */
  note?: ReactNode;
  nowButton: ReactNode;
}) {
  const { schedule, picker } = flow;
  return (
    <>
      {schedule.isError && (
        <Alert color="red" variant="light" role="alert" title="Scheduling failed">
          {errorMessage(schedule.error)}
        </Alert>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" title={errorTitle}>
          {errorMessage(error)}
        </Alert>
      )}
      <Group justify="flex-end" wrap="wrap">
        {note}
        <Button component={Link} to={flow.back} variant="default">
          Cancel
        </Button>
        {!picker.isLater ? (
          nowButton
        ) : (
          <Button
            leftSection={<IconCalendarTime size={16} />}
            onClick={flow.handleSchedule}
            loading={schedule.isPending}
            disabled={!canAct || !picker.at}
          >
            Schedule for {picker.label}
          </Button>
        )}
      </Group>
    </>
  );
}
