import { AreaChart, BarChart } from '@mantine/charts';
import { Group, Text } from '@mantine/core';
import type { WorkspaceStats } from '@shared/api/stats';
import { ChartCard } from '@web/components/chart-card';
import { useContentModel } from '@web/lib/content-model';

/** A bar per row of `data`, one series whose values sit under `series`. */
function SingleSeriesBarChart({
  data,
  dataKey,
  series,
  color,
}: {
  data: Record<string, string | number>[];
  dataKey: string;
  series: string;
  color: string;
}) {
  return (
    <BarChart maxBarWidth={56} h={220} data={data} dataKey={dataKey} series={[{ name: series, color }]} />
  );
}

export function ItemsPerSchemaChart({ counts }: { counts: WorkspaceStats['itemsBySchema'] }) {
  const model = useContentModel();
  const items = counts.map((r) => ({
    schema: model.schema(r.schema)?.pluralTitle ?? r.schema,
    Items: r.count,
  }));
  return (
    <ChartCard
      title="Items per schema"
      testId="chart-items"
      chart={<SingleSeriesBarChart data={items} dataKey="schema" series="Items" color="violet.6" />}
      table={{ columns: ['Schema', 'Items'], rows: items.map((r) => [r.schema, r.Items]) }}
    />
  );
}

export function PublishStatusChart({ stages }: { stages: WorkspaceStats['publishStatus'] }) {
  const status = stages.map((r) => ({
    stage: r.label,
    Current: r.current,
    Modified: r.modified,
    'Not published': r.notPublished,
  }));
  return (
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
  );
}

export function PublishingChart({ days }: { days: WorkspaceStats['publishing'] }) {
  const publishing = days.map((r) => ({ day: r.day.slice(5), Publishes: r.count }));
  return (
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
      table={{ columns: ['Day', 'Publishes'], rows: days.map((r) => [r.day, r.count]) }}
    />
  );
}

export function ChangesByMemberChart({ members }: { members: WorkspaceStats['changesByMember'] }) {
  const changes = members.map((r) => ({ member: r.name || 'UNKNOWN USER', Versions: r.count }));
  return (
    <ChartCard
      title="Recent changes by member"
      testId="chart-changes"
      chart={
        changes.length ? (
          <SingleSeriesBarChart data={changes} dataKey="member" series="Versions" color="blue.6" />
        ) : (
          <Text c="dimmed" size="sm">
            No changes in the last 30 days
          </Text>
        )
      }
      table={{ columns: ['Member', 'Versions saved'], rows: changes.map((r) => [r.member, r.Versions]) }}
    />
  );
}

export function ApprovalsByRoleChart({ roles }: { roles: WorkspaceStats['approvals']['byRole'] }) {
  const approvals = roles.map((r) => ({ role: r.label, Waiting: r.count }));
  return (
    <ChartCard
      title="Approvals waiting per role"
      testId="chart-approvals"
      chart={
        approvals.length ? (
          <SingleSeriesBarChart data={approvals} dataKey="role" series="Waiting" color="grape.6" />
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
  );
}
