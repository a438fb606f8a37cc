import '@mantine/charts/styles.css';
import { Alert, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCurrentWorkspace } from '@web/lib/workspace';
import { useStats } from './api/get-stats';
import { AudienceSizesChart } from './components/audience-sizes-chart';
import { StatTiles } from './components/stat-tiles';
import {
  ApprovalsByRoleChart,
  ChangesByMemberChart,
  ItemsPerSchemaChart,
  PublishingChart,
  PublishStatusChart,
} from './components/stats-charts';
import { VisualisationCard } from './components/visualisation-card';

/** /{workspace}/_dashboard: what a team looks at first, from GET …/stats. */
export default function DashboardRoute() {
  const workspace = useCurrentWorkspace();
  const stats = useStats(workspace.id);

  if (stats.isPending) return <Skeleton height={400} radius="md" />;
  if (stats.isError) return <Alert color="red">{stats.error.message}</Alert>;
  const s = stats.data;

  return (
    <Stack gap="lg">
      <div>
        <Text size="xs" fw={600} c="dimmed" tt="uppercase">
          Overview
        </Text>
        <Title order={1} fz="h2">
          Dashboard
        </Title>
      </div>
      <StatTiles stats={s} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ItemsPerSchemaChart counts={s.itemsBySchema} />
        <PublishStatusChart stages={s.publishStatus} />
        <PublishingChart days={s.publishing} />
        <ChangesByMemberChart members={s.changesByMember} />
        <ApprovalsByRoleChart roles={s.approvals.byRole} />
        {s.audienceSizes.length > 0 && <AudienceSizesChart audiences={s.audienceSizes} />}
      </SimpleGrid>
      <VisualisationCard workspaceId={workspace.id} canRefresh={workspace.__permissions.canManageWorkspace} />
    </Stack>
  );
}
