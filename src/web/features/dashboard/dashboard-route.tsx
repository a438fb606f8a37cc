import { AreaChart, BarChart, LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Alert, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { getSchema } from '@shared/schemas/catalogue';
import { useCurrentWorkspace } from '@web/lib/workspace';
import type { WorkspaceStats } from '@shared/api/stats';
import { useStats } from './api/get-stats';
import { ChartCard } from './components/chart-card';
import { VisualisationCard } from './components/visualisation-card';

const schemaTitle = (name: string) => getSchema(name)?.pluralTitle ?? name;
const SERIES_COLORS = ['violet.6', 'teal.6', 'orange.6', 'blue.6', 'grape.6', 'red.6', 'lime.7', 'cyan.6'];

/** One row per recorded day with each audience's size under its label (a gap where none was recorded). */
function audienceSizeRows(audiences: WorkspaceStats['audienceSizes']) {
  const label = (a: WorkspaceStats['audienceSizes'][number]) => a.name || a.audienceId;
  const days = [...new Set(audiences.flatMap((a) => a.points.map((p) => p.day)))].sort();
  const rows = days.map((day) => {
    const row: Record<string, string | number | null> = { day };
    for (const a of audiences) row[label(a)] = a.points.find((p) => p.day === day)?.size ?? null;
    return row;
  });
  return { labels: audiences.map(label), rows };
}

/** /{workspace}/_dashboard: what a team looks at first, from GET …/stats. */
export default function DashboardRoute() {
  const workspace = useCurrentWorkspace();
  const stats = useStats(workspace.id);

  if (stats.isPending) return <Skeleton height={400} radius="md" />;
  if (stats.isError) return <Alert color="red">{stats.error.message}</Alert>;
  const s = stats.data;
  const items = s.itemsBySchema.map((r) => ({ schema: schemaTitle(r.schema), Items: r.count }));
  const status = s.publishStatus.map((r) => ({
    stage: r.label,
    Current: r.current,
    Modified: r.modified,
    'Not published': r.notPublished,
  }));
  const publishing = s.publishing.map((r) => ({ day: r.day.slice(5), Publishes: r.count }));
  const changes = s.changesByMember.map((r) => ({ member: r.name || 'UNKNOWN USER', Versions: r.count }));
  const approvals = s.approvals.byRole.map((r) => ({ role: r.label, Waiting: r.count }));
  const sizes = audienceSizeRows(s.audienceSizes);

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
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Card withBorder radius="md" data-testid="stat-total">
          <Text size="xs" c="dimmed">
            Items
          </Text>
          <Text fz={28} fw={700}>
            {s.itemsBySchema.reduce((n, r) => n + r.count, 0)}
          </Text>
        </Card>
        <Card withBorder radius="md" data-testid="stat-waiting-on-me">
          <Text size="xs" c="dimmed">
            Waiting on my approval
          </Text>
          <Text fz={28} fw={700}>
            {s.approvals.waitingOnMe}
          </Text>
        </Card>
        <Card withBorder radius="md" data-testid="stat-published-30">
          <Text size="xs" c="dimmed">
            Publishes, last 30 days
          </Text>
          <Text fz={28} fw={700}>
            {s.publishing.reduce((n, r) => n + r.count, 0)}
          </Text>
        </Card>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ChartCard
          title="Items per schema"
          testId="chart-items"
          chart={
            <BarChart
              maxBarWidth={56}
              h={220}
              data={items}
              dataKey="schema"
              series={[{ name: 'Items', color: 'violet.6' }]}
            />
          }
          table={{ columns: ['Schema', 'Items'], rows: items.map((r) => [r.schema, r.Items]) }}
        />
        <ChartCard
          title="Publish status per stage"
          testId="chart-status"
          chart={
            <BarChart
              maxBarWidth={56}
              h={220}
              data={status}
              dataKey="stage"
              type="stacked"
              withLegend
              series={[
                { name: 'Current', color: 'teal.6' },
                { name: 'Modified', color: 'orange.5' },
                { name: 'Not published', color: 'gray.4' },
              ]}
            />
          }
          table={{
            columns: ['Stage', 'Current', 'Modified', 'Not published'],
            rows: status.map((r) => [r.stage, r.Current, r.Modified, r['Not published']]),
          }}
        />
        <ChartCard
          title="Publishing, last 30 days"
          testId="chart-publishing"
          chart={
            <AreaChart
              h={220}
              data={publishing}
              dataKey="day"
              series={[{ name: 'Publishes', color: 'violet.6' }]}
              curveType="monotone"
            />
          }
          table={{ columns: ['Day', 'Publishes'], rows: s.publishing.map((r) => [r.day, r.count]) }}
        />
        <ChartCard
          title="Recent changes by member"
          testId="chart-changes"
          chart={
            changes.length ? (
              <BarChart
                maxBarWidth={56}
                h={220}
                data={changes}
                dataKey="member"
                series={[{ name: 'Versions', color: 'blue.6' }]}
              />
            ) : (
              <Text c="dimmed" size="sm">
                No changes in the last 30 days
              </Text>
            )
          }
          table={{ columns: ['Member', 'Versions saved'], rows: changes.map((r) => [r.member, r.Versions]) }}
        />
        <ChartCard
          title="Approvals waiting per role"
          testId="chart-approvals"
          chart={
            approvals.length ? (
              <BarChart
                maxBarWidth={56}
                h={220}
                data={approvals}
                dataKey="role"
                series={[{ name: 'Waiting', color: 'grape.6' }]}
              />
            ) : (
              <Group h={220} justify="center">
                <Text c="dimmed" size="sm">
                  No role must approve the schemas of this workspace
                </Text>
              </Group>
            )
          }
          table={{ columns: ['Role', 'Waiting'], rows: approvals.map((r) => [r.role, r.Waiting]) }}
        />
        {s.audienceSizes.length > 0 && (
          <ChartCard
            title="Audience sizes, last 30 days"
            testId="chart-audiences"
            chart={
              <LineChart
                h={220}
                data={sizes.rows.map((r) => ({ ...r, day: String(r.day).slice(5) }))}
                dataKey="day"
                withLegend
                connectNulls
                series={sizes.labels.map((name, i) => ({
                  name,
                  color: SERIES_COLORS[i % SERIES_COLORS.length],
                }))}
              />
            }
            table={{
              columns: ['Day', ...sizes.labels],
              rows: sizes.rows.map((r) => [String(r.day), ...sizes.labels.map((name) => r[name] ?? '—')]),
            }}
          />
        )}
      </SimpleGrid>
      <VisualisationCard workspaceId={workspace.id} canRefresh={workspace.__permissions.canManageWorkspace} />
    </Stack>
  );
}
