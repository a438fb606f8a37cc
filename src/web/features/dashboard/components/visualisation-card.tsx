import { LineChart } from '@mantine/charts';
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { VISUALISATION_MESSAGES, VISUALISATION_SETTING, type VisualisationResult } from '@shared/api/stats';
import { SettingHint, settingOf } from '@web/components/setting-hint';
import { useRefreshVisualisation, useVisualisation } from '../api/visualisation';
import { ChartCard } from '@web/components/chart-card';

/** The numbers at the top level of a result: what the history chart can draw. */
function numericFields(result: unknown): Record<string, number> {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return {};
  return Object.fromEntries(
    Object.entries(result).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );
}

const COLORS = ['violet.6', 'teal.6', 'orange.6', 'blue.6', 'grape.6', 'red.6'];

/**
 * The spec's generic visualisation: the latest result and the history of results (charted by their
 * numeric fields). Not configured, it shows only to those who may fetch it (managers), with the
 * setting that switches it on.
 */
export function VisualisationCard({ workspaceId, canRefresh }: { workspaceId: string; canRefresh: boolean }) {
  const visualisation = useVisualisation(workspaceId);
  const refresh = useRefreshVisualisation(workspaceId);
  const data = visualisation.data;
  if (!data) return null;
  if (!data.configured) {
    // Switching it on is a manager's business; to anyone else the card would say only what they cannot do.
    if (!canRefresh) return null;
    return (
      <Alert
        color="gray"
        variant="light"
        py={6}
        title="Visualisation"
        data-testid="visualisation-not-configured"
      >
        {VISUALISATION_MESSAGES.notConfigured}
        <SettingHint setting={VISUALISATION_SETTING} isManager />
      </Alert>
    );
  }
  const refusedSetting = settingOf(refresh.error);
  const history = [...data.history].reverse();
  const fields = [
    ...new Set(history.flatMap((h: VisualisationResult) => Object.keys(numericFields(h.result)))),
  ];
  const points = history.map((h) => ({
    at: h.key.slice(5, 16).replace('T', ' '),
    ...numericFields(h.result),
  }));

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={600}>Visualisation</Text>
        {canRefresh && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={14} />}
            loading={refresh.isPending}
            onClick={() => refresh.mutate()}
          >
            Fetch now
          </Button>
        )}
      </Group>
      {refresh.error && (
        <Alert color="red" variant="light" py={6}>
          {refresh.error.message}
          {refusedSetting && <SettingHint setting={refusedSetting} isManager={canRefresh} />}
        </Alert>
      )}
      {data.latest ? (
        <ChartCard
          title={`Latest result · ${new Date(data.latest.key).toLocaleString()}`}
          testId="visualisation"
          chart={
            fields.length ? (
              <LineChart
                h={220}
                data={points}
                dataKey="at"
                withLegend
                series={fields.map((name, i) => ({ name, color: COLORS[i % COLORS.length] }))}
              />
            ) : (
              <Code block>{JSON.stringify(data.latest.result, null, 2)}</Code>
            )
          }
          table={{
            columns: ['Fetched', 'Result'],
            rows: data.history.map((h) => [h.key, JSON.stringify(h.result)]),
          }}
        />
      ) : (
        <Text c="dimmed" size="sm">
          No result fetched yet.
        </Text>
      )}
    </Stack>
  );
}
