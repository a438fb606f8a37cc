import { Card, SimpleGrid, Text } from '@mantine/core';
import type { WorkspaceStats } from '@shared/api/stats';

function StatTile({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Card withBorder radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

/** The three headline numbers above the dashboard's charts. */
export function StatTiles({ stats }: { stats: WorkspaceStats }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <StatTile
        label="Items"
        value={stats.itemsBySchema.reduce((n, r) => n + r.count, 0)}
        testId="stat-total"
      />
      <StatTile
        label="Waiting on my approval"
        value={stats.approvals.waitingOnMe}
        testId="stat-waiting-on-me"
      />
      <StatTile
        label="Publishes, last 30 days"
        value={stats.publishing.reduce((n, r) => n + r.count, 0)}
        testId="stat-published-30"
      />
    </SimpleGrid>
  );
}
