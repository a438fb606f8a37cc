import { Anchor, Badge, Card, Group, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import { Link } from 'react-router';
import { FormError } from '@web/components/form-error';
import { formatDateTime } from '@web/lib/dates';
import { useJourneyHistory } from '../api/get-journey-history';
import type { JourneyRunHistory } from '../journey-history';

const REASON_LABEL: Record<string, string> = {
  finished: 'Finished',
  goal: 'Reached the goal',
  holdout: 'Held out',
  stopped: 'The journey was stopped',
};

function RunTimeline({
  run,
  stepNames,
}: {
  run: JourneyRunHistory;
  stepNames?: ReadonlyMap<string, string>;
}) {
  const nameOf = (id: string) => stepNames?.get(id) ?? id;
  return (
    <Timeline bulletSize={12} lineWidth={2} ml={4} active={run.steps.length + (run.exit ? 1 : 0)}>
      {run.enteredAt && (
        <Timeline.Item
          title={
            <Text size="sm" fw={500}>
              Entered
            </Text>
          }
        >
          <Text size="xs" c="dimmed">
            {formatDateTime(run.enteredAt)}
          </Text>
        </Timeline.Item>
      )}
      {run.steps.map((step, index) => (
        <Timeline.Item
          key={`${step.stepId}-${index}`}
          title={
            <Text size="sm" fw={500}>
              {nameOf(step.stepId)}
            </Text>
          }
        >
          <Text size="xs" c="dimmed">
            {step.type}
            {step.exit && step.exit !== 'next' ? `, left by “${step.exit}”` : ''} · {formatDateTime(step.at)}
          </Text>
        </Timeline.Item>
      ))}
      {run.exit && (
        <Timeline.Item
          title={
            <Text size="sm" fw={500}>
              {REASON_LABEL[run.exit.reason] ?? run.exit.reason}
            </Text>
          }
        >
          <Text size="xs" c="dimmed">
            {run.exit.stepId ? `At ${nameOf(run.exit.stepId)} · ` : ''}
            {formatDateTime(run.exit.at)}
          </Text>
        </Timeline.Item>
      )}
    </Timeline>
  );
}

/** The journeys the profile went through: per run, when it entered, each step, and why it left. */
export function JourneysCard({ ws, id }: { ws: string; id: string }) {
  const { runs, names, stepNames, error, isPending } = useJourneyHistory(ws, id);
  return (
    <Card withBorder>
      <Title order={2} fz="h4" mb="sm">
        Journeys
      </Title>
      <FormError error={error} />
      {isPending ? (
        <Skeleton h={60} />
      ) : runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          In no journey yet.
        </Text>
      ) : (
        <Stack gap="md" data-testid="profile-journeys">
          {runs.map((run, index) => (
            <Stack key={`${run.journeyId}-${index}`} gap="xs" data-testid="profile-journey-run">
              <Group gap="xs">
                <Anchor component={Link} to={`/${ws}/marketing/journey/${run.journeyId}`} fw={550} size="sm">
                  {names.get(run.journeyId) ?? run.journeyId}
                </Anchor>
                {run.version !== null && (
                  <Badge size="xs" variant="outline">
                    version {run.version}
                  </Badge>
                )}
                {!run.exit && (
                  <Badge size="xs" variant="light" color="teal">
                    in the journey now
                  </Badge>
                )}
              </Group>
              <RunTimeline run={run} stepNames={stepNames.get(run.journeyId)} />
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}
