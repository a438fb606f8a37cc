import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconClock, IconHourglass } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { Basics } from '@shared/api/workspaces';
import { normaliseStages } from '@shared/publishing/stages';
import { explorePath } from '@web/app/guards';
import { FormError } from '@web/components/form-error';
import { SimplePageLayout } from '@web/components/simple-page-layout';
import { DomainPicker } from '@web/components/workspace-basics/domain-picker';
import { StagesInput } from '@web/components/workspace-basics/stages-input';
import { TimezonesInput } from '@web/components/workspace-basics/timezones-input';
import { useCurrentWorkspace, useUpdateWorkspace } from '@web/lib/workspace';
import { showToast } from '@web/lib/toast';

const STEPS = ['Name', 'Domains', 'Stages', 'Time zones'] as const;

/** /{workspace}/_oobe: onboarding, forced until oobe.done (spec §2, §4). */
export default function OobeRoute() {
  const workspace = useCurrentWorkspace();
  if (!workspace.__permissions.canManageWorkspace) return <WaitingForManager name={workspace.name} />;
  return <OobeWizard />;
}

function WaitingForManager({ name }: { name: string }) {
  return (
    <SimplePageLayout size={560}>
      <Card p="xl" radius="lg">
        <Stack align="center" ta="center" gap="sm">
          <IconHourglass size={40} stroke={1.4} color="var(--mantine-color-marquee-5)" />
          <Title order={1} fz="h3">
            {name} is being set up
          </Title>
          <Text c="dimmed">
            A workspace manager is still finishing the set-up. Check back in a little while.
          </Text>
        </Stack>
      </Card>
    </SimplePageLayout>
  );
}

function OobeWizard() {
  const workspace = useCurrentWorkspace();
  const update = useUpdateWorkspace(workspace.id);
  const navigate = useNavigate();
  const [active, setActive] = useState(0);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: workspace.basics.name || workspace.name,
      domains: [...workspace.basics.domains],
      stages: normaliseStages(workspace.basics.stages),
      timezones: [...workspace.basics.timezones],
    },
    validate: {
      name: (value) => (Basics.shape.name.safeParse(value).success ? null : 'Name is required'),
      domains: (value) => (value.length ? null : 'Choose at least one domain'),
      timezones: (value) => (value.length ? null : 'Choose at least one time zone'),
    },
  });

  const stepFields: Record<number, (keyof typeof form.values)[]> = {
    0: ['name'],
    1: ['domains'],
    3: ['timezones'],
  };

  const handleNext = () => {
    const fields = stepFields[active] ?? [];
    const hasErrors = fields.map((field) => form.validateField(field).hasError).some(Boolean);
    if (!hasErrors) setActive((step) => Math.min(step + 1, STEPS.length - 1));
  };

  const handleFinish = form.onSubmit((values) =>
    update.mutate(
      {
        basics: {
          name: values.name.trim(),
          domains: values.domains,
          stages: normaliseStages(values.stages),
          timezones: values.timezones,
        },
        oobe: { done: true },
        baseVersion: workspace.version,
      },
      {
        onSuccess: (saved) => {
          showToast({ color: 'teal', title: 'All set', message: `${saved.basics.name} is ready.` });
          navigate(explorePath(saved.id), { replace: true });
        },
      },
    ),
  );

  const isLast = active === STEPS.length - 1;

  return (
    <SimplePageLayout size={760}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Text size="sm" c="marquee.6" fw={600}>
            Set up your workspace
          </Text>
          <Title order={1} fz="h2">
            Let’s get {workspace.name} ready
          </Title>
          <Text c="dimmed">Four quick steps. You can change all of this later in Settings.</Text>
        </Stack>
        <Card p="xl" radius="lg">
          <form
            onSubmit={
              isLast
                ? handleFinish
                : (event) => {
                    event.preventDefault();
                    handleNext();
                  }
            }
            noValidate
          >
            <Stepper
              active={active}
              onStepClick={(step) => step < active && setActive(step)}
              size="sm"
              mb="xl"
            >
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
                  <StagesInput
                    value={form.values.stages}
                    onChange={(value) => form.setFieldValue('stages', value)}
                  />
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
            <FormError error={update.error} />
            <Group justify="space-between">
              <Button
                variant="default"
                onClick={() => setActive((s) => Math.max(0, s - 1))}
                disabled={active === 0}
              >
                Back
              </Button>
              {isLast ? (
                <Button key="finish" type="submit" loading={update.isPending}>
                  Finish set-up
                </Button>
              ) : (
                <Button key="next" onClick={handleNext}>
                  Continue
                </Button>
              )}
            </Group>
          </form>
        </Card>
      </Stack>
    </SimplePageLayout>
  );
}
