import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useCanCustomerData } from '@web/lib/workspace';

const profilesCsvPath = (ws: string, audienceId: string) =>
  `/api/v1/workspaces/${encodeURIComponent(ws)}/audiences/${encodeURIComponent(audienceId)}/profiles.csv`;

/**
 * The audience screen's members, for those who may export customer data: everyone its saved criteria
 * match now, downloaded as CSV with their attributes. Nothing for the others.
 */
export function AudienceMembers({ ws, audienceId }: { ws: string; audienceId: string }) {
  if (!useCanCustomerData(ws, 'export')) return null;
  return (
    <Paper p={{ base: 'sm', sm: 'lg' }} radius="md" data-testid="audience-members">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={3} size="h5">
            Members
          </Title>
          <Text size="sm" c="dimmed">
            Everyone the saved criteria match now, with their attributes.
          </Text>
        </Stack>
        <Button
          component="a"
          href={profilesCsvPath(ws, audienceId)}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          Export members (CSV)
        </Button>
      </Group>
    </Paper>
  );
}
