import { LineChart } from '@mantine/charts';
import type { WorkspaceStats } from '@shared/api/stats';
import { ChartCard } from '@web/components/chart-card';

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

export function AudienceSizesChart({ audiences }: { audiences: WorkspaceStats['audienceSizes'] }) {
  const sizes = audienceSizeRows(audiences);
  return (
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
  );
}
