import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { FormError } from '@web/components/form-error';
import { useSetTwoFactorRequirement, useTwoFactorRequirement } from '../api/two-factor-requirement';

/** Whether the workspace's members must have two-factor sign-in (or come through its single sign-on). */
export function TwoFactorRequirementCard({ workspaceId }: { workspaceId: string }) {
  const { data, error } = useTwoFactorRequirement(workspaceId);
  const change = useSetTwoFactorRequirement(workspaceId);
  return (
    <Card p="lg">
      <Stack gap="xs">
        <Title order={5}>Two-factor sign-in</Title>
        <Text size="sm" c="dimmed">
          Members who sign in with a password must turn on two-factor sign-in in their user menu before they
          can use this workspace. Single sign-on leaves the second factor to your provider.
        </Text>
        <FormError error={error ?? change.error} />
        <Switch
          label="Require two-factor sign-in of members"
          checked={data?.required ?? false}
          disabled={!data || change.isPending}
          onChange={(event) => change.mutate(event.currentTarget.checked)}
        />
      </Stack>
    </Card>
  );
}
