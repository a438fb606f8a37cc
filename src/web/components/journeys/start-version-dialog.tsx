import { useState } from 'react';
import { Button, Group, Modal, NativeSelect, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { JourneyMigration, JourneyStartPlan } from '@shared/api/journeys';
import { FormError } from '../form-error';
import { useJourneyStartPlan } from './api/get-start-plan';
import { stepKindOf } from './step-kinds';

/** The select's value for "finish on the old version" (a step id is never empty). */
const FINISH = '';

const stepLabel = (step: { stepId: string; name: string | null; type: string }) =>
  `${step.name ?? step.stepId} · ${stepKindOf(step.type).title}`;

const profilesWord = (n: number) => `${n} ${n === 1 ? 'profile' : 'profiles'}`;

/** The plan's default targets, as the start's `migrate`. */
function defaultMigration(plan: JourneyStartPlan): JourneyMigration {
  return Object.fromEntries(
    plan.versions.map((older) => [
      String(older.version),
      Object.fromEntries(older.steps.map((step) => [step.stepId, step.target])),
    ]),
  );
}

/** How many waiting profiles the migration moves, and how many finish where they are. */
function tally(plan: JourneyStartPlan, migrate: JourneyMigration) {
  let moving = 0;
  let staying = 0;
  for (const older of plan.versions)
    for (const step of older.steps) {
      if (migrate[String(older.version)]?.[step.stepId]) moving += step.waiting;
      else staying += step.waiting;
    }
  return { moving, staying };
}

function VersionPlan({
  plan,
  older,
  targets,
  onChange,
}: {
  plan: JourneyStartPlan;
  older: JourneyStartPlan['versions'][number];
  targets: Record<string, string | null>;
  onChange: (stepId: string, target: string | null) => void;
}) {
  const headingId = `journey-plan-version-${older.version}`;
  const options = [
    { value: FINISH, label: `Finish on version ${older.version}` },
    ...plan.steps.map((step) => ({
      value: step.stepId,
      label: `${stepLabel(step)} (version ${plan.version})`,
    })),
  ];
  return (
    <Stack gap={4} data-testid="journey-plan-version">
      <Title order={4} size="h6" id={headingId}>
        Version {older.version} ({older.state})
      </Title>
      <Table aria-labelledby={headingId} verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Step</Table.Th>
            <Table.Th ta="right">Waiting</Table.Th>
            <Table.Th>Goes to</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {older.steps.map((step) => (
            <Table.Tr key={step.stepId} data-testid={`journey-plan-step-${step.stepId}`}>
              <Table.Td>{stepLabel(step)}</Table.Td>
              <Table.Td ta="right" data-testid="journey-plan-waiting">
                {step.waiting}
              </Table.Td>
              <Table.Td>
                <NativeSelect
                  size="xs"
                  aria-label={`Where the profiles waiting at ${step.name ?? step.stepId} of version ${older.version} go`}
                  data={options}
                  value={targets[step.stepId] ?? FINISH}
                  onChange={(event) => onChange(step.stepId, event.currentTarget.value || null)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/**
 * Starting a version while older ones still run: per older version and step, the profiles waiting
 * there and where they go in the new version (by default the step of the same id and kind), or to
 * finish on the old one. The start sends the choice as its `migrate`.
 */
export function StartVersionDialog({
  workspaceId,
  journeyId,
  version,
  isStarting,
  error,
  onStart,
  onClose,
}: {
  workspaceId: string;
  journeyId: string;
  version: number;
  isStarting: boolean;
  error: unknown;
  onStart: (migrate: JourneyMigration) => void;
  onClose: () => void;
}) {
  const plan = useJourneyStartPlan(workspaceId, journeyId);
  const [changed, setChanged] = useState<JourneyMigration>({});
  const base = plan.data ? defaultMigration(plan.data) : {};
  const migrate: JourneyMigration = Object.fromEntries(
    Object.entries(base).map(([key, steps]) => [key, { ...steps, ...changed[key] }]),
  );
  const counts = plan.data ? tally(plan.data, migrate) : null;
  const choose = (key: string, stepId: string, target: string | null) =>
    setChanged((current) => ({ ...current, [key]: { ...current[key], [stepId]: target } }));
  return (
    <Modal opened onClose={onClose} title={`Start version ${version}`} size="xl">
      <Stack gap="md">
        <Text size="sm">
          Profiles already in the journey stay on the version they entered unless you move them. A moved wait
          keeps its time when it goes to a step of the same kind; nothing a profile was sent is sent again.
        </Text>
        <FormError error={plan.error ?? error} />
        {plan.isPending && <Skeleton h={120} />}
        {plan.data?.versions.map((older) => (
          <VersionPlan
            key={older.version}
            plan={plan.data}
            older={older}
            targets={migrate[String(older.version)] ?? {}}
            onChange={(stepId, target) => choose(String(older.version), stepId, target)}
          />
        ))}
        {counts && (
          <Text size="sm" data-testid="journey-plan-summary">
            {profilesWord(counts.moving)} move to version {version} · {profilesWord(counts.staying)} finish
            where they are
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={isStarting} disabled={!plan.data} onClick={() => onStart(migrate)}>
            Start version {version}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
