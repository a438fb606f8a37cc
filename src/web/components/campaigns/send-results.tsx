import { lazy, Suspense } from 'react';
import { Anchor, Button, Card, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { CampaignResults } from '@shared/api/campaigns';
import { errorMessage } from '@web/lib/api-client';
import { useCanCustomerData } from '@web/lib/workspace';
import { sendPath } from './api/campaign-keys';
import { useCampaignResults } from './api/get-results';
import { ExperimentResults } from './experiment-results';
import { formatCount, formatRate } from './format';

/** Recharts loads only when results are shown: never with the item screen itself. */
const ResultsChart = lazy(() => import('./results-chart'));

function Tile({ label, value, detail }: { label: string; value: number; detail: string }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`result-${label.toLowerCase()}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {formatCount(value)}
      </Text>
      <Text size="xs" c="dimmed">
        {detail}
      </Text>
    </Paper>
  );
}

/** Delivered, opened, clicked, bounced and unsubscribed: counts, and rates of those delivered. */
function ResultTiles({ results }: { results: CampaignResults }) {
  const { counts, rates } = results;
  return (
    // The panel is narrower than the screen beside the activity column: its own width decides.
    <SimpleGrid type="container" cols={{ base: 2, '420px': 3, '760px': 5 }} spacing="xs">
      <Tile label="Delivered" value={counts.delivered} detail={`of ${formatCount(counts.recipients)}`} />
      <Tile label="Opened" value={counts.opened} detail={formatRate(rates.opened)} />
      <Tile label="Clicked" value={counts.clicked} detail={formatRate(rates.clicked)} />
      <Tile label="Bounced" value={counts.bounced} detail={formatRate(rates.bounced)} />
      <Tile label="Unsubscribed" value={counts.unsubscribed} detail={formatRate(rates.unsubscribed)} />
    </SimpleGrid>
  );
}

/** Each tracked link of the message: the people who clicked it, and all its clicks (repeats included). */
function LinkClicks({ links }: { links: CampaignResults['links'] }) {
  if (links.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No tracked links in this message.
      </Text>
    );
  const sorted = [...links].sort(
    (a, b) => b.people - a.people || b.totalClicks - a.totalClicks || a.idx - b.idx,
  );
  return (
    <Card withBorder radius="md" p={0}>
      <Table.ScrollContainer minWidth={420}>
        <Table verticalSpacing={6} fz="sm" aria-label="Clicks per link">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Link</Table.Th>
              <Table.Th ta="right">People who clicked</Table.Th>
              <Table.Th ta="right">Total clicks</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((link) => (
              <Table.Tr key={link.idx}>
                <Table.Td style={{ maxWidth: 360, overflowWrap: 'anywhere' }}>
                  <Anchor href={link.url} target="_blank" rel="noopener noreferrer" size="sm">
                    {link.url}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{formatCount(link.people)}</Table.Td>
                <Table.Td ta="right">{formatCount(link.totalClicks)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** The download of a send's results per recipient (their addresses: members who may export customer data). */
function ExportResults({
  workspaceId,
  campaignId,
  sendId,
}: {
  workspaceId: string;
  campaignId: string;
  sendId: string;
}) {
  if (!useCanCustomerData(workspaceId, 'export')) return null;
  return (
    <Group justify="flex-end">
      <Button
        component="a"
        href={`${sendPath(workspaceId, campaignId, sendId)}/results.csv`}
        download
        size="compact-sm"
        variant="default"
        leftSection={<IconDownload size={14} aria-hidden />}
      >
        Export results (CSV)
      </Button>
    </Group>
  );
}

/**
 * The results of one send: an A/B test's comparison of its variants when the send is one of its, the counts and rates, opens and clicks over time, clicks per link, and the
 * download of each recipient's results.
 */
export function SendResults({
  workspaceId,
  campaignId,
  sendId,
}: {
  workspaceId: string;
  campaignId: string;
  sendId: string;
}) {
  const results = useCampaignResults(workspaceId, campaignId, sendId);
  if (results.error)
    return (
      <Text size="sm" c="red">
        {errorMessage(results.error)}
      </Text>
    );
  if (!results.data) return <Skeleton h={160} radius="md" />;
  return (
    <Stack gap="sm" data-testid="send-results">
      {results.data.experiment && <ExperimentResults results={results.data.experiment} />}
      <ExportResults workspaceId={workspaceId} campaignId={campaignId} sendId={sendId} />
      <ResultTiles results={results.data} />
      {results.data.timeline.length > 0 ? (
        <Suspense fallback={<Skeleton h={260} radius="md" />}>
          <ResultsChart timeline={results.data.timeline} />
        </Suspense>
      ) : (
        <Text size="sm" c="dimmed">
          No opens or clicks yet.
        </Text>
      )}
      <LinkClicks links={results.data.links} />
    </Stack>
  );
}
