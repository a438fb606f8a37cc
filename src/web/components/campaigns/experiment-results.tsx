import { Alert, Badge, Card, Stack, Table, Text } from '@mantine/core';
import type { ExperimentResults as Results } from '@shared/api/campaigns';
import { formatDateTime } from '@web/lib/dates';
import { formatCount, formatRate } from './format';

type Row = Results['variants'][number];
type Interval = Row['rates']['opened'];

const RULES: Record<Results['winnerBy'], string> = {
  opens: 'open rate',
  clicks: 'click rate',
  conversion: 'conversion rate',
};

/** 12.3% (8.1–17.9%): the rate and its 95% interval. */
function RateCell({ count, interval }: { count: number; interval: Interval }) {
  return (
    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
      <Text size="sm" span>
        {formatCount(count)} · {formatRate(interval.rate)}
      </Text>
      <Text size="xs" c="dimmed">
        {formatRate(interval.low)}–{formatRate(interval.high)}
      </Text>
    </Table.Td>
  );
}

function VariantRow({
  row,
  label,
  isWinner,
  hasConversion,
}: {
  row: Row;
  label: string;
  isWinner: boolean;
  hasConversion: boolean;
}) {
  return (
    <Table.Tr data-testid={`variant-result-${row.key}`}>
      <Table.Td>
        <Text size="sm" fw={600} span>
          {label}
        </Text>{' '}
        {isWinner && (
          <Badge size="xs" color="teal" variant="light">
            winner
          </Badge>
        )}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {row.subject} · {row.fromName}
        </Text>
      </Table.Td>
      <Table.Td ta="right">{formatCount(row.recipients)}</Table.Td>
      <Table.Td ta="right">{formatCount(row.delivered)}</Table.Td>
      <RateCell count={row.opened} interval={row.rates.opened} />
      <RateCell count={row.clicked} interval={row.rates.clicked} />
      {hasConversion && <RateCell count={row.converted} interval={row.rates.converted} />}
      {hasConversion && (
        <Table.Td ta="right">
          {row.lift === null ? '—' : `${row.lift >= 0 ? '+' : ''}${(row.lift * 100).toFixed(1)} pts`}
        </Table.Td>
      )}
    </Table.Tr>
  );
}

/** Where the test stands: the winner and why, or when it is picked, or that it was cancelled. */
function Verdict({ results }: { results: Results }) {
  if (results.state === 'decided')
    return (
      <Alert color="teal" title={`Variant ${results.winner} won`} data-testid="experiment-verdict">
        {results.reason}
      </Alert>
    );
  if (results.state === 'cancelled')
    return (
      <Alert color="gray" title="The A/B test was cancelled" data-testid="experiment-verdict">
        No winner was picked, and the rest of the audience got nothing.
      </Alert>
    );
  return (
    <Alert color="blue" title="Testing" data-testid="experiment-verdict">
      {results.decideAt
        ? `The winner by ${RULES[results.winnerBy]} is picked at ${formatDateTime(results.decideAt)}, then sent to the rest.`
        : `The variants go out when the send starts; the winner by ${RULES[results.winnerBy]} is picked ${results.waitHours} h later.`}
    </Alert>
  );
}

/**
 * A campaign A/B test's results: each variant's recipients, delivered, opened, clicked and converted
 * with rates and 95% intervals, the winner's send to the rest, the holdout's conversion and each
 * variant's lift over it, and which variant won and why.
 */
export function ExperimentResults({ results }: { results: Results }) {
  const hasConversion = results.conversionEvent !== null;
  const { holdout } = results;
  return (
    <Stack gap="sm" data-testid="experiment-results">
      <Text size="sm">
        {results.variants.length} variants on {results.testPercent}% of the audience
        {results.holdoutPercent > 0 && `, ${results.holdoutPercent}% held out`}; winner by{' '}
        {RULES[results.winnerBy]}
        {hasConversion && `, conversions of ${results.conversionEvent} within ${results.windowHours} h`}.
      </Text>
      <Verdict results={results} />
      <Card withBorder radius="md" p={0}>
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={6} fz="sm" aria-label="Variants compared">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Variant</Table.Th>
                <Table.Th ta="right">Recipients</Table.Th>
                <Table.Th ta="right">Delivered</Table.Th>
                <Table.Th ta="right">Opened</Table.Th>
                <Table.Th ta="right">Clicked</Table.Th>
                {hasConversion && <Table.Th ta="right">Converted</Table.Th>}
                {hasConversion && <Table.Th ta="right">Lift</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.variants.map((row) => (
                <VariantRow
                  key={row.key}
                  row={row}
                  label={`Variant ${row.key}`}
                  isWinner={row.key === results.winner}
                  hasConversion={hasConversion}
                />
              ))}
              {results.winnerSend && (
                <VariantRow
                  row={results.winnerSend}
                  label="Winner, to the rest"
                  isWinner={false}
                  hasConversion={hasConversion}
                />
              )}
              {holdout && (
                <Table.Tr data-testid="variant-result-holdout">
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      Holdout
                    </Text>
                    <Text size="xs" c="dimmed">
                      Sent nothing
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{formatCount(holdout.members)}</Table.Td>
                  <Table.Td ta="right">—</Table.Td>
                  <Table.Td ta="right">—</Table.Td>
                  <Table.Td ta="right">—</Table.Td>
                  {hasConversion && <RateCell count={holdout.converted} interval={holdout.rate} />}
                  {hasConversion && <Table.Td ta="right">—</Table.Td>}
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <Text size="xs" c="dimmed">
        Rates with their 95% confidence intervals (Wilson): opens and clicks of those delivered, conversions
        of the recipients. Lift is the conversion rate less the holdout&apos;s.
      </Text>
    </Stack>
  );
}
