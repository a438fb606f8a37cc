import { Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDatabase, IconFiles, IconUsers } from '@tabler/icons-react';
import { formatSize } from '@shared/text/size';
import { FormError } from '@web/components/form-error';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useSubscription } from './api/get-subscription';

const planLabel = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);

/** /{workspace}/_settings/subscription: plan and usage. */
export default function SubscriptionRoute() {
  const workspace = useCurrentWorkspace();
  const { data, isPending, error } = useSubscription(workspace.id);
  if (error) return <FormError error={error} />;
  if (isPending) return <Skeleton h={200} radius="md" />;

  const usage = [
    { label: 'Members', value: String(data.usage.members), icon: IconUsers },
    { label: 'Items', value: String(data.usage.items), icon: IconFiles },
    { label: 'Storage', value: formatSize(data.usage.storageBytes), icon: IconDatabase },
  ];

  return (
    <Stack gap="lg">
      <Card p="lg">
        <Group justify="space-between">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              Current plan
            </Text>
            <Group gap="sm">
              <Text fz={24} fw={700} data-testid="plan-name">
                {planLabel(data.plan)}
              </Text>
              <Badge variant="light">Active</Badge>
            </Group>
          </Stack>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {usage.map(({ label, value, icon: UsageIcon }) => (
          <Card key={label} p="lg">
            <Group gap="md" wrap="nowrap">
              <ThemeIcon variant="light" size={40}>
                <UsageIcon size={20} stroke={1.6} />
              </ThemeIcon>
              <Stack gap={0}>
                <Text size="sm" c="dimmed">
                  {label}
                </Text>
                <Text fz={22} fw={700}>
                  {value}
                </Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
