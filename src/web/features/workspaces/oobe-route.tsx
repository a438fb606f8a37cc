import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { FormError } from '@web/components/form-error';
import { SimplePageLayout } from '@web/components/simple-page-layout';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { OobeSteps } from './components/oobe-steps';
import { useOobeWizard } from './use-oobe-wizard';

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
  const { form, update, active, setActive, isLast, handleNext, handleBack, handleFinish } =
    useOobeWizard(workspace);

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
            <OobeSteps form={form} active={active} onStepClick={setActive} />
            <FormError error={update.error} />
            <Group justify="space-between">
              <Button variant="default" onClick={handleBack} disabled={active === 0}>
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
