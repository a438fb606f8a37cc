import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import type { CampaignResults } from '@shared/api/campaigns';
import { dayjs } from '@shared/time/dayjs';
import { ChartCard } from '../chart-card';

const hourLabel = (iso: string) => dayjs(iso).format('MMM D, h A');

/** Unique opens and clicks per hour since the send started, as a chart or as a table. */
export default function ResultsChart({ timeline }: { timeline: CampaignResults['timeline'] }) {
  const rows = timeline.map((point) => ({
    hour: hourLabel(point.at),
    Opens: point.opens,
    Clicks: point.clicks,
  }));
  return (
    <ChartCard
      title="Opens and clicks over time"
      testId="chart-engagement"
      chart={
        <AreaChart
          h={220}
          data={rows}
          dataKey="hour"
          withLegend
          curveType="monotone"
          series={[
            { name: 'Opens', color: 'blue.6' },
            { name: 'Clicks', color: 'teal.6' },
          ]}
        />
      }
      table={{
        columns: ['Hour', 'Opens', 'Clicks'],
        rows: rows.map((row) => [row.hour, row.Opens, row.Clicks]),
      }}
    />
  );
}
