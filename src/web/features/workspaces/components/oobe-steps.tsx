import { Alert, Stack, Stepper, Text, TextInput } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { DomainPicker } from '@web/components/workspace-basics/domain-picker';
import { StagesInput } from '@web/components/workspace-basics/stages-input';
import { TimezonesInput } from '@web/components/workspace-basics/timezones-input';
import type { OobeForm } from '../use-oobe-wizard';

/** The four onboarding steps: name, domains, stages, time zones; earlier steps can be revisited. */
export function OobeSteps({
  form,
  active,
  onStepClick,
}: {
  form: OobeForm;
  active: number;
  onStepClick: (step: number) => void;
}) {
  return (
    <Stepper active={active} onStepClick={(step) => step < active && onStepClick(step)} size="sm" mb="xl">
      <Stepper.Step label="Name">
        <Stack gap="md" mt="lg">
          <TextInput
            label="Workspace name"
            description="Shown in the header and to everyone you invite."
            data-autofocus
            {...form.getInputProps('name')}
          />
        </Stack>
      </Stepper.Step>
      <Stepper.Step label="Domains">
        <Stack gap="sm" mt="lg">
          <Text size="sm" c="dimmed">
            Domains group the content types your team works with. Pick the ones you need.
          </Text>
          <DomainPicker
            value={form.values.domains}
            onChange={(value) => form.setFieldValue('domains', value)}
            error={form.errors.domains as string | undefined}
          />
        </Stack>
      </Stepper.Step>
      <Stepper.Step label="Stages">
        <Stack gap="sm" mt="lg">
          <StagesInput value={form.values.stages} onChange={(value) => form.setFieldValue('stages', value)} />
        </Stack>
      </Stepper.Step>
      <Stepper.Step label="Time zones">
        <Stack gap="sm" mt="lg">
          <TimezonesInput
            value={form.values.timezones}
            onChange={(value) => form.setFieldValue('timezones', value)}
            error={form.errors.timezones as string | undefined}
          />
          <Alert variant="light" color="gray" icon={<IconClock size={18} />}>
            Dates are shown in each person’s own zone; these zones are offered when entering times.
          </Alert>
        </Stack>
      </Stepper.Step>
    </Stepper>
  );
}
